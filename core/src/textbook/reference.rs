//! The graders' reference `minimax` agent, as the Duo-Othello and Pente
//! handouts describe it: plain MINIMAX (no alpha-beta pruning) cut off at a
//! depth chosen from the time left before every move (3 plies with more
//! than 50 s, 1 with less than 3 s, 2 otherwise), over a simple
//! evaluation that the game supplies. It exists so self-play can measure
//! engines against what the graders play; it is deliberately weak.

use super::problems::Cutoff;
use super::search::minimax;
use crate::agent::{Agent, Clock, Decision};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::mix::SplitMix;
use rand::RngExt;

/// Search depth when more than [`DEEP_TIME_SECS`] seconds remain.
pub const DEEP_DEPTH: u32 = 3;
/// Search depth between [`SHALLOW_TIME_SECS`] and [`DEEP_TIME_SECS`] seconds.
pub const MIDDLE_DEPTH: u32 = 2;
/// Search depth under [`SHALLOW_TIME_SECS`] seconds.
pub const SHALLOW_DEPTH: u32 = 1;
/// Remaining time (seconds) above which the agent searches [`DEEP_DEPTH`].
pub const DEEP_TIME_SECS: f64 = 50.0;
/// Remaining time (seconds) under which the agent searches [`SHALLOW_DEPTH`].
pub const SHALLOW_TIME_SECS: f64 = 3.0;

/// The depth the reference agent searches with `remaining` seconds left.
pub const fn reference_depth(remaining: f64) -> u32 {
    if remaining > DEEP_TIME_SECS {
        DEEP_DEPTH
    } else if remaining < SHALLOW_TIME_SECS {
        SHALLOW_DEPTH
    } else {
        MIDDLE_DEPTH
    }
}

/// How the reference agent chooses among root moves of equal value.
#[derive(Clone, Debug)]
pub enum TieBreak {
    /// The first in the game's move order (as MINIMAX-DECISION does).
    First,
    /// A uniformly random one, drawn from this generator.
    Random(SplitMix),
}

/// The reference minimax agent over the evaluation `E`.
#[derive(Clone, Debug)]
pub struct ReferenceMinimax<E> {
    evaluator: E,
    ties: TieBreak,
}

impl<E> ReferenceMinimax<E> {
    /// A reference agent valuing the cutoff states with `evaluator`.
    pub const fn new(evaluator: E, ties: TieBreak) -> Self {
        ReferenceMinimax { evaluator, ties }
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for ReferenceMinimax<E> {
    fn name(&self) -> String {
        "minimax".into()
    }

    /// MINIMAX below each root move (one call for the root, plus each
    /// subtree's calls), then the best root move by [`TieBreak`].
    fn choose(&mut self, state: &G, clock: &Clock) -> Decision<G::Move> {
        let depth = reference_depth(clock.own_remaining);
        let below = Cutoff { max: state.to_move(), depth: depth - 1, evaluator: &self.evaluator };
        let (mut best, mut tied, mut calls) = (i32::MIN, Vec::new(), 1);
        for &mv in state.legal_moves().iter() {
            let outcome = minimax(&below, &state.result(mv), &mut (), None);
            calls += outcome.calls;
            if outcome.value > best {
                best = outcome.value;
                tied.clear();
            }
            if outcome.value == best {
                tied.push(mv);
            }
        }
        assert!(!tied.is_empty(), "ReferenceMinimax asked to move in a finished game");
        let mv = match &mut self.ties {
            TieBreak::First => tied[0],
            TieBreak::Random(rng) => tied[rng.random_range(0..tied.len())],
        };
        Decision { mv, score: Some(best), depth: Some(depth), nodes: calls }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Subtraction;

    #[test]
    fn depth_follows_the_handout_thresholds() {
        assert_eq!(reference_depth(300.0), 3);
        assert_eq!(reference_depth(50.5), 3);
        assert_eq!(reference_depth(50.0), 2);
        assert_eq!(reference_depth(3.0), 2);
        assert_eq!(reference_depth(2.99), 1);
        assert_eq!(reference_depth(0.01), 1);
    }

    /// Values every unfinished pile alike, so only finished games tell moves apart.
    struct Flat;

    impl Evaluator<Subtraction> for Flat {
        type Trail = ();

        fn evaluate(&self, _state: &Subtraction) -> i32 {
            0
        }
    }

    #[test]
    fn takes_a_win_within_reach_and_breaks_other_ties_as_told() {
        let clock = |s| Clock { own_remaining: s, opponent_remaining: s };
        // From 3 stones, taking all 3 wins at once.
        let mut first = ReferenceMinimax::new(Flat, TieBreak::First);
        assert_eq!(first.choose(&Subtraction::new(3), &clock(1.0)).mv.0, 3);
        // From 9 at depth 1, no move finishes the game: every move ties, so
        // the first (take 1) is played, and random ties reach every move.
        assert_eq!(first.choose(&Subtraction::new(9), &clock(1.0)).mv.0, 1);
        let mut random = ReferenceMinimax::new(Flat, TieBreak::Random(SplitMix(4)));
        let mut seen = [false; 4];
        for _ in 0..60 {
            seen[usize::from(random.choose(&Subtraction::new(9), &clock(1.0)).mv.0)] = true;
        }
        assert_eq!(seen, [false, true, true, true]);
        // Depth 3 (time left above 50 s) sees that from 5 only taking 1 wins
        // (it leaves a multiple of four: Bouton's theory).
        assert_eq!(first.choose(&Subtraction::new(5), &clock(60.0)).mv.0, 1);
    }

    #[test]
    fn counts_every_call_without_pruning() {
        // Depth 2 from 9 stones: the root, its 3 children and their 3 replies each.
        let mut agent = ReferenceMinimax::new(Flat, TieBreak::First);
        let d = agent.choose(&Subtraction::new(9), &Clock { own_remaining: 10.0, opponent_remaining: 10.0 });
        assert_eq!((d.nodes, d.depth), (1 + 3 + 9, Some(2)));
    }
}
