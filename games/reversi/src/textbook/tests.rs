//! Facts the textbook searches must reproduce: the Reversi Tiny handout's
//! counts, minimax and alpha-beta agreeing, the observer seeing every call,
//! and the 4x4 game's perfect-play result.

use super::*;
use crate::{Position, Size4, Size6, Variant};
use engine_core::agent::{Agent, Clock, RandomAgent};
use engine_core::game::{Color, Game};
use engine_core::mix::SplitMix;
use engine_core::playout::random_playout;
use engine_core::textbook::*;

fn tiny_start() -> Position<Size4> {
    Variant::Tiny4.start()
}

/// Counts the observer's events by kind: (enter, leaf, update).
#[derive(Default)]
struct Tally(u64, u64, u64);

impl<M> Observer<M> for Tally {
    fn visit(&mut self, visit: &Visit<M>) {
        match visit.step {
            Step::Enter => self.0 += 1,
            Step::Leaf => self.1 += 1,
            Step::Update => self.2 += 1,
        }
    }
}

#[test]
fn tiny_start_counts_match_the_handout() {
    let problem = WinLossDraw { max: Color::Black };
    let full = minimax(&problem, &tiny_start(), &mut (), None);
    assert_eq!((full.value, full.calls), (-1, 224_821));
    let pruned = alpha_beta(&problem, &tiny_start(), &mut (), None);
    assert_eq!((pruned.value, pruned.calls), (-1, 7208));
    assert_eq!(full.best, pruned.best);
    assert_eq!(full.best.map(|m| m.to_string()), Some("b1".into()));
}

#[test]
fn observer_sees_every_call_and_every_child_return() {
    let problem = WinLossDraw { max: Color::Black };
    for search in [minimax::<_, _, Tally>, alpha_beta::<_, _, Tally>] {
        let mut tally = Tally::default();
        let outcome = search(&problem, &tiny_start(), &mut tally, None);
        assert_eq!(tally.0 + tally.1, outcome.calls);
        // Every child returns to its parent once, except below cut-offs.
        assert!(tally.2 < outcome.calls);
    }
    let mut tally = Tally::default();
    let outcome = minimax(&problem, &tiny_start(), &mut tally, None);
    assert_eq!(tally.2, outcome.calls - 1);
}

#[test]
fn perfect_play_on_4x4_loses_by_8_for_the_first_player() {
    let problem = ExactMargin { max: Color::Black };
    assert_eq!(minimax(&problem, &tiny_start(), &mut (), None).value, -8);
    assert_eq!(alpha_beta(&problem, &tiny_start(), &mut (), None).value, -8);
    // The full-depth agents playing each other reach that result.
    let mut pos = tiny_start();
    let (mut dark, mut light) = (PerfectMinimax, AlphaBetaAgent);
    while !pos.is_terminal() {
        let mv = match pos.to_move() {
            Color::Black => Agent::<Position<Size4>>::choose(&mut dark, &pos, &Clock::UNLIMITED).mv,
            Color::White => Agent::<Position<Size4>>::choose(&mut light, &pos, &Clock::UNLIMITED).mv,
        };
        pos.make(mv);
    }
    assert_eq!(pos.final_score(), -8);
}

/// Positions from random games on 6x6, a few plies from the end.
fn late_positions() -> Vec<Position<Size6>> {
    let mut found = Vec::new();
    for seed in 0..6 {
        let start: Position<Size6> = Variant::Othello6.start();
        found.push(random_playout(start, &mut SplitMix(seed), |pos| pos.empty_count() > 9));
    }
    found
}

#[test]
fn alpha_beta_agrees_with_minimax_in_fewer_calls() {
    for pos in late_positions() {
        for max in Color::BOTH {
            let problem = ExactMargin { max };
            let full = minimax(&problem, &pos, &mut (), None);
            let pruned = alpha_beta(&problem, &pos, &mut (), None);
            assert_eq!((full.value, full.best), (pruned.value, pruned.best), "{pos}");
            assert!(pruned.calls <= full.calls);
            let heuristic = Cutoff { max, depth: 3, evaluator: &CornerMobilityDiscs };
            let full = minimax(&heuristic, &pos, &mut (), None);
            let pruned = alpha_beta(&heuristic, &pos, &mut (), None);
            assert_eq!((full.value, full.best), (pruned.value, pruned.best), "{pos}");
        }
    }
}

#[test]
fn time_limited_agent_always_returns_a_legal_move() {
    let mut agent = HMinimaxAgent::new(CornerMobilityDiscs, SearchLimit::Time(std::time::Duration::ZERO));
    let pos: Position<Size6> = Variant::Othello6.start();
    let decision = Agent::<Position<Size6>>::choose(&mut agent, &pos, &Clock::UNLIMITED);
    assert!(pos.is_legal(decision.mv));
    assert!(decision.depth >= Some(1));
}

#[test]
fn h_minimax_beats_the_random_agent() {
    let mut wins = 0;
    let games = 10;
    for game in 0..games {
        let mut searcher = HMinimaxAgent::new(CornerMobilityDiscs, SearchLimit::Depth(2));
        let mut random = RandomAgent::new(game);
        let searcher_color = if game % 2 == 0 { Color::Black } else { Color::White };
        let mut pos: Position<Size6> = Variant::Othello6.start();
        while !pos.is_terminal() {
            let mv = if pos.to_move() == searcher_color {
                Agent::<Position<Size6>>::choose(&mut searcher, &pos, &Clock::UNLIMITED).mv
            } else {
                Agent::<Position<Size6>>::choose(&mut random, &pos, &Clock::UNLIMITED).mv
            };
            pos.make(mv);
        }
        if pos.final_score() * searcher_color.sign() > 0 {
            wins += 1;
        }
    }
    assert!(wins >= 8, "H-MINIMAX won only {wins} of {games} games against random play");
}
