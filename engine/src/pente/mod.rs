//! Pente on 19x19 with captures, under the rules of the competition handout
//! (`seeds/002`) as settled by PROTOCOLS.md.
//!
//! Dependencies run one way: [`board`] (rules, line keys) under [`pattern`]
//! (line-pattern tables) under [`threats`] (immediate wins, forcing moves,
//! VCF) and [`eval`] (pattern evaluation and its weight layout; the values
//! are in the shared weight files of [`crate::eval::weights`]); [`search`]
//! uses those through [`crate::game::Game`] and [`crate::eval::Evaluator`];
//! [`agents`] wraps the search and the reference
//! players as [`crate::agent::Agent`]s; [`io`] is the file protocol.

pub mod agents;
pub mod board;
pub mod eval;
pub mod io;
pub mod pattern;
pub mod search;
pub mod threats;

pub use agents::{MinimaxAgent, NearRandomAgent, PenteConfig, PenteEngine};
pub use board::{Cell, Position};
