//! Balanced opening suites for Reversi variants: positions a number of
//! random plies from the start whose shallow-search score lies within a
//! window around level, one per symmetry class, written in the openings
//! file form `--openings FILE` reads (one flattened position a line).

use crate::protocol::{GameProtocol, ReversiProtocol};
use crate::run::{ends_within, random_line, stream_rng};
use engine::agent::Agent;
use engine::analysis::Budget;
use engine::eval::discs;
use engine::reversi::{Geometry, ReversiEngine, Variant};
use engine::search::EngineConfig;
use std::collections::HashSet;

/// Stream of the random plies of candidate `k` (apart from the runs' streams).
const SUITE_STREAM: u64 = 1 << 62;
/// Candidates drawn per position wanted, at most.
const ATTEMPTS_PER_POSITION: usize = 200;
/// Transposition table of the scoring search, in MiB: shallow searches
/// need little, and it is cleared for every candidate.
const SUITE_TT_MB: usize = 4;
/// Plies after an opening within which no line may end the game.
const LOOKAHEAD: u32 = 2;

/// What a suite holds.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteSpec {
    /// Random plies from the start.
    pub plies: u32,
    /// Largest |score| kept, in discs.
    pub window: f64,
    /// Positions wanted.
    pub count: usize,
    /// Depth of the search that scores a candidate.
    pub depth: u32,
    /// Seed of the random plies.
    pub seed: u64,
}

/// The smallest of the eight images of a flattened position (side letter,
/// then `/`-separated rows) under the board's rotations and reflections:
/// positions that are the same game up to symmetry share it.
pub fn canonical(flat: &str) -> String {
    let mut parts = flat.split('/');
    let side = parts.next().unwrap_or("");
    let rows: Vec<&[u8]> = parts.map(str::as_bytes).collect();
    let n = rows.len();
    let image = |t: usize| {
        let mut out = String::with_capacity(flat.len());
        out += side;
        for r in 0..n {
            out.push('/');
            for c in 0..n {
                let (i, j) = match t {
                    0 => (r, c),
                    1 => (c, r),
                    2 => (n - 1 - r, c),
                    3 => (r, n - 1 - c),
                    4 => (n - 1 - r, n - 1 - c),
                    5 => (c, n - 1 - r),
                    6 => (n - 1 - c, r),
                    _ => (n - 1 - c, n - 1 - r),
                };
                out.push(char::from(rows[i][j]));
            }
        }
        out
    };
    (0..8).map(image).min().unwrap_or_default()
}

/// A balanced suite of `variant` (board `G`): each line a canonical
/// flattened position with its score in discs. Fewer than `spec.count` when
/// the draws run out.
pub fn make_suite<G: Geometry>(variant: Variant, spec: &SuiteSpec) -> Result<Vec<(String, f64)>, String> {
    let protocol = ReversiProtocol::<G>::new(variant);
    let config = EngineConfig { tt_mb: SUITE_TT_MB, ..EngineConfig::default() };
    let mut engine = ReversiEngine::<G>::new(variant, config)?;
    let limits = Budget::Depth(spec.depth).limits();
    let (mut seen, mut suite) = (HashSet::new(), Vec::new());
    for k in 0..spec.count * ATTEMPTS_PER_POSITION {
        if suite.len() == spec.count {
            break;
        }
        let mut rng = stream_rng(spec.seed, SUITE_STREAM + k as u64);
        let state = random_line(protocol.start(), spec.plies, &mut rng);
        if ends_within(&state, LOOKAHEAD) {
            continue;
        }
        let flat = canonical(&protocol.flatten(&state));
        if !seen.insert(flat.clone()) {
            continue;
        }
        engine.new_game();
        let r = engine.search(&state, &limits);
        let score = discs(r.score.unwrap_or(0));
        if score.abs() <= spec.window {
            suite.push((flat, score));
        }
    }
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::game::Game;
    use engine::reversi::Size8;

    #[test]
    fn the_eight_images_of_a_position_share_one_canonical_form() {
        let protocol = ReversiProtocol::<Size8>::new(Variant::Othello8);
        let mut state = protocol.start();
        // f5, then the reply d6: an opening with no symmetry of its own.
        for name in ["f5", "d6", "c3"] {
            let mv = state.legal_moves().iter().copied().find(|m| m.to_string() == name).unwrap();
            state.make(mv);
        }
        let flat = protocol.flatten(&state);
        let rows: Vec<String> = flat.split('/').skip(1).map(String::from).collect();
        let side = flat.split('/').next().unwrap();
        let transposed: Vec<String> = (0..8).map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect()).collect();
        let mirrored: Vec<String> = rows.iter().map(|r| r.chars().rev().collect()).collect();
        for image in [transposed, mirrored] {
            let other = format!("{side}/{}", image.join("/"));
            assert_ne!(other, flat);
            assert_eq!(canonical(&other), canonical(&flat));
        }
        // The start position is its own image; another opening is not.
        let start = protocol.flatten(&protocol.start());
        assert_ne!(canonical(&start), canonical(&flat));
    }

    #[test]
    fn suites_hold_distinct_balanced_playable_positions() {
        let spec = SuiteSpec { plies: 6, window: 2.0, count: 12, depth: 3, seed: 4 };
        let suite = make_suite::<Size8>(Variant::Othello8, &spec).unwrap();
        assert_eq!(suite.len(), 12);
        let protocol = ReversiProtocol::<Size8>::new(Variant::Othello8);
        let distinct: HashSet<&String> = suite.iter().map(|(flat, _)| flat).collect();
        assert_eq!(distinct.len(), suite.len());
        for (flat, score) in &suite {
            assert!(score.abs() <= spec.window);
            let pos = protocol.parse_flat(flat).unwrap();
            assert_eq!(pos.empty_count(), 60 - spec.plies, "{flat}");
            assert!(!ends_within(&pos, LOOKAHEAD));
            assert_eq!(&canonical(flat), flat);
        }
    }
}
