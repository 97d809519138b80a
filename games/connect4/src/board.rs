//! Connect Four rules on a bitboard: board sizes, columns (the moves), the
//! position with its make/unmake, the four-in-a-row tests and the text
//! form.
//!
//! The board is the classic column-major layout (John Tromp's, as Pascal
//! Pons's solver tutorial explains it): column `c`, row `r` (0 at the
//! bottom) is bit `c * (height + 1) + r`, and the bit above each column's
//! top cell is a sentinel that is never set, so a line that runs off the
//! top or the bottom of a column meets an empty bit instead of wrapping
//! into the next column. A position is two words: the discs of the side
//! to move and every disc. A move adds one bit, and a four in a row is
//! four shifts and ands per direction; nothing loops over cells.

use engine_core::game::{Color, Game, MoveList};
use engine_core::mix::splitmix64;
use std::fmt;
use std::str::FromStr;

/// The widest board (and the capacity of a move list).
pub const MAX_WIDTH: usize = 16;
/// The tallest board: a line's three steps stay below 64 bits.
pub const MAX_HEIGHT: usize = 15;
/// Discs in a row that win.
pub const FOUR: usize = 4;

/// The dimensions of a board, with the masks every position of that size
/// shares.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Size {
    width: u8,
    height: u8,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell of the board (no sentinel).
    board: u64,
}

impl Size {
    /// The standard board: 7 columns, 6 rows.
    pub const STANDARD: Size = Size::build(7, 6);

    /// A board `width` columns wide and `height` rows high; fails unless
    /// both are at least 1, at most [`MAX_WIDTH`] and [`MAX_HEIGHT`], and
    /// the board with its sentinel row fits in 64 bits.
    pub fn new(width: usize, height: usize) -> Result<Size, String> {
        if !(1..=MAX_WIDTH).contains(&width) || !(1..=MAX_HEIGHT).contains(&height) {
            return Err(format!(
                "board {width}x{height}: the width must be 1-{MAX_WIDTH} and the height 1-{MAX_HEIGHT}"
            ));
        }
        if width * (height + 1) > u64::BITS as usize {
            return Err(format!("board {width}x{height}: width x (height + 1) must be at most 64"));
        }
        Ok(Size::build(width, height))
    }

    /// The size with its masks; the caller has checked the dimensions.
    const fn build(width: usize, height: usize) -> Size {
        let stride = height + 1;
        let column = (1u64 << height) - 1;
        let (mut bottom, mut board, mut c) = (0, 0, 0);
        while c < width {
            bottom |= 1 << (c * stride);
            board |= column << (c * stride);
            c += 1;
        }
        Size { width: width as u8, height: height as u8, bottom, board }
    }

    /// Columns.
    #[inline(always)]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// Rows.
    #[inline(always)]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// Cells.
    #[inline(always)]
    pub const fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// Bits per column: the rows and the sentinel.
    #[inline(always)]
    pub const fn stride(self) -> u32 {
        self.height as u32 + 1
    }

    /// Every cell of the board.
    #[inline(always)]
    pub const fn board_mask(self) -> u64 {
        self.board
    }

    /// The bottom cell of every column.
    #[inline(always)]
    pub const fn bottom_mask(self) -> u64 {
        self.bottom
    }

    /// The cells of column `c`.
    #[inline(always)]
    pub const fn column_mask(self, c: Column) -> u64 {
        ((1u64 << self.height) - 1) << (c.index() as u32 * self.stride())
    }

    /// The cells of row `r` (0 at the bottom).
    #[inline(always)]
    pub const fn row_mask(self, r: usize) -> u64 {
        self.bottom << r
    }

    /// The bit of column `c`, row `r` (0 at the bottom).
    #[inline(always)]
    pub const fn cell(self, c: Column, r: usize) -> u64 {
        1u64 << (c.index() as u32 * self.stride() + r as u32)
    }

    /// The column holding the cell `bit` (one bit of the board).
    #[inline(always)]
    pub const fn column_of(self, bit: u64) -> Column {
        Column((bit.trailing_zeros() / self.stride()) as u8)
    }

    /// The columns, left to right.
    pub fn columns(self) -> impl Iterator<Item = Column> {
        (0..self.width).map(Column)
    }

    /// The column `c` reflected left to right.
    #[inline(always)]
    pub const fn mirror(self, c: Column) -> Column {
        Column(self.width - 1 - c.0)
    }
}

impl Default for Size {
    /// The standard 7x6 board.
    fn default() -> Self {
        Size::STANDARD
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl fmt::Debug for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Size {
    type Err = String;

    /// `WIDTHxHEIGHT`, such as `7x6`.
    fn from_str(s: &str) -> Result<Size, String> {
        let bad = || format!("board size `{s}`: expected WIDTHxHEIGHT, such as 7x6");
        let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let (w, h) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
        Size::new(w, h)
    }
}

/// A column, the move of Connect Four. Written 1-based (`1` is the
/// leftmost column), as in John Tromp's and Pascal Pons's move strings.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Column(u8);

impl Column {
    /// The column with 0-based index `index`, below [`MAX_WIDTH`].
    #[inline(always)]
    pub const fn new(index: usize) -> Column {
        debug_assert!(index < MAX_WIDTH);
        Column(index as u8)
    }

    /// The 0-based index (0 is the leftmost column).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

impl fmt::Debug for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A position's legal moves (columns, left to right).
pub type Moves = MoveList<Column, MAX_WIDTH>;

/// True when `discs` (cells of one player on a board with columns of
/// `stride` bits) hold four in a row: horizontally, vertically or along a
/// diagonal.
#[inline(always)]
pub fn has_four(discs: u64, stride: u32) -> bool {
    let four = |s: u32| {
        let pairs = discs & (discs >> s);
        pairs & (pairs >> (2 * s)) != 0
    };
    four(1) || four(stride) || four(stride - 1) || four(stride + 1)
}

/// The cells (possibly occupied or off the board: the caller masks them)
/// where one more disc of a player holding `discs` makes four in a row.
#[inline(always)]
pub fn winning_cells(discs: u64, stride: u32) -> u64 {
    let p = discs;
    // Vertical: three below.
    let mut cells = (p << 1) & (p << 2) & (p << 3);
    for s in [stride, stride - 1, stride + 1] {
        // Two on one side and the third beyond them, or one on the other.
        let pair = (p << s) & (p << (2 * s));
        cells |= pair & (p << (3 * s));
        cells |= pair & (p >> s);
        let pair = (p >> s) & (p >> (2 * s));
        cells |= pair & (p << s);
        cells |= pair & (p >> (3 * s));
    }
    cells
}

/// A Connect Four position: the discs of the side to move, every disc, and
/// the board size. Black (`X`) moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The discs of the side to move.
    current: u64,
    /// Every disc.
    mask: u64,
    size: Size,
    /// Discs on the board.
    plies: u8,
}

impl Default for Position {
    /// The empty standard board.
    fn default() -> Self {
        Position::new(Size::STANDARD)
    }
}

impl Position {
    /// The empty board of `size`.
    pub const fn new(size: Size) -> Position {
        Position { current: 0, mask: 0, size, plies: 0 }
    }

    /// The position after the moves of `text` from the empty board of
    /// `size`: one digit per move, the 1-based column (`4453`), surrounding
    /// whitespace ignored. Fails with a one-line message on a character
    /// that is not a column of the board, a full column, a move after the
    /// game ended, or a board wider than 9 columns.
    pub fn from_moves(size: Size, text: &str) -> Result<Position, String> {
        if size.width() > 9 {
            return Err(format!("move strings need a board at most 9 columns wide, not {size}"));
        }
        let mut pos = Position::new(size);
        for (i, ch) in text.trim().chars().enumerate() {
            let n = i + 1;
            let c = match ch.to_digit(10) {
                Some(d) if (1..=size.width()).contains(&(d as usize)) => Column::new(d as usize - 1),
                _ => return Err(format!("move {n}: `{ch}` is not a column of the {size} board (1-{})", size.width())),
            };
            if pos.is_terminal() {
                return Err(format!("move {n}: the game is already over ({})", pos.outcome_text()));
            }
            if !pos.is_playable(c) {
                return Err(format!("move {n}: column {c} is full"));
            }
            pos.make(c);
        }
        Ok(pos)
    }

    /// The board size.
    #[inline(always)]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// Discs on the board (plies played).
    #[inline(always)]
    pub const fn plies(&self) -> usize {
        self.plies as usize
    }

    /// Empty cells.
    #[inline(always)]
    pub const fn empties(&self) -> usize {
        self.size.cells() - self.plies()
    }

    /// The discs of the side to move.
    #[inline(always)]
    pub const fn own(&self) -> u64 {
        self.current
    }

    /// The discs of the side that moved last.
    #[inline(always)]
    pub const fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Every disc.
    #[inline(always)]
    pub const fn occupied(&self) -> u64 {
        self.mask
    }

    /// The discs of `color`.
    pub fn discs(&self, color: Color) -> u64 {
        if color == self.to_move() { self.own() } else { self.opponent() }
    }

    /// The cells where a disc can be dropped now: the lowest empty cell of
    /// every column that is not full.
    #[inline(always)]
    pub const fn playable(&self) -> u64 {
        (self.mask + self.size.bottom) & self.size.board
    }

    /// True when column `c` is on the board and not full.
    #[inline(always)]
    pub fn is_playable(&self, c: Column) -> bool {
        c.index() < self.size.width() && self.playable() & self.size.column_mask(c) != 0
    }

    /// The empty cells where the side to move would make four in a row.
    #[inline(always)]
    pub fn own_wins(&self) -> u64 {
        winning_cells(self.current, self.size.stride()) & self.size.board & !self.mask
    }

    /// The empty cells where the opponent would make four in a row.
    #[inline(always)]
    pub fn opponent_wins(&self) -> u64 {
        winning_cells(self.opponent(), self.size.stride()) & self.size.board & !self.mask
    }

    /// The player with four in a row, if any (only the last mover can have
    /// one).
    #[inline(always)]
    pub fn winner(&self) -> Option<Color> {
        has_four(self.opponent(), self.size.stride()).then(|| self.to_move().opponent())
    }

    /// The cell column `c`'s next disc goes to (0 when the column is full).
    #[inline(always)]
    pub const fn drop_cell(&self, c: Column) -> u64 {
        (self.mask + (self.size.bottom & self.size.column_mask(c))) & self.size.column_mask(c)
    }

    /// Who holds column `c`, row `r` (0 at the bottom).
    pub fn at(&self, c: Column, r: usize) -> Option<Color> {
        let bit = self.size.cell(c, r);
        (self.mask & bit != 0).then(|| if self.current & bit != 0 { self.to_move() } else { self.to_move().opponent() })
    }

    /// The position's exact key, Pons's `position + mask`: distinct
    /// positions of one size have distinct keys (per column, the sum is
    /// the column's discs of the side to move plus a run of ones as high
    /// as the column, which both come back from it).
    #[inline(always)]
    pub const fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The position of `size` whose [`Position::key`] is `key`; `None`
    /// when no position of that size has it (a disc outside the board, or
    /// disc counts that alternate play cannot give).
    pub fn from_key(size: Size, key: u64) -> Option<Position> {
        let stride = size.stride();
        let mut mask = 0;
        for c in size.columns() {
            let shift = c.index() as u32 * stride;
            let bits = (key >> shift) & ((1 << stride) - 1);
            // A column `h` discs high holds values 2^h - 1 ..= 2^(h+1) - 2.
            let height = (bits + 1).ilog2();
            if height as usize > size.height() {
                return None;
            }
            mask |= ((1u64 << height) - 1) << shift;
        }
        let current = key.wrapping_sub(mask);
        let plies = mask.count_ones();
        if key & !((size.board << 1) | size.board) != 0 || current & !mask != 0 || current.count_ones() != plies / 2 {
            return None;
        }
        Some(Position { current, mask, size, plies: plies as u8 })
    }

    /// The position reflected left to right.
    pub fn mirror(&self) -> Position {
        let size = self.size;
        let stride = size.stride();
        let column = (1u64 << stride) - 1;
        let reflect = |bits: u64| {
            size.columns().fold(0, |acc, c| {
                let from = c.index() as u32 * stride;
                let to = size.mirror(c).index() as u32 * stride;
                acc | (((bits >> from) & column) << to)
            })
        };
        Position { current: reflect(self.current), mask: reflect(self.mask), ..*self }
    }

    /// How a finished game ended, in words (for messages).
    fn outcome_text(&self) -> &'static str {
        match self.winner() {
            Some(Color::Black) => "X has four in a row",
            Some(Color::White) => "O has four in a row",
            None => "the board is full",
        }
    }
}

impl Game for Position {
    type Move = Column;
    /// The cell the move filled.
    type Undo = u64;
    type Moves = Moves;

    #[inline(always)]
    fn to_move(&self) -> Color {
        if self.plies.is_multiple_of(2) { Color::Black } else { Color::White }
    }

    /// The columns that are not full, left to right; none once the game is
    /// over (Connect Four has no pass).
    #[inline]
    fn legal_moves(&self) -> Moves {
        let mut moves = Moves::default();
        if self.is_terminal() {
            return moves;
        }
        let playable = self.playable();
        for c in self.size.columns() {
            if playable & self.size.column_mask(c) != 0 {
                moves.push(c);
            }
        }
        moves
    }

    #[inline(always)]
    fn make(&mut self, c: Column) -> u64 {
        let bit = self.drop_cell(c);
        debug_assert!(bit != 0, "column {c} is full");
        self.current ^= self.mask;
        self.mask |= bit;
        self.plies += 1;
        bit
    }

    #[inline(always)]
    fn unmake(&mut self, _c: Column, bit: u64) {
        self.mask ^= bit;
        self.current ^= self.mask;
        self.plies -= 1;
    }

    #[inline(always)]
    fn is_terminal(&self) -> bool {
        self.plies() == self.size.cells() || has_four(self.opponent(), self.size.stride())
    }

    /// +1 when Black (the first player) has four in a row, -1 when White
    /// has, else 0 (a draw, or a game not over).
    #[inline]
    fn final_score(&self) -> i32 {
        self.winner().map_or(0, Color::sign)
    }

    /// The exact [`Position::key`], mixed (a bijection, so distinct keys
    /// keep distinct hashes).
    #[inline(always)]
    fn hash(&self) -> u64 {
        splitmix64(self.key())
    }
}

impl fmt::Display for Position {
    /// The board, top row first: `X` Black's discs (the first player's),
    /// `O` White's, `.` empty cells.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..self.size.height()).rev() {
            let row: String = self
                .size
                .columns()
                .map(|c| match self.at(c, r) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position {} ({} to move)\n{self}", self.size, if self.plies.is_multiple_of(2) { 'X' } else { 'O' })
    }
}

/// The move string of `moves` (1-based columns, `4453`), as
/// [`Position::from_moves`] reads it.
pub fn move_string(moves: &[Column]) -> String {
    moves.iter().map(Column::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &str) -> Position {
        Position::from_moves(Size::STANDARD, moves).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn sizes_are_checked() {
        assert_eq!(Size::new(7, 6), Ok(Size::STANDARD));
        assert!(Size::new(8, 7).is_ok(), "64 bits exactly");
        for (w, h) in [(0, 6), (7, 0), (17, 2), (2, 16), (9, 7), (8, 8)] {
            assert!(Size::new(w, h).is_err(), "{w}x{h}");
        }
        assert_eq!("5x4".parse::<Size>(), Size::new(5, 4));
        for bad in ["", "7", "7x", "x6", "7x6x1", "ax6", "-1x6", "99x99"] {
            assert!(bad.parse::<Size>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn four_in_a_row_in_every_direction() {
        // Black (X) plays the odd moves.
        for (moves, winner) in [
            ("1122334", Some(Color::Black)),     // horizontal
            ("1212121", Some(Color::Black)),     // vertical
            ("71122334", Some(Color::White)),    // horizontal, the second player
            ("12234334544", Some(Color::Black)), // diagonal a1-d4
            ("76654554344", Some(Color::Black)), // diagonal g1-d4
            ("1223433454", None),                // one move short of a1-d4
            ("7665455434", None),
        ] {
            let p = pos(moves);
            assert_eq!(p.winner(), winner, "{moves}\n{p}");
            assert_eq!(p.is_terminal(), winner.is_some(), "{moves}");
            assert_eq!(p.final_score(), winner.map_or(0, Color::sign), "{moves}");
        }
    }

    #[test]
    fn lines_do_not_wrap_between_columns() {
        // X holds a4-a6 and b1: consecutive cells in a layout without the
        // sentinel row, no line on the board.
        let p = pos("21316117171");
        assert_eq!(p.winner(), None, "{p}");
        assert!(!p.is_terminal());
        assert!(!p.is_playable(Column::new(0)));
    }

    #[test]
    fn make_and_unmake_restore_the_position() {
        let mut p = pos("4453");
        let before = p;
        for c in p.legal_moves().iter().copied().collect::<Vec<_>>() {
            let undo = p.make(c);
            assert_eq!(p.plies(), 5);
            p.unmake(c, undo);
            assert_eq!(p, before);
        }
    }

    #[test]
    fn keys_are_exact_and_decode() {
        let p = pos("44536712");
        assert_eq!(Position::from_key(p.size(), p.key()), Some(p));
        assert_ne!(pos("12").key(), pos("21").key(), "the colours differ");
        assert_eq!(pos("4453").key(), pos("5344").key(), "transposition");
        assert_eq!(Position::from_key(Size::STANDARD, u64::MAX), None);
        assert_eq!(Position::from_key(Size::STANDARD, 1), Some(pos("1")));
        assert_eq!(Position::from_key(Size::STANDARD, 2), None, "a lone disc of the side to move");
    }

    #[test]
    fn move_strings_read_and_errors_are_one_line() {
        assert_eq!(pos(" 4453 \n").plies(), 4);
        assert_eq!(move_string(&[Column::new(3), Column::new(0)]), "41");
        let p = pos("44");
        assert_eq!(p.to_string(), ".......\n.......\n.......\n.......\n...O...\n...X...\n");
        let errors = [
            ("448", "move 3: `8` is not a column of the 7x6 board (1-7)"),
            ("40", "move 2: `0` is not a column of the 7x6 board (1-7)"),
            ("4a", "move 2: `a` is not a column of the 7x6 board (1-7)"),
            ("4444444", "move 7: column 4 is full"),
            ("12121212", "move 8: the game is already over (X has four in a row)"),
        ];
        for (text, message) in errors {
            assert_eq!(Position::from_moves(Size::STANDARD, text), Err(message.to_string()));
        }
        let wide = Size::new(10, 5).unwrap();
        assert!(Position::from_moves(wide, "1").is_err());
        for text in ["é", "4\u{0}", "٤", "99999999999999999999"] {
            let e = Position::from_moves(Size::STANDARD, text).unwrap_err();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn winning_cells_find_every_threat() {
        // X on a1-c1, O on a2-c2: d1 wins for X, d2 for O.
        let p = pos("112233");
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.own_wins(), Size::STANDARD.cell(Column::new(3), 0));
        assert_eq!(p.opponent_wins(), Size::STANDARD.cell(Column::new(3), 1));
        // Vertical three: the cell above.
        let p = pos("121212");
        assert_eq!(p.own_wins(), Size::STANDARD.cell(Column::new(0), 3));
        assert_eq!(p.opponent_wins(), Size::STANDARD.cell(Column::new(1), 3));
    }

    #[test]
    fn mirror_reflects_columns() {
        let p = pos("1123");
        assert_eq!(p.mirror(), pos("7765"));
        assert_eq!(p.mirror().mirror(), p);
    }
}
