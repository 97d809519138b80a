//! Short forced wins by ending the game: whether a side can make the game
//! end with its win within a few plies whatever the other side plays (the
//! mutual blockades of Duo-Othello's opening, where both sides are left
//! with no move while discs still lie on the board), and the moves that
//! leave the opponent no such win.
//!
//! The search of a move sees these lines once it is deep enough; this
//! exact AND-OR check is cheap for a few plies and guards the moves chosen
//! with less depth than that (a tiny clock, a one-ply answer).

use super::objective::{DECIDED, Outcomes};
use crate::game::{Color, Game};

/// True when `attacker` can force the game from `pos` to end within
/// `plies` plies with a result that `outcomes` values as its win.
pub fn forces_winning_end<G: Game>(pos: &G, plies: u32, attacker: Color, outcomes: Outcomes) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return outcomes.final_score(pos.final_score() * attacker.sign(), attacker) >= DECIDED;
    }
    if plies == 0 {
        return false;
    }
    let mut child = pos.clone();
    let mut wins = |mv: &G::Move| {
        let undo = child.make(*mv);
        let won = forces_winning_end(&child, plies - 1, attacker, outcomes);
        child.unmake(*mv, undo);
        won
    };
    if pos.to_move() == attacker { moves.iter().any(&mut wins) } else { moves.iter().all(&mut wins) }
}

/// The moves of `pos` after which the opponent cannot force a winning end
/// within `plies` plies (see [`forces_winning_end`]); every move when none
/// is safe, or when `plies` is 0.
pub fn safe_moves<G: Game>(pos: &G, plies: u32, outcomes: Outcomes) -> Vec<G::Move> {
    let moves: Vec<G::Move> = pos.legal_moves().iter().copied().collect();
    if plies == 0 {
        return moves;
    }
    let opponent = pos.to_move().opponent();
    let safe: Vec<G::Move> =
        moves.iter().copied().filter(|&mv| !forces_winning_end(&pos.result(mv), plies, opponent, outcomes)).collect();
    if safe.is_empty() { moves } else { safe }
}
