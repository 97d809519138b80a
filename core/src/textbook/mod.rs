//! The textbook adversarial searches (AIMA's MINIMAX and ALPHA-BETA, full
//! depth or cut off with an evaluation), written once over the [`Game`]
//! trait for the course programs and the graders' reference agents: exact
//! counts of Max-Value/Min-Value calls and an [`Observer`] that sees every
//! node for traverse logs.
//!
//! These searches are deliberately plain (no move ordering, no tables); the
//! strong engine's search lives in [`crate::search`]. This module owns the
//! algorithms ([`search`]), the ways of valuing a tree ([`problems`]), the
//! agents built on them ([`agents`]) and the graders' reference minimax
//! agent with its depth rule ([`reference`]). A game supplies only its
//! evaluations.
//!
//! [`Game`]: crate::game::Game

pub mod agents;
pub mod problems;
pub mod reference;
pub mod search;

pub use agents::{AlphaBetaAgent, HMinimaxAgent, PerfectMinimax, SearchLimit};
pub use problems::{Cutoff, DECISIVE, ExactMargin, WinLossDraw};
pub use reference::{ReferenceMinimax, TieBreak, reference_depth};
pub use search::{INFINITY, Observer, Path, Problem, Step, TextbookResult, Visit, Window, alpha_beta, minimax};
