//! [`CornerMobilityDiscs`], the evaluation of the depth-limited textbook
//! agent (H-MINIMAX) on Reversi boards of every size: corners, mobility and
//! discs. Simple on purpose; the strong engine has its own tuned evaluation.

use crate::eval::{Evaluator, SCORE_PER_DISC};
use crate::{Geometry, Position};
use engine_core::bitboard::BitSet;

/// Value of owning a corner, in [`SCORE_PER_DISC`] units.
const CORNER: i32 = 8 * SCORE_PER_DISC;
/// Penalty for a disc diagonally next to an empty corner (an X-square).
const X_SQUARE: i32 = 4 * SCORE_PER_DISC;
/// Value of each legal move more than the opponent has.
const MOBILITY: i32 = SCORE_PER_DISC;
/// Value of each disc more than the opponent has, scaled by how full the
/// board is (discs matter little early and decide the game at the end).
const DISC: i32 = SCORE_PER_DISC;

/// Corners, X-squares next to empty corners, mobility and (late) discs, from
/// the side to move's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct CornerMobilityDiscs;

/// The four corners and their diagonal neighbours `(corner, x_square)`.
const fn corners<G: Geometry>() -> [(usize, usize); 4] {
    let n = G::N;
    [(0, n + 1), (n - 1, 2 * n - 2), (n * (n - 1), n * (n - 2) + 1), (n * n - 1, n * (n - 1) - 2)]
}

impl<G: Geometry> Evaluator<Position<G>> for CornerMobilityDiscs {
    type Trail = ();

    fn evaluate(&self, state: &Position<G>) -> i32 {
        let (own, other) = (state.player(), state.opponent());
        let mut score = 0;
        for (corner, x_square) in corners::<G>() {
            if own.contains(corner) {
                score += CORNER;
            } else if other.contains(corner) {
                score -= CORNER;
            } else if own.contains(x_square) {
                score -= X_SQUARE;
            } else if other.contains(x_square) {
                score += X_SQUARE;
            }
        }
        score += MOBILITY * (state.moves().count() as i32 - state.opponent_moves().count() as i32);
        let filled = G::CELLS as i32 - state.empty_count() as i32;
        let discs = own.count() as i32 - other.count() as i32;
        score + DISC * discs * filled / G::CELLS as i32
    }
}
