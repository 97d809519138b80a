//! What the engine's generic search needs to know about Connect Four: the
//! [`SearchGame`] hooks.
//!
//! A finished game is a win, draw or loss ([`SearchGame::WIN_LOSS`]), so
//! the search scores wins by how soon they come and the evaluation only
//! steers between them. Every node first reads its tactics off the
//! bitboards: an immediate four wins at once, and an opponent's immediate
//! four must be blocked (two of them cannot be: the node is lost). Moves
//! are ordered centre first, then by the fours they threaten, and a move
//! that fills the cell under an opponent's four comes last. The end of the
//! game is at most the empty cells away, so a search that deep is exact.

use crate::board::{Column, Moves, Position};
use engine_core::bitboard::Isa;
use engine_core::game::Game;
use engine_core::search::{SearchGame, Tactics};

/// Move-ordering bonus per column of distance from the edge (the centre
/// columns lie on the most lines).
const ORDER_CENTRE: i32 = 1;
/// Move-ordering bonus per empty cell where the move leaves the mover a
/// four to make (a threat).
const ORDER_THREAT: i32 = 16;
/// Move-ordering penalty for a move that lets the opponent drop a four on
/// top of it.
const ORDER_GIFT: i32 = 1_000;

impl Position {
    /// The move-ordering score of column `c` (which must be playable):
    /// higher is tried first.
    #[inline]
    pub fn order_score(&self, c: Column) -> i32 {
        let size = self.size();
        let bit = self.drop_cell(c);
        let mine = self.own() | bit;
        let empty = size.board_mask() & !(self.occupied() | bit);
        let threats = (crate::board::winning_cells(mine, size.stride()) & empty).count_ones() as i32;
        let from_edge = c.index().min(size.width() - 1 - c.index()) as i32;
        let gift = self.opponent_wins() & (bit << 1) != 0;
        ORDER_CENTRE * from_edge + ORDER_THREAT * threats - if gift { ORDER_GIFT } else { 0 }
    }
}

impl SearchGame for Position {
    const WIN_LOSS: bool = true;
    const QUIET: bool = false;
    /// Hints are a few shifts: worth it at every node.
    const HINT_DEPTH: u32 = 0;
    type Params = engine_core::search::NoParams;
    type Expansion<I: Isa> = ();

    #[inline(always)]
    fn expand_on<I: Isa>(&self) {}

    #[inline(always)]
    fn move_index(c: Column) -> usize {
        c.index()
    }

    #[inline]
    fn order_hint(&self, c: Column) -> i32 {
        self.order_score(c)
    }

    /// The empty cells: the game ends when the board is full, if not before.
    #[inline(always)]
    fn plies_to_end(&self) -> Option<u32> {
        Some(self.empties() as u32)
    }

    /// Half the empty cells, the mover's half rounded up (the most the
    /// mover can still play).
    fn own_moves_left(&self) -> f64 {
        self.empties().div_ceil(2) as f64
    }

    fn progress(&self) -> f64 {
        self.plies() as f64 / self.size().cells() as f64
    }

    #[inline]
    fn tactics(&self) -> Tactics<Self> {
        if self.is_terminal() {
            return Tactics::Over;
        }
        let playable = self.playable();
        let wins = self.own_wins() & playable;
        if wins != 0 {
            return Tactics::Win(self.size().column_of(wins));
        }
        let threats = self.opponent_wins() & playable;
        if threats == 0 {
            return Tactics::Quiet;
        }
        let mut defences = Moves::default();
        // Two threats in two columns: one can be blocked, the other wins.
        if threats & (threats - 1) == 0 {
            defences.push(self.size().column_of(threats));
        }
        Tactics::Forced(defences)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    fn pos(moves: &str) -> Position {
        Position::from_moves(Size::STANDARD, moves).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn tactics_read_wins_and_forced_blocks() {
        // X to move with a1-c1: d1 wins.
        assert!(matches!(pos("112233").tactics(), Tactics::Win(c) if c == Column::new(3)));
        // O to move must block X's d1.
        match pos("11223").tactics() {
            Tactics::Forced(d) => assert_eq!(&d[..], &[Column::new(3)]),
            _ => panic!("expected a forced block"),
        }
        // X has b1-d1 open at both ends: O cannot block both.
        match pos("2737").tactics() {
            Tactics::Quiet => {}
            _ => panic!("no threat yet"),
        }
        match pos("27374").tactics() {
            Tactics::Forced(d) => assert!(d.is_empty(), "two threats: lost"),
            _ => panic!("expected a lost node"),
        }
        assert!(matches!(pos("1212121").tactics(), Tactics::Over));
        assert!(matches!(pos("").tactics(), Tactics::Quiet));
    }

    #[test]
    fn ordering_prefers_the_centre_and_avoids_gifts() {
        let p = pos("");
        let order: Vec<i32> = p.legal_moves().iter().map(|&c| p.order_score(c)).collect();
        assert_eq!(order, [0, 1, 2, 3, 2, 1, 0]);
        // O has a2-c2; a disc on d1 lets O drop d2.
        let p = pos("11223377");
        assert!(p.order_score(Column::new(3)) < -ORDER_GIFT / 2, "{p}");
    }

    #[test]
    fn hooks_count_the_end() {
        let p = pos("4453");
        assert_eq!(p.plies_to_end(), Some(38));
        assert_eq!(p.own_moves_left(), 19.0);
        assert!((p.progress() - 4.0 / 42.0).abs() < 1e-12);
    }
}
