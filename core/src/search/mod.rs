//! The strong engine's search, written for any game: iterative-deepening
//! principal-variation search with aspiration windows and a transposition
//! table, and CPU-time management from the game clock.
//!
//! The search knows the [`Game`] trait, an [`Evaluator`] and the small
//! extension traits of [`hooks`], and no game by name: each game implements
//! the hooks beside its rules (in its own crate: an exact endgame
//! solver, a threat search). [`Engine`] puts it
//! together as an [`Agent`] of any such game.

pub mod control;
pub mod hooks;
pub mod objective;
pub mod params;
pub mod probcut;
pub mod quick_end;
mod searcher;
pub mod time;
pub mod tt;

pub use hooks::{SearchGame, Tactics};
pub use objective::{Band, DECIDED, Objective, Outcomes};
pub use params::{NoParams, ParamRegistry, ParamSettings, SearchParams};
pub use searcher::{
    CompiledSearch, INFINITY, Limits, MAX_DEPTH, SearchResult, Searcher, WIN, WIN_BOUND, solve_plies, won_in,
};
pub use time::{MovesAhead, Overrun, TimePlan};

use crate::agent::{Agent, Clock, Decision};
use crate::cputime::CpuClock;
use crate::eval::{Evaluation, Evaluator};
use crate::game::Color;
use std::path::PathBuf;

/// Transposition table size when the configuration leaves it at 0, in MiB.
/// Pages the search never touches cost no CPU time.
pub const DEFAULT_TT_MB: usize = 64;
/// CPU seconds per move when neither the configuration nor the clock
/// bounds the search.
pub const UNTIMED_MOVE_TIME: f64 = 1.0;

/// What each position's search may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Iterative deepening to this depth, full width.
    Depth(u32),
    /// This many CPU seconds.
    Seconds(f64),
    /// About this many nodes.
    Nodes(u64),
    /// The exact game-theoretic value (games with an exact solver).
    Exact,
}

impl Budget {
    /// The search limits of this budget.
    pub fn limits(self) -> Limits {
        let limits = Limits { search_forced: true, ..Limits::default() };
        match self {
            Budget::Depth(d) => Limits { depth: Some(d), ..limits },
            Budget::Seconds(s) => Limits { time: Some(TimePlan::fixed(s)), ..limits },
            Budget::Nodes(n) => Limits { nodes: Some(n), ..limits },
            Budget::Exact => Limits { solve: true, ..limits },
        }
    }
}

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
    /// The static evaluation.
    pub evaluation: Evaluation,
    /// Evaluation weights file written by the tuner (default: compiled in).
    pub weights: Option<PathBuf>,
    /// Nodes per second this machine searches, as measured by a calibration
    /// program; scales the time plan (default: the engine's own estimate).
    pub nps_hint: Option<f64>,
    /// The clock the engine is charged on (default: the process's CPU time).
    pub clock: CpuClock,
    /// Search and time parameters set over the game's defaults
    /// ([`SearchGame::PARAMS`]).
    pub params: ParamSettings,
    /// What the engine plays for: wins (the default of every player) or
    /// the final margin (analysis).
    pub objective: Objective,
}

/// What `duo-calibrate` measures (`nps`) on the machine the search's
/// exact-solve switch was tuned on (2-core AMD EPYC, AVX-512 code path):
/// an engine configured with an `nps_hint` scales the time it expects the
/// solver to need by `nps_hint / REFERENCE_NPS`.
pub const REFERENCE_NPS: f64 = 1.5e6;

impl EngineConfig {
    /// The limits of one move in `state` under this configuration and the
    /// clock, in a game whose moves so far overran their plans by
    /// `overrun`: the tighter of the fixed move time and the clock's plan.
    pub fn limits<G: SearchGame>(&self, state: &G, clock: &Clock, overrun: &Overrun) -> Limits {
        let speed = self.nps_hint.map(|nps| nps / REFERENCE_NPS);
        let mut time = self.move_time.map(TimePlan::fixed);
        if clock.own_remaining.is_finite() {
            let mut params = self.params.over(G::PARAMS);
            params.overrun = overrun.expected(&params);
            let ahead = moves_ahead(state, clock.own_remaining, speed, &params);
            let plan = TimePlan::from_clock(clock.own_remaining, &ahead, &params);
            time = Some(time.map_or(plan, |t| t.min(plan)));
        } else if time.is_none() && self.depth.is_none() && self.nodes.is_none() {
            time = Some(TimePlan::fixed(UNTIMED_MOVE_TIME));
        }
        Limits { depth: self.depth, nodes: self.nodes, time, speed, ..Limits::default() }
    }

    /// How a search of `state` values finished games: the objective, and
    /// under a tie rule that gives a level score to the side with more time
    /// left ([`SearchGame::tie_break`]), the side that will have more: the
    /// side to move's clock after this move's hard limit against the
    /// opponent's clock (equal when neither runs).
    pub fn outcomes<G: SearchGame>(&self, state: &G, clock: &Clock, limits: &Limits) -> Outcomes {
        let tie_winner = state.tie_break().map(|on_equal_time| {
            let spend = limits.time.map_or(0.0, |t| t.hard);
            let own_after = clock.own_remaining - spend;
            let mover: Color = state.to_move();
            if !own_after.is_finite() || !clock.opponent_remaining.is_finite() || own_after == clock.opponent_remaining
            {
                on_equal_time
            } else if own_after > clock.opponent_remaining {
                mover
            } else {
                mover.opponent()
            }
        });
        Outcomes { objective: self.objective, tie_winner }
    }

    /// An error naming the first parameter setting that neither the core
    /// nor game `G` registers, or that is out of its range: whoever builds
    /// an engine from user input checks it before it plays.
    pub fn check<G: SearchGame>(&self) -> Result<(), String> {
        self.params.check::<G::Params>()
    }

    /// The transposition table size to allocate, in MiB.
    pub fn table_mb(&self) -> usize {
        if self.tt_mb == 0 { DEFAULT_TT_MB } else { self.tt_mb }
    }
}

/// The moves `state`'s side to move still has to play, with `remaining`
/// seconds on its clock: in a game whose end is known (Reversi's empties),
/// the midgame moves until the exact solve takes over, at the depth the
/// solver is expected to manage with the time of a move, then the endgame
/// as [`SearchParams::endgame_moves`] moves; otherwise the game's own
/// estimate of its length.
pub fn moves_ahead<G: SearchGame>(state: &G, remaining: f64, speed: Option<f64>, p: &SearchParams) -> MovesAhead {
    let progress = state.progress();
    match state.plies_to_end() {
        Some(end) => {
            let own_plies = f64::from(end) / 2.0;
            // A first guess at a move's hard limit decides where the solve starts.
            let hard_guess = remaining * (1.0 - p.safety) / (own_plies + p.extra_moves) * p.hard_factor;
            let solve = searcher::solve_plies(hard_guess, speed, p).min(end);
            let midgame = f64::from(end - solve) / 2.0;
            let final_progress = progress + (1.0 - progress) * f64::from(end - solve) / f64::from(end.max(1));
            let endgame = if solve > 0 { p.endgame_moves } else { 0.0 };
            MovesAhead { midgame, progress, final_progress, endgame }
        }
        None => MovesAhead { midgame: state.own_moves_left(), progress, final_progress: 1.0, endgame: 0.0 },
    }
}

/// The strong engine as a player of any [`SearchGame`]: the searcher with
/// its evaluator, searching each move within the configuration's limits
/// and the clock.
pub struct Engine<G: SearchGame, E: Evaluator<G>> {
    name: String,
    config: EngineConfig,
    searcher: Searcher<G, E>,
    overrun: Overrun,
}

impl<G: SearchGame, E: Evaluator<G>> Engine<G, E> {
    /// An engine called `name` that evaluates with `eval` under `config`
    /// (whose weights file the caller has already read into `eval`).
    pub fn with_evaluator(name: String, eval: Box<E>, config: EngineConfig) -> Self {
        let mut searcher = Searcher::new(eval, config.table_mb());
        searcher.set_clock(config.clock.clone());
        searcher.set_params(config.params.over(G::PARAMS));
        searcher.set_game_params(config.params.over(G::GAME_PARAMS));
        Engine { name, config, searcher, overrun: Overrun::default() }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The overrun measured in this game so far.
    pub fn overrun(&self) -> Overrun {
        self.overrun
    }

    /// Continues a game whose moves so far overran their plans by
    /// `overrun` (a program that runs once per move keeps it on disk).
    pub fn set_overrun(&mut self, overrun: Overrun) {
        self.overrun = overrun;
    }

    /// The evaluator (for analysis tools).
    pub fn evaluator(&self) -> &E {
        self.searcher.evaluator()
    }

    /// The expected line after the last search of `state` chose `best` (see
    /// [`Searcher::principal_variation`]).
    pub fn principal_variation(&self, state: &G, best: G::Move, max: usize) -> Vec<G::Move> {
        self.searcher.principal_variation(state, best, max)
    }
}

impl<G: SearchGame, E: CompiledSearch<G>> Engine<G, E> {
    /// Searches `state` for a move with `clock` on the game's clock, and
    /// records how far the search overran its plan for the next moves.
    pub fn play(&mut self, state: &G, clock: &Clock) -> SearchResult<G::Move> {
        let limits = self.config.limits(state, clock, &self.overrun);
        self.searcher.set_outcomes(self.config.outcomes(state, clock, &limits));
        let r = self.searcher.search(state, &limits);
        // Forced and solved moves say nothing about the midgame's overrun.
        if let Some(plan) = limits.time
            && clock.own_remaining.is_finite()
            && r.depth > 0
            && !r.exact
        {
            self.overrun.record(plan, r.seconds);
        }
        r
    }

    /// Searches `state` within `limits` (for analysis tools), both clocks
    /// taken as equal.
    pub fn search(&mut self, state: &G, limits: &Limits) -> SearchResult<G::Move> {
        self.searcher.set_outcomes(self.config.outcomes(state, &Clock::UNLIMITED, limits));
        self.searcher.search(state, limits)
    }
}

impl<G: SearchGame, E: CompiledSearch<G>> Agent<G> for Engine<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.searcher.clear();
        self.overrun = Overrun::default();
    }

    fn choose(&mut self, state: &G, clock: &Clock) -> Decision<G::Move> {
        let r = self.play(state, clock);
        Decision { mv: r.best, score: r.score, depth: Some(r.depth), nodes: r.nodes }
    }
}
