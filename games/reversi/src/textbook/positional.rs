//! The valuation of the 8x8 greedy/minimax/alpha-beta program (handout 003):
//! leaves valued by the positional weights of `PROTOCOLS.md` from MAX's
//! side, and the cutoff and pass conventions of its reference cases.

use crate::{Geometry, Move, Position, Size8};
use engine_core::bitboard::BitSet;
use engine_core::game::{Color, Game};
use engine_core::textbook::{Path, Problem};

/// The 8x8 board of this program.
pub type Board8 = Position<Size8>;

/// Positional weight of each cell, row 1 first (the handout's table, as
/// settled in `PROTOCOLS.md`).
#[rustfmt::skip]
pub const WEIGHTS: [i32; 64] = [
    99,  -8,   8,   6,   6,   8,  -8,  99,
    -8, -24,  -4,  -3,  -3,  -4, -24,  -8,
     8,  -4,   7,   4,   4,   7,  -4,   8,
     6,  -3,   4,   0,   0,   4,  -3,   6,
     6,  -3,   4,   0,   0,   4,  -3,   6,
     8,  -4,   7,   4,   4,   7,  -4,   8,
    -8, -24,  -4,  -3,  -3,  -4, -24,  -8,
    99,  -8,   8,   6,   6,   8,  -8,  99,
];

/// Sum of the weights of the cells in `discs`.
fn weight(discs: <Size8 as Geometry>::Bits) -> i32 {
    discs.iter().map(|cell| WEIGHTS[cell]).sum()
}

/// E(s) = weight of MAX's discs minus weight of the opponent's.
pub fn positional_value(state: &Board8, max: Color) -> i32 {
    weight(state.discs(max)) - weight(state.discs(max.opponent()))
}

/// The search problem of handout 003: MAX is the program's own player; a
/// node is a leaf at the cutoff depth, on a full board, when a side has no
/// discs, or when it is the second of two passes in a row (so a finished
/// game that is none of these is expanded as pass, pass). A pass counts as a
/// ply.
#[derive(Clone, Copy, Debug)]
pub struct Positional {
    /// The program's own player.
    pub max: Color,
    /// The cutoff depth (the greedy task uses 1).
    pub cutoff: u32,
}

impl Problem<Board8> for Positional {
    fn max_player(&self) -> Color {
        self.max
    }

    fn is_leaf(&self, state: &Board8, depth: u32, path: Path<Move<Size8>>) -> bool {
        let pass = Some(Move::PASS);
        depth >= self.cutoff
            || state.empty().is_empty()
            || state.discs(Color::Black).is_empty()
            || state.discs(Color::White).is_empty()
            || (path.last == pass && path.before_last == pass)
    }

    fn value(&self, state: &Board8) -> i32 {
        positional_value(state, self.max)
    }

    fn actions(&self, state: &Board8) -> <Board8 as Game>::Moves {
        let moves = state.legal_moves();
        if moves.is_empty() { std::iter::once(Move::PASS).collect() } else { moves }
    }
}
