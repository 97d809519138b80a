//! Pente on 19x19 with captures, under the rules of the competition handout
//! (`seeds/002`) as settled by PROTOCOLS.md.
//!
//! Dependencies run one way: [`pattern`] (line keys and line-pattern
//! tables) under [`board`] (rules, and the line counts it keeps from the
//! tables) under [`threats`] (immediate wins, forcing moves, VCF) and [`eval`]
//! (pattern evaluation; its weight tables are laid out in [`layout`] and
//! the values are in the shared weight files of [`crate::eval::weights`]); [`search`]
//! gives the shared search ([`engine_core::search`]) its Pente hooks (tactics,
//! move ordering, VCF at the root, the expected game length of [`length`]
//! for the time plan); [`agents`] puts the engine and the
//! reference players together as [`engine_core::agent::Agent`]s. The file
//! protocol is [`crate::protocol::pente`].

pub mod agents;
pub mod board;
pub mod eval;
pub mod layout;
pub mod length;
pub mod pattern;
pub mod search;
pub mod threats;

pub use agents::{NearRandomAgent, PenteEngine, PenteMinimax, pente_engine, pente_minimax};
pub use board::{Cell, PentePosition};
