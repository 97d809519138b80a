//! The line evaluation: open windows of four.
//!
//! A window is four cells in a row (horizontal, vertical, diagonal) on the
//! board. One that holds none of the opponent's discs is still open to the
//! player: it scores by how many of the player's discs it already holds
//! (1, 2 or 3). The side to move's open windows count for it, the
//! opponent's against it. Counting is bit-parallel: for each direction the
//! four shifted copies of a player's discs add up, bit-sliced, to the disc
//! count of the window that starts at every cell, and a population count
//! per class sums them; nothing loops over cells.
//!
//! Scores are in the engine's score units
//! ([`engine_core::eval::SCORE_PER_POINT`] per disc of a margin game); a win is
//! scored by the search itself ([`engine_core::search::SearchGame::WIN_LOSS`]),
//! and an evaluation stays far below [`MAX_EVAL`].

use crate::board::Position;
use engine_core::eval::Evaluator;

/// The value of an open window holding one of the player's discs.
pub const WINDOW_ONE: i32 = 1;
/// The value of an open window holding two.
pub const WINDOW_TWO: i32 = 4;
/// The value of an open window holding three (a threat of four).
pub const WINDOW_THREE: i32 = 16;
/// The value of moving: the side to move is a tempo ahead.
pub const TEMPO: i32 = 2;
/// No evaluation reaches this (the standard board has 69 windows).
pub const MAX_EVAL: i32 = 10_000;

/// Open windows of a player by the number of its discs in them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowCounts {
    /// Open windows with exactly one of the player's discs.
    pub ones: u32,
    /// With exactly two.
    pub twos: u32,
    /// With exactly three.
    pub threes: u32,
}

impl WindowCounts {
    /// The counts' value under the window weights.
    pub const fn value(self) -> i32 {
        WINDOW_ONE * self.ones as i32 + WINDOW_TWO * self.twos as i32 + WINDOW_THREE * self.threes as i32
    }
}

/// The open windows of the player holding `own` when the other holds
/// `theirs`, on a board of `board` cells with columns of `stride` bits.
#[inline(always)]
pub fn window_counts(own: u64, theirs: u64, board: u64, stride: u32) -> WindowCounts {
    let free = board & !theirs;
    let mut counts = WindowCounts::default();
    for s in [1, stride, stride - 1, stride + 1] {
        // Windows (by their first cell) whose four cells are all free.
        let open = free & (free >> s) & (free >> (2 * s)) & (free >> (3 * s));
        let (a, b, c, d) = (own, own >> s, own >> (2 * s), own >> (3 * s));
        // The window's disc count, bit-sliced: a + b + c + d = 4 * bit2 + 2 * bit1 + bit0.
        let (ab_sum, ab_carry) = (a ^ b, a & b);
        let (cd_sum, cd_carry) = (c ^ d, c & d);
        let bit0 = ab_sum ^ cd_sum;
        let low_carry = ab_sum & cd_sum;
        let bit1 = ab_carry ^ cd_carry ^ low_carry;
        let bit2 = (ab_carry & cd_carry) | (low_carry & (ab_carry ^ cd_carry));
        let open = open & !bit2;
        counts.ones += (open & bit0 & !bit1).count_ones();
        counts.twos += (open & !bit0 & bit1).count_ones();
        counts.threes += (open & bit0 & bit1).count_ones();
    }
    counts
}

/// The line evaluation with the weights above.
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowEval;

impl WindowEval {
    /// The open-window counts of the side to move and of the opponent.
    pub fn counts(pos: &Position) -> [WindowCounts; 2] {
        let size = pos.size();
        let (board, stride) = (size.board_mask(), size.stride());
        [
            window_counts(pos.own(), pos.opponent(), board, stride),
            window_counts(pos.opponent(), pos.own(), board, stride),
        ]
    }
}

impl Evaluator<Position> for WindowEval {
    type Trail = ();

    /// The side to move's open windows less the opponent's, plus the tempo.
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        let [own, theirs] = WindowEval::counts(pos);
        own.value() - theirs.value() + TEMPO
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Column, Size};
    use engine_core::game::Game;

    fn pos(size: Size, moves: &str) -> Position {
        Position::from_moves(size, moves).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The windows counted cell by cell: the reference for the bit-sliced count.
    fn slow_counts(p: &Position, own: u64, theirs: u64) -> WindowCounts {
        let size = p.size();
        let (w, h) = (size.width() as i32, size.height() as i32);
        let mut counts = WindowCounts::default();
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for c in 0..w {
                for r in 0..h {
                    let cells: Vec<(i32, i32)> = (0..4).map(|k| (c + k * dc, r + k * dr)).collect();
                    if cells.iter().any(|&(c, r)| !(0..w).contains(&c) || !(0..h).contains(&r)) {
                        continue;
                    }
                    let bits = cells.iter().map(|&(c, r)| size.cell(Column::new(c as usize), r as usize));
                    let bits: Vec<u64> = bits.collect();
                    if bits.iter().any(|&b| theirs & b != 0) {
                        continue;
                    }
                    match bits.iter().filter(|&&b| own & b != 0).count() {
                        1 => counts.ones += 1,
                        2 => counts.twos += 1,
                        3 => counts.threes += 1,
                        _ => {}
                    }
                }
            }
        }
        counts
    }

    #[test]
    fn empty_standard_board_has_69_open_windows_and_no_discs() {
        let p = Position::default();
        let size = p.size();
        // 24 horizontal, 21 vertical, 12 + 12 diagonal.
        let all = size.board_mask();
        let counts = window_counts(all, 0, all, size.stride());
        assert_eq!(counts, WindowCounts::default(), "four discs are not counted");
        assert_eq!(WindowEval.evaluate(&p), TEMPO);
        let one = pos(size, "4");
        // d1 lies on 1 vertical, 4 horizontal and 1 + 1 diagonal windows.
        assert_eq!(WindowEval::counts(&one)[1], WindowCounts { ones: 7, twos: 0, threes: 0 });
    }

    #[test]
    fn bit_sliced_counts_match_the_cell_by_cell_count() {
        let sizes = [Size::STANDARD, Size::new(4, 4).unwrap(), Size::new(8, 7).unwrap(), Size::new(5, 3).unwrap()];
        let mut seed = 0x1234_5678_u64;
        for size in sizes {
            for _ in 0..200 {
                let mut p = Position::new(size);
                let plies = (engine_core::mix::splitmix64(seed) % size.cells() as u64) as usize;
                for _ in 0..plies {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed = engine_core::mix::splitmix64(seed);
                    p.make(moves[(seed % moves.len() as u64) as usize]);
                }
                let [own, theirs] = WindowEval::counts(&p);
                assert_eq!(own, slow_counts(&p, p.own(), p.opponent()), "{p:?}");
                assert_eq!(theirs, slow_counts(&p, p.opponent(), p.own()), "{p:?}");
                let v = WindowEval.evaluate(&p);
                assert!(v.abs() < MAX_EVAL);
                assert_eq!(WindowEval.evaluate(&p.mirror()), v, "mirror symmetry");
            }
        }
    }

    #[test]
    fn threes_count_for_the_side_that_holds_them() {
        // X to move holds a1-c1 (O on a2-b2): one open three (a1-d1).
        let p = pos(Size::STANDARD, "11223");
        let [o, x] = WindowEval::counts(&p);
        assert_eq!(x.threes, 1);
        assert_eq!(o.threes, 0);
        assert!(WindowEval.evaluate(&p) < 0, "O to move faces X's three");
    }
}
