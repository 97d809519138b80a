//! The strong engine's search: iterative-deepening principal-variation
//! search with aspiration windows and a transposition table, an exact
//! endgame solver, and CPU-time management from the game clock.
//!
//! The search knows the [`Game`] trait, an [`Evaluator`] and the small
//! extension traits of [`hooks`]; Reversi implements those in [`reversi`].
//! [`ReversiEngine`] puts it together as an [`Agent`] for every Reversi size.

pub mod control;
pub mod endgame;
pub mod ffo;
pub mod hooks;
mod reversi;
mod searcher;
pub mod time;
pub mod tt;

#[cfg(test)]
mod tests;

pub use hooks::{EndgameBoard, SearchGame};
pub use searcher::{INFINITY, Limits, MAX_DEPTH, SearchResult, Searcher};
pub use time::TimePlan;

use crate::agent::{Agent, Clock, Decision};
use crate::eval::{Evaluator, PatternEval};
use crate::reversi::{Geometry, Move, Position, Variant};
use std::path::PathBuf;

/// Transposition table size when the configuration leaves it at 0, in MiB.
/// Pages the search never touches cost no CPU time.
pub const DEFAULT_TT_MB: usize = 64;
/// CPU seconds per move when neither the configuration nor the clock
/// bounds the search.
pub const UNTIMED_MOVE_TIME: f64 = 1.0;

/// How an engine player searches: the limits of one move and its resources.
/// Unset limits fall back to the game clock.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    /// Search exactly this many plies (iterative deepening stops there).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Seconds of CPU time per move.
    pub move_time: Option<f64>,
    /// Transposition table size in MiB (0: the engine's default).
    pub tt_mb: usize,
    /// Evaluation weights file written by the tuner (default: compiled in).
    pub weights: Option<PathBuf>,
    /// Nodes per second this machine searches, as measured by a calibration
    /// program; scales the time plan (default: the engine's own estimate).
    pub nps_hint: Option<f64>,
}

/// The evaluator the engine plays with, chosen per variant.
type EngineEvaluator<G> = dyn Evaluator<Position<G>>;

/// The evaluator for `variant`: the pattern evaluation with the compiled-in
/// weights, or with the weights file `weights` (written by the tuner).
fn engine_evaluator<G: Geometry>(
    variant: Variant,
    weights: Option<&PathBuf>,
) -> Result<Box<EngineEvaluator<G>>, String> {
    Ok(Box::new(match weights {
        Some(path) => PatternEval::<G>::from_file(variant, path)?,
        None => PatternEval::<G>::compiled(variant),
    }))
}

/// What `duo-calibrate` measures (`nps`) on the machine the search's
/// exact-solve switch was tuned on (2-core AMD EPYC, AVX-512 code path):
/// an engine configured with an `nps_hint` scales the time it expects the
/// solver to need by `nps_hint / REFERENCE_NPS`.
pub const REFERENCE_NPS: f64 = 1.5e6;

/// The strong engine as a player of Reversi on geometry `G`.
pub struct ReversiEngine<G: Geometry> {
    variant: Variant,
    config: EngineConfig,
    searcher: Searcher<Position<G>, EngineEvaluator<G>>,
}

impl<G: Geometry> ReversiEngine<G> {
    /// An engine for `variant` (whose board must be `G`) with `config`; fails
    /// when the weights file cannot be used.
    pub fn new(variant: Variant, config: EngineConfig) -> Result<Self, String> {
        assert_eq!(variant.size(), G::N, "variant {variant} is not played on this geometry");
        let evaluator = engine_evaluator::<G>(variant, config.weights.as_ref())?;
        let tt_mb = if config.tt_mb == 0 { DEFAULT_TT_MB } else { config.tt_mb };
        Ok(ReversiEngine { variant, searcher: Searcher::new(evaluator, tt_mb), config })
    }

    /// The limits of one move under `config` and the clock.
    pub fn limits(config: &EngineConfig, state: &Position<G>, clock: &Clock) -> Limits {
        let mut time = config.move_time.map(TimePlan::fixed);
        if clock.own_remaining.is_finite() {
            let plan = TimePlan::from_clock(clock.own_remaining, state.own_moves_left(), state.progress());
            time = Some(time.map_or(plan, |t| t.min(plan)));
        } else if time.is_none() && config.depth.is_none() && config.nodes.is_none() {
            time = Some(TimePlan::fixed(UNTIMED_MOVE_TIME));
        }
        let speed = config.nps_hint.map(|nps| nps / REFERENCE_NPS);
        Limits { depth: config.depth, nodes: config.nodes, time, solve: false, speed }
    }

    /// Searches `state` within `limits` (for analysis tools).
    pub fn search(&mut self, state: &Position<G>, limits: &Limits) -> SearchResult<Move<G>> {
        self.searcher.search(state, limits)
    }
}

impl<G: Geometry> Agent<Position<G>> for ReversiEngine<G> {
    fn name(&self) -> String {
        format!("engine-{}", self.variant)
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn choose(&mut self, state: &Position<G>, clock: &Clock) -> Decision<Move<G>> {
        let limits = Self::limits(&self.config, state, clock);
        let r = self.searcher.search(state, &limits);
        Decision { mv: r.best, score: r.score, depth: Some(r.depth), nodes: r.nodes }
    }
}
