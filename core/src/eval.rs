//! Static evaluation: what a search calls at its horizon.
//!
//! Scores are from the side to move's point of view, in units where
//! [`SCORE_PER_POINT`] is one point of the game's final score (a disc of
//! margin in Reversi), so evaluations and exact endgame scores compare
//! directly. A game scored win/draw/loss has no margin: its evaluation
//! picks its own scale, and the search scores its decided games apart. The games'
//! evaluations implement [`Evaluator`] beside their rules.

use crate::bitboard::Isa;
use crate::game::Game;

/// Which of its static evaluations a game's engine plays with; each game
/// says what the names mean for it and refuses the ones it lacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The game's learnt evaluation: weight tables over patterns of cells
    /// (lines, corners, windows), compiled in or read from a weights file.
    #[default]
    Pattern,
    /// The game's hand-written heuristic, for the games that have one (in
    /// Reversi, the classic homework agent's).
    Classic,
}

impl Evaluation {
    /// The name on command lines and in player specs.
    pub const fn name(self) -> &'static str {
        match self {
            Evaluation::Pattern => "pattern",
            Evaluation::Classic => "classic",
        }
    }
}

impl std::str::FromStr for Evaluation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        [Evaluation::Pattern, Evaluation::Classic]
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown evaluation `{s}`: expected pattern or classic"))
    }
}

/// Score units per point of final score (a disc of margin in Reversi).
pub const SCORE_PER_POINT: i32 = 100;

/// A score in score units as points of final score.
pub const fn points(score: i32) -> f64 {
    score as f64 / SCORE_PER_POINT as f64
}

/// A static evaluation of states of `G`.
///
/// A search also tells the evaluation each move it makes and takes back
/// along its current line ([`Evaluator::trail_push`],
/// [`Evaluator::trail_pop`]), so that an evaluation can keep what it reads
/// up to date move by move (the pattern indices) instead of reading every
/// horizon position afresh; [`Evaluator::evaluate_trail_on`] then values
/// the line's last position. Evaluations that read each position afresh
/// keep a `()` trail and the default methods.
pub trait Evaluator<G: Game>: Send + Sync {
    /// What the evaluation keeps about the positions of a search's line;
    /// the search owns it.
    type Trail: Default + Send;

    /// The value of `state` for the side to move, in [`SCORE_PER_POINT`] units.
    fn evaluate(&self, state: &G) -> i32;

    /// Starts `trail` at `root`, forgetting what it held.
    #[inline(always)]
    fn trail_start(&self, _trail: &mut Self::Trail, _root: &G) {}

    /// Extends `trail` by `mv`, which [`Game::make`] just played, leaving
    /// `after` and returning `undo`.
    #[inline(always)]
    fn trail_push(&self, _trail: &mut Self::Trail, _after: &G, _mv: G::Move, _undo: &G::Undo) {}

    /// Takes the last move of `trail` back.
    #[inline(always)]
    fn trail_pop(&self, _trail: &mut Self::Trail) {}

    /// The value of `state`, the last position of `trail`: the same as
    /// [`Evaluator::evaluate_on`], computed from the trail where it can be.
    #[inline(always)]
    fn evaluate_trail_on<I: Isa>(&self, _trail: &Self::Trail, state: &G) -> i32
    where
        Self: Sized,
    {
        self.evaluate_on::<I>(state)
    }

    /// The value of `after`, which `mv` (returning `undo`) just reached
    /// from the last position of `trail`, without keeping it in the trail:
    /// the same as extending the trail, [`Evaluator::evaluate_trail_on`]
    /// and taking the move back, in less work where the evaluation knows
    /// how (a search values its horizon positions this way).
    #[inline(always)]
    fn evaluate_after_on<I: Isa>(&self, trail: &mut Self::Trail, after: &G, mv: G::Move, undo: &G::Undo) -> i32
    where
        Self: Sized,
    {
        self.trail_push(trail, after, mv, undo);
        let value = self.evaluate_trail_on::<I>(trail, after);
        self.trail_pop(trail);
        value
    }

    /// The same value, computed with instruction set `I`: what a search
    /// compiled for `I` (`cpu::multiversion!`) calls.
    #[inline(always)]
    fn evaluate_on<I: Isa>(&self, state: &G) -> i32
    where
        Self: Sized,
    {
        self.evaluate(state)
    }
}

/// The final score as if the game ended now: disc difference under the
/// game's scoring. A null evaluation for solvers and tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct FinalScore;

impl<G: Game> Evaluator<G> for FinalScore {
    type Trail = ();

    fn evaluate(&self, state: &G) -> i32 {
        state.final_score_for_mover() * SCORE_PER_POINT
    }
}
