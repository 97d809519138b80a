//! The game-free core of the engines: what every game's crate builds on,
//! naming no game.
//!
//! Layers, lowest first; each names only layers below it:
//!
//! 1. [`bitboard`] (fixed-width bit sets and the instruction sets of their
//!    four-lane kernels), [`cpu`] (code paths per CPU level), [`cputime`]
//!    (clocks), `memory` (huge-page arrays for tables and weights), [`mix`]
//!    (the one random generator and small hash);
//! 2. [`game`]: the trait every search sees; [`playout`]: seeded random
//!    play over it; [`eval`]: the evaluation
//!    contract and its score units; [`weights`]: weight layouts and the
//!    weight files of every game;
//! 3. [`agent`]: the player contract (agents, clocks, decisions);
//!    [`textbook`]: AIMA's plain searches, their agents and the graders'
//!    reference agent;
//! 4. [`search`]: the generic search, its time plan, Multi-ProbCut and the
//!    parameter registry.
//!
//! A game's crate implements [`game::Game`], [`search::SearchGame`] and an
//! [`eval::Evaluator`] beside its rules, and plays through
//! [`search::Engine`].

pub mod agent;
pub mod bitboard;
pub mod cpu;
pub mod cputime;
pub mod eval;
pub mod game;
pub mod memory;
pub mod mix;
pub mod playout;
pub mod search;
#[cfg(test)]
mod testing;
pub mod textbook;
pub mod weights;

pub use cpu::{CODE_PATH_VARIABLE, code_path_name, has_avx512_path, has_fast_path};
