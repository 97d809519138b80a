//! The transposition key of a Reversi position.
//!
//! The key folds the words of the mover's and the opponent's disc sets
//! through 64 x 64 -> 128-bit multiplications (the high and low halves
//! XORed, as wyhash mixes), chained from a seed that names the side to
//! move. A key costs one multiplication per word and reads no table, so the
//! search can compute a child's key early to prefetch its table bucket.
//! Positions differ when their side to move or either disc set differs; the
//! search stores the whole key beside each entry, so a collision needs two
//! such positions with the same 64 bits.

use super::geometry::Geometry;
use engine_core::bitboard::BitSet;
use engine_core::game::Color;
use engine_core::mix::splitmix64;

/// Words of the largest board's disc sets (12x12: 144 cells).
const MAX_WORDS: usize = 3;

/// The chain's seed, by [`Color::index`] of the side to move.
const SIDE_SEEDS: [u64; 2] = [splitmix64(0x5eed_0000_0000_0001), splitmix64(0x5eed_0000_0000_0002)];
/// Mixed into the mover's word `i` before its multiplication.
const MOVER_KEYS: [u64; MAX_WORDS] =
    [splitmix64(0x6d6f_7665_7200), splitmix64(0x6d6f_7665_7201), splitmix64(0x6d6f_7665_7202)];
/// Mixed into the opponent's word `i` before its multiplication.
const OPPONENT_KEYS: [u64; MAX_WORDS] =
    [splitmix64(0x6f70_706f_6e00), splitmix64(0x6f70_706f_6e01), splitmix64(0x6f70_706f_6e02)];
/// The last multiplier: spreads every input bit over the key's high half,
/// where the table takes its bucket index.
const FINAL_KEY: u64 = splitmix64(0x6669_6e61_6c00) | 1;

/// The high and low words of `a * b` XORed.
#[inline(always)]
const fn fold_mul(a: u64, b: u64) -> u64 {
    let product = a as u128 * b as u128;
    product as u64 ^ (product >> 64) as u64
}

/// The key of the position with `mover` to move, holding `player`, against
/// `opponent`.
#[inline(always)]
pub fn key<G: Geometry>(mover: Color, player: G::Bits, opponent: G::Bits) -> u64 {
    let mut h = SIDE_SEEDS[mover.index()];
    for i in 0..<G::Bits as BitSet>::WORDS {
        h = fold_mul(player.word(i) ^ MOVER_KEYS[i] ^ h, opponent.word(i) ^ OPPONENT_KEYS[i]);
    }
    fold_mul(h, FINAL_KEY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Size4, Size8, Size12};
    use crate::position::Position;
    use crate::variant::Variant;
    use engine_core::mix::SplitMix;
    use engine_core::playout::random_playout;
    use std::collections::HashMap;

    /// The positions of `games` random games, with their keys.
    fn keys_of_games<G: Geometry>(variant: Variant, games: usize, seed: u64) -> HashMap<(u8, Vec<u64>), u64> {
        let mut rng = SplitMix(seed);
        let mut keys = HashMap::new();
        for _ in 0..games {
            random_playout(variant.start(), &mut rng, |pos: &Position<G>| {
                let words =
                    (0..<G::Bits as BitSet>::WORDS).flat_map(|i| [pos.player().word(i), pos.opponent().word(i)]);
                keys.insert((pos.to_move().index() as u8, words.collect()), pos.hash());
                true
            });
        }
        keys
    }

    /// Distinct positions get distinct keys, and the keys' bucket bits
    /// (32 and up, as the table takes them) fill 256 bins evenly: a
    /// chi-square with 255 degrees of freedom below its 0.1% point, 330.5.
    fn keys_are_distinct_and_even<G: Geometry>(variant: Variant, games: usize) {
        let keys = keys_of_games::<G>(variant, games, 7);
        let mut values: Vec<u64> = keys.values().copied().collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), keys.len(), "{variant}: two positions share a key");
        let mut bins = [0f64; 256];
        for v in &values {
            bins[(v >> 32) as usize & 255] += 1.0;
        }
        let expected = values.len() as f64 / 256.0;
        let chi2: f64 = bins.iter().map(|b| (b - expected).powi(2) / expected).sum();
        assert!(chi2 < 330.5, "{variant}: chi-square {chi2:.1} over {} keys", values.len());
    }

    #[test]
    fn distinct_positions_get_distinct_evenly_spread_keys() {
        keys_are_distinct_and_even::<Size4>(Variant::Tiny4, 20_000);
        keys_are_distinct_and_even::<Size8>(Variant::Othello8, 1_000);
        keys_are_distinct_and_even::<Size12>(Variant::Duo12, 300);
    }

    #[test]
    fn the_side_to_move_is_part_of_the_key() {
        let start: Position<Size8> = Variant::Othello8.start();
        let (p, o) = (start.player(), start.opponent());
        assert_ne!(key::<Size8>(Color::Black, p, o), key::<Size8>(Color::White, p, o));
        assert_ne!(key::<Size8>(Color::Black, p, o), key::<Size8>(Color::Black, o, p));
    }
}
