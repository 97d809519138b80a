//! Rules, evaluation and search for Othello-family games (4x4 to 12x12,
//! Duo-Othello) and Pente.
//!
//! Layers, lowest first; each names only layers below it (checked by
//! `tests/layers.rs`):
//!
//! 1. [`bitboard`], `cpu` (code paths per CPU level), [`cputime`] (clocks),
//!    `memory` (huge-page arrays for the table and the weights), [`game`]
//!    (the trait every search sees);
//! 2. the rules: [`reversi`]'s geometry, positions, variants, text form,
//!    hashing, perft and stable discs; [`pente`]'s board and shapes;
//! 3. evaluation: [`eval`] (pattern and classic evaluations, the weight
//!    registry and files) and Pente's evaluation;
//! 4. [`search`]: the generic search and time plan, naming no game;
//! 5. each game's search glue beside its rules: `reversi::{search, endgame,
//!    ffo}`, `pente::{search, threats, length}`;
//! 6. players: [`agent`], `reversi::agents`, `pente::agents`, [`textbook`],
//!    [`reference`];
//! 7. [`protocol`]: the competition programs' file protocols; [`analysis`]:
//!    the `analyze` command's work; then the binaries in `src/bin`.

pub mod agent;
pub mod analysis;
pub mod bitboard;
pub(crate) mod cpu;
pub mod cputime;
pub mod eval;
pub mod game;
mod memory;
pub mod mix;
pub mod pente;
pub mod protocol;
pub mod reference;
pub mod reversi;
pub mod search;
pub mod textbook;

pub use cpu::{CODE_PATH_VARIABLE, code_path_name, has_avx512_path, has_fast_path};
