//! Reversi on every even board size from 4x4 to 12x12: geometry and bitboard
//! kernels, positions, variants, the text form, hashing, perft and stable
//! discs (the rules); then, on top of the shared search, the game's search
//! glue: its hooks and move ordering (`search`), the exact endgame solver
//! ([`endgame`]), the FFO test suite ([`ffo`]) and the engine as a player
//! ([`ReversiEngine`]).
//!
//! The rules are written once, generic over [`Geometry`]; each board size is
//! a separate monomorphised copy with constant shifts and masks.

/// Runs the generic check `$check::<G>()` on every board size (tests only;
/// defined before the modules so that each of them can use it).
#[cfg(test)]
macro_rules! on_every_size {
    ($check:ident) => {
        $check::<$crate::reversi::Size4>();
        $check::<$crate::reversi::Size6>();
        $check::<$crate::reversi::Size8>();
        $check::<$crate::reversi::Size10>();
        $check::<$crate::reversi::Size12>();
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
