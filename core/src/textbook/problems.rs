//! The ways the course programs value a game tree, for any [`Game`]: the
//! formal model's utility (win/loss/draw or the exact margin) searched to the
//! end, or a cutoff at a fixed depth with an [`Evaluator`].

use super::search::{Path, Problem};
use crate::eval::{Evaluator, SCORE_PER_POINT};
use crate::game::{Color, Game};

/// Full-depth search with utility +1 when MAX wins, -1 when MAX loses, 0 for
/// a draw (the Reversi Tiny handout, with MAX = dark).
#[derive(Clone, Copy, Debug)]
pub struct WinLossDraw {
    /// The MAX player.
    pub max: Color,
}

impl<G: Game> Problem<G> for WinLossDraw {
    fn max_player(&self) -> Color {
        self.max
    }

    fn value(&self, state: &G) -> i32 {
        (state.final_score() * self.max.sign()).signum()
    }
}

/// Full-depth search with utility the final score from MAX's side (disc
/// margin in Reversi): optimal play that also maximises the margin.
#[derive(Clone, Copy, Debug)]
pub struct ExactMargin {
    /// The MAX player.
    pub max: Color,
}

impl<G: Game> Problem<G> for ExactMargin {
    fn max_player(&self) -> Color {
        self.max
    }

    fn value(&self, state: &G) -> i32 {
        state.final_score() * self.max.sign()
    }
}

/// Value of a won game in [`Cutoff`] before the margin is added: more than
/// any evaluation, so a proven win beats every heuristic hope.
pub const DECISIVE: i32 = 1 << 24;

/// H-MINIMAX: the tree is cut off at `depth` plies and the states there are
/// valued by an evaluator; finished games keep their exact value.
#[derive(Clone, Copy, Debug)]
pub struct Cutoff<'a, E> {
    /// The MAX player.
    pub max: Color,
    /// Plies searched below the root.
    pub depth: u32,
    /// Values the states at the cutoff, for the side to move.
    pub evaluator: &'a E,
}

impl<G: Game, E: Evaluator<G>> Problem<G> for Cutoff<'_, E> {
    fn max_player(&self) -> Color {
        self.max
    }

    fn is_leaf(&self, state: &G, depth: u32, _path: Path<G::Move>) -> bool {
        depth >= self.depth || state.is_terminal()
    }

    fn value(&self, state: &G) -> i32 {
        if state.is_terminal() {
            let margin = state.final_score() * self.max.sign();
            return margin.signum() * DECISIVE + margin * SCORE_PER_POINT;
        }
        let sign = if state.to_move() == self.max { 1 } else { -1 };
        (self.evaluator.evaluate(state) * sign).clamp(1 - DECISIVE, DECISIVE - 1)
    }
}
