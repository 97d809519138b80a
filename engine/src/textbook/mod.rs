//! The textbook adversarial searches (AIMA's MINIMAX and ALPHA-BETA, full
//! depth or cut off with an evaluation), written once over the [`Game`]
//! trait for the course programs: exact counts of Max-Value/Min-Value calls
//! and an [`Observer`] that sees every node for traverse logs.
//!
//! These searches are deliberately plain (no move ordering, no tables); the
//! strong engine's search lives in [`engine_core::search`]. This module owns the
//! algorithms ([`search`]), the ways of valuing a tree that the programs use
//! ([`problems`]), agents built on them ([`agents`]) and the heuristic of
//! the depth-limited agent ([`heuristic`]).
//!
//! [`Game`]: engine_core::game::Game

pub mod agents;
pub mod heuristic;
pub mod positional;
pub mod problems;
pub mod search;

pub use agents::{AlphaBetaAgent, HMinimaxAgent, PerfectMinimax, SearchLimit};
pub use heuristic::Heuristic;
pub use problems::{Cutoff, ExactMargin, WinLossDraw};
pub use search::{INFINITY, Observer, Path, Problem, Step, TextbookResult, Visit, Window, alpha_beta, minimax};

#[cfg(test)]
mod tests;
