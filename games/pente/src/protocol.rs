//! The Pente file protocol: `input.txt` (colour, time left, captured stones,
//! 19 board lines) into a [`PentePosition`], and the move for `output.txt`.
//!
//! Captured counts are stones; a game master that writes pairs is recognised
//! as PROTOCOLS.md describes (an odd count, or counts that fit the stones on
//! the board only when read as pairs).

use crate::board::{BOARD_CELLS, CAPTURE_WIN_STONES, Cell, PentePosition, SIZE};
use engine_core::agent::seconds_text;
use engine_core::game::Color;
use std::fmt;

/// What was wrong with an input file, and on which line (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Line number, counted from 1.
    pub line: usize,
    /// What was expected there.
    pub message: String,
}

impl InputError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        InputError { line, message: message.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for InputError {}

/// A parsed `input.txt`.
#[derive(Clone, Debug)]
pub struct Input {
    /// The colour to play (and to move in [`Input::position`]).
    pub color: Color,
    /// CPU seconds left for the rest of the game.
    pub time_left: f64,
    /// The position, with captured stones.
    pub position: PentePosition,
    /// True when the captured counts were read as pairs.
    pub counts_were_pairs: bool,
}

/// Lines before the board.
const HEADER_LINES: usize = 3;

/// Parses the text of `input.txt`.
pub fn parse_input(text: &str) -> Result<Input, InputError> {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    let mut next =
        |n: usize, what: &str| lines.next().ok_or_else(|| InputError::new(n, format!("missing line: expected {what}")));
    let color = match next(1, "WHITE or BLACK")?.trim() {
        "WHITE" => Color::White,
        "BLACK" => Color::Black,
        other => return Err(InputError::new(1, format!("expected WHITE or BLACK, found {other:?}"))),
    };
    let time_text = next(2, "the seconds left")?.trim();
    let time_left = match time_text.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 => t,
        _ => return Err(InputError::new(2, format!("expected a positive number of seconds, found {time_text:?}"))),
    };
    let counts_text = next(3, "white_captured,black_captured")?.trim();
    let counts: Vec<Option<u32>> = counts_text.split(',').map(|s| s.trim().parse::<u32>().ok()).collect();
    let (white_count, black_count) = match counts[..] {
        [Some(w), Some(b)] => (w, b),
        _ => {
            return Err(InputError::new(
                3,
                format!("expected two non-negative integers separated by a comma, found {counts_text:?}"),
            ));
        }
    };
    let mut stones = Vec::new();
    for line in 0..SIZE {
        let n = HEADER_LINES + 1 + line;
        let row = next(n, "a board line")?.trim();
        if row.chars().count() != SIZE {
            return Err(InputError::new(
                n,
                format!("expected {SIZE} characters from w, b, ., found {}", row.chars().count()),
            ));
        }
        for (col, ch) in row.chars().enumerate() {
            match ch {
                'w' => stones.push((Cell::at(line, col), Color::White)),
                'b' => stones.push((Cell::at(line, col), Color::Black)),
                '.' => {}
                other => {
                    return Err(InputError::new(
                        n,
                        format!("expected w, b or ., found {other:?} in column {}", col + 1),
                    ));
                }
            }
        }
    }
    if let Some((i, _)) = lines.enumerate().find(|(_, l)| !l.trim().is_empty()) {
        return Err(InputError::new(HEADER_LINES + SIZE + 1 + i, "expected the end of the file after 19 board lines"));
    }
    if stones.len() == BOARD_CELLS {
        return Err(InputError::new(HEADER_LINES + 1, "the board is full: there is no move to make"));
    }
    let on_board = |c: Color| stones.iter().filter(|s| s.1 == c).count() as i64;
    // White moves first: White has placed as many stones as Black when White
    // is to move, one more when Black is.
    let fits = |white_captured: i64, black_captured: i64| {
        let white_placed = on_board(Color::White) + black_captured;
        let black_placed = on_board(Color::Black) + white_captured;
        white_placed - black_placed == if color == Color::White { 0 } else { 1 }
    };
    let (w, b) = (white_count as i64, black_count as i64);
    let pairs = w % 2 == 1 || b % 2 == 1 || (!fits(w, b) && fits(2 * w, 2 * b));
    let factor = if pairs { 2 } else { 1 };
    let (white_captured, black_captured) = (white_count.saturating_mul(factor), black_count.saturating_mul(factor));
    if white_captured >= CAPTURE_WIN_STONES || black_captured >= CAPTURE_WIN_STONES {
        return Err(InputError::new(
            3,
            format!("expected fewer than {CAPTURE_WIN_STONES} captured stones per side (the game would be over)"),
        ));
    }
    Ok(Input {
        color,
        time_left,
        position: PentePosition::from_stones(&stones, color, white_captured, black_captured),
        counts_were_pairs: pairs,
    })
}

/// The text of `output.txt` for `mv`: the cell and a line feed.
pub fn output_text(mv: Cell) -> String {
    format!("{mv}\n")
}

/// Reads a program's `output.txt`: one line holding a cell exactly as the
/// handout writes it (`9N`: row 1-19, then an uppercase column letter).
pub fn parse_output(text: &str) -> Result<Cell, String> {
    let first = engine_core::agent::single_line(text)?;
    match Cell::parse(first) {
        Some(cell) if cell.to_string() == first => Ok(cell),
        _ => Err(format!(
            "expected a move like `9N` (row 1-{SIZE}, then a column letter A-T without I), found `{}`",
            first.escape_debug()
        )),
    }
}

/// The 19 board lines of `pos` in the input format (row 19 first).
pub fn board_text(pos: &PentePosition) -> String {
    let mut out = String::with_capacity(SIZE * (SIZE + 1));
    for line in 0..SIZE {
        for col in 0..SIZE {
            out.push(match pos.stone_at(Cell::at(line, col)) {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            });
        }
        out.push('\n');
    }
    out
}

/// A complete `input.txt` for `pos` with `time_left` seconds for the side to move.
pub fn input_text(pos: &PentePosition, time_left: f64) -> String {
    let color = match engine_core::game::Game::to_move(pos) {
        Color::White => "WHITE",
        Color::Black => "BLACK",
    };
    format!(
        "{color}\n{}\n{},{}\n{}",
        seconds_text(time_left),
        pos.captured(Color::White),
        pos.captured(Color::Black),
        board_text(pos)
    )
}
