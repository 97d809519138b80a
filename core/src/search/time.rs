//! CPU-time planning: how much of the game clock one move gets, and whether
//! a search that finished an iteration starts another.
//!
//! The plan ([`TimePlan::from_clock`]) splits what is left (minus a safety
//! fraction and a fixed reserve for starting and ending the program) over
//! the moves still to play ([`MovesAhead`]), each weighted by where it falls
//! in the game: more at the plan's peak, a known share for an exact endgame.
//! The search ([`IterationClock`]) starts a new iteration only when its cost,
//! predicted from the last iteration's time and the measured growth per
//! depth, fits the target; spends at least a set share of the target; gives
//! more time when the best move changes or the score drops; and stops at the
//! hard limit whatever happens. Every number is a [`SearchParams`] entry.

use super::params::SearchParams;

/// CPU seconds kept back per move for the program's own start, input and
/// output, outside the search.
pub const PROGRAM_RESERVE: f64 = 0.004;
/// Iterations faster than this (CPU seconds) are too short to measure the
/// growth per depth from.
const MEASURABLE_ITERATION: f64 = 0.002;
/// Progress steps the weight of the moves ahead is summed over at most.
const WEIGHT_SAMPLES: usize = 64;
/// The running overrun stays within the range `time.overrun` accepts.
const OVERRUN_RANGE: (f64, f64) = (0.5, 4.0);

/// The CPU time one move may use, in seconds from the start of its search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePlan {
    /// What the move should use.
    pub target: f64,
    /// What it must never exceed.
    pub hard: f64,
}

/// The moves the side to move still has to make, as the plan sees them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovesAhead {
    /// Own moves still to be searched in the middle game (this one included).
    pub midgame: f64,
    /// Game progress now (0 start, 1 end).
    pub progress: f64,
    /// Game progress at the last of those moves.
    pub final_progress: f64,
    /// Own moves' worth of time for an exact endgame after them (0: none).
    pub endgame: f64,
}

/// The weight of a move at `progress`: 1, plus up to `peak_bonus` near
/// `peak_progress`.
fn weight(progress: f64, p: &SearchParams) -> f64 {
    let x = (progress - p.peak_progress) / p.peak_spread;
    1.0 + p.peak_bonus * (1.0 - x * x).max(0.0)
}

impl TimePlan {
    /// A fixed budget: aim for and stop at `seconds`.
    pub fn fixed(seconds: f64) -> Self {
        TimePlan { target: seconds, hard: seconds }
    }

    /// The plan for a move with `remaining` CPU seconds on the clock and
    /// `ahead` still to play.
    pub fn from_clock(remaining: f64, ahead: &MovesAhead, p: &SearchParams) -> Self {
        let usable = (remaining * (1.0 - p.safety) - PROGRAM_RESERVE).max(0.0);
        let now = weight(ahead.progress, p);
        // The weights of the midgame moves ahead, sampled along the way.
        let moves = ahead.midgame.max(1.0);
        let samples = (moves.ceil() as usize).clamp(1, WEIGHT_SAMPLES);
        let mean = (0..samples)
            .map(|i| {
                let t = if samples == 1 { 0.0 } else { i as f64 / (samples - 1) as f64 };
                weight(ahead.progress + t * (ahead.final_progress - ahead.progress), p)
            })
            .sum::<f64>()
            / samples as f64;
        let total = moves * mean + (ahead.endgame + p.extra_moves) * weight(ahead.final_progress, p);
        let share = usable * now / total.max(1.0) / p.overrun;
        let hard = (share * p.hard_factor).min(usable * p.hard_fraction);
        TimePlan { target: share.min(hard), hard }
    }

    /// The tighter of two plans.
    pub fn min(self, other: TimePlan) -> TimePlan {
        TimePlan { target: self.target.min(other.target), hard: self.hard.min(other.hard) }
    }
}

/// How far the searched moves of a game so far overran their targets (CPU
/// time over target, each at most its hard limit over its target): the
/// plan's running overrun, starting from `time.overrun`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overrun {
    /// Searched moves measured.
    pub moves: f64,
    /// The sum of their overruns.
    pub sum: f64,
}

impl Overrun {
    /// Adds a move planned as `plan` that spent `spent` CPU seconds.
    pub fn record(&mut self, plan: TimePlan, spent: f64) {
        if plan.target >= MEASURABLE_ITERATION {
            self.moves += 1.0;
            self.sum += spent.min(plan.hard) / plan.target;
        }
    }

    /// The overrun the next plan divides by: the measured mean, with
    /// `time.overrun` counted as `time.overrun_moves` moves, within the
    /// registry's range of `time.overrun`.
    pub fn expected(&self, p: &SearchParams) -> f64 {
        let weight = p.overrun_moves;
        if self.moves + weight <= 0.0 {
            return p.overrun;
        }
        ((self.sum + p.overrun * weight) / (self.moves + weight)).clamp(OVERRUN_RANGE.0, OVERRUN_RANGE.1)
    }
}

/// What the search does after an iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NextIteration {
    /// Start it; stop it at this many CPU seconds from the move's start.
    Start {
        /// The deadline of the next iteration.
        stop_at: f64,
    },
    /// Play the best move found so far.
    Stop,
}

/// The time decisions of one move's iterative deepening.
#[derive(Clone, Copy, Debug)]
pub struct IterationClock {
    plan: TimePlan,
    target: f64,
    /// Seconds spent when the last iteration ended, and its duration.
    last_end: f64,
    last: f64,
    /// Durations of the two iterations before it (0: none).
    before_last: f64,
    two_before: f64,
}

impl IterationClock {
    /// The clock of a move planned as `plan`.
    pub fn new(plan: TimePlan) -> Self {
        IterationClock { plan, target: plan.target, last_end: 0.0, last: 0.0, before_last: 0.0, two_before: 0.0 }
    }

    /// The current target (planned, stretched by instability).
    pub fn target(&self) -> f64 {
        self.target
    }

    /// The predicted cost of the next iteration: the last one's times the
    /// larger of the last two measured growths. Alpha-beta trees grow by
    /// different factors into odd and into even depths, so the growth two
    /// iterations back (same parity as the next) counts as much as the last.
    pub fn predicted_next(&self, p: &SearchParams) -> f64 {
        let growth = |from: f64, to: f64| {
            (from >= MEASURABLE_ITERATION && to >= MEASURABLE_ITERATION)
                .then(|| (to / from).clamp(p.branching_min, p.branching_max))
        };
        let growth = match (growth(self.before_last, self.last), growth(self.two_before, self.before_last)) {
            (Some(last), Some(same_parity)) => last.max(same_parity),
            (Some(last), None) => last,
            _ => p.branching,
        };
        self.last.max(MEASURABLE_ITERATION) * growth
    }

    /// Records an iteration that ended `spent` seconds into the move, with
    /// whether the best move changed and the score drop (score units, > 0
    /// when worse) against the last iteration; returns what to do next.
    pub fn iteration_done(
        &mut self,
        spent: f64,
        best_changed: bool,
        score_drop: i32,
        p: &SearchParams,
    ) -> NextIteration {
        self.two_before = self.before_last;
        self.before_last = self.last;
        self.last = (spent - self.last_end).max(0.0);
        self.last_end = spent;
        let cap = self.plan.target * p.extend_cap;
        if best_changed {
            self.target = (self.target * p.unstable_factor).min(cap);
        }
        if f64::from(score_drop) >= p.drop_points * f64::from(crate::eval::SCORE_PER_POINT) {
            self.target = (self.target * p.drop_factor).min(cap);
        }
        self.target = self.target.min(self.plan.hard);
        if spent >= self.plan.hard {
            return NextIteration::Stop;
        }
        if spent + self.predicted_next(p) <= self.target * p.start_allowance {
            NextIteration::Start { stop_at: self.plan.hard }
        } else if spent < self.target * p.min_use {
            NextIteration::Start { stop_at: self.target }
        } else {
            NextIteration::Stop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: SearchParams = SearchParams::DEFAULT;

    fn ahead(midgame: f64, progress: f64) -> MovesAhead {
        MovesAhead { midgame, progress, final_progress: 1.0, endgame: 0.0 }
    }

    #[test]
    fn plans_stay_within_the_clock() {
        for remaining in [0.001, 0.01, 0.5, 5.2, 300.0] {
            for moves in [0.0, 1.0, 10.0, 60.0] {
                for progress in [0.0, 0.5, 1.0] {
                    let plan = TimePlan::from_clock(remaining, &ahead(moves, progress), &P);
                    assert!(plan.target >= 0.0 && plan.target <= plan.hard);
                    assert!(plan.hard <= remaining * P.hard_fraction, "{remaining} {moves} {plan:?}");
                }
            }
        }
    }

    #[test]
    fn tiny_clocks_give_tiny_budgets() {
        let plan = TimePlan::from_clock(0.01, &ahead(30.0, 0.5), &P);
        assert!(plan.hard < 0.002, "{plan:?}");
        assert_eq!(TimePlan::from_clock(0.003, &ahead(5.0, 0.5), &P).hard, 0.0);
    }

    #[test]
    fn the_peak_gets_more_than_the_opening_and_the_plan_spends_the_clock() {
        let opening = TimePlan::from_clock(300.0, &ahead(60.0, 0.0), &P);
        let peak = TimePlan::from_clock(300.0, &ahead(60.0, P.peak_progress), &P);
        assert!(peak.target > opening.target * (1.0 + P.peak_bonus * 0.9), "{opening:?} {peak:?}");
        // Spending the targets times the expected overrun move after move
        // spends the usable clock on the planned moves (the extra moves'
        // share is what is left), with or without an overrun.
        for overrun in [1.0, 1.5] {
            let p = SearchParams { overrun, ..P };
            let (mut clock, moves) = (300.0, 60);
            for k in 0..moves {
                let progress = f64::from(k) / f64::from(moves);
                let plan = TimePlan::from_clock(clock, &ahead(f64::from(moves - k), progress), &p);
                clock -= (plan.target * overrun).min(plan.hard);
            }
            assert!(clock > 0.0 && clock < 300.0 * 0.15, "overrun {overrun}: {clock} s left");
        }
    }

    #[test]
    fn an_expected_overrun_shrinks_every_share_by_itself() {
        let at = |overrun| TimePlan::from_clock(300.0, &ahead(40.0, 0.3), &SearchParams { overrun, ..P });
        assert!((at(1.0).target / at(1.6).target - 1.6).abs() < 1e-9);
    }

    #[test]
    fn an_exact_endgame_is_planned_as_a_share_of_the_clock() {
        let without = TimePlan::from_clock(100.0, &ahead(20.0, 0.5), &P);
        let with = TimePlan::from_clock(100.0, &MovesAhead { endgame: 4.0, ..ahead(20.0, 0.5) }, &P);
        assert!(with.target < without.target);
    }

    #[test]
    fn the_running_overrun_moves_from_the_prior_to_what_the_game_measures() {
        let p = SearchParams { overrun: 1.4, overrun_moves: 4.0, ..P };
        let mut overrun = Overrun::default();
        assert!((overrun.expected(&p) - 1.4).abs() < 1e-9);
        let plan = TimePlan { target: 1.0, hard: 3.0 };
        // Four moves at 2x: halfway from the prior to 2.
        for _ in 0..4 {
            overrun.record(plan, 2.0);
        }
        assert!((overrun.expected(&p) - 1.7).abs() < 1e-9);
        // A move that ran past its hard limit counts as the hard limit, and
        // moves far under their targets push the overrun down to the
        // registry's floor at most.
        overrun.record(plan, 10.0);
        assert!((overrun.sum - 11.0).abs() < 1e-9);
        for _ in 0..100 {
            overrun.record(plan, 0.1);
        }
        assert_eq!(overrun.expected(&p), OVERRUN_RANGE.0);
        // No prior weight: what was measured; nothing measured: the prior.
        assert_eq!(Overrun::default().expected(&SearchParams { overrun_moves: 0.0, ..p }), 1.4);
    }

    #[test]
    fn iterations_start_only_when_predicted_to_fit() {
        let plan = TimePlan { target: 1.0, hard: 3.0 };
        let mut clock = IterationClock::new(plan);
        // Depth 1..: each iteration 4x the last.
        assert_eq!(clock.iteration_done(0.01, false, 0, &P), NextIteration::Start { stop_at: 3.0 });
        assert_eq!(clock.iteration_done(0.05, false, 0, &P), NextIteration::Start { stop_at: 3.0 });
        // 0.21 s spent, the next predicted at 4 x 0.16: fits within 1.0.
        assert_eq!(clock.iteration_done(0.21, false, 0, &P), NextIteration::Start { stop_at: 3.0 });
        // 0.85 s spent, the next would end far past the target, and more than
        // the minimum share is spent: stop.
        assert_eq!(clock.iteration_done(0.85, false, 0, &P), NextIteration::Stop);
    }

    #[test]
    fn the_growth_into_the_next_parity_counts() {
        let plan = TimePlan { target: 10.0, hard: 30.0 };
        let mut clock = IterationClock::new(plan);
        // Iterations of 0.1, 0.5 (x5), then 0.75 (x1.5): the next one, of
        // the parity that grew x5, is predicted at 0.75 x 5, not x 1.5.
        clock.iteration_done(0.1, false, 0, &P);
        clock.iteration_done(0.6, false, 0, &P);
        clock.iteration_done(1.35, false, 0, &P);
        assert!((clock.predicted_next(&P) - 0.75 * 5.0).abs() < 1e-9, "{}", clock.predicted_next(&P));
        // With one growth measured, that one counts.
        let mut fresh = IterationClock::new(plan);
        fresh.iteration_done(0.1, false, 0, &P);
        fresh.iteration_done(0.3, false, 0, &P);
        assert!((fresh.predicted_next(&P) - 0.2 * 2.0).abs() < 1e-9);
    }

    #[test]
    fn the_minimum_share_is_spent_and_capped_at_the_target() {
        let plan = TimePlan { target: 1.0, hard: 3.0 };
        let mut clock = IterationClock::new(plan);
        clock.iteration_done(0.05, false, 0, &P);
        // 0.3 s spent, the next predicted at 5 x 0.25 = 1.25 s: does not fit,
        // but less than min_use of the target is spent.
        assert_eq!(clock.iteration_done(0.3, false, 0, &P), NextIteration::Start { stop_at: 1.0 });
    }

    #[test]
    fn instability_and_score_drops_stretch_the_target_up_to_the_caps() {
        let plan = TimePlan { target: 1.0, hard: 3.0 };
        let mut clock = IterationClock::new(plan);
        clock.iteration_done(0.1, true, 0, &P);
        assert!((clock.target() - P.unstable_factor).abs() < 1e-9);
        clock.iteration_done(0.2, false, 1000, &P);
        assert!((clock.target() - P.unstable_factor * P.drop_factor).abs() < 1e-9);
        for _ in 0..10 {
            clock.iteration_done(0.3, true, 1000, &P);
        }
        assert!((clock.target() - P.extend_cap).abs() < 1e-9);
        assert_eq!(clock.iteration_done(3.0, false, 0, &P), NextIteration::Stop);
    }
}
