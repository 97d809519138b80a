//! Pente players: the competition engine ([`PenteEngine`], the shared
//! search with the Pente evaluation), and the two reference agents the
//! graders use ([`NearRandomAgent`], [`PenteMinimax`]).

use super::board::{Cell, Moves, PentePosition};
use super::eval::PenteEval;
use crate::eval::Evaluator;
use engine_core::agent::{Agent, Clock, Decision};
use engine_core::game::Game;
use engine_core::search::{CompiledSearch, Engine, EngineConfig, Limits, SearchResult, Searcher, WIN, won_in};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Pente's search, compiled once, in this crate (see [`CompiledSearch`]).
impl CompiledSearch<PentePosition> for PenteEval {
    #[inline(never)]
    fn compiled_search(
        searcher: &mut Searcher<PentePosition, Self>,
        pos: &PentePosition,
        limits: &Limits,
    ) -> SearchResult<Cell> {
        searcher.search_generic(pos, limits)
    }
}

/// The competition engine: the shared search (threat checks, VCF, then
/// iterative deepening PVS) with the Pente pattern evaluation.
pub type PenteEngine = Engine<PentePosition, PenteEval>;

/// The Pente engine with `config`: the compiled-in weights, or the tuner's
/// weights file `config.weights`; fails when that file cannot be used.
pub fn pente_engine(config: EngineConfig) -> Result<PenteEngine, String> {
    config.check::<PentePosition>()?;
    if config.evaluation != crate::eval::Evaluation::Pattern {
        return Err(format!("the {} evaluation plays Reversi only", config.evaluation.name()));
    }
    let eval = match &config.weights {
        Some(path) => PenteEval::from_file(path)?,
        None => PenteEval::default(),
    };
    Ok(Engine::with_evaluator("pente-engine".into(), Box::new(eval), config))
}

/// The graders' random agent: a random empty cell next to a stone (White's
/// first stone on the centre, the second at distance at least
/// [`super::board::SECOND_STONE_DISTANCE`] from it).
#[derive(Clone, Debug)]
pub struct NearRandomAgent {
    rng: ChaCha8Rng,
}

impl NearRandomAgent {
    /// A random agent whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        NearRandomAgent { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

/// Empty cells next to a stone (Chebyshev distance 1) that are legal.
pub fn adjacent_moves(pos: &PentePosition) -> Moves {
    let has_neighbour =
        |c: Cell| (-1..=1isize).any(|dl| (-1..=1isize).any(|dc| (dl, dc) != (0, 0) && pos.occupied_at(c, dl, dc)));
    let mut moves: Moves = pos.candidates().filter(|&c| has_neighbour(c) && pos.is_legal(c)).collect();
    if moves.is_empty() {
        moves = pos.legal_moves();
    }
    moves
}

impl Agent<PentePosition> for NearRandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &PentePosition, _clock: &Clock) -> Decision<Cell> {
        let moves = if state.is_first_white_stone() { state.legal_moves() } else { adjacent_moves(state) };
        Decision::just(moves[self.rng.random_range(0..moves.len())])
    }
}

/// The graders' minimax agent: plain minimax (no pruning) over the candidate
/// moves with the pattern evaluation, depth 3 with more than 50 s left, 1
/// with less than 3 s, 2 otherwise; ties broken at random.
#[derive(Clone, Debug)]
pub struct PenteMinimax {
    eval: PenteEval,
    rng: ChaCha8Rng,
    nodes: u64,
}

/// Seconds left above which the minimax agent searches [`DEEP`] plies.
const DEEP_ABOVE: f64 = 50.0;
/// Seconds left below which the minimax agent searches one ply.
const SHALLOW_BELOW: f64 = 3.0;
const DEEP: u32 = 3;
const NORMAL: u32 = 2;

impl PenteMinimax {
    /// A minimax agent whose tie-breaks are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        PenteMinimax { eval: PenteEval::default(), rng: ChaCha8Rng::seed_from_u64(seed), nodes: 0 }
    }

    /// The depth the agent searches with `remaining` seconds left.
    pub fn depth_for(remaining: f64) -> u32 {
        if remaining > DEEP_ABOVE {
            DEEP
        } else if remaining < SHALLOW_BELOW {
            1
        } else {
            NORMAL
        }
    }

    fn negamax(&mut self, pos: &mut PentePosition, depth: u32, ply: u32) -> i32 {
        self.nodes += 1;
        if pos.winner().is_some() {
            return -won_in(ply);
        }
        if pos.is_terminal() {
            return 0;
        }
        if depth == 0 {
            return self.eval.evaluate(pos);
        }
        let mut best = -WIN;
        for &mv in pos.legal_moves().iter() {
            let undo = pos.make(mv);
            best = best.max(-self.negamax(pos, depth - 1, ply + 1));
            pos.unmake(mv, undo);
        }
        best
    }
}

impl Agent<PentePosition> for PenteMinimax {
    fn name(&self) -> String {
        "minimax".into()
    }

    fn choose(&mut self, state: &PentePosition, clock: &Clock) -> Decision<Cell> {
        self.nodes = 0;
        let depth = Self::depth_for(clock.own_remaining);
        let mut pos = state.clone();
        let mut best: (i32, Vec<Cell>) = (i32::MIN, Vec::new());
        for &mv in state.legal_moves().iter() {
            let undo = pos.make(mv);
            let score = -self.negamax(&mut pos, depth - 1, 1);
            pos.unmake(mv, undo);
            if score > best.0 {
                best = (score, vec![mv]);
            } else if score == best.0 {
                best.1.push(mv);
            }
        }
        let mv = best.1[self.rng.random_range(0..best.1.len())];
        Decision { mv, score: Some(best.0), depth: Some(depth), nodes: self.nodes }
    }
}
