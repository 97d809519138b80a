//! Reversi (Othello-family games on every even board from 4x4 to 12x12,
//! Duo-Othello) on the game-free core (`engine_core`): its rules,
//! evaluations, endgame solver, search glue, players, file protocols and
//! programs. Pente and Connect Four are crates of their own beside it
//! (`games/`).
//!
//! Layers, lowest first; each names only layers below it and the core
//! (checked by `tests/layers.rs`):
//!
//! 1. the rules, written once generic over [`Geometry`] (each board size a
//!    separate monomorphised copy with constant shifts and masks): geometry
//!    and bitboard kernels, [`Position`], [`Variant`], the text form,
//!    hashing ([`key`]), [`perft`] and stable discs;
//! 2. evaluation: [`eval`] (pattern and classic evaluations, the weight
//!    registry and files), the textbook programs' evaluations
//!    ([`textbook`]) and the reference agent's ([`reference`]);
//! 3. the search glue beside the rules: the search hooks and move ordering,
//!    the exact [`endgame`] solver and its [`params`], the [`ffo`] test
//!    suite, the [`ggf`] game records;
//! 4. players: [`ReversiEngine`] and the named agents;
//! 5. [`protocol`]: the competition programs' file protocols; [`analysis`]:
//!    the `analyze` command's work; [`matches`]: Reversi's half of a match
//!    for the generic match runner (`selfplay`); [`tuning`]: its half of
//!    the generic tuner (the evaluation as a tuning model, the labelling
//!    search); then the binaries in `src/bin`.

/// Runs the generic check `$check::<G>()` on every board size (tests only;
/// defined before the modules so that each of them can use it).
#[cfg(test)]
macro_rules! on_every_size {
    ($check:ident) => {
        $check::<$crate::Size4>();
        $check::<$crate::Size6>();
        $check::<$crate::Size8>();
        $check::<$crate::Size10>();
        $check::<$crate::Size12>();
    };
}

mod agents;
pub mod endgame;
pub mod endgame_fit;
pub mod ffo;
mod geometry;
pub mod ggf;
pub mod key;
mod last_flip;
pub mod params;
mod perft;
mod position;
mod search;
mod stability;
mod text;
mod variant;

#[cfg(test)]
mod tests;

pub use agents::{CompiledGeometry, ReversiEngine, ReversiEvaluator, reversi_engine};
pub(crate) use geometry::legal_moves_with;
pub use geometry::{
    COLUMN_LETTERS, CornerRegion, Geometry, Size4, Size6, Size8, Size10, Size12, corner_cells, corner_regions,
    first_column, flips, last_column, legal_moves, neighbours,
};
pub use params::ReversiParams;
pub use perft::{MAX_DEPTH as MAX_PERFT_DEPTH, PerftCounts, perft};
pub use position::{MAX_MOVES, Move, Position, Scoring};
pub use stability::{stable_discs, stable_discs_from, stable_discs_of};
pub use text::{ParseError, disc_char, parse_rows, parse_side};
pub use variant::Variant;

pub mod analysis;
pub mod eval;
pub mod matches;
pub mod protocol;
pub mod reference;
pub mod textbook;
pub mod tuning;

#[cfg(test)]
mod search_tests;
