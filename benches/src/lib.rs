//! Shared inputs for the criterion benches: deterministic sample positions.

use engine::game::Game;
use engine::reversi::{Geometry, Position, Variant};

/// A small deterministic generator (SplitMix64), so every run benches the
/// same positions without a dependency.
struct SplitMix(u64);

impl SplitMix {
    /// The golden-ratio increment of SplitMix64.
    const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(Self::GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Every position of random games of `variant` from its start, `games`
/// games seeded by `seed`: a spread of openings, middle games and endings.
pub fn playout_positions<G: Geometry>(variant: Variant, games: usize, seed: u64) -> Vec<Position<G>> {
    let mut rng = SplitMix(seed);
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut pos: Position<G> = variant.start();
        while !pos.is_terminal() {
            positions.push(pos);
            let moves = pos.legal_moves();
            let pick = (rng.next() % moves.len() as u64) as usize;
            pos = pos.play(moves[pick]);
        }
    }
    positions
}
