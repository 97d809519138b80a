//! Reversi's half of a match, for the match runner (`selfplay`): its
//! [`GameProtocol`](selfplay::protocol::GameProtocol) (start, file
//! protocol, flattened form, scoring, players), its balanced suites, its
//! entry in the programs' registry ([`REVERSI`]), and the tool only it has
//! (`selfplay export --obf`).

pub mod reversi;

#[cfg(test)]
mod tests;

pub use reversi::{REVERSI, ReversiProtocol};
