//! perft: the number of leaves of the game tree to a fixed depth, counting a
//! pass as a ply and a finished game as one leaf at every deeper depth.

use super::geometry::{Geometry, Lines, legal_moves_with};
use super::position::Position;
use engine_core::bitboard::BitSet;
use engine_core::cpu::CodePath;

/// Deepest perft that [`perft`] accepts.
pub const MAX_DEPTH: usize = 64;

/// Leaf counts of one perft walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCounts {
    /// `leaves[d - 1]` is perft(d), for every d from 1 to the walk's depth.
    pub leaves: Vec<u64>,
    /// Positions whose moves were generated (the root included).
    pub interior: u64,
}

/// Counts perft(d) for every d from 1 to `depth` in one walk of the tree.
///
/// Nodes one ply above the horizon are not expanded: their leaf count is the
/// number of their moves (or 1 for a pass or a finished game).
pub fn perft<G: Geometry>(root: &Position<G>, depth: usize) -> PerftCounts {
    perft_on(CodePath::best(), root, depth)
}

/// [`perft`] run by the chosen compiled copy of the walk.
fn perft_on<G: Geometry>(path: CodePath, root: &Position<G>, depth: usize) -> PerftCounts {
    assert!((1..=MAX_DEPTH).contains(&depth), "perft depth must be 1 to {MAX_DEPTH}");
    let mut walk = Walk { depth, leaves: [0; MAX_DEPTH], interior: 0 };
    engine_core::cpu::run_on!(path, walk_tree::<G>(&mut walk, root, 0));
    PerftCounts { leaves: walk.leaves[..depth].to_vec(), interior: walk.interior }
}

/// The state of one perft walk.
struct Walk {
    depth: usize,
    leaves: [u64; MAX_DEPTH],
    interior: u64,
}

engine_core::cpu::multiversion! {
    /// Visits `pos`, at `ply` (below the walk's depth), and its subtree.
    fn walk_tree<G: Geometry>(walk: &mut Walk, pos: &Position<G>, ply: usize) {
        walk.interior += 1;
        let lines = Lines::<G, Simd>::new(pos.player(), pos.opponent());
        let moves = lines.moves();
        let child_ply = ply + 1;
        if moves.is_empty() {
            if legal_moves_with::<G, Simd>(pos.opponent(), pos.player()).is_empty() {
                // Game over: its parent counted it for perft(ply); it stays a
                // leaf for every deeper perft.
                for count in &mut walk.leaves[ply..walk.depth] {
                    *count += 1;
                }
                return;
            }
            walk.leaves[ply] += 1;
            if child_ply < walk.depth {
                walk_tree::<G>(walk, &pos.pass(), child_ply);
            }
            return;
        }
        let count = moves.count();
        walk.leaves[ply] += u64::from(count);
        if child_ply + 1 == walk.depth {
            // The children are the last nodes whose moves are generated:
            // each counts its moves, or 1 when it must pass or the game is
            // over, without being visited.
            let mut grandchildren = 0;
            if lines.short_runs(moves) {
                for cell in moves.iter() {
                    grandchildren += lines.play::<true>(cell).moves().count().max(1);
                }
            } else {
                for cell in moves.iter() {
                    grandchildren += lines.play::<false>(cell).moves().count().max(1);
                }
            }
            walk.interior += u64::from(count);
            walk.leaves[child_ply] += u64::from(grandchildren);
        } else if child_ply < walk.depth {
            for cell in moves.iter() {
                walk_tree::<G>(walk, &pos.play_flips(cell, lines.flips(cell)), child_ply);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Size4, Size8, Size12, Variant};

    /// Both compiled copies of the walk give the published counts (the same
    /// ones `games/reversi/tests/perft.rs` checks through the public entry point).
    #[test]
    fn every_code_path_counts_the_published_trees() {
        for path in CodePath::available() {
            let tiny: Position<Size4> = Variant::Tiny4.start();
            let expected = [4, 12, 44, 128, 424, 1256, 3624, 9116, 20044, 36540, 50704, 57436];
            assert_eq!(perft_on(path, &tiny, 12).leaves, expected, "{path:?}");
            let othello: Position<Size8> = Variant::Othello8.start();
            let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216];
            let counts = perft_on(path, &othello, 8);
            assert_eq!(counts.leaves, expected, "{path:?}");
            // Interior nodes: every node above the horizon.
            assert_eq!(counts.interior, 1 + expected[..7].iter().sum::<u64>(), "{path:?}");
            let duo: Position<Size12> = Variant::Duo12.start();
            assert_eq!(perft_on(path, &duo, 5).leaves, [8, 56, 400, 2696, 20408], "{path:?}");
        }
    }
}
