//! Board geometry and the two bitboard kernels of Reversi: move generation
//! and flip computation, written once for every even size from 4 to 12.
//!
//! Cells are numbered row-major, `index = row * N + col`, with row 0 the top
//! line of the board text (row `1`) and col 0 the left column (`a`). A step in
//! one of the eight directions is a shift of the whole set by `1`, `N - 1`,
//! `N` or `N + 1` places; sets that walk horizontally or diagonally are first
//! masked to the inner columns, so no walk wraps around an edge.

use crate::bitboard::{BitSet, Bits};
use std::fmt::Debug;
use std::hash::Hash;

/// A square board size, fixed at compile time.
pub trait Geometry: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The bit set that holds one bit per cell.
    type Bits: BitSet;
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

/// One of the eight directions, as a shift of `AMOUNT(N)` places up (`UP`) or
/// down, with or without the inner-column mask.
#[derive(Clone, Copy)]
struct Direction {
    /// Offset from `N`: the shift is `N + offset` places (`offset` in -1..=1),
    /// or one place for the horizontal directions.
    vertical: bool,
    offset: isize,
    up: bool,
}

impl Direction {
    const fn amount(self, n: usize) -> u32 {
        if self.vertical { (n as isize + self.offset) as u32 } else { 1 }
    }

    /// True when walking this way can wrap around a side edge.
    const fn crosses_columns(self) -> bool {
        !self.vertical || self.offset != 0
    }
}

/// The eight directions: east, west, then south-west, south, south-east and
/// their opposites.
const DIRECTIONS: [Direction; 8] = [
    Direction { vertical: false, offset: 0, up: true },
    Direction { vertical: false, offset: 0, up: false },
    Direction { vertical: true, offset: -1, up: true },
    Direction { vertical: true, offset: 0, up: true },
    Direction { vertical: true, offset: 1, up: true },
    Direction { vertical: true, offset: -1, up: false },
    Direction { vertical: true, offset: 0, up: false },
    Direction { vertical: true, offset: 1, up: false },
];

/// Moves every member of `b` one step in direction `D`.
#[inline(always)]
fn step<G: Geometry, const D: usize>(b: G::Bits) -> G::Bits {
    let dir = DIRECTIONS[D];
    let n = dir.amount(G::N);
    if dir.up { b.shl(n) } else { b.shr(n) }
}

/// Opponent discs that a walk in direction `D` may pass over.
#[inline(always)]
fn walkable<G: Geometry, const D: usize>(opponent: G::Bits) -> G::Bits {
    if DIRECTIONS[D].crosses_columns() { opponent & G::INNER_COLUMNS } else { opponent }
}

/// Empty cells reached from `player` in direction `D` over at least one
/// opponent disc.
#[inline(always)]
fn moves_in<G: Geometry, const D: usize>(player: G::Bits, opponent: G::Bits, empty: G::Bits) -> G::Bits {
    let over = walkable::<G, D>(opponent);
    let mut run = step::<G, D>(player) & over;
    for _ in 0..G::N - 3 {
        run |= step::<G, D>(run) & over;
    }
    step::<G, D>(run) & empty
}

/// Opponent discs flipped in direction `D` by a disc placed on `placed`.
#[inline(always)]
fn flips_in<G: Geometry, const D: usize>(placed: G::Bits, player: G::Bits, opponent: G::Bits) -> G::Bits {
    let over = walkable::<G, D>(opponent);
    let mut run = step::<G, D>(placed) & over;
    for _ in 0..G::N - 3 {
        run |= step::<G, D>(run) & over;
    }
    if (step::<G, D>(run) & player).any() { run } else { G::Bits::EMPTY }
}

/// The legal moves of `player` against `opponent`: every empty cell from which
/// a straight line of one or more opponent discs ends on a player disc.
#[inline(always)]
pub fn legal_moves<G: Geometry>(player: G::Bits, opponent: G::Bits) -> G::Bits {
    let empty = G::ALL - (player | opponent);
    moves_in::<G, 0>(player, opponent, empty)
        | moves_in::<G, 1>(player, opponent, empty)
        | moves_in::<G, 2>(player, opponent, empty)
        | moves_in::<G, 3>(player, opponent, empty)
        | moves_in::<G, 4>(player, opponent, empty)
        | moves_in::<G, 5>(player, opponent, empty)
        | moves_in::<G, 6>(player, opponent, empty)
        | moves_in::<G, 7>(player, opponent, empty)
}

/// The opponent discs that `player` flips by placing a disc on the empty cell
/// `cell` (empty when the move is illegal; meaningless for an occupied cell).
#[inline(always)]
pub fn flips<G: Geometry>(cell: usize, player: G::Bits, opponent: G::Bits) -> G::Bits {
    let placed = G::Bits::bit(cell);
    flips_in::<G, 0>(placed, player, opponent)
        | flips_in::<G, 1>(placed, player, opponent)
        | flips_in::<G, 2>(placed, player, opponent)
        | flips_in::<G, 3>(placed, player, opponent)
        | flips_in::<G, 4>(placed, player, opponent)
        | flips_in::<G, 5>(placed, player, opponent)
        | flips_in::<G, 6>(placed, player, opponent)
        | flips_in::<G, 7>(placed, player, opponent)
}

/// Empty cells next to at least one disc of `discs` (potential mobility).
#[inline(always)]
pub fn neighbours<G: Geometry>(discs: G::Bits, empty: G::Bits) -> G::Bits {
    // A horizontal step that wraps lands in the opposite edge column (or past
    // the last cell): drop it before the vertical steps can carry it back.
    let east = step::<G, 0>(discs) & (G::ALL - first_column::<G>());
    let west = step::<G, 1>(discs) - last_column::<G>();
    let row = discs | east | west;
    (row | step::<G, 3>(row) | step::<G, 6>(row)) & empty
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
    step::<G, 0>(G::INNER_COLUMNS) - G::INNER_COLUMNS
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
