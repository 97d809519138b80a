//! The position text form used in files, tests and command lines:
//!
//! ```text
//! X          <- side to move: X (Black) or O (White)
//! ........   <- one line per row, row 1 first,
//! ...XO...      one character per cell: X, O or .
//! ```
//!
//! Parsing reports the first problem as a [`ParseError`] naming the line.

use super::geometry::Geometry;
use super::position::{Position, Scoring};
use engine_core::bitboard::BitSet;
use engine_core::game::Color;
use std::fmt;

/// What was wrong with a position text, and on which line (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line number, counted from 1.
    pub line: usize,
    /// What was expected there.
    pub message: String,
}

impl ParseError {
    /// An error on `line` (from 1).
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        ParseError { line, message: message.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// The character of a disc of `color` (`X` for Black, `O` for White).
pub const fn disc_char(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// Parses a side-to-move line: `X` or `O`.
pub fn parse_side(text: &str, line: usize) -> Result<Color, ParseError> {
    match text.trim_end_matches('\r').trim() {
        "X" => Ok(Color::Black),
        "O" => Ok(Color::White),
        other => Err(ParseError::new(line, format!("expected the side to move, `X` or `O`, found `{other}`"))),
    }
}

/// Parses `G::N` board rows of `X`, `O` and `.`; `first_line` is the line
/// number of the first row. Returns the discs `(black, white)`.
pub fn parse_rows<'a, G: Geometry>(
    rows: &mut impl Iterator<Item = &'a str>,
    first_line: usize,
) -> Result<(G::Bits, G::Bits), ParseError> {
    let n = G::N;
    let mut black = G::Bits::EMPTY;
    let mut white = G::Bits::EMPTY;
    for row in 0..n {
        let line = first_line + row;
        let text = rows.next().ok_or_else(|| {
            ParseError::new(line, format!("expected board row {} of {n}, found end of input", row + 1))
        })?;
        let text = text.trim_end_matches('\r');
        if text.chars().count() != n {
            return Err(ParseError::new(
                line,
                format!(
                    "expected {n} cells of `X`, `O` or `.` in row {}, found {} characters",
                    row + 1,
                    text.chars().count()
                ),
            ));
        }
        for (col, ch) in text.chars().enumerate() {
            let cell = G::Bits::bit(row * n + col);
            match ch {
                'X' => black |= cell,
                'O' => white |= cell,
                '.' => {}
                other => {
                    return Err(ParseError::new(
                        line,
                        format!("expected `X`, `O` or `.` in row {} column {}, found `{other}`", row + 1, col + 1),
                    ));
                }
            }
        }
    }
    Ok((black, white))
}

impl<G: Geometry> Position<G> {
    /// Parses the position text form (side line, then `N` rows). Trailing
    /// blank lines are allowed; anything else after the board is an error.
    pub fn parse(text: &str, scoring: Scoring) -> Result<Self, ParseError> {
        let mut lines = text.lines();
        let side = parse_side(lines.next().unwrap_or(""), 1)?;
        let (black, white) = parse_rows::<G>(&mut lines, 2)?;
        if let Some((i, extra)) = lines.enumerate().find(|(_, l)| !l.trim().is_empty()) {
            let line = G::N + 2 + i;
            return Err(ParseError::new(
                line,
                format!("expected end of input after {} rows, found `{}`", G::N, extra.trim()),
            ));
        }
        Ok(Position::from_discs(black, white, side, scoring))
    }

    /// The board rows, row 1 first, without the side line.
    pub fn rows(&self) -> Vec<String> {
        let (black, white) = (self.discs(Color::Black), self.discs(Color::White));
        (0..G::N)
            .map(|row| {
                (0..G::N)
                    .map(|col| {
                        let cell = row * G::N + col;
                        if black.contains(cell) {
                            'X'
                        } else if white.contains(cell) {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

impl<G: Geometry> fmt::Display for Position<G> {
    /// Writes the position text form, each line ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", disc_char(self.to_move()))?;
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl<G: Geometry> fmt::Debug for Position<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
