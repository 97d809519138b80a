//! The formal game model that every search in the workspace is written
//! against: state, player to move, actions, result, terminal test, utility.
//!
//! Reversi (every size) and Pente implement [`Game`]; the textbook searches,
//! the strong engine, self-play and the tuner know only this trait.

use std::fmt::{Debug, Display};
use std::ops::Deref;

/// One of the two players.
///
/// In Reversi `Black` is `X` (dark, player 1); in Pente `Black` is `b`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Reversi `X` / dark / player 1; Pente `b`.
    Black,
    /// Reversi `O` / light / player 2; Pente `w`.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for Black, -1 for White: the sign that turns a Black-relative score
    /// into one relative to this colour.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::Black => 1,
            Color::White => -1,
        }
    }
}

/// A two-player, zero-sum, perfect-information game.
///
/// A state knows whose turn it is. When the player to move has no real move
/// but the game goes on, [`Game::legal_moves`] holds exactly one pass move,
/// so every search treats a pass as an ordinary ply.
pub trait Game: Clone + Send + Sync + Debug {
    /// An action.
    type Move: Copy + Eq + Debug + Display + Send + Sync;
    /// What [`Game::make`] returns so that [`Game::unmake`] can restore the state.
    type Undo: Copy;
    /// The legal moves of a state, in the game's canonical order.
    type Moves: Deref<Target = [Self::Move]> + Default;

    /// The player to move.
    fn to_move(&self) -> Color;

    /// The legal moves of the player to move (a single pass when that player
    /// must pass); empty exactly when the game is over.
    fn legal_moves(&self) -> Self::Moves;

    /// Plays `mv`, which must be legal.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, given what [`Game::make`] returned for it.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);

    /// True when the game is over.
    fn is_terminal(&self) -> bool;

    /// The final score of a finished game from Black's side, in the game's own
    /// units (disc difference in Reversi, +1/-1/0 in Pente). Positive is good
    /// for Black.
    fn final_score(&self) -> i32;

    /// A hash of the state that tells positions apart for transposition tables.
    fn hash(&self) -> u64;

    /// The state after `mv` (copy-make).
    #[inline]
    fn result(&self, mv: Self::Move) -> Self {
        let mut next = self.clone();
        next.make(mv);
        next
    }

    /// The final score from the side to move's point of view.
    #[inline]
    fn final_score_for_mover(&self) -> i32 {
        self.final_score() * self.to_move().sign()
    }
}

/// A fixed-capacity list, stored inline: move lists that never allocate.
#[derive(Clone, Copy)]
pub struct MoveList<M: Copy + Default, const CAP: usize> {
    items: [M; CAP],
    len: usize,
}

impl<M: Copy + Default, const CAP: usize> Default for MoveList<M, CAP> {
    #[inline(always)]
    fn default() -> Self {
        MoveList { items: [M::default(); CAP], len: 0 }
    }
}

impl<M: Copy + Default, const CAP: usize> MoveList<M, CAP> {
    /// Appends `m`; the caller guarantees the capacity suffices.
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        self.items[self.len] = m;
        self.len += 1;
    }

    /// The moves as a mutable slice (for sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.items[..self.len]
    }
}

impl<M: Copy + Default, const CAP: usize> Deref for MoveList<M, CAP> {
    type Target = [M];
    #[inline(always)]
    fn deref(&self) -> &[M] {
        &self.items[..self.len]
    }
}

impl<M: Copy + Default + Debug, const CAP: usize> Debug for MoveList<M, CAP> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<M: Copy + Default, const CAP: usize> FromIterator<M> for MoveList<M, CAP> {
    fn from_iter<I: IntoIterator<Item = M>>(iter: I) -> Self {
        let mut list = Self::default();
        for m in iter {
            list.push(m);
        }
        list
    }
}
