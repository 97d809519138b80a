//! The games' halves of a match, for the match runner (`selfplay`):
//! Reversi's and Pente's [`GameProtocol`](selfplay::protocol::GameProtocol)s
//! (start, file protocol, flattened form, scoring, players), their balanced
//! suites, and their entries in the programs' registry ([`REVERSI`],
//! [`PENTE`]); with the tools only they have (`selfplay export --obf`,
//! `selfplay game-length`).

pub mod pente;
pub mod reversi;

#[cfg(test)]
mod tests;

pub use pente::{PENTE, PenteProtocol};
pub use reversi::{REVERSI, ReversiProtocol};
