//! Iterative-deepening principal-variation search with aspiration windows,
//! the transposition table and history move ordering, switching to the exact
//! endgame solver once a search reaches the end of the game.
//!
//! A [`Searcher`] keeps its table, history and move stack between searches:
//! nothing is allocated while searching.

use super::control::{Control, SearchContext};
use super::hooks::{MOVE_SLOTS, SearchGame, Tactics};
use super::objective::{Objective, Outcomes};
use super::params::{SOLVE_CONFIDENCES, SearchParams};
use super::probcut::ProbCut;
use super::time::{IterationClock, NextIteration, TimePlan};
use super::tt::{Bound, FULL_CONFIDENCE, SOLVED_BASE, TranspositionTable, TtEntry, solved_depth};
use crate::cputime::CpuClock;
use crate::eval::{Evaluator, FinalScore, SCORE_PER_POINT};
use std::marker::PhantomData;
use std::time::Duration;

/// A score beyond every real score.
pub const INFINITY: i32 = 1_000_000;
/// Deepest iteration, and the deepest ply a search reaches (extensions
/// included): nodes this far from the root are evaluated.
pub const MAX_DEPTH: u32 = 128;
/// The score of winning at once, in games scored win/draw/loss
/// ([`SearchGame::WIN_LOSS`]): a win `p` plies from the root scores
/// [`won_in`]`(p)`, so that sooner wins (and later losses) are preferred.
pub const WIN: i32 = INFINITY / 2;
/// Scores at or beyond this (or at or below its negative) are won (lost)
/// positions.
pub const WIN_BOUND: i32 = WIN - 2 * MAX_DEPTH as i32;

/// The score of a win `plies` plies from the root.
#[inline(always)]
pub const fn won_in(plies: u32) -> i32 {
    WIN - plies as i32
}
/// Ordering bonus of the table's move.
const TABLE_MOVE_BONUS: i32 = 1 << 28;
/// History scores are halved when one exceeds this.
const HISTORY_LIMIT: i32 = 1 << 20;
/// History scores are divided by this at the start of each search: the
/// last move's statistics guide this one without ruling it.
const HISTORY_CARRY_DIVISOR: i32 = 4;
/// ...and halved when one passes the limit.
const HISTORY_HALVING: i32 = 2;
/// Stack entries reserved per ply (more than any position's moves).
const STACK_PER_PLY: usize = 384;
/// With less hard time than this, the clock is read more often.
const SHORT_BUDGET: f64 = 0.05;
/// Clock-read interval (nodes) under a short budget.
const SHORT_CHECK_INTERVAL: u64 = 128;

/// What bounds one search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// CPU-time plan.
    pub time: Option<TimePlan>,
    /// Solve exactly at once, without midgame iterations first (for games
    /// with an exact solver).
    pub solve: bool,
    /// This machine's search speed relative to the machine the exact-solve
    /// switch was measured on (`None`: the same).
    pub speed: Option<f64>,
    /// Search a forced move too, for its score (analysis); a player
    /// answers a forced move at once.
    pub search_forced: bool,
}

/// The outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The best move found; always legal.
    pub best: M,
    /// Its score from the mover's side, in score units (`None` when the move
    /// was forced and nothing was searched).
    pub score: Option<i32>,
    /// Depth of the last completed iteration (0: none).
    pub depth: u32,
    /// True when `score` is the exact game-theoretic value.
    pub exact: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// CPU seconds used.
    pub seconds: f64,
}

/// Relative speeds outside this range are taken as measurement errors and
/// clamped.
const SPEED_RANGE: (f64, f64) = (0.25, 4.0);

/// The plies the exact solver is expected to finish within `hard` seconds
/// on a machine `speed` times as fast as the one the `solve.*` parameters
/// were measured on.
pub fn solve_plies(hard: f64, speed: Option<f64>, p: &SearchParams) -> u32 {
    let speed = speed.unwrap_or(1.0).clamp(SPEED_RANGE.0, SPEED_RANGE.1);
    let doublings = (hard * speed).max(1e-6).log2();
    (p.solve_plies + p.solve_plies_per_doubling * doublings).max(0.0) as u32
}

/// A parameter in points of final score as score units.
fn points(value: f64) -> i32 {
    (value * f64::from(SCORE_PER_POINT)).round().max(1.0) as i32
}

/// A registry value that counts plies, as a whole number of plies.
fn plies(value: f64) -> u32 {
    value.round() as u32
}

/// Where the search of game `G` with evaluator `Self` is compiled.
///
/// In optimised builds rustc shares no generic instances between crates, so
/// every crate (each binary, test and library downstream) that searched a
/// game and evaluator pair compiled the whole search again, in its three CPU
/// code paths: minutes per crate. An evaluator this crate plays with names a
/// copy compiled here once for each concrete game; any other answers
/// [`Searcher::search_generic`], compiled where it is used (the default).
pub trait CompiledSearch<G: SearchGame>: Evaluator<G> + Sized {
    /// Searches `pos` within `limits` with `searcher` (see [`Searcher::search`]).
    #[inline]
    fn compiled_search(searcher: &mut Searcher<G, Self>, pos: &G, limits: &Limits) -> SearchResult<G::Move> {
        searcher.search_generic(pos, limits)
    }
}

/// The disc count alone (tests, reference searches).
impl<G: SearchGame> CompiledSearch<G> for FinalScore {}

/// A reusable search engine for `G` with evaluator `E`.
pub struct Searcher<G: SearchGame, E: Evaluator<G>> {
    ctx: SearchContext,
    eval: Box<E>,
    /// What the evaluation keeps about the positions of the current line.
    trail: E::Trail,
    history: Vec<i32>,
    /// Moves with ordering keys of every node on the current path.
    stack: Vec<(G::Move, i32)>,
    /// Root moves, best first after each iteration.
    root: Vec<G::Move>,
    clock: CpuClock,
    params: SearchParams,
    /// The game's own parameters.
    game_params: G::Params,
    /// The selectivity's table, from `params`.
    probcut: ProbCut,
    /// Shallowest depth that uses the transposition table, from `params`.
    table_depth: u32,
    /// Depth below which nodes use the small table, from `params`.
    small_table_depth: u32,
    /// Depth up to which nodes prefetch every child's bucket, from `params`.
    prefetch_children_depth: u32,
    /// How finished games score.
    outcomes: Outcomes,
    /// Scores from this one up (in absolute value) are proven results,
    /// from `outcomes`.
    proven: i32,
    game: PhantomData<G>,
}

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with evaluator `eval` and a transposition table of
    /// `tt_mb` MiB.
    pub fn new(eval: Box<E>, tt_mb: usize) -> Self {
        Searcher {
            ctx: SearchContext::new(tt_mb, G::PARAMS.small_table_mib as usize),
            eval,
            trail: E::Trail::default(),
            history: vec![0; MOVE_SLOTS],
            stack: Vec::with_capacity(STACK_PER_PLY * MAX_DEPTH as usize),
            root: Vec::with_capacity(STACK_PER_PLY),
            clock: CpuClock::Process,
            params: G::PARAMS,
            game_params: G::GAME_PARAMS,
            probcut: ProbCut::new(&G::PARAMS, MAX_DEPTH),
            table_depth: plies(G::PARAMS.table_depth),
            small_table_depth: plies(G::PARAMS.small_table_depth),
            prefetch_children_depth: plies(G::PARAMS.prefetch_children_depth),
            outcomes: Outcomes::MARGIN,
            proven: WIN_BOUND,
            game: PhantomData,
        }
    }

    /// Values finished games by `outcomes` from now on; a new searcher
    /// scores the final margin ([`Outcomes::MARGIN`]). Games scored
    /// win/draw/loss ([`SearchGame::WIN_LOSS`]) keep their scores.
    pub fn set_outcomes(&mut self, outcomes: Outcomes) {
        self.outcomes = if G::WIN_LOSS { Outcomes::MARGIN } else { outcomes };
        self.proven = self.outcomes.proven_from(WIN_BOUND);
    }

    /// How finished games score.
    pub fn outcomes(&self) -> Outcomes {
        self.outcomes
    }

    /// Forgets everything learnt (table, history) before a new game.
    pub fn clear(&mut self) {
        self.ctx.tt.clear();
        self.ctx.small.clear();
        self.history.fill(0);
    }

    /// Measures time limits on `clock` from now on.
    pub fn set_clock(&mut self, clock: CpuClock) {
        self.clock = clock;
    }

    /// Uses the game's `params` from now on.
    pub fn set_game_params(&mut self, params: G::Params) {
        self.game_params = params;
    }

    /// Uses `params` for its search and time decisions from now on.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        self.probcut = ProbCut::new(&params, MAX_DEPTH);
        self.table_depth = plies(params.table_depth);
        self.small_table_depth = plies(params.small_table_depth);
        self.prefetch_children_depth = plies(params.prefetch_children_depth);
        if self.ctx.small.mb() != params.small_table_mib as usize {
            self.ctx.small = TranspositionTable::new(params.small_table_mib as usize);
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// The line the last search of `pos` expects after choosing `best`:
    /// `best`, then the table's best move in each position along it while
    /// the table holds a legal one, at most `max` moves.
    pub fn principal_variation(&self, pos: &G, best: G::Move, max: usize) -> Vec<G::Move> {
        let mut line = vec![best];
        let mut state = pos.clone();
        state.make(best);
        while line.len() < max && !state.is_terminal() {
            let Some(index) = self.ctx.tt.probe(state.hash()).and_then(|e| e.best) else { break };
            let Some(&mv) = state.legal_moves().iter().find(|&&m| G::move_index(m) == index) else { break };
            line.push(mv);
            state.make(mv);
        }
        line
    }

    /// Searches `pos`, which must not be finished, within `limits`: the
    /// search itself, compiled in the crate that names it for `G` and `E`.
    /// Callers use [`Searcher::search`], which reaches the copy that
    /// [`CompiledSearch`] names.
    pub fn search_generic(&mut self, pos: &G, limits: &Limits) -> SearchResult<G::Move> {
        let start = self.clock.now();
        let tactics = pos.tactics();
        if let Tactics::Win(mv) = tactics {
            return SearchResult { best: mv, score: Some(won_in(1)), depth: 0, exact: true, nodes: 0, seconds: 0.0 };
        }
        self.root.clear();
        match &tactics {
            Tactics::Forced(defences) if !defences.is_empty() => self.root.extend(defences.iter().copied()),
            _ => self.root.extend(pos.legal_moves().iter().copied()),
        }
        assert!(!self.root.is_empty(), "search asked for a move in a finished game");
        // Order the root once by the game's hint.
        self.root.sort_unstable_by_key(|&mv| -pos.order_hint(mv));
        let mut result =
            SearchResult { best: self.root[0], score: None, depth: 0, exact: false, nodes: 0, seconds: 0.0 };
        if let Tactics::Forced(defences) = &tactics
            && defences.is_empty()
        {
            // Every move loses at once.
            result.score = Some(-won_in(2));
            result.exact = true;
            return result;
        }
        if self.root.len() == 1 && !limits.search_forced {
            return result;
        }
        let deadline = limits.time.map(|t| start + Duration::from_secs_f64(t.hard));
        self.ctx.control = Control::new(limits.nodes, deadline, self.clock.clone());
        if limits.time.is_some_and(|t| t.hard < SHORT_BUDGET) {
            self.ctx.control.set_interval(SHORT_CHECK_INTERVAL);
        }
        self.ctx.tt.new_search();
        self.ctx.small.new_search();
        for h in &mut self.history {
            *h /= HISTORY_CARRY_DIVISOR;
        }
        let mut root_pos = pos.clone();
        let mut extra_nodes = 0;
        if matches!(tactics, Tactics::Quiet) {
            let budget = limits.time.map(|t| Duration::from_secs_f64(t.target * self.params.forced_win_share));
            let (win, nodes) = root_pos.forced_win(budget, &self.clock);
            extra_nodes = nodes;
            if let Some(mv) = win {
                result.best = mv;
                result.score = Some(WIN_BOUND);
                result.nodes = nodes;
                result.seconds = self.seconds_since(start);
                return result;
            }
        }

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let end = pos.plies_to_end();
        let mut clock = limits.time.map(IterationClock::new);
        let mut depth = match end {
            Some(e) if limits.solve => e.max(1),
            _ => 1,
        };
        let mut prev_score = None;
        let mut same_parity_score = None;
        // The next step of the selective solves' ladder.
        let mut confidence_step = if end.is_some_and(|e| f64::from(e) >= self.params.solve_ladder_plies) {
            (self.params.solve_first_confidence.round() as usize).min(SOLVE_CONFIDENCES.len())
        } else {
            SOLVE_CONFIDENCES.len()
        };
        while depth <= max_depth {
            // The first iteration always finishes: there is always a move.
            self.ctx.control.arm(depth > 1 || limits.solve);
            let solve = end.is_some_and(|e| depth >= e);
            let selective = solve && confidence_step < SOLVE_CONFIDENCES.len();
            let exact = solve && !selective;
            let outcome = if selective {
                self.selective_iteration(&mut root_pos, depth, prev_score, SOLVE_CONFIDENCES[confidence_step])
            } else if exact {
                self.solve_iteration(&mut root_pos, depth, prev_score)
            } else {
                self.aspiration_iteration(&mut root_pos, depth, prev_score.unwrap_or(0))
            };
            if let Some((best, score)) = outcome.partial_best {
                // A move that beat the previous best in an unfinished iteration.
                result.best = best;
                result.score = Some(score);
            }
            if !outcome.complete {
                break;
            }
            let changed = result.best != self.root[0];
            result.best = self.root[0];
            result.score = Some(outcome.score);
            result.depth = depth;
            result.exact = exact;
            if selective {
                // The next solve of the ladder, more sure, or the exact one.
                prev_score = Some(outcome.score);
                confidence_step += 1;
                continue;
            }
            // Against the last iteration of the same parity: scores swing
            // between odd and even depths.
            let drop = same_parity_score.map_or(0, |p: i32| p.saturating_sub(outcome.score));
            same_parity_score = prev_score;
            prev_score = Some(outcome.score);
            let completed = depth;
            if exact || outcome.score.abs() >= self.proven {
                break;
            }
            let spent = self.seconds_since(start);
            depth += 1;
            // Switch to the exact solve once midgame iterations would cost
            // about as much, if the limits allow it.
            let solve_next = if let Some(e) = end
                && depth < e
                && f64::from(depth) + self.params.solve_warm_up_gap >= f64::from(e)
                && limits.depth.is_none_or(|d| d >= e)
                && limits.time.is_none_or(|plan| {
                    f64::from(e) <= self.params.solve_always
                        || e <= solve_plies(plan.hard - spent, limits.speed, &self.params)
                }) {
                depth = e;
                true
            } else {
                false
            };
            if let Some(clock) = clock.as_mut() {
                // Shallow iterations change their minds as a matter of course.
                let deep = f64::from(completed) >= self.params.extend_depth;
                let next = clock.iteration_done(spent, deep && changed, if deep { drop } else { 0 }, &self.params);
                let stop_at = match next {
                    // The solve was judged by its own estimate of the time left.
                    _ if solve_next => limits.time.map_or(f64::INFINITY, |t| t.hard),
                    NextIteration::Start { stop_at } => stop_at,
                    NextIteration::Stop => break,
                };
                self.ctx.control.set_deadline(Some(start + Duration::from_secs_f64(stop_at)));
            }
        }
        result.nodes = self.ctx.control.nodes + extra_nodes;
        result.seconds = self.seconds_since(start);
        result
    }

    /// CPU seconds on the search's clock since the reading `start`.
    fn seconds_since(&self, start: Duration) -> f64 {
        self.clock.now().saturating_sub(start).as_secs_f64()
    }

    /// One midgame iteration at `depth` inside aspiration windows around
    /// the previous score.
    fn aspiration_iteration(&mut self, pos: &mut G, depth: u32, prev: i32) -> Iteration<G::Move> {
        let half =
            if f64::from(depth) >= self.params.aspiration_depth { points(self.params.aspiration) } else { INFINITY };
        let growth = self.params.aspiration_growth as i32;
        self.windowed_iteration(pos, depth, prev, half, growth, (-INFINITY, INFINITY))
    }

    /// Root iterations at `depth` in a window `half` either side of
    /// `centre`, kept within (`lo`, `hi`) and widened `growth` times on the
    /// side the score falls out of, until the score lies inside (or at a
    /// bound it cannot pass) or the search runs out of time.
    fn windowed_iteration(
        &mut self,
        pos: &mut G,
        depth: u32,
        centre: i32,
        half: i32,
        growth: i32,
        (lo, hi): (i32, i32),
    ) -> Iteration<G::Move> {
        let mut widen = half;
        let (mut alpha, mut beta) = (centre.saturating_sub(widen).max(lo), centre.saturating_add(widen).min(hi));
        loop {
            let it = self.root_iteration(pos, depth, alpha, beta);
            if !it.complete {
                return it;
            }
            if it.score <= alpha && alpha > lo {
                widen = widen.saturating_mul(growth);
                alpha = it.score.saturating_sub(widen).max(lo);
            } else if it.score >= beta && beta < hi {
                widen = widen.saturating_mul(growth);
                beta = it.score.saturating_add(widen).min(hi);
            } else {
                return it;
            }
        }
    }

    /// `guess`, or without one the score of a shallow midgame search, which
    /// also orders the root: where a solve to `depth` centres its windows
    /// (`Err`: the search ran out of time).
    fn solve_guess(&mut self, pos: &mut G, depth: u32, guess: Option<i32>) -> Result<i32, Iteration<G::Move>> {
        match guess {
            Some(g) => Ok(g),
            None => {
                let it = self.aspiration_iteration(pos, (self.params.guess_depth as u32).min(depth - 1).max(1), 0);
                if it.complete { Ok(it.score) } else { Err(it) }
            }
        }
    }

    /// A selective solve at `confidence` (tenths of a standard deviation of
    /// the solver's ProbCut cuts) inside aspiration windows around `guess`
    /// (as [`Searcher::solve_iteration`] finds it): a score that is right
    /// with that confidence, and moves and bounds in the table for the
    /// surer solves after it.
    fn selective_iteration(
        &mut self,
        pos: &mut G,
        depth: u32,
        guess: Option<i32>,
        confidence: u8,
    ) -> Iteration<G::Move> {
        let guess = match self.solve_guess(pos, depth, guess) {
            Ok(g) => g,
            Err(it) => return it,
        };
        self.ctx.solve_confidence = confidence;
        let (half, growth) = (points(self.params.exact_aspiration), self.params.exact_aspiration_growth as i32);
        let it = self.windowed_iteration(pos, depth, guess, half, growth, (-INFINITY, INFINITY));
        self.ctx.solve_confidence = FULL_CONFIDENCE;
        it
    }

    /// The exact solve: win/loss/draw first, then the exact margin inside
    /// aspiration windows around `guess` (the last midgame score; without
    /// one, a shallow midgame search first gives it and orders the root).
    fn solve_iteration(&mut self, pos: &mut G, depth: u32, guess: Option<i32>) -> Iteration<G::Move> {
        let guess = match self.solve_guess(pos, depth, guess) {
            Ok(g) => g,
            Err(it) => return it,
        };
        let wld = self.root_iteration(pos, depth, -1, 1);
        if !wld.complete || wld.score == 0 {
            return wld;
        }
        let wld_move = self.root[0];
        // The margin lies beyond the proven side of zero.
        let (lo, hi) = if wld.score > 0 { (wld.score - 1, INFINITY) } else { (-INFINITY, wld.score + 1) };
        let centre = guess.clamp(lo + 1, hi - 1);
        let (half, growth) = (points(self.params.exact_aspiration), self.params.exact_aspiration_growth as i32);
        let it = self.windowed_iteration(pos, depth, centre, half, growth, (lo, hi));
        if it.complete {
            it
        } else {
            // Out of time: the win/draw/loss move stands unless this
            // search already proved a move at least as good.
            Iteration { partial_best: it.partial_best.or(Some((wld_move, wld.score))), ..it }
        }
    }

    /// Searches every root move at `depth` within (`alpha`, `beta`) and
    /// moves the best to the front of the root list.
    fn root_iteration(&mut self, pos: &mut G, depth: u32, mut alpha: i32, beta: i32) -> Iteration<G::Move> {
        let mut best = -INFINITY;
        let mut best_index = 0;
        let mut partial_best = None;
        let alpha_in = alpha;
        self.eval.trail_start(&mut self.trail, pos);
        for i in 0..self.root.len() {
            let mv = self.root[i];
            let undo = pos.make(mv);
            self.eval.trail_push(&mut self.trail, pos, mv, &undo);
            let v = if i == 0 {
                -crate::cpu::dispatch!(pvs::<G, E>(self, pos, depth - 1, 1, -beta, -alpha))
            } else {
                let probe = -crate::cpu::dispatch!(pvs::<G, E>(self, pos, depth - 1, 1, -alpha - 1, -alpha));
                if probe > alpha && probe < beta && !self.ctx.control.stopped() {
                    -crate::cpu::dispatch!(pvs::<G, E>(self, pos, depth - 1, 1, -beta, -alpha))
                } else {
                    probe
                }
            };
            pos.unmake(mv, undo);
            self.eval.trail_pop(&mut self.trail);
            if self.ctx.control.stopped() {
                return Iteration { complete: false, score: best, partial_best };
            }
            if v > best {
                best = v;
                best_index = i;
                if v > alpha {
                    alpha = v;
                    if i > 0 {
                        partial_best = Some((mv, v));
                    }
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        // Best first, the others keep their order.
        self.root[..=best_index].rotate_right(1);
        let key = pos.hash();
        let bound = Bound::of(best, alpha_in, beta);
        // Solved entries hold the solver's margins: under the objective of
        // wins, the root's score is stored as a deep midgame entry.
        let solved = pos.plies_to_end().is_some_and(|e| depth >= e) && self.outcomes.objective == Objective::Margin;
        let stored_depth = if solved { solved_depth(depth) } else { depth.min(u32::from(SOLVED_BASE) - 1) as u8 };
        let entry = TtEntry {
            score: best,
            best: Some(G::move_index(self.root[0])),
            depth: stored_depth,
            bound,
            confidence: self.ctx.solve_confidence,
        };
        self.ctx.tt.store(key, entry);
        Iteration { complete: true, score: best, partial_best: None }
    }
}

impl<G: SearchGame, E: CompiledSearch<G>> Searcher<G, E> {
    /// Searches `pos`, which must not be finished, within `limits`.
    #[inline]
    pub fn search(&mut self, pos: &G, limits: &Limits) -> SearchResult<G::Move> {
        E::compiled_search(self, pos, limits)
    }
}

/// What one root iteration found.
struct Iteration<M> {
    /// False when the search was stopped before it finished.
    complete: bool,
    /// The best score (meaningful when complete).
    score: i32,
    /// A move that proved better than the previous best before a stop.
    partial_best: Option<(M, i32)>,
}

/// `score` as the table stores it at `ply` plies from the root: wins and
/// losses counted from this node rather than from the root.
#[inline(always)]
const fn score_to_table(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A table score read at `ply` plies from the root.
#[inline(always)]
const fn score_from_table(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Moves the highest-keyed of `stack[from..all]` to `from` (one step of a
/// selection sort: nodes that cut early sort no further).
#[inline(always)]
fn select_best<M>(stack: &mut [(M, i32)], from: usize, all: usize) {
    let rest = &mut stack[from..all];
    let (mut top, mut best) = (0, rest[0].1);
    for (j, &(_, key)) in rest.iter().enumerate().skip(1) {
        if key > best {
            (top, best) = (j, key);
        }
    }
    rest.swap(0, top);
}

/// The value of the finished game `pos`, `ply` plies from the root, for
/// the side to move, valued by `outcomes`.
#[inline(always)]
fn final_value<G: SearchGame>(pos: &G, ply: u32, outcomes: Outcomes) -> i32 {
    let score = pos.final_score_for_mover();
    if G::WIN_LOSS { score.signum() * won_in(ply) } else { outcomes.final_score(score, pos.to_move()) }
}

/// The exact value of `pos` within (`alpha`, `beta`) from the game's
/// solver, fail-soft, valued by the searcher's outcomes (`None`: the game
/// has no solver). The solver works in margins: under the objective of
/// wins the window is turned into margins and its answer back.
#[inline(always)]
fn solve<G: SearchGame, E: Evaluator<G>>(s: &mut Searcher<G, E>, pos: &G, alpha: i32, beta: i32) -> Option<i32> {
    if s.outcomes.objective == Objective::Margin {
        return pos.solve_exact(&mut s.ctx, &*s.eval, &s.game_params, alpha, beta);
    }
    let mover = pos.to_move();
    let (lo, hi) = s.outcomes.margin_window(alpha, beta, mover);
    let margin = pos.solve_exact(&mut s.ctx, &*s.eval, &s.game_params, lo * SCORE_PER_POINT, hi * SCORE_PER_POINT)?;
    Some(s.outcomes.final_score(margin / SCORE_PER_POINT, mover))
}

crate::cpu::multiversion! {
    /// The value of `pos`, `ply` plies from the root, searched `depth`
    /// plies deep, fail-soft within (`alpha`, `beta`), for the side to move.
    fn pvs<G: SearchGame, E: Evaluator<G>>(
        s: &mut Searcher<G, E>,
        pos: &mut G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        /// The value of `pos`, `ply` plies from the root, at the horizon of
        /// a game without tactics ([`SearchGame::QUIET`]), for the side to
        /// move: a node counted (and the clock polled), a game plainly over
        /// scored as such, a full board scored exactly within (`alpha`,
        /// `beta`), else the evaluation. `last` is the move that reached
        /// `pos` and its undo when the trail does not hold `pos` yet.
        #[inline(always)]
        fn horizon_value<G: SearchGame, E: Evaluator<G>>(
            s: &mut Searcher<G, E>,
            pos: &mut G,
            ply: u32,
            alpha: i32,
            beta: i32,
            last: Option<(G::Move, &G::Undo)>,
        ) -> i32 {
            debug_assert!(matches!(pos.tactics(), Tactics::Quiet), "a game with tactics must not be QUIET");
            if s.ctx.control.poll() {
                return 0;
            }
            if pos.plainly_over() {
                return final_value(pos, ply, s.outcomes);
            }
            if pos.plies_to_end() == Some(0)
                && let Some(v) = solve::<G, E>(s, pos, alpha, beta)
            {
                return v;
            }
            match last {
                Some((mv, undo)) => s.eval.evaluate_after_on::<Simd>(&mut s.trail, pos, mv, undo),
                None => s.eval.evaluate_trail_on::<Simd>(&s.trail, pos),
            }
        }

        if G::QUIET && depth == 0 {
            return horizon_value::<G, E>(s, pos, ply, alpha, beta, None);
        }
        if s.ctx.control.poll() {
            return 0;
        }
        let left = pos.plies_to_end();
        if let Some(left) = left
            && depth >= left
            && let Some(v) = solve::<G, E>(s, pos, alpha, beta)
        {
            return v;
        }
        let forced = match pos.tactics() {
            Tactics::Quiet => None,
            Tactics::Over => return final_value(pos, ply, s.outcomes),
            Tactics::Win(_) => return won_in(ply + 1),
            Tactics::Forced(defences) if defences.is_empty() => return -won_in(ply + 2),
            Tactics::Forced(defences) => Some(defences),
        };
        if (depth == 0 && forced.is_none()) || ply >= MAX_DEPTH {
            return s.eval.evaluate_trail_on::<Simd>(&s.trail, pos);
        }
        let tabled = depth >= s.table_depth;
        let key = if tabled { pos.hash() } else { 0 };
        let mut table_move = None;
        let small = depth < s.small_table_depth;
        if tabled && let Some(mut entry) = s.ctx.table(small).probe(key) {
            if entry.is_solved() && s.outcomes.objective != Objective::Margin {
                // The solver's margin, valued as a finished game (the bound
                // holds: the valuation increases with the margin).
                entry.score = s.outcomes.final_score(entry.score / SCORE_PER_POINT, pos.to_move());
            }
            let score = score_from_table(entry.score, ply);
            if u32::from(entry.depth) >= depth && entry.cuts(alpha, beta) {
                return score;
            }
            table_move = entry.best;
        }
        // Multi-ProbCut at null-window nodes of the midgame search.
        if beta - alpha == 1
            && forced.is_none()
            && let Some((shallow, margin)) = s.probcut.at(depth)
            && left.is_none_or(|left| depth < left)
            && pos.probcut_safe(&s.game_params)
        {
            // A shallow search may not stand in for a proof: no cut at or
            // beyond a proven score.
            let high = beta.saturating_add(margin);
            if high < s.proven && pvs::<G, E>(s, pos, shallow, ply, high - 1, high) >= high {
                return beta;
            }
            let low = alpha.saturating_sub(margin);
            if low > -s.proven && pvs::<G, E>(s, pos, shallow, ply, low, low + 1) <= low {
                return alpha;
            }
            if s.ctx.control.stopped() {
                return 0;
            }
        }
        // Forced replies do not use up depth.
        let (next_depth, width) = match forced {
            Some(_) => (depth, usize::MAX),
            None => (depth - 1, G::search_width(depth)),
        };
        let expansion = pos.expand_on::<Simd>();
        let moves = forced.unwrap_or_else(|| pos.legal_moves_from(&expansion));
        if moves.is_empty() {
            return final_value(pos, ply, s.outcomes);
        }
        let child_tabled = next_depth > 0 && next_depth >= s.table_depth;
        let child_small = next_depth < s.small_table_depth;
        let prefetch_siblings = G::SIBLING_PREFETCH && child_tabled;
        // Shallow nodes ask for every child's bucket at once: their
        // children are cheap, so the next one's miss is not hidden behind
        // the search of the one before.
        let prefetch_children = prefetch_siblings && depth <= s.prefetch_children_depth;
        let base = s.stack.len();
        for &mv in moves.iter() {
            let index = G::move_index(mv);
            if prefetch_children {
                s.ctx.table(child_small).prefetch(pos.result_from(&expansion, mv).hash());
            }
            let order = if table_move == Some(index) {
                if prefetch_siblings && !prefetch_children {
                    // The table's move is searched first: its bucket arrives
                    // while the moves are ordered.
                    s.ctx.table(child_small).prefetch(pos.result_from(&expansion, mv).hash());
                }
                TABLE_MOVE_BONUS
            } else if depth >= G::HINT_DEPTH {
                pos.order_hint_from(&expansion, mv) + s.history[index]
            } else {
                s.history[index]
            };
            s.stack.push((mv, order));
        }
        let end = s.stack.len().min(base.saturating_add(width));
        let all = s.stack.len();
        let alpha_in = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in base..end {
            // From the second child on, the previous step selected this child
            // and prefetched its bucket (while the first child was searched
            // for the second: a cut there wastes one selection and prefetch,
            // a second child no longer waits for its bucket).
            let selected_early = prefetch_siblings && i > base;
            if !selected_early {
                select_best(&mut s.stack, i, all);
            }
            let mv = s.stack[i].0;
            if prefetch_siblings && i + 1 < end {
                // The next sibling's bucket arrives while this child is searched.
                select_best(&mut s.stack, i + 1, all);
                s.ctx.table(child_small).prefetch(pos.result_from(&expansion, s.stack[i + 1].0).hash());
            }
            let undo = pos.make_from(&expansion, mv);
            if child_tabled && !selected_early {
                s.ctx.table(child_small).prefetch(pos.hash());
            }
            let v = if next_depth == 0 && G::QUIET {
                // A horizon child, valued in place without a call or a step
                // of the trail; its value does not depend on the window, so
                // it is never searched twice.
                -horizon_value::<G, E>(s, pos, ply + 1, -beta, -alpha, Some((mv, &undo)))
            } else {
                s.eval.trail_push(&mut s.trail, pos, mv, &undo);
                let v = if i == base {
                    -pvs::<G, E>(s, pos, next_depth, ply + 1, -beta, -alpha)
                } else {
                    let probe = -pvs::<G, E>(s, pos, next_depth, ply + 1, -alpha - 1, -alpha);
                    if probe > alpha && probe < beta {
                        -pvs::<G, E>(s, pos, next_depth, ply + 1, -beta, -alpha)
                    } else {
                        probe
                    }
                };
                s.eval.trail_pop(&mut s.trail);
                v
            };
            pos.unmake(mv, undo);
            if s.ctx.control.stopped() {
                s.stack.truncate(base);
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(G::move_index(mv));
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        let h = &mut s.history[G::move_index(mv)];
                        *h += (depth * depth) as i32;
                        if *h > HISTORY_LIMIT {
                            for x in &mut s.history {
                                *x /= HISTORY_HALVING;
                            }
                        }
                        break;
                    }
                }
            }
        }
        s.stack.truncate(base);
        if !tabled {
            return best;
        }
        let bound = Bound::of(best, alpha_in, beta);
        let entry = TtEntry {
            score: score_to_table(best, ply),
            best: best_move,
            depth: depth.min(u32::from(SOLVED_BASE) - 1) as u8,
            bound,
            confidence: FULL_CONFIDENCE,
        };
        s.ctx.table_mut(small).store(key, entry);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_scores_keep_the_distance_to_a_win() {
        // A win 5 plies from the root found at ply 2 is 3 plies from that
        // node: reached again at ply 4 it is 7 plies from the root.
        assert_eq!(score_from_table(score_to_table(won_in(5), 2), 4), won_in(7));
        assert_eq!(score_from_table(score_to_table(-won_in(6), 3), 1), -won_in(4));
        // Ordinary scores are stored as they are.
        for score in [0, 1234, -1234, WIN_BOUND - 1, -(WIN_BOUND - 1)] {
            assert_eq!(score_to_table(score, 9), score);
            assert_eq!(score_from_table(score, 9), score);
        }
    }

    #[test]
    fn the_search_knows_the_subtraction_game() {
        // Bouton's theory: the player to move loses exactly when the pile
        // is a multiple of four, and otherwise wins by leaving one.
        use crate::game::Game;
        use crate::testing::{Subtraction, Take};
        let mut searcher: Searcher<Subtraction, FinalScore> = Searcher::new(Box::new(FinalScore), 1);
        for pile in 1..=21u32 {
            let r = searcher.search(
                &Subtraction::new(pile),
                &Limits { depth: Some(pile), search_forced: true, ..Limits::default() },
            );
            let score = r.score.expect("a searched position has a score");
            if pile % 4 == 0 {
                assert!(score <= -WIN_BOUND, "pile {pile}: {score}");
            } else {
                assert!(score >= WIN_BOUND, "pile {pile}: {score}");
                assert_eq!(r.best, Take((pile % 4) as u8), "pile {pile}");
                // The quickest win: the last stones at once when they can go.
                if pile <= 3 {
                    assert_eq!(score, won_in(1), "pile {pile}");
                }
            }
            assert!(Subtraction::new(pile).legal_moves().contains(&r.best));
        }
    }
}
