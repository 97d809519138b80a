//! The classic heuristic evaluation of Reversi: the rules of thumb of a
//! hand-written homework agent, not learnt from games. Corners, X- and
//! C-squares next to an empty corner, mobility, frontier discs, stable discs,
//! parity and, late, the disc count, each weighted by how far the game has
//! gone. It gives the project an opponent whose style the pattern evaluation
//! was not trained on (`classic` in `selfplay`, `--eval classic` in the
//! competition program).

use super::{Evaluator, SCORE_PER_DISC};
use crate::{CornerRegion, Geometry, Position, corner_regions, neighbours, stable_discs_from};
use engine_core::bitboard::BitSet;

/// Value of a corner disc, in [`SCORE_PER_DISC`] units.
const CORNER: i32 = 10 * SCORE_PER_DISC;
/// Value of an X-square disc (diagonal neighbour of an empty corner).
const X_SQUARE: i32 = -5 * SCORE_PER_DISC;
/// Value of a C-square disc (edge neighbour of an empty corner).
const C_SQUARE: i32 = -2 * SCORE_PER_DISC;
/// Value of a stable disc (besides its corner value).
const STABLE: i32 = 3 * SCORE_PER_DISC;
/// Value of a legal move more than the opponent, at the start and at the end.
const MOBILITY: (i32, i32) = (150, 50);
/// Value of a frontier disc (next to an empty cell), at the start and at the end.
const FRONTIER: (i32, i32) = (-60, -10);
/// Value of one more disc, at the end (none at the start, rising as the
/// square of the game's progress).
const DISC_LATE: i32 = SCORE_PER_DISC;
/// Value of having the last move in the game (odd empties), at the end.
const PARITY_LATE: i32 = 3 * SCORE_PER_DISC;
/// Fixed-point scale of the game's progress.
const PROGRESS_ONE: i32 = 1024;

/// The counts the classic rules of thumb read, each the mover's minus the
/// opponent's; the pattern evaluation reads them too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassicCounts {
    /// Corner discs.
    pub corners: i32,
    /// X-square discs whose corner is empty.
    pub x_squares: i32,
    /// C-square discs whose corner is empty.
    pub c_squares: i32,
    /// Stable discs ([`crate::stable_discs`]).
    pub stable: i32,
    /// Frontier discs (next to an empty cell).
    pub frontier: i32,
    /// Discs.
    pub discs: i32,
}

impl ClassicCounts {
    /// The counts of the mover's discs `me` against the opponent's `you`,
    /// with `G`'s corner regions `corners`; `stable_seeds` are stable discs
    /// of `me` and `you` known from an earlier position of the game, or none
    /// ([`stable_discs_from`]).
    #[inline(always)]
    pub fn of<G: Geometry>(
        corners: &[CornerRegion<G::Bits>; 4],
        me: G::Bits,
        you: G::Bits,
        stable_seeds: (G::Bits, G::Bits),
    ) -> Self {
        let empty = G::ALL - me - you;
        let diff = |set: G::Bits| (me & set).count() as i32 - (you & set).count() as i32;
        let mut counts = ClassicCounts::default();
        for region in corners {
            counts.corners += diff(region.corner);
            if (region.corner & empty).any() {
                counts.x_squares += diff(region.x_square);
                counts.c_squares += diff(region.c_squares);
            }
        }
        let (my_stable, your_stable) = stable_discs_from::<G>(me, you, stable_seeds);
        counts.stable = my_stable.count() as i32 - your_stable.count() as i32;
        // Discs next to an empty cell, both colours in one spread.
        let frontier = neighbours::<G>(empty, me | you);
        counts.frontier = (frontier & me).count() as i32 - (frontier & you).count() as i32;
        counts.discs = me.count() as i32 - you.count() as i32;
        counts
    }
}

/// The classic heuristic evaluation on geometry `G` (every board size).
#[derive(Clone, Debug)]
pub struct ClassicEval<G: Geometry> {
    corners: [CornerRegion<G::Bits>; 4],
    /// Discs on the board at the start (progress 0).
    start_discs: i32,
}

impl<G: Geometry> ClassicEval<G> {
    /// The evaluation for games that start with `start_discs` discs.
    pub fn new(start_discs: u32) -> Self {
        ClassicEval { corners: corner_regions::<G>(), start_discs: start_discs as i32 }
    }

    /// The weight `(start, end)` at `progress` (0..=[`PROGRESS_ONE`]).
    const fn blend((start, end): (i32, i32), progress: i32) -> i32 {
        (start * (PROGRESS_ONE - progress) + end * progress) / PROGRESS_ONE
    }
}

impl<G: Geometry> Evaluator<Position<G>> for ClassicEval<G> {
    type Trail = ();

    #[inline(always)]
    fn evaluate(&self, pos: &Position<G>) -> i32 {
        let (me, you) = (pos.player(), pos.opponent());
        let empties = pos.empty_count() as i32;
        let discs = G::CELLS as i32 - empties;
        let span = (G::CELLS as i32 - self.start_discs).max(1);
        let progress = ((discs - self.start_discs).max(0) * PROGRESS_ONE / span).min(PROGRESS_ONE);
        let counts = ClassicCounts::of::<G>(&self.corners, me, you, (G::Bits::EMPTY, G::Bits::EMPTY));
        let mobility = pos.moves().count() as i32 - pos.opponent_moves().count() as i32;
        let late = progress * progress / PROGRESS_ONE;
        let parity = if empties % 2 == 1 { 1 } else { -1 };
        CORNER * counts.corners
            + X_SQUARE * counts.x_squares
            + C_SQUARE * counts.c_squares
            + STABLE * counts.stable
            + Self::blend(MOBILITY, progress) * mobility
            + Self::blend(FRONTIER, progress) * counts.frontier
            + DISC_LATE * late / PROGRESS_ONE * counts.discs
            + PARITY_LATE * progress / PROGRESS_ONE * parity
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Size8, Variant};

    fn position(rows: &[&str]) -> Position<Size8> {
        let (black, white) = crate::parse_rows::<Size8>(&mut rows.iter().copied(), 1).unwrap();
        Position::from_discs(black, white, engine_core::game::Color::Black, crate::Scoring::PLAIN)
    }

    #[test]
    fn the_start_is_even_and_colour_symmetric() {
        let eval = ClassicEval::<Size8>::new(4);
        let start: Position<Size8> = Variant::Othello8.start();
        // Both sides have the same moves, discs and frontier at the start;
        // only parity (even empties: the opponent moves last) tilts it.
        assert_eq!(eval.evaluate(&start), 0);
        assert_eq!(eval.evaluate(&start.pass()), 0);
    }

    #[test]
    fn corners_are_good_and_x_squares_before_them_bad() {
        let eval = ClassicEval::<Size8>::new(4);
        let base = ["........", "........", "........", "...XO...", "...OX...", "........", "........", "........"];
        let mut corner = base;
        corner[0] = "X.......";
        let mut x_square = base;
        x_square[1] = ".X......";
        let (b, c, x) = (position(&base), position(&corner), position(&x_square));
        assert!(eval.evaluate(&c) > eval.evaluate(&b));
        assert!(eval.evaluate(&x) < eval.evaluate(&b));
        // The same positions from the other side: the sign flips.
        assert!(eval.evaluate(&c.pass()) < eval.evaluate(&b.pass()));
    }
}
