//! Pente players: the competition engine ([`PenteEngine`], the shared
//! search with the Pente evaluation), and the two reference agents the
//! graders use ([`NearRandomAgent`], [`pente_minimax`]).

use super::board::{Cell, Moves, PentePosition};
use super::eval::PenteEval;
use engine_core::agent::{Agent, Clock, Decision};
use engine_core::game::Game;
use engine_core::mix::SplitMix;
use engine_core::search::{CompiledSearch, Engine, EngineConfig, Limits, SearchResult, Searcher};
use engine_core::textbook::{ReferenceMinimax, TieBreak};
use rand::RngExt;

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
    if config.evaluation != engine_core::eval::Evaluation::Pattern {
        return Err(format!("Pente has no {} evaluation", config.evaluation.name()));
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
    rng: SplitMix,
}

impl NearRandomAgent {
    /// A random agent whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        NearRandomAgent { rng: SplitMix(seed) }
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

/// The graders' minimax agent ([`engine_core::textbook::reference`]: plain
/// minimax over the legal moves, depth from the time left) with the pattern
/// evaluation; ties broken at random.
pub type PenteMinimax = ReferenceMinimax<PenteEval>;

/// The minimax agent whose tie-breaks are fixed by `seed`.
pub fn pente_minimax(seed: u64) -> PenteMinimax {
    ReferenceMinimax::new(PenteEval::default(), TieBreak::Random(SplitMix(seed)))
}
