//! Stable discs: discs that no sequence of moves can ever flip.
//!
//! A disc can only be flipped along one of the four lines through it (row,
//! column, two diagonals), and only when the line holds an empty cell. Along
//! each line a disc is safe when the line is full, or when one of its two
//! neighbours on that line is off the board or is a stable disc of its own
//! colour (flipping it would flip that neighbour too). A disc safe along all
//! four lines is stable. Starting from no stable disc, adding every disc
//! that the rule proves until nothing changes gives a subset of the truly
//! stable discs (the corners and the discs anchored on them, filled lines
//! and the discs resting on those), computed with whole-board shifts. Before
//! the first corner disc it reports none.

use super::geometry::{Geometry, corner_cells, first_column, last_column};
use engine_core::bitboard::BitSet;

/// One of the four lines through a cell: the shift to the next cell along it
/// and the columns a step may not land in (the step would wrap round an edge).
#[derive(Clone, Copy)]
enum Line {
    /// Along the row.
    Row,
    /// Along the column.
    Column,
    /// Down and to the right (and back).
    Diagonal,
    /// Down and to the left (and back).
    AntiDiagonal,
}

impl Line {
    const ALL: [Line; 4] = [Line::Row, Line::Column, Line::Diagonal, Line::AntiDiagonal];

    /// The cells one step forward (towards higher indices) from `set`.
    #[inline(always)]
    fn forward<G: Geometry>(self, set: G::Bits) -> G::Bits {
        self.forward_by::<G>(set, 1)
    }

    /// The cells one step back (towards lower indices) from `set`.
    #[inline(always)]
    fn back<G: Geometry>(self, set: G::Bits) -> G::Bits {
        self.back_by::<G>(set, 1)
    }

    /// The cells `k` steps forward from `set` along the line (`1 <= k < N`).
    #[inline(always)]
    fn forward_by<G: Geometry>(self, set: G::Bits, k: u32) -> G::Bits {
        let n = G::N as u32;
        let stepped = match self {
            Line::Row => shl_by::<G>(set, k) - first_columns::<G>(k),
            Line::Column => shl_by::<G>(set, n * k),
            Line::Diagonal => shl_by::<G>(set, (n + 1) * k) - first_columns::<G>(k),
            Line::AntiDiagonal => shl_by::<G>(set, (n - 1) * k) - last_columns::<G>(k),
        };
        // A step up may pass the last cell.
        stepped & G::ALL
    }

    /// The cells `k` steps back from `set` along the line (`1 <= k < N`).
    #[inline(always)]
    fn back_by<G: Geometry>(self, set: G::Bits, k: u32) -> G::Bits {
        let n = G::N as u32;
        match self {
            Line::Row => shr_by::<G>(set, k) - last_columns::<G>(k),
            Line::Column => shr_by::<G>(set, n * k),
            Line::Diagonal => shr_by::<G>(set, (n + 1) * k) - last_columns::<G>(k),
            Line::AntiDiagonal => shr_by::<G>(set, (n - 1) * k) - first_columns::<G>(k),
        }
    }

    /// The cells with a neighbour off the board on this line.
    #[inline(always)]
    fn border<G: Geometry>(self) -> G::Bits {
        let rows = first_row::<G>() | last_row::<G>();
        let columns = first_column::<G>() | last_column::<G>();
        match self {
            Line::Row => columns,
            Line::Column => rows,
            Line::Diagonal | Line::AntiDiagonal => rows | columns,
        }
    }

    /// The cells a disc is safe on along this line whatever its
    /// neighbours: the occupied cells of full lines and the border.
    #[inline(always)]
    fn safe<G: Geometry>(self, occupied: G::Bits) -> G::Bits {
        self.full::<G>(occupied) | self.border::<G>()
    }

    /// The occupied cells of `occupied` whose whole line is occupied.
    #[inline(always)]
    fn full<G: Geometry>(self, occupied: G::Bits) -> G::Bits {
        let mut open = G::ALL - occupied;
        // Spread the empty cells along the line by 1, 2, 4, ... steps each
        // way: after the spread by k they reach every cell within 2k - 1
        // steps, so the whole line once 2k > N - 1.
        let mut k = 1;
        while k < G::N as u32 {
            open |= self.forward_by::<G>(open, k) | self.back_by::<G>(open, k);
            k *= 2;
        }
        occupied - open
    }
}

/// The cells of the first `k` columns.
#[inline(always)]
fn first_columns<G: Geometry>(k: u32) -> G::Bits {
    widen(first_column::<G>(), k, G::Bits::shl)
}

/// The cells of the last `k` columns.
#[inline(always)]
fn last_columns<G: Geometry>(k: u32) -> G::Bits {
    widen(last_column::<G>(), k, G::Bits::shr)
}

/// The `k` columns from the edge column `edge` inwards, `inwards` being the
/// shift from one column to the next.
#[inline(always)]
fn widen<B: BitSet>(edge: B, k: u32, inwards: impl Fn(B, u32) -> B) -> B {
    let mut columns = edge;
    for _ in 1..k {
        columns |= inwards(columns, 1);
    }
    columns
}

/// The largest shift one word-wise shift of a bit set takes.
const MAX_WORD_SHIFT: u32 = 63;

/// `set` shifted towards higher indices by `bits` (any amount; bits that
/// pass the last word drop).
#[inline(always)]
fn shl_by<G: Geometry>(set: G::Bits, bits: u32) -> G::Bits {
    shift_by(set, bits, G::Bits::shl)
}

/// `set` shifted towards lower indices by `bits` (any amount).
#[inline(always)]
fn shr_by<G: Geometry>(set: G::Bits, bits: u32) -> G::Bits {
    shift_by(set, bits, G::Bits::shr)
}

/// `set` shifted by `bits` with `shift`, in steps of at most
/// [`MAX_WORD_SHIFT`] (what one word-wise shift takes).
#[inline(always)]
fn shift_by<B: BitSet>(mut set: B, mut bits: u32, shift: impl Fn(B, u32) -> B) -> B {
    while bits > 0 {
        let step = bits.min(MAX_WORD_SHIFT);
        set = shift(set, step);
        bits -= step;
    }
    set
}

/// The cells of the first row.
#[inline(always)]
fn first_row<G: Geometry>() -> G::Bits {
    G::ALL - G::ALL.shl(G::N as u32)
}

/// The cells of the last row.
#[inline(always)]
fn last_row<G: Geometry>() -> G::Bits {
    G::ALL - G::ALL.shr(G::N as u32)
}

/// Per line, the cells a disc is safe on whatever its neighbours: the
/// occupied cells of full lines and the cells at the board's border.
struct SafeCells<B>([B; 4]);

impl<B: BitSet> SafeCells<B> {
    /// The safe cells of a board whose occupied cells are `occupied`.
    #[inline(always)]
    fn new<G: Geometry<Bits = B>>(occupied: B) -> Self {
        // Written out rather than `Line::ALL.map(..)`, whose closure was
        // compiled apart from the per-CPU copy of the search that inlines
        // this (book: engine/kernels.md, "Per-CPU copies").
        SafeCells([
            Line::Row.safe::<G>(occupied),
            Line::Column.safe::<G>(occupied),
            Line::Diagonal.safe::<G>(occupied),
            Line::AntiDiagonal.safe::<G>(occupied),
        ])
    }

    /// The stable discs of `own`: grown from `seed` (none, or discs the
    /// rule proved stable in an earlier position of the game) to the fixed
    /// point.
    #[inline(always)]
    fn grow<G: Geometry<Bits = B>>(&self, own: B, seed: B) -> B {
        let mut stable = seed & own;
        loop {
            let mut next = own;
            for (line, &safe) in Line::ALL.iter().zip(&self.0) {
                next &= safe | line.forward::<G>(stable) | line.back::<G>(stable);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// True when the line rule can find no stable disc: without a corner disc,
/// one needs four full lines through it, rare enough to leave out (the
/// result stays a subset) and it makes the opening and most of the middle
/// game cost one test.
#[inline(always)]
fn none_possible<G: Geometry>(occupied: G::Bits) -> bool {
    (occupied & corner_cells::<G>()).is_empty()
}

/// The discs of `player` and of `opponent` that can never be flipped, as far
/// as the line rule above proves (a subset of the truly stable discs).
pub fn stable_discs<G: Geometry>(player: G::Bits, opponent: G::Bits) -> (G::Bits, G::Bits) {
    stable_discs_from::<G>(player, opponent, (G::Bits::EMPTY, G::Bits::EMPTY))
}

/// The same as [`stable_discs`], found faster from `seeds`: the discs of
/// `player` and of `opponent` that it returned for an earlier position of
/// the same game (the discs it proves stable stay stable and keep their
/// colour, and every later position proves them again, so growing from
/// them reaches the same fixed point in fewer rounds).
#[inline(always)]
pub fn stable_discs_from<G: Geometry>(
    player: G::Bits,
    opponent: G::Bits,
    seeds: (G::Bits, G::Bits),
) -> (G::Bits, G::Bits) {
    let occupied = player | opponent;
    if none_possible::<G>(occupied) {
        return (G::Bits::EMPTY, G::Bits::EMPTY);
    }
    debug_assert!(seeds.0 - player == G::Bits::EMPTY && seeds.1 - opponent == G::Bits::EMPTY, "a seed disc flipped");
    let safe = SafeCells::new::<G>(occupied);
    (safe.grow::<G>(player, seeds.0), safe.grow::<G>(opponent, seeds.1))
}

/// The discs of `own` that can never be flipped when the empty cells are
/// `empty` (one side of [`stable_discs`]).
pub fn stable_discs_of<G: Geometry>(own: G::Bits, empty: G::Bits) -> G::Bits {
    let occupied = G::ALL - empty;
    if none_possible::<G>(occupied) {
        return G::Bits::EMPTY;
    }
    SafeCells::new::<G>(occupied).grow::<G>(own, G::Bits::EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Size4, Size8, Size10, Size12, Variant};
    use proptest::prelude::*;

    /// The positions of a game of `variant` from its start, each move picked
    /// from the legal ones by the next of `choices`.
    fn play_out<G: Geometry>(variant: Variant, choices: &[u16]) -> Vec<Position<G>> {
        let mut pos: Position<G> = variant.start();
        let mut line = vec![pos];
        for &choice in choices {
            if pos.is_game_over() {
                break;
            }
            let moves = pos.move_list();
            pos = if moves.is_empty() { pos.pass() } else { pos.play(moves[choice as usize % moves.len()]) };
            line.push(pos);
        }
        line
    }

    /// Every disc the rule calls stable keeps its colour to the end of the
    /// game, and seeds the same finding in every later position.
    fn stable_discs_never_flip<G: Geometry>(variant: Variant, choices: &[u16]) {
        let line = play_out::<G>(variant, choices);
        for (k, pos) in line.iter().enumerate() {
            let (mine, theirs) = stable_discs::<G>(pos.player(), pos.opponent());
            assert!(mine - pos.player() == G::Bits::EMPTY && theirs - pos.opponent() == G::Bits::EMPTY);
            let (mover, other) = (pos.to_move(), pos.to_move().opponent());
            for later in &line[k..] {
                assert_eq!(mine - later.discs(mover), G::Bits::EMPTY, "a stable disc flipped");
                assert_eq!(theirs - later.discs(other), G::Bits::EMPTY, "a stable disc flipped");
                // Grown from this position's stable discs, a later position
                // finds what it finds from none.
                let seeds = if later.to_move() == mover { (mine, theirs) } else { (theirs, mine) };
                assert_eq!(
                    stable_discs_from::<G>(later.player(), later.opponent(), seeds),
                    stable_discs::<G>(later.player(), later.opponent()),
                    "seeded growth differs"
                );
            }
        }
    }

    /// The occupied cells of `occupied` whose whole line `line` is occupied,
    /// found by walking the line from each cell one cell at a time.
    fn full_by_walking<G: Geometry>(line: Line, occupied: G::Bits) -> G::Bits {
        let n = G::N as i64;
        let (dr, dc) = match line {
            Line::Row => (0, 1),
            Line::Column => (1, 0),
            Line::Diagonal => (1, 1),
            Line::AntiDiagonal => (1, -1),
        };
        let mut full = G::Bits::EMPTY;
        for cell in occupied.iter() {
            let (r, c) = (cell as i64 / n, cell as i64 % n);
            let walk_full = |sign: i64| {
                let (mut r, mut c) = (r + sign * dr, c + sign * dc);
                while (0..n).contains(&r) && (0..n).contains(&c) {
                    if !occupied.contains((r * n + c) as usize) {
                        return false;
                    }
                    (r, c) = (r + sign * dr, c + sign * dc);
                }
                true
            };
            if walk_full(1) && walk_full(-1) {
                full |= G::Bits::bit(cell);
            }
        }
        full
    }

    /// The full cells of every line agree with the walk, on a board filled
    /// cell by cell in the order `choices` gives (so that some lines fill).
    fn full_lines_match_the_walk<G: Geometry>(choices: &[u16]) {
        let cells: Vec<usize> = G::ALL.iter().collect();
        let mut occupied = G::Bits::EMPTY;
        for &choice in choices {
            occupied |= G::Bits::bit(cells[choice as usize % cells.len()]);
            for line in Line::ALL {
                assert_eq!(line.full::<G>(occupied), full_by_walking::<G>(line, occupied));
            }
        }
    }

    proptest! {
        #[test]
        fn full_lines_on_8x8_10x10_and_12x12(choices in proptest::collection::vec(any::<u16>(), 1..400)) {
            full_lines_match_the_walk::<Size8>(&choices);
            full_lines_match_the_walk::<Size10>(&choices);
            full_lines_match_the_walk::<Size12>(&choices);
        }

        #[test]
        fn stable_discs_never_flip_on_8x8(choices in proptest::collection::vec(any::<u16>(), 60..70)) {
            stable_discs_never_flip::<Size8>(Variant::Othello8, &choices);
        }

        #[test]
        fn stable_discs_never_flip_on_12x12(choices in proptest::collection::vec(any::<u16>(), 140..150)) {
            stable_discs_never_flip::<Size12>(Variant::Duo12, &choices);
        }

        #[test]
        fn stable_discs_never_flip_on_4x4(choices in proptest::collection::vec(any::<u16>(), 12..20)) {
            stable_discs_never_flip::<Size4>(Variant::Tiny4, &choices);
        }
    }

    #[test]
    fn one_side_grows_from_corners_and_full_lines() {
        use engine_core::bitboard::Bits;
        let b = |cells: &[usize]| cells.iter().fold(Bits::<1>::EMPTY, |s, &c| s | Bits::<1>::bit(c));
        // A lone corner is stable, and so are its neighbours along the edge;
        // b2 is not (a2 and c2 are empty), nor is a disc in the middle.
        let discs = b(&[0, 1, 2, 9, 27]);
        assert_eq!(stable_discs_of::<Size8>(discs, Size8::ALL - discs), b(&[0, 1, 2]));
        // With the whole first column filled too, b2 is held on every line.
        let discs = b(&[0, 1, 2, 8, 16, 9]);
        assert_eq!(stable_discs_of::<Size8>(discs, Size8::ALL - discs), discs);
        // Without the corner nothing is.
        let discs = b(&[1, 2, 9]);
        assert_eq!(stable_discs_of::<Size8>(discs, Size8::ALL - discs), Bits::<1>::EMPTY);
        // A full board: everything is stable.
        assert_eq!(stable_discs_of::<Size8>(b(&[5, 40]), Bits::<1>::EMPTY), b(&[5, 40]));
        // 12x12 corners on the far side.
        let wide = <Size12 as Geometry>::Bits::bit(143) | <Size12 as Geometry>::Bits::bit(142);
        assert_eq!(stable_discs_of::<Size12>(wide, Size12::ALL - wide), wide);
    }

    #[test]
    fn corners_edges_anchored_on_them_and_full_boards_are_stable() {
        let cell = |r: usize, c: usize| <Size8 as Geometry>::Bits::bit(r * 8 + c);
        // An own corner and a run of own edge discs from it; a lone opponent
        // edge disc is not stable, an X-square disc behind an own corner is
        // not (its column and anti-diagonal are open).
        let player = cell(0, 0) | cell(0, 1) | cell(0, 2) | cell(1, 1);
        let opponent = cell(0, 4);
        let (mine, theirs) = stable_discs::<Size8>(player, opponent);
        assert_eq!(mine, cell(0, 0) | cell(0, 1) | cell(0, 2));
        assert_eq!(theirs, <Size8 as Geometry>::Bits::EMPTY);
        // On a full board every disc is stable.
        let player = Size8::ALL - cell(3, 3);
        let (mine, theirs) = stable_discs::<Size8>(player, cell(3, 3));
        assert_eq!((mine, theirs), (player, cell(3, 3)));
    }
}
