//! The number of discs the last move of an 8x8 game flips, counted without
//! building the position after it: the exact solver's innermost step.
//!
//! With one empty cell every other cell of each line through it holds a
//! disc, so along a line the move flips the discs between the cell and the
//! nearest disc of the mover, on each side that has one. Each of the four
//! lines is gathered into one byte (the row by a shift, the column and the
//! diagonals by a multiplication that stacks their cells into the top byte,
//! ordered by row or by column) and the count is read from a table indexed
//! by the cell's place in that byte and the mover's discs on the line.

/// Side length of the board these tables serve.
pub const SIDE: usize = 8;
/// Every cell of the first column of an 8x8 board.
const FIRST_COLUMN: u64 = 0x0101_0101_0101_0101;
/// Multiplier that stacks a column's cells (shifted to the first column)
/// into the top byte, row `r` at bit `r`.
const COLUMN_TO_BYTE: u64 = 0x0102_0408_1020_4080;

/// `COUNTS[k][line]`: the discs flipped along a full line whose mover's discs
/// are the set bits of `line` by a move at place `k` (bit `k` clear).
static COUNTS: [[u8; 256]; SIDE] = counts();

/// The diagonal (`[0]`, down-right) and anti-diagonal (`[1]`, down-left)
/// through each cell, the cell included.
static DIAGONALS: [[u64; 64]; 2] = diagonals();

const fn counts() -> [[u8; 256]; SIDE] {
    let mut table = [[0u8; 256]; SIDE];
    let mut k = 0;
    while k < SIDE {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Upwards: the run of the opponent's discs ends at a mover's disc.
            let mut i = k + 1;
            while i < SIDE && line & (1 << i) == 0 {
                i += 1;
            }
            if i < SIDE {
                total += i - k - 1;
            }
            let mut i = k as isize - 1;
            while i >= 0 && line & (1 << i) == 0 {
                i -= 1;
            }
            if i >= 0 {
                total += k - i as usize - 1;
            }
            table[k][line] = total as u8;
            line += 1;
        }
        k += 1;
    }
    table
}

const fn diagonals() -> [[u64; 64]; 2] {
    let mut table = [[0u64; 64]; 2];
    let mut cell = 0;
    while cell < 64 {
        let (row, col) = ((cell / SIDE) as isize, (cell % SIDE) as isize);
        let mut other = 0;
        while other < 64 {
            let (r, c) = ((other / SIDE) as isize, (other % SIDE) as isize);
            if r - row == c - col {
                table[0][cell] |= 1 << other;
            }
            if r - row == col - c {
                table[1][cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    table
}

/// The cells of `set`, at most one per column, stacked into a byte by a
/// multiplication: column `c` at bit `c`.
#[inline(always)]
const fn by_column(set: u64) -> u8 {
    (set.wrapping_mul(FIRST_COLUMN) >> 56) as u8
}

/// The number of discs that a move on `cell`, the only empty cell of an
/// 8x8 board, flips for the side whose discs are `mover` (0: the move is
/// illegal).
#[inline(always)]
pub fn last_flip_count(mover: u64, cell: usize) -> u32 {
    let (row, col) = (cell / SIDE, cell % SIDE);
    let along_row = (mover >> (row * SIDE)) as u8;
    let along_column = (((mover >> col) & FIRST_COLUMN).wrapping_mul(COLUMN_TO_BYTE) >> 56) as u8;
    let along_diagonal = by_column(mover & DIAGONALS[0][cell]);
    let along_anti = by_column(mover & DIAGONALS[1][cell]);
    u32::from(COUNTS[col][along_row as usize])
        + u32::from(COUNTS[row][along_column as usize])
        + u32::from(COUNTS[col][along_diagonal as usize])
        + u32::from(COUNTS[col][along_anti as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Size8, flips};
    use engine_core::bitboard::BitSet;
    use proptest::prelude::*;

    proptest! {
        /// Against the general flip kernel, on boards with one empty cell.
        #[test]
        fn counts_what_the_flip_kernel_flips(discs in any::<u64>(), cell in 0usize..64) {
            let bit = 1u64 << cell;
            let mover = discs & !bit;
            let opponent = !discs & !bit;
            let expected = flips::<Size8>(cell, BitSet::from_words(&[mover]), BitSet::from_words(&[opponent])).count();
            prop_assert_eq!(last_flip_count(mover, cell), expected);
        }
    }

    #[test]
    fn a_corner_flips_the_whole_edge_and_diagonal() {
        // Mover on h1, a8 and h8; the opponent everywhere else but a1.
        let mover = (1 << 7) | (1 << 56) | (1 << 63);
        assert_eq!(last_flip_count(mover, 0), 6 * 3);
        // Nothing of the mover's on any line through a1: no flip.
        assert_eq!(last_flip_count(1 << 10, 0), 0);
    }
}
