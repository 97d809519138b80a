//! Rules, evaluation and search for Othello-family games (4x4 to 12x12,
//! Duo-Othello) and Pente.
//!
//! Dependencies run one way: [`bitboard`] under [`reversi`] (rules); the
//! [`game`] trait is what every search sees, never the rules' internals.

pub mod agent;
pub mod bitboard;
pub(crate) mod cpu;
pub mod cputime;
pub mod eval;
pub mod game;
pub mod pente;
pub mod protocol;
pub mod reference;
pub mod reversi;
pub mod search;
pub mod textbook;

pub use cpu::{CODE_PATH_VARIABLE, code_path_name, has_avx512_path, has_fast_path};
