//! A toy game for the core's own tests: the subtraction game. A pile of
//! stones; each player in turn takes one, two or three; who takes the last
//! stone wins. Its theory is classical (Bouton's analysis of Nim and its
//! subtraction variants): the player to move loses exactly when the pile is
//! a multiple of four, so a search's answers can be checked against a fact
//! that does not come from the code under test.

use crate::bitboard::Isa;
use crate::game::{Color, Game, MoveList};
use crate::search::SearchGame;
use std::fmt;

/// The most stones one move takes.
pub const MAX_TAKE: u8 = 3;

/// How many stones a move takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Take(pub u8);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take{}", self.0)
    }
}

/// A subtraction-game state: the pile and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subtraction {
    pile: u32,
    mover: Color,
}

impl Subtraction {
    /// A game starting from `pile` stones, Black to move.
    pub const fn new(pile: u32) -> Self {
        Subtraction { pile, mover: Color::Black }
    }

    /// The stones left.
    pub const fn pile(&self) -> u32 {
        self.pile
    }
}

impl Game for Subtraction {
    type Move = Take;
    type Undo = ();
    type Moves = MoveList<Take, { MAX_TAKE as usize }>;

    fn to_move(&self) -> Color {
        self.mover
    }

    fn legal_moves(&self) -> Self::Moves {
        (1..=MAX_TAKE).filter(|&n| u32::from(n) <= self.pile).map(Take).collect()
    }

    fn make(&mut self, mv: Take) {
        self.pile -= u32::from(mv.0);
        self.mover = self.mover.opponent();
    }

    fn unmake(&mut self, mv: Take, _undo: ()) {
        self.pile += u32::from(mv.0);
        self.mover = self.mover.opponent();
    }

    fn is_terminal(&self) -> bool {
        self.pile == 0
    }

    /// The player who took the last stone (the one not to move) won.
    fn final_score(&self) -> i32 {
        -self.mover.sign()
    }

    fn hash(&self) -> u64 {
        (u64::from(self.pile) << 1 | self.mover.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl SearchGame for Subtraction {
    const WIN_LOSS: bool = true;
    type Params = crate::search::NoParams;
    type Expansion<I: Isa> = ();

    fn move_index(mv: Take) -> usize {
        usize::from(mv.0)
    }

    fn order_hint(&self, _mv: Take) -> i32 {
        0
    }

    fn expand_on<I: Isa>(&self) {}

    fn plainly_over(&self) -> bool {
        self.pile == 0
    }

    fn own_moves_left(&self) -> f64 {
        f64::from(self.pile) / 4.0
    }

    fn progress(&self) -> f64 {
        0.5
    }
}
