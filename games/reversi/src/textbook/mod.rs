//! Reversi's side of the textbook programs: the hand-written evaluations
//! their cut-off searches use ([`corner_mobility`] for the interactive
//! game's H-MINIMAX, [`positional`] for the 8x8 traverse-log program). The
//! searches themselves and the agents built on them are generic, in
//! [`engine_core::textbook`].

pub mod corner_mobility;
pub mod positional;

pub use corner_mobility::CornerMobilityDiscs;

#[cfg(test)]
mod tests;
