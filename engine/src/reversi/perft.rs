//! perft: the number of leaves of the game tree to a fixed depth, counting a
//! pass as a ply and a finished game as one leaf at every deeper depth.

use super::geometry::Geometry;
use super::position::Position;
use crate::bitboard::BitSet;

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
    assert!((1..=MAX_DEPTH).contains(&depth), "perft depth must be 1 to {MAX_DEPTH}");
    let mut walk = Walk { depth, leaves: [0; MAX_DEPTH], interior: 0 };
    crate::cpu::dispatch!(walk_tree::<G>(&mut walk, root, 0));
    PerftCounts { leaves: walk.leaves[..depth].to_vec(), interior: walk.interior }
}

/// The state of one perft walk.
struct Walk {
    depth: usize,
    leaves: [u64; MAX_DEPTH],
    interior: u64,
}

crate::cpu::multiversion! {
    /// Visits `pos`, at `ply` (below the walk's depth), and its subtree.
    fn walk_tree<G: Geometry>(walk: &mut Walk, pos: &Position<G>, ply: usize) {
        walk.interior += 1;
        let moves = pos.moves();
        let child_ply = ply + 1;
        if moves.is_empty() {
            if pos.opponent_moves().is_empty() {
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
        walk.leaves[ply] += u64::from(moves.count());
        if child_ply < walk.depth {
            for cell in moves.iter() {
                walk_tree::<G>(walk, &pos.play_flips(cell, pos.flips(cell)), child_ply);
            }
        }
    }
}
