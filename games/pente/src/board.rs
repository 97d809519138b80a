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
//!
//! The position also keeps [`LineCounts`]: over the candidate cells (empty
//! cells near the stones) and the four lines through each, what a stone of
//! either colour would make there, looked up in the pattern tables whenever
//! a key or the candidate set changes. They are the evaluation's features
//! and give the cells of immediate wins without a scan of the board.

use super::pattern::{EMPTY, LineKey, Pattern, SHAPES, Shape, Stone, WALL, pattern, pattern_pair, slot, stone};
use engine_core::bitboard::{BitSet, Bits};
use engine_core::game::{Color, Game, MoveList};
use engine_core::mix::splitmix64;
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

/// What a stone of each colour would make on the candidate cells, summed
/// over the cells and the four lines through each (a cell counts once per
/// line), as [`PentePosition`] keeps it.
#[derive(Clone, PartialEq, Eq, Debug)]
struct LineCounts {
    /// Per colour, (cell, line) pairs by the shape a stone forms there.
    shapes: [[i32; SHAPES]; 2],
    /// Per colour, the opponent pairs a stone would capture, summed.
    captures: [i32; 2],
    /// Per colour and cell, the lines in which a stone there makes five.
    five_lines: [[u8; CELLS]; 2],
    /// Per colour and cell, the pairs a stone there captures.
    capture_pairs: [[u8; CELLS]; 2],
    /// Per colour, the cells where a stone makes five.
    five_cells: [Bits<WORDS>; 2],
    /// Per colour, the cells where a stone captures.
    capture_cells: [Bits<WORDS>; 2],
}

impl LineCounts {
    /// No cells counted.
    const EMPTY: LineCounts = LineCounts {
        shapes: [[0; SHAPES]; 2],
        captures: [0; 2],
        five_lines: [[0; CELLS]; 2],
        capture_pairs: [[0; CELLS]; 2],
        five_cells: [Bits([0; WORDS]); 2],
        capture_cells: [Bits([0; WORDS]); 2],
    };

    /// Adds (`sign` 1) or removes (`sign` -1) the line of `cell` whose key
    /// is `key`, for both colours.
    #[inline(always)]
    fn count_line(&mut self, cell: usize, key: LineKey, sign: i8) {
        let [black, white] = pattern_pair(key);
        self.count_pattern(Color::Black.index(), cell, black, sign);
        self.count_pattern(Color::White.index(), cell, white, sign);
    }

    #[inline(always)]
    fn count_pattern(&mut self, c: usize, cell: usize, p: Pattern, sign: i8) {
        self.shapes[c][p.shape() as usize] += i32::from(sign);
        let pairs = p.captures() as i8;
        if pairs != 0 {
            self.captures[c] += i32::from(sign * pairs);
            let total = &mut self.capture_pairs[c][cell];
            *total = total.wrapping_add_signed(sign * pairs);
            set_bit(&mut self.capture_cells[c], cell, *total != 0);
        }
        if p.shape() == Shape::Five {
            let lines = &mut self.five_lines[c][cell];
            *lines = lines.wrapping_add_signed(sign);
            set_bit(&mut self.five_cells[c], cell, *lines != 0);
        }
    }
}

/// Sets bit `i` of `bits` to `on`.
#[inline(always)]
fn set_bit(bits: &mut Bits<WORDS>, i: usize, on: bool) {
    let (word, bit) = (i / 64, 1u64 << (i % 64));
    if on {
        bits.0[word] |= bit;
    } else {
        bits.0[word] &= !bit;
    }
}

/// A Pente position: stones, captured counts, side to move, and the
/// incrementally kept line keys, candidate cells and line counts.
#[derive(Clone)]
pub struct PentePosition {
    cells: [Stone; CELLS],
    keys: [[LineKey; 4]; CELLS],
    /// Stones within [`CANDIDATE_RADIUS`] of each cell.
    near: [u8; CELLS],
    /// Empty field cells with a stone within [`CANDIDATE_RADIUS`].
    candidates: Bits<WORDS>,
    /// What each colour would make on the candidate cells.
    counts: LineCounts,
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
            counts: LineCounts::EMPTY,
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
        self.candidates.iter().map(Cell::from_index)
    }

    /// True when the padded-layout cell `i` is a candidate cell.
    #[inline(always)]
    fn is_candidate(&self, i: usize) -> bool {
        self.candidates.contains(i)
    }

    /// The four patterns (one per line) of a stone of `color` on `cell`.
    #[inline(always)]
    pub fn patterns(&self, cell: Cell, color: Color) -> [Pattern; 4] {
        [0, 1, 2, 3].map(|d| pattern(color, self.key(cell, d)))
    }

    /// The four patterns (one per line) of a stone of each colour on
    /// `cell`, indexed by [`Color::index`] then line.
    #[inline(always)]
    pub fn pattern_pairs(&self, cell: Cell) -> [[Pattern; 4]; 2] {
        let pairs = [0, 1, 2, 3].map(|d| pattern_pair(self.key(cell, d)));
        [pairs.map(|[black, _]| black), pairs.map(|[_, white]| white)]
    }

    /// (Candidate cell, line) pairs by the shape a stone of `color` forms
    /// there, indexed by [`Shape`].
    #[inline(always)]
    pub fn shape_counts(&self, color: Color) -> &[i32; SHAPES] {
        &self.counts.shapes[color.index()]
    }

    /// Opponent pairs a stone of `color` would capture, summed over the
    /// candidate cells and lines.
    #[inline(always)]
    pub fn capture_count(&self, color: Color) -> i32 {
        self.counts.captures[color.index()]
    }

    /// The cells where a stone of `color` wins at once (five in a row, or
    /// captures that reach [`CAPTURE_WIN_STONES`]), in index order.
    #[inline]
    pub fn winning_cells(&self, color: Color) -> impl Iterator<Item = Cell> + use<> {
        let c = color.index();
        let pairs_needed = CAPTURE_WIN_STONES.saturating_sub(self.captured(color)).div_ceil(2);
        let mut wins = self.counts.five_cells[c];
        let capturing = self.counts.capture_cells[c];
        if pairs_needed <= 1 {
            wins |= capturing;
        } else {
            for q in capturing.iter() {
                if u32::from(self.counts.capture_pairs[c][q]) >= pairs_needed {
                    set_bit(&mut wins, q, true);
                }
            }
        }
        wins.iter().map(Cell::from_index)
    }

    /// The cells where a stone of `color` captures at least one pair, in
    /// index order.
    #[inline]
    pub fn capturing_cells(&self, color: Color) -> impl Iterator<Item = Cell> + use<> {
        self.counts.capture_cells[color.index()].iter().map(Cell::from_index)
    }

    /// The line counts recomputed by a scan of the candidate cells.
    fn scanned_counts(&self) -> LineCounts {
        let mut counts = LineCounts::EMPTY;
        for cell in self.candidates() {
            for color in Color::BOTH {
                for p in self.patterns(cell, color) {
                    counts.count_pattern(color.index(), cell.index(), p, 1);
                }
            }
        }
        counts
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
                self.add_to_key((i as isize - k * step) as usize, d, (v as LineKey) << (2 * slot(k)));
                self.add_to_key((i as isize + k * step) as usize, d, (v as LineKey) << (2 * slot(-k)));
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
                self.add_to_key((i as isize - k * step) as usize, d, ((v as LineKey) << (2 * slot(k))).wrapping_neg());
                self.add_to_key((i as isize + k * step) as usize, d, ((v as LineKey) << (2 * slot(-k))).wrapping_neg());
            }
        }
        self.update_near(cell, -1);
    }

    /// Adds `delta` (wrapping) to the key of cell `q` in direction `d`,
    /// recounting that line when `q` is a candidate.
    #[inline(always)]
    fn add_to_key(&mut self, q: usize, d: usize, delta: LineKey) {
        let old = self.keys[q][d];
        let new = old.wrapping_add(delta);
        self.keys[q][d] = new;
        if self.is_candidate(q) {
            self.counts.count_line(q, old, -1);
            self.counts.count_line(q, new, 1);
        }
    }

    /// Adds (`sign` 1) or removes (`sign` -1) the four lines of cell `q` in
    /// the line counts.
    #[inline(always)]
    fn count_cell(&mut self, q: usize, sign: i8) {
        for d in 0..4 {
            self.counts.count_line(q, self.keys[q][d], sign);
        }
    }

    /// Adds `delta` to the stone counts around `cell` and refreshes the
    /// candidate bits of the square around it.
    fn update_near(&mut self, cell: Cell, delta: i8) {
        let r = CANDIDATE_RADIUS;
        for dl in -r..=r {
            for dc in -r..=r {
                let q = (cell.index() as isize + dl * STRIDE as isize + dc) as usize;
                self.near[q] = self.near[q].wrapping_add_signed(delta);
                let now = self.cells[q] == EMPTY && self.near[q] > 0;
                if now != self.is_candidate(q) {
                    set_bit(&mut self.candidates, q, now);
                    self.count_cell(q, if now { 1 } else { -1 });
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
            && self.counts == other.counts
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
        if self.scanned_counts() != self.counts {
            return Err("line counts differ from a scan of the candidate cells".into());
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
