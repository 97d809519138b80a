//! Players built on the textbook searches, for the interactive game: full
//! MINIMAX, full ALPHA-BETA, and H-MINIMAX (alpha-beta cut off at a depth, or
//! deepened iteratively until a time limit).

use super::problems::{Cutoff, ExactMargin};
use super::search::{TextbookResult, alpha_beta, minimax};
use crate::agent::{Agent, Clock, Decision};
use crate::eval::Evaluator;
use crate::game::Game;
use std::time::{Duration, Instant};

/// Deepest iteration of a time-limited H-MINIMAX search.
const MAX_ITERATION_DEPTH: u32 = 256;

/// Turns a completed search of a non-terminal root into a decision.
fn decision<M: Copy>(outcome: TextbookResult<M>, depth: Option<u32>) -> Decision<M> {
    let mv = outcome.best.expect("a search of a non-terminal root chooses a move");
    Decision { mv, score: Some(outcome.value), depth, nodes: outcome.calls }
}

/// Plays perfectly by searching the whole game tree with MINIMAX (utility:
/// the final margin). Feasible on 4x4 only.
#[derive(Clone, Copy, Debug, Default)]
pub struct PerfectMinimax;

impl<G: Game> Agent<G> for PerfectMinimax {
    fn name(&self) -> String {
        "minimax".into()
    }

    fn choose(&mut self, state: &G, _clock: &Clock) -> Decision<G::Move> {
        decision(minimax(&ExactMargin { max: state.to_move() }, state, &mut (), None), None)
    }
}

/// Plays perfectly by searching the whole game tree with ALPHA-BETA (same
/// moves as [`PerfectMinimax`], fewer nodes).
#[derive(Clone, Copy, Debug, Default)]
pub struct AlphaBetaAgent;

impl<G: Game> Agent<G> for AlphaBetaAgent {
    fn name(&self) -> String {
        "alpha-beta".into()
    }

    fn choose(&mut self, state: &G, _clock: &Clock) -> Decision<G::Move> {
        decision(alpha_beta(&ExactMargin { max: state.to_move() }, state, &mut (), None), None)
    }
}

/// How far an [`HMinimaxAgent`] searches each move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SearchLimit {
    /// A fixed cutoff depth in plies (at least 1).
    Depth(u32),
    /// Deepen one ply at a time while time is left; the move of the deepest
    /// completed iteration is played (depth 1 always completes).
    Time(Duration),
}

/// H-MINIMAX with alpha-beta pruning: the tree is cut off and the cutoff
/// states are valued by an evaluator.
#[derive(Clone, Debug)]
pub struct HMinimaxAgent<E> {
    evaluator: E,
    limit: SearchLimit,
}

impl<E> HMinimaxAgent<E> {
    /// An agent that searches to `limit` and evaluates with `evaluator`.
    pub fn new(evaluator: E, limit: SearchLimit) -> Self {
        HMinimaxAgent { evaluator, limit }
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for HMinimaxAgent<E> {
    fn name(&self) -> String {
        match self.limit {
            SearchLimit::Depth(depth) => format!("h-minimax-d{depth}"),
            SearchLimit::Time(time) => format!("h-minimax-{:.3}s", time.as_secs_f64()),
        }
    }

    fn choose(&mut self, state: &G, _clock: &Clock) -> Decision<G::Move> {
        let max = state.to_move();
        let evaluator = &self.evaluator;
        let search = |depth: u32, deadline| alpha_beta(&Cutoff { max, depth, evaluator }, state, &mut (), deadline);
        match self.limit {
            SearchLimit::Depth(depth) => decision(search(depth.max(1), None), Some(depth.max(1))),
            SearchLimit::Time(limit) => {
                let deadline = Instant::now() + limit;
                let mut best = decision(search(1, None), Some(1));
                let mut nodes = best.nodes;
                let mut previous_calls = best.nodes;
                for depth in 2..=MAX_ITERATION_DEPTH {
                    let outcome = search(depth, Some(deadline));
                    nodes += outcome.calls;
                    if !outcome.complete {
                        break;
                    }
                    best = decision(outcome, Some(depth));
                    // The same tree as one ply shallower: every line ended.
                    if outcome.calls == previous_calls {
                        break;
                    }
                    previous_calls = outcome.calls;
                }
                Decision { nodes, ..best }
            }
        }
    }
}
