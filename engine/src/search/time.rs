//! CPU-time planning for one move from the game clock.
//!
//! The plan splits what is left (minus a safety margin and a fixed reserve
//! for starting and ending the program) over the moves the agent still
//! expects to make, weighted up in the middle game. The search starts no
//! new iteration past a fraction of the target, may stretch the target when
//! the best move is unstable, and stops at the hard limit whatever happens.

/// Fraction of the remaining time never planned for.
const SAFETY_FRACTION: f64 = 0.06;
/// CPU seconds kept back per move for the program's own start, input and
/// output, outside the search.
pub const PROGRAM_RESERVE: f64 = 0.004;
/// Moves added to the estimate of moves left, so the plan never counts on
/// the game ending early.
const EXTRA_MOVES: f64 = 3.0;
/// Extra weight of a move in the middle of the game (progress 0.5).
const MIDGAME_BONUS: f64 = 0.6;
/// The hard limit is this multiple of the target...
const HARD_FACTOR: f64 = 4.0;
/// ...but never more than this fraction of the usable time.
const HARD_FRACTION: f64 = 0.25;
/// No new iteration starts after this fraction of the target is spent.
pub const NEXT_ITERATION_FRACTION: f64 = 0.45;
/// Target multiplier when the best move changed in the last iteration.
pub const UNSTABLE_FACTOR: f64 = 2.0;

/// The CPU time one move may use, in seconds from the start of its search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePlan {
    /// What the move should use.
    pub target: f64,
    /// What it must never exceed.
    pub hard: f64,
}

impl TimePlan {
    /// A fixed budget: aim for and stop at `seconds`.
    pub fn fixed(seconds: f64) -> Self {
        TimePlan { target: seconds, hard: seconds }
    }

    /// The plan for a move with `remaining` CPU seconds on the clock, about
    /// `own_moves_left` moves still to make and the game `progress` (0 at
    /// the start, 1 at the end).
    pub fn from_clock(remaining: f64, own_moves_left: f64, progress: f64) -> Self {
        let usable = (remaining * (1.0 - SAFETY_FRACTION) - PROGRAM_RESERVE).max(0.0);
        let weight = 1.0 + MIDGAME_BONUS * 4.0 * progress * (1.0 - progress);
        let share = usable / (own_moves_left.max(1.0) + EXTRA_MOVES);
        let hard = (share * weight * HARD_FACTOR).min(usable * HARD_FRACTION);
        let target = (share * weight).min(hard);
        TimePlan { target, hard }
    }

    /// The tighter of two plans.
    pub fn min(self, other: TimePlan) -> TimePlan {
        TimePlan { target: self.target.min(other.target), hard: self.hard.min(other.hard) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_stay_within_the_clock() {
        for remaining in [0.001, 0.01, 0.5, 5.2, 300.0] {
            for moves in [1.0, 10.0, 60.0] {
                for progress in [0.0, 0.5, 1.0] {
                    let plan = TimePlan::from_clock(remaining, moves, progress);
                    assert!(plan.target >= 0.0 && plan.target <= plan.hard);
                    assert!(plan.hard <= remaining * HARD_FRACTION, "{remaining} {moves} {plan:?}");
                }
            }
        }
    }

    #[test]
    fn tiny_clocks_give_tiny_budgets() {
        let plan = TimePlan::from_clock(0.01, 30.0, 0.5);
        assert!(plan.hard < 0.002, "{plan:?}");
        assert_eq!(TimePlan::from_clock(0.003, 5.0, 0.5).hard, 0.0);
    }

    #[test]
    fn the_middle_game_gets_more_than_the_opening() {
        let opening = TimePlan::from_clock(300.0, 60.0, 0.0);
        let middle = TimePlan::from_clock(300.0, 60.0, 0.5);
        assert!(middle.target > opening.target * 1.4);
        // A 300 s game with 60 moves to go: a few seconds per move.
        assert!(opening.target > 3.0 && middle.hard < 300.0 * HARD_FRACTION);
    }
}
