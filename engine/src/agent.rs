//! Players: anything that picks a move for a [`Game`] state under a clock.
//!
//! The match runner, the competition programs and the interactive game all
//! drive players through [`Agent`], so the strong engine, the reference
//! agents and (in `selfplay`) external programs meet in one match loop.

use crate::game::Game;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The time situation when a move is asked for, in CPU seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Time the mover has left for the rest of the game.
    pub own_remaining: f64,
    /// Time the opponent has left.
    pub opponent_remaining: f64,
}

impl Clock {
    /// A clock with plenty of time for both sides (untimed play).
    pub const UNLIMITED: Clock = Clock { own_remaining: f64::INFINITY, opponent_remaining: f64::INFINITY };
}

/// A chosen move and what the search knew about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision<M> {
    /// The move to play; always legal in the state it was chosen for.
    pub mv: M,
    /// Search score from the mover's side, in the evaluator's units, if any.
    pub score: Option<i32>,
    /// Depth of the last completed iteration, if the agent searches.
    pub depth: Option<u32>,
    /// Nodes visited for this move.
    pub nodes: u64,
}

impl<M> Decision<M> {
    /// A decision with no search information.
    pub const fn just(mv: M) -> Self {
        Decision { mv, score: None, depth: None, nodes: 0 }
    }
}

/// The line a competition program logs on stderr after choosing `mv`: what
/// its search found (`None`: chosen without a search) and the CPU seconds
/// the process has used.
pub fn played_line<M: std::fmt::Display>(mv: M, search: Option<&Decision<M>>, cpu: f64) -> String {
    match search {
        Some(d) => format!(
            "played {mv} (search depth {} score {} nodes {}, {cpu:.4} s CPU)",
            d.depth.unwrap_or(0),
            d.score.map_or("-".to_string(), |s| s.to_string()),
            d.nodes
        ),
        None => format!("played {mv} (one-ply, {cpu:.4} s CPU)"),
    }
}

/// A player of `G`.
pub trait Agent<G: Game>: Send {
    /// A short name for logs and result tables.
    fn name(&self) -> String;

    /// Called before the first move of each game (clear per-game state).
    fn new_game(&mut self) {}

    /// Picks a legal move for the player to move in `state`, which is not
    /// terminal.
    fn choose(&mut self, state: &G, clock: &Clock) -> Decision<G::Move>;
}

/// Plays a uniformly random legal move (the graders' random agent).
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &G, _clock: &Clock) -> Decision<G::Move> {
        let moves = state.legal_moves();
        assert!(!moves.is_empty(), "RandomAgent asked to move in a finished game");
        Decision::just(moves[self.rng.random_range(0..moves.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::{Position, Size8, Variant};

    #[test]
    fn random_agent_plays_legal_moves_reproducibly() {
        let play = |seed| {
            let mut agent = RandomAgent::new(seed);
            let mut pos: Position<Size8> = Variant::Othello8.start();
            let mut moves = Vec::new();
            while !pos.is_terminal() {
                let mv = Agent::<Position<Size8>>::choose(&mut agent, &pos, &Clock::UNLIMITED).mv;
                assert!(pos.is_legal(mv));
                moves.push(mv);
                pos.make(mv);
            }
            moves
        };
        assert_eq!(play(1), play(1));
        assert_ne!(play(1), play(2));
    }
}
