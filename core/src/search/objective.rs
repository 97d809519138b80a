//! What a search plays for, and what a finished game is worth to it.
//!
//! Under [`Objective::Wins`] (every program that plays a game) a proven
//! result lies outside the evaluation's range, in bands, as mate scores do
//! in chess engines: every win above every unproven score, every unproven
//! score above a level score lost on the tie rule, and that above every
//! loss; within the wins and the losses, the margin orders (a bigger win,
//! a smaller loss). A level score is worth 0 when it is a draw, and
//! [`DECIDED`] (or its negative) when the game's tie rule gives it to one
//! side. Under [`Objective::Margin`] (analysis and the FFO-style
//! benchmarks, whose answer is the exact disc margin) a finished game is
//! its margin in score units, as the evaluation predicts it.
//!
//! Games scored win/draw/loss alone ([`super::SearchGame::WIN_LOSS`],
//! Pente) value a win by how soon it comes and ignore the objective.

use crate::eval::SCORE_PER_POINT;
use crate::game::Color;
use std::fmt;
use std::str::FromStr;

/// The lowest score of a proven win under [`Objective::Wins`] (a level
/// score won on the tie rule); a win by `m` scores this plus `m` margin
/// units. Far beyond any evaluation (the largest margin, 145 discs on
/// 12x12, is 14,500 score units) and below the win-in-plies scores of
/// win/draw/loss games.
pub const DECIDED: i32 = 200_000;

/// What the search maximises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Objective {
    /// Winning: proven wins above every evaluation, proven losses below it.
    #[default]
    Wins,
    /// The final margin (points of final score; discs in Reversi): a finished game scores as the evaluation
    /// would predict it.
    Margin,
}

impl FromStr for Objective {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "wins" => Ok(Objective::Wins),
            "discs" | "margin" => Ok(Objective::Margin),
            _ => Err(format!("unknown objective `{s}`: expected `wins` or `discs`")),
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Objective::Wins => "wins",
            Objective::Margin => "discs",
        })
    }
}

/// How one search values finished games: its objective and, under
/// [`Objective::Wins`], who wins a level final score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// What the search maximises.
    pub objective: Objective,
    /// The side a level final score goes to (`None`: it is a draw).
    pub tie_winner: Option<Color>,
}

impl Outcomes {
    /// The final margin in score units, no tie rule.
    pub const MARGIN: Outcomes = Outcomes { objective: Objective::Margin, tie_winner: None };

    /// Wins, a level score going to `tie_winner` (`None`: a draw).
    pub const fn wins(tie_winner: Option<Color>) -> Self {
        Outcomes { objective: Objective::Wins, tie_winner }
    }

    /// The score of a finished game whose final margin for `mover`, the
    /// side to move, is `margin` (in the game's points: discs in Reversi).
    #[inline(always)]
    pub const fn final_score(self, margin: i32, mover: Color) -> i32 {
        match self.objective {
            Objective::Margin => margin * SCORE_PER_POINT,
            Objective::Wins => {
                if margin > 0 {
                    DECIDED + margin * SCORE_PER_POINT
                } else if margin < 0 {
                    -DECIDED + margin * SCORE_PER_POINT
                } else {
                    self.level_score(mover)
                }
            }
        }
    }

    /// The score of a level final margin for `mover` under
    /// [`Objective::Wins`].
    #[inline(always)]
    const fn level_score(self, mover: Color) -> i32 {
        match self.tie_winner {
            None => 0,
            Some(c) if c as u8 == mover as u8 => DECIDED,
            Some(_) => -DECIDED,
        }
    }

    /// The window (`alpha`, `beta`) in score units as a window of final
    /// margins for `mover`: the largest margin that scores at most `alpha`
    /// and the smallest that scores at least `beta`. A fail-soft exact
    /// solve in that window, scored by [`Outcomes::final_score`], is a
    /// fail-soft result in (`alpha`, `beta`): the scoring is strictly
    /// increasing in the margin.
    pub const fn margin_window(self, alpha: i32, beta: i32, mover: Color) -> (i32, i32) {
        match self.objective {
            Objective::Margin => (alpha.div_euclid(SCORE_PER_POINT), ceil_div(beta, SCORE_PER_POINT)),
            Objective::Wins => {
                let level = self.level_score(mover);
                let lo = if alpha >= DECIDED + SCORE_PER_POINT {
                    (alpha - DECIDED).div_euclid(SCORE_PER_POINT)
                } else if alpha >= level {
                    0
                } else {
                    min(-1, (alpha + DECIDED).div_euclid(SCORE_PER_POINT))
                };
                let hi = if beta <= -DECIDED - SCORE_PER_POINT {
                    ceil_div(beta + DECIDED, SCORE_PER_POINT)
                } else if beta <= level {
                    0
                } else {
                    max(1, ceil_div(beta - DECIDED, SCORE_PER_POINT))
                };
                (lo, hi)
            }
        }
    }

    /// The score units from which on (in absolute value) a score is a
    /// proven result: [`DECIDED`] under [`Objective::Wins`], `otherwise`
    /// (the win-in-plies bound) under [`Objective::Margin`], where proven
    /// margins mix with evaluations.
    pub const fn proven_from(self, otherwise: i32) -> i32 {
        match self.objective {
            Objective::Wins => DECIDED,
            Objective::Margin => otherwise,
        }
    }
}

/// `a / b` rounded up, for `b > 0`.
const fn ceil_div(a: i32, b: i32) -> i32 {
    (a + b - 1).div_euclid(b)
}

/// The smaller of `a` and `b` (`Ord::min` is not `const`).
const fn min(a: i32, b: i32) -> i32 {
    if a < b { a } else { b }
}

/// The larger of `a` and `b`.
const fn max(a: i32, b: i32) -> i32 {
    if a > b { a } else { b }
}

/// Which band a score of a search under [`Objective::Wins`] lies in, as
/// `analyze`, `selfplay`'s `positions.csv` and the programs' logs print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// A proven win by this margin (0: a level score won on the tie rule).
    Won(i32),
    /// A proven loss by this margin (0: a level score lost on the tie rule).
    Lost(i32),
    /// An evaluation, or an exact draw (score units).
    Unproven(i32),
}

impl Band {
    /// The band of `score` under [`Objective::Wins`].
    pub const fn of(score: i32) -> Band {
        if score >= DECIDED {
            Band::Won((score - DECIDED) / SCORE_PER_POINT)
        } else if score <= -DECIDED {
            Band::Lost((-score - DECIDED) / SCORE_PER_POINT)
        } else {
            Band::Unproven(score)
        }
    }
}

impl Band {
    /// The score in points of final score ([`SCORE_PER_POINT`] score
    /// units; discs in Reversi): a proven result as its margin, for
    /// displays that show discs (NBoard).
    pub fn points(score: i32) -> f64 {
        match Band::of(score) {
            Band::Won(m) => f64::from(m),
            Band::Lost(m) => -f64::from(m),
            Band::Unproven(s) => f64::from(s) / f64::from(SCORE_PER_POINT),
        }
    }
}

impl fmt::Display for Band {
    /// `W+3` (won by 3), `L-1` (lost by 1), `W+0`/`L-0` (a level score
    /// decided by the tie rule), or the score in points with two decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Band::Won(m) => write!(f, "W+{m}"),
            Band::Lost(m) => write!(f, "L-{m}"),
            Band::Unproven(s) => write!(f, "{:+.2}", f64::from(s) / f64::from(SCORE_PER_POINT)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const RULES: [Outcomes; 4] = [
        Outcomes::MARGIN,
        Outcomes::wins(None),
        Outcomes::wins(Some(Color::Black)),
        Outcomes::wins(Some(Color::White)),
    ];

    #[test]
    fn the_bands_are_ordered_as_the_objective_says() {
        let wins = Outcomes::wins(Some(Color::Black));
        let (won_by_1, level_won, level_lost, lost_by_1) = (
            wins.final_score(1, Color::Black),
            wins.final_score(0, Color::Black),
            wins.final_score(0, Color::White),
            wins.final_score(-1, Color::Black),
        );
        // Every unproven score a 12x12 evaluation can give lies between.
        let unproven = 145 * SCORE_PER_POINT;
        assert!(won_by_1 > level_won && level_won > unproven);
        assert!(-unproven > level_lost && level_lost > lost_by_1);
        assert_eq!(Outcomes::wins(None).final_score(0, Color::White), 0);
        assert_eq!(Outcomes::MARGIN.final_score(-1, Color::White), -SCORE_PER_POINT);
        assert_eq!(Band::of(won_by_1), Band::Won(1));
        assert_eq!(Band::of(lost_by_1).to_string(), "L-1");
        assert_eq!(Band::of(level_won).to_string(), "W+0");
        assert_eq!(Band::of(-187).to_string(), "-1.87");
    }

    proptest! {
        /// Scoring is strictly increasing in the margin for either mover.
        #[test]
        fn scores_increase_with_the_margin(rule in 0..4usize, m in -200..200i32, white in any::<bool>()) {
            let mover = if white { Color::White } else { Color::Black };
            prop_assert!(RULES[rule].final_score(m, mover) < RULES[rule].final_score(m + 1, mover));
        }

        /// The margin window holds exactly the margins whose scores lie
        /// strictly inside the score window.
        #[test]
        fn margin_windows_match_the_score_window(
            rule in 0..4usize,
            alpha in -260_000..260_000i32,
            width in 1..60_000i32,
            white in any::<bool>(),
        ) {
            let (outcomes, beta) = (RULES[rule], alpha + width);
            let mover = if white { Color::White } else { Color::Black };
            let (lo, hi) = outcomes.margin_window(alpha, beta, mover);
            prop_assert!(lo < hi);
            prop_assert!(outcomes.final_score(lo, mover) <= alpha);
            prop_assert!(outcomes.final_score(lo + 1, mover) > alpha);
            prop_assert!(outcomes.final_score(hi, mover) >= beta);
            prop_assert!(outcomes.final_score(hi - 1, mover) < beta);
        }
    }
}
