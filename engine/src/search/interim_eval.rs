//! INTERIM stand-in evaluation for Reversi (mobility, potential mobility,
//! corners), used by the engine until the pattern evaluator of
//! [`crate::eval`] replaces it. Hand-set weights, not tuned.

use crate::bitboard::BitSet;
use crate::eval::{Evaluator, SCORE_PER_DISC};
use crate::game::Game;
use crate::reversi::{Geometry, Position, neighbours};

/// Value of one legal move more than the opponent.
const MOBILITY_WEIGHT: i32 = 40;
/// Value of one empty cell more next to the opponent's discs.
const POTENTIAL_WEIGHT: i32 = 12;
/// Value of one corner more.
const CORNER_WEIGHT: i32 = 350;
/// Value of one disc more on a cell diagonally next to an empty corner.
const X_SQUARE_WEIGHT: i32 = -120;

/// INTERIM: mobility + corners evaluation of Reversi positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct InterimEvaluator;

/// The four corners and, for each, its diagonal neighbour.
#[inline(always)]
fn corners<G: Geometry>() -> [(usize, usize); 4] {
    let n = G::N;
    [(0, n + 1), (n - 1, 2 * n - 2), (n * (n - 1), n * (n - 2) + 1), (n * n - 1, n * (n - 1) - 2)]
}

impl<G: Geometry> Evaluator<Position<G>> for InterimEvaluator {
    fn evaluate(&self, pos: &Position<G>) -> i32 {
        let mine = pos.moves();
        let theirs = pos.opponent_moves();
        if mine.is_empty() && theirs.is_empty() {
            return pos.final_score_for_mover() * SCORE_PER_DISC;
        }
        let empty = pos.empty();
        let (player, opponent) = (pos.player(), pos.opponent());
        let mut score = MOBILITY_WEIGHT * (mine.count() as i32 - theirs.count() as i32)
            + POTENTIAL_WEIGHT
                * (neighbours::<G>(opponent, empty).count() as i32 - neighbours::<G>(player, empty).count() as i32);
        for (corner, x) in corners::<G>() {
            if player.contains(corner) {
                score += CORNER_WEIGHT;
            } else if opponent.contains(corner) {
                score -= CORNER_WEIGHT;
            } else if player.contains(x) {
                score += X_SQUARE_WEIGHT;
            } else if opponent.contains(x) {
                score -= X_SQUARE_WEIGHT;
            }
        }
        score
    }
}
