//! Seeded random play over any [`Game`]: the one helper behind random
//! openings, the positions tests and benches sample, and random players.
//!
//! Every draw is one 64-bit word reduced modulo the number of moves, so a
//! [`SplitMix`](crate::mix::SplitMix) seed fixes the whole line.

use crate::game::Game;
use rand::Rng;

/// A uniformly random legal move of `state` (`None` when the game is over):
/// the next 64 bits of `rng` modulo the number of moves.
pub fn random_move<S: Game, R: Rng + ?Sized>(state: &S, rng: &mut R) -> Option<S::Move> {
    let moves = state.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves[(rng.next_u64() % moves.len() as u64) as usize])
}

/// Plays random moves from `state` while the game goes on and `go_on` holds
/// for the position reached; returns the position where it stopped.
/// `go_on` sees every unfinished position before its move is drawn (so it
/// may also collect them), never a finished one.
pub fn random_playout<S: Game, R: Rng + ?Sized>(mut state: S, rng: &mut R, mut go_on: impl FnMut(&S) -> bool) -> S {
    while !state.is_terminal() && go_on(&state) {
        let Some(mv) = random_move(&state, rng) else { break };
        state.make(mv);
    }
    state
}

/// `state` after up to `plies` random moves (fewer if the game ends).
pub fn random_line<S: Game, R: Rng + ?Sized>(state: S, plies: u32, rng: &mut R) -> S {
    let mut left = plies;
    random_playout(state, rng, |_| {
        let more = left > 0;
        left = left.saturating_sub(1);
        more
    })
}

/// The line a list of choices picks from `state`: at each ply the legal
/// move `choice % moves`, until the choices or the game end. Property
/// tests draw the choices, so a failing line shrinks to a short one.
pub fn chosen_line<S: Game>(mut state: S, choices: &[u16]) -> S {
    for &choice in choices {
        let moves = state.legal_moves();
        if moves.is_empty() {
            break;
        }
        state.make(moves[usize::from(choice) % moves.len()]);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::SplitMix;
    use crate::testing::Subtraction;

    #[test]
    fn a_line_plays_the_plies_asked_for_until_the_game_ends() {
        // Subtraction from 40: each move takes 1 to 3 stones and passes the
        // turn, so 5 plies leave 25 to 35 stones with White to move.
        let mut rng = SplitMix(3);
        let state = random_line(Subtraction::new(40), 5, &mut rng);
        assert!((25..=35).contains(&state.pile()), "{state:?}");
        assert_eq!(state.to_move(), crate::game::Color::White);
        // From 2 stones the game ends within 2 plies, whatever is asked.
        let end = random_line(Subtraction::new(2), 10, &mut rng);
        assert!(end.is_terminal());
    }

    #[test]
    fn a_seed_fixes_the_line_and_draws_are_uniform_modulo_the_moves() {
        let line = |seed| {
            let mut seen = Vec::new();
            random_playout(Subtraction::new(30), &mut SplitMix(seed), |s| {
                seen.push(s.pile());
                true
            });
            seen
        };
        assert_eq!(line(9), line(9));
        assert!(!line(9).contains(&0), "a finished game is not shown");
        assert_ne!(line(9), line(10));
        // The first draw is SplitMix's first word modulo the 3 moves (take 1, 2 or 3).
        let first = SplitMix(9).next_u64() % 3;
        assert_eq!(line(9)[1], 30 - (first as u32 + 1));
    }

    #[test]
    fn choices_pick_moves_modulo_the_moves_until_the_game_ends() {
        // From 10: choice 5 takes 5 % 3 + 1 = 3, choice 1 takes 2, choice 3 takes 1.
        assert_eq!(chosen_line(Subtraction::new(10), &[5, 1, 3]).pile(), 4);
        assert!(chosen_line(Subtraction::new(3), &[2, 2, 2, 2]).is_terminal());
    }

    #[test]
    fn no_move_is_drawn_in_a_finished_game() {
        assert_eq!(random_move(&Subtraction::new(0), &mut SplitMix(1)), None);
    }
}
