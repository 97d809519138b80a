//! Board geometry and the two bitboard kernels of Reversi: move generation
//! and flip computation, written once for every even size from 4 to 12.
//!
//! Cells are numbered row-major, `index = row * N + col`, with row 0 the top
//! line of the board text (row `1`) and col 0 the left column (`a`). A step in
//! one of the eight directions is a shift of the whole set by `1`, `N - 1`,
//! `N` or `N + 1` places; sets that walk horizontally or diagonally are first
//! masked to the inner columns, so no walk wraps around an edge. The kernels
//! walk the four lines through a cell at once (one lane of a [`Lanes::Four`]
//! each), once shifting up and once down, with Kogge-Stone fills, so no loop
//! runs per cell or per step.

use engine_core::bitboard::{BitSet, Bits, FourSets, Isa, Lanes, Portable};
use std::fmt::Debug;
use std::hash::Hash;

/// A square board size, fixed at compile time.
pub trait Geometry: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The bit set that holds one bit per cell.
    type Bits: BitSet + Lanes;
    /// Side length.
    const N: usize;
    /// Number of cells, `N * N`.
    const CELLS: usize = Self::N * Self::N;
    /// Every cell of the board.
    const ALL: Self::Bits;
    /// Every cell except those in the first and last column.
    const INNER_COLUMNS: Self::Bits;
}

/// Column letters, `a` first.
pub const COLUMN_LETTERS: &[u8; 12] = b"abcdefghijkl";

/// Builds the [`Bits`] mask of the cells of an `n`x`n` board, optionally
/// without the first and last columns.
const fn cell_mask<const W: usize>(n: usize, inner_only: bool) -> Bits<W> {
    let mut words = [0u64; W];
    let mut i = 0;
    while i < n * n {
        let col = i % n;
        if !inner_only || (col != 0 && col != n - 1) {
            words[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    Bits(words)
}

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $n:expr, $bits:ty, $mask:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
        pub struct $name;
        impl Geometry for $name {
            type Bits = $bits;
            const N: usize = $n;
            const ALL: $bits = $mask($n, false);
            const INNER_COLUMNS: $bits = $mask($n, true);
        }
    };
}

geometry!(
    /// 4x4 board (`tiny4`).
    Size4, 4, Bits<1>, cell_mask::<1>
);
geometry!(
    /// 6x6 board (`othello6`).
    Size6, 6, Bits<1>, cell_mask::<1>
);
geometry!(
    /// 8x8 board (`othello8`).
    Size8, 8, Bits<1>, cell_mask::<1>
);
geometry!(
    /// 10x10 board (`othello10`).
    Size10, 10, Bits<2>, cell_mask::<2>
);
geometry!(
    /// 12x12 board (`othello12`, `duo12`).
    Size12, 12, Bits<3>, cell_mask::<3>
);

/// The four lines through a cell as shift amounts: along the row (`1`), the
/// two diagonals (`N - 1`, `N + 1`) and the column (`N`). Shifting up walks
/// east, south-west, south-east and south; shifting down walks the opposite
/// ways.
const fn line_steps(n: usize) -> [u32; 4] {
    let n = n as u32;
    [1, n - 1, n + 1, n]
}

/// The four-lane form of the bit set of geometry `G`, computed with `I`.
type Four<G, I> = <<G as Geometry>::Bits as Lanes>::Four<I>;

/// The cells a walk along each line may pass over: the inner columns for
/// the lines that step sideways (so no walk wraps around an edge), every
/// cell for the column.
#[inline(always)]
fn walk_masks<G: Geometry, I: Isa>() -> Four<G, I> {
    Four::<G, I>::from_sets([G::INNER_COLUMNS, G::INNER_COLUMNS, G::INNER_COLUMNS, G::ALL])
}

/// Every lane moved `times` steps along its line, up (`UP`) or down.
#[inline(always)]
fn advance<G: Geometry, I: Isa, const UP: bool>(sets: Four<G, I>, times: u32) -> Four<G, I> {
    let n = line_steps(G::N).map(|step| step * times);
    if UP { sets.shl_each(n) } else { sets.shr_each(n) }
}

/// The walks over opponent discs along one direction of each lane's line:
/// the walkable discs, the discs that end a run of 2 and of 4 of them (the
/// Kogge-Stone propagators), and the discs reached from the player's discs.
#[derive(Clone, Copy)]
struct Walk<G: Geometry, I: Isa, const UP: bool> {
    over: Four<G, I>,
    run2: Four<G, I>,
    run4: Four<G, I>,
    reached: Four<G, I>,
}

impl<G: Geometry, I: Isa, const UP: bool> Walk<G, I, UP> {
    /// The longest run of discs strictly between two cells of one line.
    const LONGEST: usize = G::N - 2;

    /// The walks from `player` over `over` (with runs of at most 7 discs in
    /// `over` when `SHORT`).
    #[inline(always)]
    fn new<const SHORT: bool>(player: Four<G, I>, over: Four<G, I>) -> Self {
        let run2 = if Self::LONGEST > 1 { over & advance::<G, I, UP>(over, 1) } else { over };
        let run4 = if Self::LONGEST > 3 { run2 & advance::<G, I, UP>(run2, 2) } else { run2 };
        let mut walk = Walk { over, run2, run4, reached: over };
        walk.reached = walk.reach_runs::<SHORT>(player);
        walk
    }

    /// The cells of `over` reached from `from` by one or more steps, without
    /// leaving `over` (a Kogge-Stone occluded fill: runs of 1, then 3, then
    /// 7, then 4 more at a time, until the longest run is covered; only up
    /// to 7 when `SHORT`, where the caller knows no longer run exists).
    #[inline(always)]
    fn reach_runs<const SHORT: bool>(&self, from: Four<G, I>) -> Four<G, I> {
        let mut filled = from | (self.over & advance::<G, I, UP>(from, 1));
        let mut covered = 1;
        if covered < Self::LONGEST {
            filled |= self.run2 & advance::<G, I, UP>(filled, 2);
            covered = 3;
        }
        if covered < Self::LONGEST {
            filled |= self.run4 & advance::<G, I, UP>(filled, 4);
            covered = 7;
        }
        while !SHORT && covered < Self::LONGEST {
            filled |= self.run4 & advance::<G, I, UP>(filled, 4);
            covered += 4;
        }
        filled & self.over
    }
}

/// Everything both kernels need about one position, computed once: the
/// walks up and down the four lines from the player's discs. Moves, the
/// flips of any number of moves, and the same for the positions after them
/// are then cheap.
#[derive(Clone, Copy)]
pub struct Lines<G: Geometry, I: Isa> {
    empty: G::Bits,
    /// The player's discs in every lane.
    player: Four<G, I>,
    /// The opponent's discs in every lane.
    opponent: Four<G, I>,
    up: Walk<G, I, true>,
    down: Walk<G, I, false>,
}

impl<G: Geometry, I: Isa> Lines<G, I> {
    /// The lines of the position where `player` is to move against `opponent`.
    #[inline(always)]
    pub(crate) fn new(player: G::Bits, opponent: G::Bits) -> Self {
        let empty = G::ALL - (player | opponent);
        Self::from_lanes::<false>(empty, Four::<G, I>::splat(player), Four::<G, I>::splat(opponent))
    }

    /// The lines from the discs in every lane (`SHORT`: the opponent has
    /// no run of 8 or more discs in a line).
    #[inline(always)]
    fn from_lanes<const SHORT: bool>(empty: G::Bits, player: Four<G, I>, opponent: Four<G, I>) -> Self {
        let over = opponent & walk_masks::<G, I>();
        Lines { empty, player, opponent, up: Walk::new::<SHORT>(player, over), down: Walk::new::<SHORT>(player, over) }
    }

    /// The legal moves: empty cells one step past a walk from a player disc
    /// over one or more opponent discs.
    #[inline(always)]
    pub(crate) fn moves(&self) -> G::Bits {
        let up = advance::<G, I, true>(self.up.reached, 1);
        let down = advance::<G, I, false>(self.down.reached, 1);
        (up | down).union() & self.empty
    }

    /// The discs flipped by playing on the empty cell `cell`, one line per
    /// lane: those reached from `cell` walking one way that a player disc
    /// reaches walking back (over runs of at most 7 discs when `SHORT`).
    #[inline(always)]
    fn flips_by_line<const SHORT: bool>(&self, placed: Four<G, I>) -> Four<G, I> {
        (self.up.reach_runs::<SHORT>(placed) & self.down.reached)
            | (self.down.reach_runs::<SHORT>(placed) & self.up.reached)
    }

    /// The discs flipped by playing on the empty cell `cell`.
    #[inline(always)]
    pub(crate) fn flips(&self, cell: usize) -> G::Bits {
        self.flips_by_line::<false>(Four::<G, I>::splat(G::Bits::bit(cell))).union()
    }

    /// True when no line holds 8 or more cells in a row that are occupied or
    /// among `moves` (this position's moves). Then neither this position
    /// nor any position after one of `moves` has a run of more than 7 discs
    /// to walk over, and the walks stop after 7 steps (always true up to
    /// 9x9; on larger boards, until the middle game).
    #[inline(always)]
    pub(crate) fn short_runs(&self, moves: G::Bits) -> bool {
        if Walk::<G, I, true>::LONGEST <= 7 {
            return true;
        }
        let filled = (self.player | self.opponent | Four::<G, I>::splat(moves)) & walk_masks::<G, I>();
        let run2 = filled & advance::<G, I, true>(filled, 1);
        let run4 = run2 & advance::<G, I, true>(run2, 2);
        (run4 & advance::<G, I, true>(run4, 4)).union().is_empty()
    }

    /// The lines of the position after the player plays on `cell` (a legal
    /// move), with the opponent to move; the discs stay in vector registers.
    /// `SHORT` may be true only when [`Lines::short_runs`] is.
    #[inline(always)]
    pub(crate) fn play<const SHORT: bool>(&self, cell: usize) -> Self {
        let placed = Four::<G, I>::splat(G::Bits::bit(cell));
        let flips = self.flips_by_line::<SHORT>(placed).spread();
        let (player, opponent) = (self.opponent - flips, self.player | flips | placed);
        Self::from_lanes::<SHORT>(self.empty - G::Bits::bit(cell), player, opponent)
    }
}

/// The legal moves of `player` against `opponent`: every empty cell from which
/// a straight line of one or more opponent discs ends on a player disc.
#[inline(always)]
pub fn legal_moves<G: Geometry>(player: G::Bits, opponent: G::Bits) -> G::Bits {
    legal_moves_with::<G, Portable>(player, opponent)
}

/// [`legal_moves`] computed with instruction set `I`.
#[inline(always)]
pub(crate) fn legal_moves_with<G: Geometry, I: Isa>(player: G::Bits, opponent: G::Bits) -> G::Bits {
    Lines::<G, I>::new(player, opponent).moves()
}

/// The opponent discs that `player` flips by placing a disc on the empty cell
/// `cell` (empty when the move is illegal; meaningless for an occupied cell).
#[inline(always)]
pub fn flips<G: Geometry>(cell: usize, player: G::Bits, opponent: G::Bits) -> G::Bits {
    flips_with::<G, Portable>(cell, player, opponent)
}

/// [`flips`] computed with instruction set `I`.
#[inline(always)]
pub(crate) fn flips_with<G: Geometry, I: Isa>(cell: usize, player: G::Bits, opponent: G::Bits) -> G::Bits {
    Lines::<G, I>::new(player, opponent).flips(cell)
}

/// Empty cells next to at least one disc of `discs` (potential mobility).
#[inline(always)]
pub fn neighbours<G: Geometry>(discs: G::Bits, empty: G::Bits) -> G::Bits {
    // A horizontal step that wraps lands in the opposite edge column (or past
    // the last cell): drop it before the vertical steps can carry it back.
    let east = discs.shl(1) & (G::ALL - first_column::<G>());
    let west = discs.shr(1) - last_column::<G>();
    let row = discs | east | west;
    (row | row.shl(G::N as u32) | row.shr(G::N as u32)) & empty
}

/// The cells around one corner of the board that Reversi players judge
/// together: the corner, its X-square (the diagonal neighbour) and its two
/// C-squares (the neighbours on the edges).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CornerRegion<B> {
    /// The corner cell.
    pub corner: B,
    /// The diagonal neighbour of the corner.
    pub x_square: B,
    /// The two edge neighbours of the corner.
    pub c_squares: B,
}

/// The four corner regions of `G`'s board.
pub fn corner_regions<G: Geometry>() -> [CornerRegion<G::Bits>; 4] {
    let n = G::N;
    let cell = |r: usize, c: usize| G::Bits::bit(r * n + c);
    let last = n - 1;
    // (corner row, corner column, the row and column one step inwards)
    [(0, 0, 1, 1), (0, last, 1, last - 1), (last, 0, last - 1, 1), (last, last, last - 1, last - 1)].map(
        |(r, c, inner_r, inner_c)| CornerRegion {
            corner: cell(r, c),
            x_square: cell(inner_r, inner_c),
            c_squares: cell(r, inner_c) | cell(inner_r, c),
        },
    )
}

/// The four corners.
#[inline(always)]
pub fn corner_cells<G: Geometry>() -> G::Bits {
    let n = G::N;
    G::Bits::bit(0) | G::Bits::bit(n - 1) | G::Bits::bit(n * (n - 1)) | G::Bits::bit(n * n - 1)
}

/// The cells of column `a`.
#[inline(always)]
pub fn first_column<G: Geometry>() -> G::Bits {
    G::ALL - G::INNER_COLUMNS - last_column::<G>()
}

/// The cells of the last column.
#[inline(always)]
pub fn last_column<G: Geometry>() -> G::Bits {
    // One step east of the inner columns reaches columns 2..N; keep the last.
    G::INNER_COLUMNS.shl(1) - G::INNER_COLUMNS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(Size4::ALL.count(), 16);
        assert_eq!(Size6::INNER_COLUMNS.count(), 24);
        assert_eq!(Size8::ALL, Bits([u64::MAX]));
        assert_eq!(Size10::ALL.count(), 100);
        assert_eq!(Size12::INNER_COLUMNS.count(), 120);
        assert_eq!(first_column::<Size12>().count(), 12);
        assert!(first_column::<Size12>().contains(12));
        assert_eq!(last_column::<Size10>().count(), 10);
        assert!(last_column::<Size10>().contains(19));
    }
}
