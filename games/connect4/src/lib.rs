//! Connect Four on the workspace's game-free core, through the
//! `engine-core` crate's public traits alone.
//!
//! - [`board`]: the rules on a bitboard for any board up to 64 bits with its
//!   sentinel row (7x6 by default; small boards are solved exactly in the
//!   tests), the [`engine_core::game::Game`] implementation and the move-string
//!   text form (`4453`, 1-based columns);
//! - [`search`]: the [`engine_core::search::SearchGame`] hooks (win/loss scoring,
//!   immediate wins and forced blocks as tactics, move ordering, the end of
//!   the game for exact searches);
//! - [`eval`]: the open-window evaluation ([`engine_core::eval::Evaluator`]),
//!   linear in the weights of [`weights`] (a core weight set, compiled in
//!   from `weights/connect4.bin`);
//! - [`agents`]: the engine as an [`engine_core::agent::Agent`], a random player
//!   and a game loop;
//! - [`perft`]: move, position and game counts checked against published
//!   ones;
//! - [`matches`]: the game's half of a `selfplay` match and its entry in
//!   the programs' registry;
//! - [`tuning`]: the game's half of the tuner ([`tuner::game::TuningGame`]).

pub mod agents;
pub mod board;
pub mod eval;
pub mod matches;
pub mod perft;
pub mod search;
pub mod tuning;
pub mod weights;

pub use agents::{Connect4Engine, engine, engine_at_depth, play, random_agent};
pub use board::{Column, Position, Size};
pub use eval::WindowEval;
