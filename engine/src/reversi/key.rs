//! Zobrist hashing of Reversi positions.
//!
//! Every (colour, cell) pair has a fixed random key; a position's hash is the
//! XOR of the keys of its discs, plus [`SIDE_KEY`] when White is to move. The
//! keys of each group of eight cells are pre-combined into 256-entry tables,
//! so hashing a set of cells costs one lookup per byte instead of one per
//! disc, and the incremental update after a move (placed cell and flips) is
//! the same function applied to the changed cells.

use super::geometry::Geometry;
use crate::bitboard::BitSet;
use crate::game::Color;
use crate::mix::splitmix64;

/// Largest number of cells on any supported board (12x12).
const MAX_CELLS: usize = 144;
/// Byte-wide groups of cells needed to cover [`MAX_CELLS`].
const CHUNKS: usize = MAX_CELLS.div_ceil(8);

/// Key XORed in when White is to move.
pub const SIDE_KEY: u64 = splitmix64(0x5eed_0000_0000_0001);

/// The key of one disc of `color` on `cell`.
pub const fn cell_key(color: Color, cell: usize) -> u64 {
    splitmix64(((color as u64 + 1) << 32) | cell as u64)
}

/// `TABLES[color][chunk][byte]`: XOR of the keys of the cells `8 * chunk + i`
/// for every bit `i` set in `byte`.
static TABLES: [[[u64; 256]; CHUNKS]; 2] = build_tables();

const fn build_tables() -> [[[u64; 256]; CHUNKS]; 2] {
    let mut tables = [[[0u64; 256]; CHUNKS]; 2];
    let colors = [Color::Black, Color::White];
    let mut c = 0;
    while c < 2 {
        let mut chunk = 0;
        while chunk < CHUNKS {
            let mut byte = 1;
            while byte < 256 {
                // Extend the entry without the highest bit by that bit's key.
                let high = 7 - (byte as u8).leading_zeros() as usize;
                let rest = byte & !(1 << high);
                tables[c][chunk][byte] = tables[c][chunk][rest] ^ cell_key(colors[c], chunk * 8 + high);
                byte += 1;
            }
            chunk += 1;
        }
        c += 1;
    }
    tables
}

/// XOR of the keys of the discs of `color` on the cells of `set`.
#[inline(always)]
pub fn set_key<G: Geometry>(color: Color, set: G::Bits) -> u64 {
    let table = &TABLES[color.index()];
    let mut key = 0;
    for (chunk, bytes) in table.iter().enumerate().take(G::CELLS.div_ceil(8)) {
        let byte = (set.word(chunk / 8) >> (8 * (chunk % 8))) as u8;
        key ^= bytes[byte as usize];
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::geometry::{Size8, Size12};

    #[test]
    fn tables_equal_the_per_cell_definition() {
        let set = crate::bitboard::Bits([0x8100_0000_1234_0081]);
        let expected = set.iter().fold(0, |k, c| k ^ cell_key(Color::White, c));
        assert_eq!(set_key::<Size8>(Color::White, set), expected);
        let wide = <Size12 as Geometry>::ALL;
        let expected = wide.iter().fold(0, |k, c| k ^ cell_key(Color::Black, c));
        assert_eq!(set_key::<Size12>(Color::Black, wide), expected);
    }

    #[test]
    fn keys_are_distinct() {
        let mut keys: Vec<u64> =
            (0..MAX_CELLS).flat_map(|c| [cell_key(Color::Black, c), cell_key(Color::White, c)]).collect();
        keys.push(SIDE_KEY);
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 2 * MAX_CELLS + 1);
    }
}
