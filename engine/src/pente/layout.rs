//! The layout of the Pente evaluation's weights: its tables, their sizes
//! and the tuner's bounds, apart from the evaluation so that the weight
//! registry can name it without depending on the evaluation.

use super::pattern::SHAPES;
use crate::eval::layout::{Bounds, Layout};
use std::sync::OnceLock;

/// Pairs whose capture counts are weighted (five pairs win).
pub const CAPTURED_PAIRS: usize = 5;

/// Index of the `own_shape` table: per line and candidate cell, the side to
/// move's shape (indexed by [`super::pattern::Shape`]).
pub const OWN_SHAPE: usize = 0;
/// Index of the `opp_shape` table: the same for the opponent (subtracted).
pub const OPP_SHAPE: usize = 1;
/// Index of the `captured` table: the value of having captured 0..=4 pairs
/// (the mover's count added, the opponent's subtracted).
pub const CAPTURED: usize = 2;
/// Index of the `capture_move` table: per capturable pair, for the side to
/// move, then for the opponent (subtracted: a vulnerable pair of the mover).
pub const CAPTURE_MOVE: usize = 3;

/// Largest shape weight: weight files hold `i16` values.
const SHAPE_MAX: i32 = i16::MAX as i32;
/// Bounds and tuner step of the shape tables.
const SHAPE_BOUNDS: Bounds = (0, SHAPE_MAX, 5);
/// Bounds and tuner step of the captured-pairs table.
const CAPTURED_BOUNDS: Bounds = (0, 5_000, 10);
/// Bounds and tuner step of the capture-move table.
const CAPTURE_MOVE_BOUNDS: Bounds = (0, 1_000, 5);

/// The layout of the Pente weights: one phase of the tables [`OWN_SHAPE`],
/// [`OPP_SHAPE`], [`CAPTURED`], [`CAPTURE_MOVE`] (built once, then shared).
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let mut layout = Layout::new(1);
        let own = layout.push("own_shape", SHAPES, SHAPE_BOUNDS);
        let opp = layout.push("opp_shape", SHAPES, SHAPE_BOUNDS);
        let captured = layout.push("captured", CAPTURED_PAIRS, CAPTURED_BOUNDS);
        let capture_move = layout.push("capture_move", 2, CAPTURE_MOVE_BOUNDS);
        debug_assert_eq!([own, opp, captured, capture_move], [OWN_SHAPE, OPP_SHAPE, CAPTURED, CAPTURE_MOVE]);
        layout
    })
}
