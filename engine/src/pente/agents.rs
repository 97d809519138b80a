//! Pente players: the competition engine ([`PenteEngine`]) with its time
//! plan, and the two reference agents the graders use ([`NearRandomAgent`],
//! [`MinimaxAgent`]).

use super::board::{Cell, Moves, Position};
use super::eval::PatternEval;
use super::search::{Limits, Searcher, WIN, quick_move};
use crate::agent::{Agent, Clock, Decision};
use crate::eval::Evaluator;
use crate::game::Game;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// Below this many seconds left the engine answers without searching.
pub const PANIC_SECONDS: f64 = 0.15;
/// Moves the engine plans the remaining time over.
const MOVES_TO_PLAN: f64 = 22.0;
/// Largest soft budget of one move, in seconds.
const MAX_SOFT_SECONDS: f64 = 6.0;
/// The hard limit of a move is this many soft budgets ...
const HARD_FACTOR: f64 = 3.0;
/// ... but never more than this share of the time left.
const HARD_SHARE: f64 = 0.2;
/// CPU seconds kept back for start-up, input and output.
const SAFETY_SECONDS: f64 = 0.05;
/// VCF probe moves per second of soft budget.
const VCF_NODES_PER_SECOND: f64 = 100_000.0;
/// Largest VCF probe.
const MAX_VCF_NODES: u64 = 400_000;
/// Deepest search iteration.
const MAX_DEPTH: u32 = 40;

/// Settings of the competition engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PenteConfig {
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Fixed depth (ignores the clock's soft budget) when set.
    pub depth: Option<u32>,
}

impl Default for PenteConfig {
    fn default() -> Self {
        PenteConfig { tt_mb: 32, depth: None }
    }
}

/// The competition engine: threat checks, VCF, then iterative deepening PVS.
pub struct PenteEngine {
    searcher: Searcher<PatternEval>,
    config: PenteConfig,
}

impl PenteEngine {
    /// An engine with `config` and the compiled-in weights.
    pub fn new(config: PenteConfig) -> Self {
        Self::with_eval(config, PatternEval::default())
    }

    /// An engine with `config` and the evaluation `eval` (e.g. weights read
    /// from a file with [`PatternEval::from_file`]).
    pub fn with_eval(config: PenteConfig, eval: PatternEval) -> Self {
        PenteEngine { searcher: Searcher::new(eval, config.tt_mb), config }
    }

    /// The search limits for a move with `remaining` CPU seconds left.
    pub fn limits(&self, remaining: f64) -> Limits {
        let usable = (remaining - SAFETY_SECONDS).max(0.0);
        let soft = (usable / MOVES_TO_PLAN).min(MAX_SOFT_SECONDS);
        let hard = (soft * HARD_FACTOR).min(usable * HARD_SHARE);
        let (soft, hard, max_depth) = match self.config.depth {
            Some(d) if remaining.is_infinite() => (Duration::MAX, Duration::MAX, d),
            Some(d) => (Duration::from_secs_f64(hard), Duration::from_secs_f64(hard), d),
            None => (Duration::from_secs_f64(soft), Duration::from_secs_f64(hard), MAX_DEPTH),
        };
        let vcf_nodes = if soft == Duration::MAX {
            MAX_VCF_NODES
        } else {
            ((soft.as_secs_f64() * VCF_NODES_PER_SECOND) as u64).min(MAX_VCF_NODES)
        };
        Limits { soft, hard, max_depth, vcf_nodes }
    }
}

impl Agent<Position> for PenteEngine {
    fn name(&self) -> String {
        "pente-engine".into()
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn choose(&mut self, state: &Position, clock: &Clock) -> Decision<Cell> {
        if clock.own_remaining < PANIC_SECONDS {
            return Decision::just(quick_move(state));
        }
        let out = self.searcher.choose(state, self.limits(clock.own_remaining));
        Decision { mv: out.mv, score: Some(out.score), depth: Some(out.depth), nodes: out.nodes }
    }
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
pub fn adjacent_moves(pos: &Position) -> Moves {
    let has_neighbour =
        |c: Cell| (-1..=1isize).any(|dl| (-1..=1isize).any(|dc| (dl, dc) != (0, 0) && pos.occupied_at(c, dl, dc)));
    let mut moves: Moves = pos.candidates().filter(|&c| has_neighbour(c) && pos.is_legal(c)).collect();
    if moves.is_empty() {
        moves = pos.legal_moves();
    }
    moves
}

impl Agent<Position> for NearRandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &Position, _clock: &Clock) -> Decision<Cell> {
        let moves = if state.is_first_white_stone() { state.legal_moves() } else { adjacent_moves(state) };
        Decision::just(moves[self.rng.random_range(0..moves.len())])
    }
}

/// The graders' minimax agent: plain minimax (no pruning) over the candidate
/// moves with the pattern evaluation, depth 3 with more than 50 s left, 1
/// with less than 3 s, 2 otherwise; ties broken at random.
#[derive(Clone, Debug)]
pub struct MinimaxAgent {
    eval: PatternEval,
    rng: ChaCha8Rng,
    nodes: u64,
}

/// Seconds left above which the minimax agent searches [`DEEP`] plies.
const DEEP_ABOVE: f64 = 50.0;
/// Seconds left below which the minimax agent searches one ply.
const SHALLOW_BELOW: f64 = 3.0;
const DEEP: u32 = 3;
const NORMAL: u32 = 2;

impl MinimaxAgent {
    /// A minimax agent whose tie-breaks are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        MinimaxAgent { eval: PatternEval::default(), rng: ChaCha8Rng::seed_from_u64(seed), nodes: 0 }
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

    fn negamax(&mut self, pos: &mut Position, depth: u32, ply: i32) -> i32 {
        self.nodes += 1;
        if pos.winner().is_some() {
            return -(WIN - ply);
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

impl Agent<Position> for MinimaxAgent {
    fn name(&self) -> String {
        "minimax".into()
    }

    fn choose(&mut self, state: &Position, clock: &Clock) -> Decision<Cell> {
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
