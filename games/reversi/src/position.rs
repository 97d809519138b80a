//! Reversi positions for every board size: legal moves, playing a move or a
//! pass, game end and final score, hashing. The [`Game`] implementation
//! exposes them to the searches.

use super::geometry::{self, COLUMN_LETTERS, Geometry};
use super::key;
use engine_core::bitboard::BitSet;
use engine_core::game::{Color, Game, MoveList};
use std::fmt;
use std::marker::PhantomData;

/// Largest number of legal moves a position can have (one per cell of the
/// largest board, which is more than enough).
pub const MAX_MOVES: usize = 144;

/// A move on a board of geometry `G`: a cell index, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move<G> {
    cell: u8,
    geometry: PhantomData<G>,
}

/// Cell value that encodes a pass.
const PASS_CELL: u8 = u8::MAX;

impl<G: Geometry> Move<G> {
    /// The pass move.
    pub const PASS: Self = Move { cell: PASS_CELL, geometry: PhantomData };

    /// The move that places a disc on `cell` (`row * N + col`).
    #[inline(always)]
    pub const fn new(cell: usize) -> Self {
        debug_assert!(cell < G::CELLS);
        Move { cell: cell as u8, geometry: PhantomData }
    }

    /// The move on (`row`, `col`), both counted from 0 at the top left.
    pub const fn at(row: usize, col: usize) -> Self {
        Self::new(row * G::N + col)
    }

    /// The cell index, or `None` for a pass.
    #[inline(always)]
    pub const fn cell(self) -> Option<usize> {
        if self.cell == PASS_CELL { None } else { Some(self.cell as usize) }
    }

    /// True for the pass move.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.cell == PASS_CELL
    }

    /// Row and column (from 0) of a placing move.
    pub const fn row_col(self) -> Option<(usize, usize)> {
        match self.cell() {
            Some(c) => Some((c / G::N, c % G::N)),
            None => None,
        }
    }

    /// Parses a cell name like `c3` (column letter, row number from 1) or
    /// `pass`. Returns `None` for anything else or a cell off the board.
    pub fn parse(text: &str) -> Option<Self> {
        if text == "pass" {
            return Some(Self::PASS);
        }
        let bytes = text.as_bytes();
        let col = COLUMN_LETTERS[..G::N].iter().position(|&c| Some(&c) == bytes.first())?;
        let digits = &text[1..];
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        (1..=G::N).contains(&row).then(|| Self::at(row - 1, col))
    }
}

impl<G: Geometry> Default for Move<G> {
    fn default() -> Self {
        Self::PASS
    }
}

impl<G: Geometry> fmt::Display for Move<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.row_col() {
            Some((row, col)) => write!(f, "{}{}", COLUMN_LETTERS[col] as char, row + 1),
            None => f.write_str("pass"),
        }
    }
}

impl<G: Geometry> fmt::Debug for Move<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// How a finished game is scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Scoring {
    /// Discs added to Black's (`X`'s) count at the end (Duo-Othello: 1).
    pub black_bonus: i8,
    /// When true, empty cells count for the side with more discs (the World
    /// Othello Federation rule); when false, only discs count.
    pub empties_to_winner: bool,
    /// When true, an equal final score goes to the side with more time left,
    /// and on equal time to Black (Duo-Othello); when false it is a draw.
    pub ties_by_time: bool,
}

impl Scoring {
    /// Plain disc count, no bonus.
    pub const PLAIN: Scoring = Scoring { black_bonus: 0, empties_to_winner: false, ties_by_time: false };
    /// Tournament Othello: empties go to the winner.
    pub const WOF: Scoring = Scoring { black_bonus: 0, empties_to_winner: true, ties_by_time: false };
    /// Duo-Othello: plain count, `X` gets +1, ties go to more time left, then `X`.
    pub const DUO: Scoring = Scoring { black_bonus: 1, empties_to_winner: false, ties_by_time: true };

    /// Final score from Black's side for the given disc counts.
    pub const fn score(self, black: u32, white: u32, empties: u32) -> i32 {
        let diff = black as i32 - white as i32;
        let diff = if !self.empties_to_winner || diff == 0 {
            diff
        } else if diff > 0 {
            diff + empties as i32
        } else {
            diff - empties as i32
        };
        diff + self.black_bonus as i32
    }

    /// The winner of a finished game with final score `score` (from Black's
    /// side) and the players' remaining times `[black, white]` in seconds;
    /// `None` is a draw.
    pub fn winner(self, score: i32, time_left: [f64; 2]) -> Option<Color> {
        match score.cmp(&0) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal if !self.ties_by_time => None,
            std::cmp::Ordering::Equal if time_left[1] > time_left[0] => Some(Color::White),
            std::cmp::Ordering::Equal => Some(Color::Black),
        }
    }
}

/// A Reversi position: the discs of the player to move and of the opponent,
/// who is to move, and the scoring rule of the variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<G: Geometry> {
    player: G::Bits,
    opponent: G::Bits,
    to_move: Color,
    scoring: Scoring,
}

impl<G: Geometry> Position<G> {
    /// A position from the discs of each colour. Overlapping cells or cells
    /// off the board are a caller error and are dropped from White.
    pub fn from_discs(black: G::Bits, white: G::Bits, to_move: Color, scoring: Scoring) -> Self {
        let black = black & G::ALL;
        let white = white & (G::ALL - black);
        let (player, opponent) = match to_move {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Position { player, opponent, to_move, scoring }
    }

    /// Discs of the player to move.
    #[inline(always)]
    pub fn player(&self) -> G::Bits {
        self.player
    }

    /// Discs of the player not to move.
    #[inline(always)]
    pub fn opponent(&self) -> G::Bits {
        self.opponent
    }

    /// The colour to move.
    #[inline(always)]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The scoring rule.
    #[inline(always)]
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// Discs of `color`.
    #[inline(always)]
    pub fn discs(&self, color: Color) -> G::Bits {
        if color == self.to_move { self.player } else { self.opponent }
    }

    /// Empty cells.
    #[inline(always)]
    pub fn empty(&self) -> G::Bits {
        G::ALL - (self.player | self.opponent)
    }

    /// The cells the player to move may play on.
    #[inline(always)]
    pub fn moves(&self) -> G::Bits {
        geometry::legal_moves::<G>(self.player, self.opponent)
    }

    /// The cells the opponent could play on if it were its turn.
    #[inline(always)]
    pub fn opponent_moves(&self) -> G::Bits {
        geometry::legal_moves::<G>(self.opponent, self.player)
    }

    /// True when neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves().is_empty() && self.opponent_moves().is_empty()
    }

    /// Opponent discs flipped by playing on the empty cell `cell` (empty if
    /// the move is illegal; meaningless for an occupied cell).
    #[inline(always)]
    pub fn flips(&self, cell: usize) -> G::Bits {
        geometry::flips::<G>(cell, self.player, self.opponent)
    }

    /// The position after placing a disc on `cell` that flips `flips`
    /// (as computed by [`Position::flips`]).
    #[inline(always)]
    pub fn play_flips(&self, cell: usize, flips: G::Bits) -> Self {
        Position {
            player: self.opponent - flips,
            opponent: self.player | flips | G::Bits::bit(cell),
            to_move: self.to_move.opponent(),
            scoring: self.scoring,
        }
    }

    /// The position after the player to move passes.
    #[inline(always)]
    pub fn pass(&self) -> Self {
        Position {
            player: self.opponent,
            opponent: self.player,
            to_move: self.to_move.opponent(),
            scoring: self.scoring,
        }
    }

    /// The move list of a position whose legal moves are `moves`: those,
    /// else a pass when the opponent can move, else none.
    #[inline(always)]
    pub(crate) fn move_list_from(&self, moves: G::Bits) -> MoveList<Move<G>, MAX_MOVES> {
        if moves.any() {
            moves.iter().map(Move::new).collect()
        } else if self.opponent_moves().any() {
            std::iter::once(Move::PASS).collect()
        } else {
            MoveList::default()
        }
    }

    /// The position after `mv`, which must be legal (copy-make).
    #[inline(always)]
    pub fn play(&self, mv: Move<G>) -> Self {
        match mv.cell() {
            Some(cell) => self.play_flips(cell, self.flips(cell)),
            None => self.pass(),
        }
    }

    /// True when `mv` is legal here (a pass only when no cell is).
    pub fn is_legal(&self, mv: Move<G>) -> bool {
        let moves = self.moves();
        match mv.cell() {
            Some(cell) => moves.contains(cell),
            None => moves.is_empty() && self.opponent_moves().any(),
        }
    }

    /// Disc counts `(black, white)`.
    pub fn disc_counts(&self) -> (u32, u32) {
        (self.discs(Color::Black).count(), self.discs(Color::White).count())
    }

    /// Number of empty cells.
    #[inline(always)]
    pub fn empty_count(&self) -> u32 {
        G::CELLS as u32 - (self.player | self.opponent).count()
    }

    /// The score from Black's side under the position's scoring rule, as if
    /// the game ended here.
    pub fn score(&self) -> i32 {
        let (black, white) = self.disc_counts();
        self.scoring.score(black, white, self.empty_count())
    }

    /// The position's transposition key (see [`key`]).
    #[inline]
    pub fn hash(&self) -> u64 {
        key::key::<G>(self.to_move, self.player, self.opponent)
    }

    /// The legal moves as a list: the placing moves in cell order, a single
    /// pass when the mover must pass, nothing when the game is over. (The
    /// search's per-CPU copies list them from their node's lines instead:
    /// `SearchGame::legal_moves_from`.)
    #[inline(always)]
    pub fn move_list(&self) -> MoveList<Move<G>, MAX_MOVES> {
        self.move_list_from(self.moves())
    }
}

impl<G: Geometry> Game for Position<G> {
    type Move = Move<G>;
    type Undo = Position<G>;
    type Moves = MoveList<Move<G>, MAX_MOVES>;

    #[inline(always)]
    fn to_move(&self) -> Color {
        self.to_move
    }

    #[inline(always)]
    fn legal_moves(&self) -> Self::Moves {
        self.move_list()
    }

    #[inline(always)]
    fn make(&mut self, mv: Move<G>) -> Position<G> {
        let before = *self;
        *self = self.play(mv);
        before
    }

    #[inline(always)]
    fn unmake(&mut self, _mv: Move<G>, undo: Position<G>) {
        *self = undo;
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.is_game_over()
    }

    fn final_score(&self) -> i32 {
        self.score()
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    #[inline(always)]
    fn result(&self, mv: Move<G>) -> Self {
        self.play(mv)
    }
}
