//! Reversi's evaluation for the graders' reference `minimax` agent
//! ([`engine_core::textbook::reference`]: plain minimax, no pruning, a depth
//! chosen from the time left): [`PositionalDiscs`], a simple disc/positional
//! count, and [`reversi_minimax`], that agent on a Reversi board.

use crate::eval::{Evaluator, SCORE_PER_DISC};
use crate::{Geometry, Position};
use engine_core::bitboard::BitSet;
use engine_core::textbook::{ReferenceMinimax, TieBreak};

/// Value of a disc on a corner.
const CORNER_WEIGHT: i32 = 20;
/// Value of a disc diagonally next to an empty-or-not corner (an "X-square").
const X_SQUARE_WEIGHT: i32 = -8;
/// Value of a disc on an edge next to a corner (a "C-square").
const C_SQUARE_WEIGHT: i32 = -4;
/// Value of a disc on any other edge cell.
const EDGE_WEIGHT: i32 = 3;
/// Value of a disc anywhere else.
const INTERIOR_WEIGHT: i32 = 1;

/// Cell classes of a board and their weights, as bit sets.
#[derive(Clone, Copy, Debug)]
struct Regions<B> {
    classes: [(B, i32); 5],
}

impl<B: BitSet> Regions<B> {
    fn new(n: usize) -> Self {
        let last = n - 1;
        let mut classes = [
            (B::EMPTY, CORNER_WEIGHT),
            (B::EMPTY, X_SQUARE_WEIGHT),
            (B::EMPTY, C_SQUARE_WEIGHT),
            (B::EMPTY, EDGE_WEIGHT),
            (B::EMPTY, INTERIOR_WEIGHT),
        ];
        // Built once per agent, not on the search path.
        for row in 0..n {
            for col in 0..n {
                let row_edge = row == 0 || row == last;
                let col_edge = col == 0 || col == last;
                let near_row = row == 1 || row == last - 1;
                let near_col = col == 1 || col == last - 1;
                let class = if row_edge && col_edge {
                    0
                } else if near_row && near_col {
                    1
                } else if (row_edge && near_col) || (col_edge && near_row) {
                    2
                } else if row_edge || col_edge {
                    3
                } else {
                    4
                };
                classes[class].0 |= B::bit(row * n + col);
            }
        }
        Regions { classes }
    }

    #[inline]
    fn value(&self, discs: B) -> i32 {
        self.classes.iter().map(|&(mask, weight)| (discs & mask).count() as i32 * weight).sum()
    }
}

/// The reference agent's evaluation for Reversi on geometry `G`: the
/// positional weight of the mover's discs minus the opponent's (corners
/// high, cells next to corners negative, edges above the interior), in
/// [`SCORE_PER_DISC`] units per unit of weight.
#[derive(Clone, Debug)]
pub struct PositionalDiscs<G: Geometry> {
    regions: Regions<G::Bits>,
}

impl<G: Geometry> Default for PositionalDiscs<G> {
    fn default() -> Self {
        PositionalDiscs { regions: Regions::new(G::N) }
    }
}

impl<G: Geometry> Evaluator<Position<G>> for PositionalDiscs<G> {
    type Trail = ();

    fn evaluate(&self, pos: &Position<G>) -> i32 {
        (self.regions.value(pos.player()) - self.regions.value(pos.opponent())) * SCORE_PER_DISC
    }
}

/// The reference minimax agent for Reversi on geometry `G` (any size).
pub type ReversiMinimax<G> = ReferenceMinimax<PositionalDiscs<G>>;

/// The reference agent for boards of geometry `G`; as plain MINIMAX, it
/// plays the first move in reading order among equals.
pub fn reversi_minimax<G: Geometry>() -> ReversiMinimax<G> {
    ReferenceMinimax::new(PositionalDiscs::default(), TieBreak::First)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Size4, Size8, Size12, Variant};
    use engine_core::agent::{Agent, Clock};
    use engine_core::game::Game;

    #[test]
    fn regions_partition_the_board() {
        let r = Regions::<<Size12 as Geometry>::Bits>::new(12);
        let counts: Vec<u32> = r.classes.iter().map(|c| c.0.count()).collect();
        // 4 corners, 4 X-squares, 8 C-squares, 4*(12-4) other edge cells.
        assert_eq!(counts, vec![4, 4, 8, 32, 144 - 48]);
        let r4 = Regions::<<Size4 as Geometry>::Bits>::new(4);
        assert_eq!(r4.classes.iter().map(|c| c.0.count()).sum::<u32>(), 16);
    }

    #[test]
    fn prefers_the_corner_where_disc_count_ties() {
        // X to move: c5 and h8 both leave 4 X discs against 1, so a pure disc
        // count would keep c5 (first in reading order); the corner is worth more.
        let rows = ["........", "........", "..X.....", "..O.....", "........", ".....X..", "......O.", "........"];
        let text = format!("X\n{}\n", rows.join("\n"));
        let pos: Position<Size8> = Position::parse(&text, Variant::Othello8.scoring()).unwrap();
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(legal, ["c5", "h8"]);
        let mut agent = reversi_minimax::<Size8>();
        let d = agent.choose(&pos, &Clock { own_remaining: 1.0, opponent_remaining: 1.0 });
        assert_eq!(d.mv.to_string(), "h8");
        assert_eq!(d.depth, Some(1));
    }

    #[test]
    fn plays_legal_games_on_duo() {
        let mut pos: Position<Size12> = Variant::Duo12.start();
        let mut agent = reversi_minimax::<Size12>();
        let clock = Clock { own_remaining: 10.0, opponent_remaining: 10.0 };
        while !pos.is_terminal() {
            let mv = agent.choose(&pos, &clock).mv;
            assert!(pos.is_legal(mv));
            pos.make(mv);
        }
    }

    #[test]
    fn searches_every_node_without_pruning() {
        // Full-width minimax to depth 2 from the 8x8 start visits the root,
        // its 4 children and each of their 3 replies: 1 + 4 + 12 nodes.
        let pos: Position<Size8> = Variant::Othello8.start();
        let mut agent = reversi_minimax::<Size8>();
        let d = agent.choose(&pos, &Clock { own_remaining: 10.0, opponent_remaining: 10.0 });
        assert_eq!(d.nodes, 17);
    }
}
