//! Connect Four on the workspace's generic game engine, through the
//! `engine` crate's public traits alone.
//!
//! - [`board`]: the rules on a bitboard for any board up to 64 bits with its
//!   sentinel row (7x6 by default), the [`engine::game::Game`]
//!   implementation and the move-string text form (`4453`, 1-based
//!   columns);
//! - [`perft`]: move, position and game counts checked against published
//!   ones.

pub mod board;
pub mod perft;

pub use board::{Column, Position, Size};
