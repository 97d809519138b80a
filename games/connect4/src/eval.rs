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
//! The evaluation is linear in its weights ([`crate::weights`]): per
//! phase of the game, a weight for each class of open windows (the side to
//! move's count less the opponent's), for the discs in the centre
//! column(s) and for the tempo. [`WindowEval::features`] gives those
//! counts, which the tuner fits.
//!
//! Scores are in the engine's score units
//! ([`engine_core::eval::SCORE_PER_POINT`] per disc of a margin game); a win is
//! scored by the search itself ([`engine_core::search::SearchGame::WIN_LOSS`]),
//! and an evaluation stays far below [`MAX_EVAL`].

use crate::board::{Column, Position};
use crate::weights::{
    CENTER, Connect4Weights, TABLE_COUNT, TEMPO, WEIGHTS, WINDOW_ONE, WINDOW_THREE, WINDOW_TWO, phase,
};
use engine_core::eval::Evaluator;
use engine_core::weights::{WeightKind, WeightSet};

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

/// The line evaluation under a weight set (by default the compiled-in one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowEval {
    weights: [i32; WEIGHTS],
}

impl Default for WindowEval {
    /// The compiled-in weights.
    fn default() -> Self {
        WindowEval::with_values(Connect4Weights.compiled())
    }
}

/// A position's features in one phase: `(weight index, multiplicity)` per
/// table, so that the evaluation is `Σ weight[index] * multiplicity`.
pub type Features = [(usize, i32); TABLE_COUNT];

impl WindowEval {
    /// The evaluation under `set` (checked against the layout).
    pub fn with_weights(set: &WeightSet<Connect4Weights>) -> Result<Self, String> {
        set.validate()?;
        Ok(WindowEval::with_values(&set.values))
    }

    /// The evaluation under the weights of a file in either form.
    pub fn from_file(path: &std::path::Path) -> Result<Self, String> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
        let set = if engine_core::weights::is_binary(&bytes) {
            WeightSet::<Connect4Weights>::parse_binary(&bytes, &shown)?
        } else {
            let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: expected a weights file"))?;
            WeightSet::parse(&text, &shown)?
        };
        WindowEval::with_weights(&set)
    }

    fn with_values(values: &[i16]) -> Self {
        WindowEval { weights: std::array::from_fn(|i| i32::from(values[i])) }
    }

    /// The features of `pos` (see [`Features`]).
    #[inline]
    pub fn features(pos: &Position) -> Features {
        let size = pos.size();
        let [own, theirs] = WindowEval::counts(pos);
        let diff = |a: u32, b: u32| a as i32 - b as i32;
        let centre =
            size.column_mask(Column::new(size.width() / 2)) | size.column_mask(Column::new((size.width() - 1) / 2));
        let centre_discs = diff((pos.own() & centre).count_ones(), (pos.opponent() & centre).count_ones());
        let base = phase(pos.plies(), size.cells()) * TABLE_COUNT;
        let mut features = [(0, 0); TABLE_COUNT];
        features[WINDOW_ONE] = (base + WINDOW_ONE, diff(own.ones, theirs.ones));
        features[WINDOW_TWO] = (base + WINDOW_TWO, diff(own.twos, theirs.twos));
        features[WINDOW_THREE] = (base + WINDOW_THREE, diff(own.threes, theirs.threes));
        features[CENTER] = (base + CENTER, centre_discs);
        features[TEMPO] = (base + TEMPO, 1);
        features
    }

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

    /// The weighted features: the side to move's open windows and centre
    /// discs less the opponent's, plus the tempo.
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        WindowEval::features(pos).iter().map(|&(i, m)| self.weights[i] * m).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Column, Size};
    use engine_core::game::Game;
    use engine_core::mix::SplitMix;
    use engine_core::playout::random_line;

    fn pos(size: Size, moves: &str) -> Position {
        Position::from_moves(size, moves).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A position of up to `max_plies` random moves (fewer when the game
    /// ends) on a `size` board.
    fn random_position(size: Size, max_plies: usize, rng: &mut SplitMix) -> Position {
        let plies = rng.below(max_plies) as u32;
        random_line(Position::new(size), plies, rng)
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
        let hand = WindowEval::with_weights(&crate::weights::hand_set()).unwrap();
        assert_eq!(hand.evaluate(&p), i32::from(crate::weights::HAND[TEMPO]));
        let one = pos(size, "4");
        // d1 lies on 1 vertical, 4 horizontal and 1 + 1 diagonal windows.
        assert_eq!(WindowEval::counts(&one)[1], WindowCounts { ones: 7, twos: 0, threes: 0 });
    }

    #[test]
    fn bit_sliced_counts_match_the_cell_by_cell_count() {
        let sizes = [Size::STANDARD, Size::new(4, 4).unwrap(), Size::new(8, 7).unwrap(), Size::new(5, 3).unwrap()];
        let mut rng = SplitMix(0x1234_5678);
        for size in sizes {
            for _ in 0..200 {
                let p = random_position(size, size.cells(), &mut rng);
                let [own, theirs] = WindowEval::counts(&p);
                assert_eq!(own, slow_counts(&p, p.own(), p.opponent()), "{p:?}");
                assert_eq!(theirs, slow_counts(&p, p.opponent(), p.own()), "{p:?}");
                let eval = WindowEval::default();
                let v = eval.evaluate(&p);
                assert!(v.abs() < MAX_EVAL);
                assert_eq!(eval.evaluate(&p.mirror()), v, "mirror symmetry");
            }
        }
    }

    #[test]
    fn the_hand_set_is_the_plain_window_count_and_no_weights_reach_the_bound() {
        // The hand-set weights: 1, 4 and 16 per open window of one, two and
        // three discs, both sides, plus 2 for the move, in every phase.
        let hand = WindowEval::with_weights(&crate::weights::hand_set()).unwrap();
        let (lo, hi, _) = crate::weights::WEIGHT_BOUNDS;
        let extremes = [lo, hi].map(|v| {
            let set = WeightSet { key: Connect4Weights, values: vec![v as i16; WEIGHTS] };
            WindowEval::with_weights(&set).unwrap()
        });
        let mut rng = SplitMix(7);
        for _ in 0..300 {
            let p = random_position(Size::STANDARD, 40, &mut rng);
            let (o, t) = (slow_counts(&p, p.own(), p.opponent()), slow_counts(&p, p.opponent(), p.own()));
            let d = |a: u32, b: u32| a as i32 - b as i32;
            let plain = d(o.ones, t.ones) + 4 * d(o.twos, t.twos) + 16 * d(o.threes, t.threes) + 2;
            assert_eq!(hand.evaluate(&p), plain, "{p:?}");
            for e in &extremes {
                assert!(e.evaluate(&p).abs() < MAX_EVAL, "{p:?}");
            }
        }
    }

    #[test]
    fn distinct_weights_weigh_each_phase_and_table_as_counted_cell_by_cell() {
        // Every weight distinct, so that a wrong phase, table or sign shows.
        let values: Vec<i16> = (0..WEIGHTS as i16).map(|i| 5 * i - 30).collect();
        let eval = WindowEval::with_weights(&WeightSet { key: Connect4Weights, values: values.clone() }).unwrap();
        let w = |i: usize| i32::from(values[i]);
        let mut rng = SplitMix(11);
        for _ in 0..300 {
            let p = random_position(Size::STANDARD, Size::STANDARD.cells(), &mut rng);
            let (o, t) = (slow_counts(&p, p.own(), p.opponent()), slow_counts(&p, p.opponent(), p.own()));
            let d = |a: u32, b: u32| a as i32 - b as i32;
            // The standard board's centre column is the fourth; its discs cell by cell.
            let centre: i32 = (0..Size::STANDARD.height())
                .map(|r| match p.at(Column::new(3), r) {
                    Some(c) if c == p.to_move() => 1,
                    Some(_) => -1,
                    None => 0,
                })
                .sum();
            // Three phases by the share of the 42 cells filled.
            let discs = (p.own() | p.opponent()).count_ones() as usize;
            let base = discs * 3 / 43 * 5;
            let expected = w(base) * d(o.ones, t.ones)
                + w(base + 1) * d(o.twos, t.twos)
                + w(base + 2) * d(o.threes, t.threes)
                + w(base + 3) * centre
                + w(base + 4);
            assert_eq!(eval.evaluate(&p), expected, "{p:?}");
        }
    }

    #[test]
    fn threes_count_for_the_side_that_holds_them() {
        // X to move holds a1-c1 (O on a2-b2): one open three (a1-d1).
        let p = pos(Size::STANDARD, "11223");
        let [o, x] = WindowEval::counts(&p);
        assert_eq!(x.threes, 1);
        assert_eq!(o.threes, 0);
        let hand = WindowEval::with_weights(&crate::weights::hand_set()).unwrap();
        assert!(hand.evaluate(&p) < 0, "O to move faces X's three");
    }
}
