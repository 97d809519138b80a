//! Pente rules on 19x19: stones, captures, fives, the opening rule, Zobrist
//! hashing, and the incremental line information every later layer reads.
//!
//! The board is a padded array: four wall cells around the 19x19 field, so
//! that every cell up to four steps away along a line from a real cell is an
//! array cell (wall or not) and no move needs a bounds check. For every cell
//! and each of the four line directions the position keeps a [`LineKey`]: the
//! contents of the eight cells up to four steps either way, two bits each.
//! Placing or removing a stone updates the 32 keys it appears in; nothing is
//! recomputed over the whole board. Fives and captures are checked around the
//! stone just placed, and [`Game::unmake`] restores captured pairs exactly.

use crate::bitboard::Bits;
use crate::game::{Color, Game, MoveList};
use crate::mix::splitmix64;
use std::fmt;

/// Cells along one side of the board.
pub const SIZE: usize = 19;
/// Cells on the board.
pub const BOARD_CELLS: usize = SIZE * SIZE;
/// Wall cells around the field in the padded layout.
const PAD: usize = 4;
/// Distance between vertically adjacent cells in the padded layout.
pub(crate) const STRIDE: usize = SIZE + PAD;
/// Cells in the padded layout (field and walls); the layout starts `PAD`
/// cells early so that four diagonal steps from any field cell stay inside.
pub(crate) const CELLS: usize = (SIZE + 2 * PAD) * STRIDE + 2 * PAD;
/// Words of the candidate-cell bit set.
const WORDS: usize = CELLS.div_ceil(64);
/// Line directions as index steps: east, south, south-east, south-west.
pub(crate) const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];
/// Stones captured (by one player) that win the game.
pub const CAPTURE_WIN_STONES: u32 = 10;
/// Stones in a row that win (or more).
pub const FIVE: usize = 5;
/// Chebyshev radius around stones within which cells are candidate moves.
pub const CANDIDATE_RADIUS: isize = 2;
/// Minimum Chebyshev distance of White's second stone from the centre.
pub const SECOND_STONE_DISTANCE: usize = 3;
/// Column letters, left to right (no `I`).
pub const COLUMN_LETTERS: &[u8; SIZE] = b"ABCDEFGHJKLMNOPQRST";

/// Contents of a cell, as stored in the board and in line keys.
pub(crate) type Stone = u8;
/// An empty cell.
pub(crate) const EMPTY: Stone = 0;
/// A cell outside the field.
pub(crate) const WALL: Stone = 3;

/// The stone value of a colour (Black 1, White 2).
#[inline(always)]
pub(crate) const fn stone(color: Color) -> Stone {
    color as u8 + 1
}

/// The contents of the eight cells up to four steps either way along one
/// line from a cell, two bits each: slots 0..4 hold steps -4..-1, slots 4..8
/// steps +1..+4.
pub type LineKey = u16;

/// The key slot of the cell `k` steps along the line (`k` in -4..=4, not 0).
#[inline(always)]
pub(crate) const fn slot(k: isize) -> u32 {
    if k < 0 { (k + 4) as u32 } else { (k + 3) as u32 }
}

/// A cell of the board; also a Pente move. Written row then column (`9N`),
/// row 19 at the top, columns `A`-`T` without `I`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Cell(u16);

impl Cell {
    /// The centre, `10K`, where White's first stone goes.
    pub const CENTRE: Cell = Cell::at(SIZE / 2, SIZE / 2);

    /// The cell on board-text line `line` (0 is the top line, row 19) and
    /// column `col` (0 is `A`).
    pub const fn at(line: usize, col: usize) -> Cell {
        Cell(((line + PAD) * STRIDE + col + PAD) as u16)
    }

    /// The cell with row number `row` (1..=19, 1 at the bottom) and column
    /// `col` (0..19), if on the board.
    pub const fn from_row_col(row: usize, col: usize) -> Option<Cell> {
        if row >= 1 && row <= SIZE && col < SIZE { Some(Cell::at(SIZE - row, col)) } else { None }
    }

    /// Index into padded-layout arrays.
    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell with padded index `i`.
    #[inline(always)]
    pub(crate) const fn from_index(i: usize) -> Cell {
        Cell(i as u16)
    }

    /// The cell `steps` index steps away.
    #[inline(always)]
    pub(crate) const fn offset(self, steps: isize) -> Cell {
        Cell((self.0 as isize + steps) as u16)
    }

    /// Board-text line (0 = top line = row 19).
    pub const fn line(self) -> usize {
        (self.0 as usize - PAD) / STRIDE - PAD
    }

    /// Column, 0 = `A`.
    pub const fn col(self) -> usize {
        (self.0 as usize - PAD) % STRIDE
    }

    /// Row number, 1 at the bottom, 19 at the top.
    pub const fn row(self) -> usize {
        SIZE - self.line()
    }

    /// Chebyshev distance to `other`.
    pub const fn distance(self, other: Cell) -> usize {
        let dl = self.line().abs_diff(other.line());
        let dc = self.col().abs_diff(other.col());
        if dl > dc { dl } else { dc }
    }

    /// Every cell of the board, top line first.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..SIZE).flat_map(|line| (0..SIZE).map(move |col| Cell::at(line, col)))
    }

    /// Parses `9N` (row then column letter, case-insensitive).
    pub fn parse(text: &str) -> Option<Cell> {
        let text = text.trim();
        let split = text.find(|c: char| !c.is_ascii_digit())?;
        let (digits, letter) = text.split_at(split);
        let row: usize = digits.parse().ok()?;
        let mut letters = letter.chars();
        let letter = letters.next()?.to_ascii_uppercase();
        if letters.next().is_some() {
            return None;
        }
        let col = COLUMN_LETTERS.iter().position(|&c| c as char == letter)?;
        Cell::from_row_col(row, col)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row(), COLUMN_LETTERS[self.col()] as char)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Largest captured-pair count that gets its own hash key.
const MAX_HASHED_PAIRS: usize = 15;
/// Zobrist keys: one per (colour, padded cell).
static STONE_KEYS: [[u64; CELLS]; 2] = {
    let mut keys = [[0u64; CELLS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            keys[c][i] = splitmix64(0x9e7e_0000_0000 ^ ((c as u64) << 20) ^ i as u64);
            i += 1;
        }
        c += 1;
    }
    keys
};
/// Zobrist keys for the captured-pair count of each colour.
static CAPTURE_KEYS: [[u64; MAX_HASHED_PAIRS + 1]; 2] = {
    let mut keys = [[0u64; MAX_HASHED_PAIRS + 1]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 1; // zero pairs hash as nothing
        while i <= MAX_HASHED_PAIRS {
            keys[c][i] = splitmix64(0xca97_0000_0000 ^ ((c as u64) << 20) ^ i as u64);
            i += 1;
        }
        c += 1;
    }
    keys
};
/// Key XORed in when White is to move.
const SIDE_KEY: u64 = splitmix64(0x5eed_0000_0000_0002);

#[inline(always)]
fn capture_key(color: Color, stones: u32) -> u64 {
    CAPTURE_KEYS[color.index()][(stones as usize / 2).min(MAX_HASHED_PAIRS)]
}

/// The eight capture directions: the four line steps and their opposites.
pub(crate) const CAPTURE_DIRS: [isize; 8] =
    [DIRS[0], DIRS[1], DIRS[2], DIRS[3], -DIRS[0], -DIRS[1], -DIRS[2], -DIRS[3]];

/// What [`Game::make`] records so that [`Game::unmake`] restores the position:
/// which of the [`CAPTURE_DIRS`] lost a pair, and the previous winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captures: u8,
    winner: Option<Color>,
}

/// The legal moves of a position (at most one per cell).
pub type Moves = MoveList<Cell, BOARD_CELLS>;

/// A Pente position: stones, captured counts, side to move, and the
/// incrementally kept line keys and candidate cells.
#[derive(Clone)]
pub struct PentePosition {
    cells: [Stone; CELLS],
    keys: [[LineKey; 4]; CELLS],
    /// Stones within [`CANDIDATE_RADIUS`] of each cell.
    near: [u8; CELLS],
    /// Empty field cells with a stone within [`CANDIDATE_RADIUS`].
    candidates: Bits<WORDS>,
    to_move: Color,
    /// Stones captured by each colour.
    captured: [u32; 2],
    /// Stones each colour has placed in the game (on the board or captured).
    placed: [u32; 2],
    stones: u32,
    hash: u64,
    winner: Option<Color>,
}

impl fmt::Debug for PentePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:?} to move, captured w {} b {}",
            self.to_move,
            self.captured(Color::White),
            self.captured(Color::Black)
        )?;
        for line in 0..SIZE {
            for col in 0..SIZE {
                let c = match self.stone_at(Cell::at(line, col)) {
                    Some(Color::Black) => 'b',
                    Some(Color::White) => 'w',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Default for PentePosition {
    fn default() -> Self {
        PentePosition::new()
    }
}

impl PentePosition {
    /// The empty board, White to move.
    pub fn new() -> PentePosition {
        let mut cells = [WALL; CELLS];
        for cell in Cell::all() {
            cells[cell.index()] = EMPTY;
        }
        let mut pos = PentePosition {
            cells,
            keys: [[0; 4]; CELLS],
            near: [0; CELLS],
            candidates: Bits::default(),
            to_move: Color::White,
            captured: [0; 2],
            placed: [0; 2],
            stones: 0,
            hash: SIDE_KEY,
            winner: None,
        };
        for cell in Cell::all() {
            for d in 0..4 {
                pos.keys[cell.index()][d] = pos.full_key(cell, d);
            }
        }
        pos
    }

    /// A position with the given stones, side to move and captured stone
    /// counts. Stones placed so far (for the opening rule) are taken as the
    /// stones on the board plus those the opponent captured.
    pub fn from_stones(
        stones: &[(Cell, Color)],
        to_move: Color,
        captured_by_white: u32,
        captured_by_black: u32,
    ) -> PentePosition {
        let mut pos = PentePosition::new();
        for &(cell, color) in stones {
            if pos.cells[cell.index()] == EMPTY {
                pos.put(cell, color);
            }
        }
        pos.set_captured(Color::White, captured_by_white);
        pos.set_captured(Color::Black, captured_by_black);
        for color in Color::BOTH {
            let on_board = pos.count_on_board(color);
            pos.placed[color.index()] = on_board + pos.captured[color.opponent().index()];
        }
        if to_move != pos.to_move {
            pos.to_move = to_move;
            pos.hash ^= SIDE_KEY;
        }
        pos
    }

    fn set_captured(&mut self, color: Color, stones: u32) {
        self.hash ^= capture_key(color, self.captured[color.index()]) ^ capture_key(color, stones);
        self.captured[color.index()] = stones;
    }

    fn count_on_board(&self, color: Color) -> u32 {
        Cell::all().filter(|&c| self.cells[c.index()] == stone(color)).count() as u32
    }

    /// The key of `cell` in direction `d`, computed from the cells.
    fn full_key(&self, cell: Cell, d: usize) -> LineKey {
        let mut key = 0;
        for k in (-4..=4isize).filter(|&k| k != 0) {
            key |= (self.cells[cell.offset(k * DIRS[d]).index()] as LineKey) << (2 * slot(k));
        }
        key
    }

    /// The stone on `cell`, if any.
    #[inline]
    pub fn stone_at(&self, cell: Cell) -> Option<Color> {
        match self.cells[cell.index()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Raw contents of a padded-layout cell.
    #[inline(always)]
    pub(crate) fn raw(&self, cell: Cell) -> Stone {
        self.cells[cell.index()]
    }

    /// True when the cell `dl` lines down and `dc` columns right of `cell`
    /// holds a stone (walls count as empty).
    #[inline]
    pub fn occupied_at(&self, cell: Cell, dl: isize, dc: isize) -> bool {
        matches!(self.raw(cell.offset(dl * STRIDE as isize + dc)), 1 | 2)
    }

    /// True when `cell` is an empty field cell.
    #[inline(always)]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.cells[cell.index()] == EMPTY
    }

    /// The line key of `cell` in direction `d` (0..4).
    #[inline(always)]
    pub fn key(&self, cell: Cell, d: usize) -> LineKey {
        self.keys[cell.index()][d]
    }

    /// Stones captured by `color`.
    #[inline(always)]
    pub fn captured(&self, color: Color) -> u32 {
        self.captured[color.index()]
    }

    /// Stones on the board.
    #[inline(always)]
    pub fn stone_count(&self) -> u32 {
        self.stones
    }

    /// Stones `color` has placed in the game.
    #[inline(always)]
    pub fn placed(&self, color: Color) -> u32 {
        self.placed[color.index()]
    }

    /// The winner, once someone has five in a row or ten captured stones.
    #[inline(always)]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// Empty cells within [`CANDIDATE_RADIUS`] of a stone, in index order.
    #[inline]
    pub fn candidates(&self) -> impl Iterator<Item = Cell> + '_ {
        use crate::bitboard::BitSet;
        self.candidates.iter().map(Cell::from_index)
    }

    /// True when White's first stone is due (it must go on the centre).
    pub fn is_first_white_stone(&self) -> bool {
        self.to_move == Color::White && self.placed[Color::White.index()] == 0
    }

    /// True when White's second stone is due (at distance at least
    /// [`SECOND_STONE_DISTANCE`] from the centre).
    pub fn is_second_white_stone(&self) -> bool {
        self.to_move == Color::White && self.placed[Color::White.index()] == 1
    }

    /// True when `cell` is a legal move under the full rules (any empty cell,
    /// except for White's first two stones).
    pub fn is_legal(&self, cell: Cell) -> bool {
        if self.is_terminal() || cell.index() >= CELLS || self.cells[cell.index()] != EMPTY {
            return false;
        }
        if self.is_first_white_stone() {
            cell == Cell::CENTRE
        } else if self.is_second_white_stone() {
            cell.distance(Cell::CENTRE) >= SECOND_STONE_DISTANCE
        } else {
            true
        }
    }

    /// Number of opponent pairs a stone of `color` on `cell` would capture.
    pub fn captures_at(&self, cell: Cell, color: Color) -> u32 {
        let (own, opp) = (stone(color), stone(color.opponent()));
        CAPTURE_DIRS
            .iter()
            .filter(|&&s| {
                self.raw(cell.offset(s)) == opp
                    && self.raw(cell.offset(2 * s)) == opp
                    && self.raw(cell.offset(3 * s)) == own
            })
            .count() as u32
    }

    /// Puts a stone on an empty cell, keeping keys, candidates and hash.
    fn put(&mut self, cell: Cell, color: Color) {
        let v = stone(color);
        let i = cell.index();
        self.cells[i] = v;
        self.hash ^= STONE_KEYS[color.index()][i];
        self.stones += 1;
        for (d, &step) in DIRS.iter().enumerate() {
            for k in 1..=4isize {
                self.keys[(i as isize - k * step) as usize][d] += (v as LineKey) << (2 * slot(k));
                self.keys[(i as isize + k * step) as usize][d] += (v as LineKey) << (2 * slot(-k));
            }
        }
        self.update_near(cell, 1);
    }

    /// Takes a stone of `color` off `cell`, keeping keys, candidates and hash.
    fn take(&mut self, cell: Cell, color: Color) {
        let v = stone(color);
        let i = cell.index();
        self.cells[i] = EMPTY;
        self.hash ^= STONE_KEYS[color.index()][i];
        self.stones -= 1;
        for (d, &step) in DIRS.iter().enumerate() {
            for k in 1..=4isize {
                self.keys[(i as isize - k * step) as usize][d] -= (v as LineKey) << (2 * slot(k));
                self.keys[(i as isize + k * step) as usize][d] -= (v as LineKey) << (2 * slot(-k));
            }
        }
        self.update_near(cell, -1);
    }

    /// Adds `delta` to the stone counts around `cell` and refreshes the
    /// candidate bits of the square around it.
    fn update_near(&mut self, cell: Cell, delta: i8) {
        let r = CANDIDATE_RADIUS;
        for dl in -r..=r {
            for dc in -r..=r {
                let q = (cell.index() as isize + dl * STRIDE as isize + dc) as usize;
                self.near[q] = self.near[q].wrapping_add_signed(delta);
                let (word, bit) = (q / 64, 1u64 << (q % 64));
                if self.cells[q] == EMPTY && self.near[q] > 0 {
                    self.candidates.0[word] |= bit;
                } else {
                    self.candidates.0[word] &= !bit;
                }
            }
        }
    }

    /// True when `cell` (holding a stone) is part of five or more in a row.
    fn makes_five(&self, cell: Cell) -> bool {
        let v = self.cells[cell.index()];
        DIRS.iter().any(|&step| {
            let run = |s: isize| (1..FIVE as isize).take_while(|&k| self.raw(cell.offset(k * s)) == v).count();
            1 + run(step) + run(-step) >= FIVE
        })
    }
}

impl Game for PentePosition {
    type Move = Cell;
    type Undo = Undo;
    type Moves = Moves;

    #[inline(always)]
    fn to_move(&self) -> Color {
        self.to_move
    }

    /// The candidate moves: empty cells within [`CANDIDATE_RADIUS`] of a stone
    /// (the centre on an empty board), with the opening rule applied: White's
    /// first stone on the centre, the second at distance exactly
    /// [`SECOND_STONE_DISTANCE`] from it (a subset of the legal cells that
    /// every reading of the rule accepts).
    fn legal_moves(&self) -> Moves {
        let mut moves = Moves::default();
        if self.is_terminal() {
            return moves;
        }
        if self.is_first_white_stone() && self.is_empty(Cell::CENTRE) {
            moves.push(Cell::CENTRE);
        } else if self.is_second_white_stone() {
            Cell::all()
                .filter(|&c| c.distance(Cell::CENTRE) == SECOND_STONE_DISTANCE && self.is_empty(c))
                .for_each(|c| moves.push(c));
        }
        if moves.is_empty() {
            self.candidates().for_each(|c| moves.push(c));
        }
        if moves.is_empty() {
            // Empty board with Black to move (not reachable by the rules).
            if let Some(c) = std::iter::once(Cell::CENTRE).chain(Cell::all()).find(|&c| self.is_empty(c)) {
                moves.push(c);
            }
        }
        moves
    }

    fn make(&mut self, mv: Cell) -> Undo {
        let mover = self.to_move;
        let (own, opp) = (stone(mover), stone(mover.opponent()));
        let undo_winner = self.winner;
        self.put(mv, mover);
        self.placed[mover.index()] += 1;
        let mut captures = 0u8;
        for (i, &s) in CAPTURE_DIRS.iter().enumerate() {
            if self.raw(mv.offset(s)) == opp && self.raw(mv.offset(2 * s)) == opp && self.raw(mv.offset(3 * s)) == own {
                self.take(mv.offset(s), mover.opponent());
                self.take(mv.offset(2 * s), mover.opponent());
                captures |= 1 << i;
            }
        }
        if captures != 0 {
            let before = self.captured[mover.index()];
            self.set_captured(mover, before + 2 * captures.count_ones());
        }
        if self.captured[mover.index()] >= CAPTURE_WIN_STONES || self.makes_five(mv) {
            self.winner = Some(mover);
        }
        self.to_move = mover.opponent();
        self.hash ^= SIDE_KEY;
        Undo { captures, winner: undo_winner }
    }

    fn unmake(&mut self, mv: Cell, undo: Undo) {
        let mover = self.to_move.opponent();
        self.to_move = mover;
        self.hash ^= SIDE_KEY;
        self.winner = undo.winner;
        if undo.captures != 0 {
            let before = self.captured[mover.index()];
            self.set_captured(mover, before - 2 * undo.captures.count_ones());
            for (i, &s) in CAPTURE_DIRS.iter().enumerate() {
                if undo.captures & (1 << i) != 0 {
                    self.put(mv.offset(s), mover.opponent());
                    self.put(mv.offset(2 * s), mover.opponent());
                }
            }
        }
        self.placed[mover.index()] -= 1;
        self.take(mv, mover);
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.winner.is_some() || self.stones as usize == BOARD_CELLS
    }

    /// +1 when Black has won, -1 when White has, 0 otherwise (draw or unfinished).
    fn final_score(&self) -> i32 {
        self.winner.map_or(0, |c| c.sign())
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        self.hash
    }
}

impl PartialEq for PentePosition {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells
            && self.keys == other.keys
            && self.near == other.near
            && self.candidates == other.candidates
            && self.to_move == other.to_move
            && self.captured == other.captured
            && self.placed == other.placed
            && self.stones == other.stones
            && self.hash == other.hash
            && self.winner == other.winner
    }
}

impl PentePosition {
    /// Checks every incremental field against a recomputation (for tests).
    pub fn check_consistency(&self) -> Result<(), String> {
        let fresh = PentePosition::from_stones(
            &Cell::all().filter_map(|c| self.stone_at(c).map(|s| (c, s))).collect::<Vec<_>>(),
            self.to_move,
            self.captured(Color::White),
            self.captured(Color::Black),
        );
        if fresh.keys != self.keys {
            return Err("line keys differ from a recomputation".into());
        }
        if fresh.near != self.near || fresh.candidates != self.candidates {
            return Err("candidate cells differ from a recomputation".into());
        }
        if fresh.hash != self.hash {
            return Err("hash differs from a recomputation".into());
        }
        if fresh.stones != self.stones {
            return Err("stone count differs from a recomputation".into());
        }
        Ok(())
    }
}
