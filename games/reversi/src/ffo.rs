//! The FFO endgame test suite in its one-line text form (`.obf`): 64 cells
//! `a1`..`h8` (`X` black, `O` white, `-` empty), the side to move, then
//! `;`-separated best moves with their exact disc margins.

use crate::{Geometry, Move, Position, Size8, Variant, disc_char};
use engine_core::bitboard::BitSet;
use engine_core::game::Color;
use std::path::{Path, PathBuf};

/// One test position.
#[derive(Clone, Debug)]
pub struct FfoPosition {
    /// Number in the suite (1-59 for the fforum files).
    pub number: usize,
    /// The position, with Othello scoring.
    pub position: Position<Size8>,
    /// The listed moves with their exact margins for the side to move, best
    /// first; the first value is the position's exact score.
    pub moves: Vec<(Move<Size8>, i32)>,
}

impl FfoPosition {
    /// The exact score (disc margin for the side to move).
    pub fn score(&self) -> i32 {
        self.moves[0].1
    }
}

/// Parses the board and side to move of an OBF line (64 cells, a space,
/// `X` or `O`); returns the position (Othello scoring) and what follows the
/// side: `;`-separated fields, if any.
fn parse_board(line: &str) -> Result<(Position<Size8>, &str), String> {
    let (board, rest) = line.split_once(' ').ok_or("expected 64 cells, a space and the side to move")?;
    if board.len() != Size8::CELLS {
        return Err(format!("expected {} cells, found {}", Size8::CELLS, board.len()));
    }
    let (mut black, mut white) = (<Size8 as Geometry>::Bits::EMPTY, <Size8 as Geometry>::Bits::EMPTY);
    for (cell, c) in board.bytes().enumerate() {
        match c {
            b'X' => black |= BitSet::bit(cell),
            b'O' => white |= BitSet::bit(cell),
            b'-' => {}
            _ => return Err(format!("cell {}: expected X, O or -, found `{}`", cell + 1, c as char)),
        }
    }
    let (side, fields) = rest.split_once(';').unwrap_or((rest, ""));
    let to_move = match side.trim() {
        "X" => Color::Black,
        "O" => Color::White,
        other => return Err(format!("expected side to move X or O, found `{other}`")),
    };
    Ok((Position::from_discs(black, white, to_move, Variant::Othello8.scoring()), fields))
}

/// Parses a position line of the OBF form: 64 cells, a space, the side to
/// move, then optionally `;` and anything (a comment, moves with margins).
pub fn parse_obf(line: &str) -> Result<Position<Size8>, String> {
    parse_board(line).map(|(position, _)| position)
}

/// An empty cell in the position text form ([`Position::rows`]).
const EMPTY_TEXT: char = '.';
/// An empty cell in OBF.
const OBF_EMPTY: char = '-';

/// The OBF line of `pos`: its 64 cells (`X` black, `O` white, `-` empty,
/// `a1` first), a space, the side to move and `;`.
pub fn obf_text(pos: &Position<Size8>) -> String {
    let cells: String = pos.rows().concat().chars().map(|c| if c == EMPTY_TEXT { OBF_EMPTY } else { c }).collect();
    format!("{cells} {};", disc_char(pos.to_move()))
}

/// Parses one line; `number` is its number in the suite.
pub fn parse_line(line: &str, number: usize) -> Result<FfoPosition, String> {
    let (position, fields) = parse_board(line)?;
    let mut moves = Vec::new();
    for field in fields.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        let bad = || format!("expected a move and margin like `A2:+38`, found `{field}`");
        let (mv, score) = field.split_once(':').ok_or_else(bad)?;
        let mv = Move::parse(&mv.to_ascii_lowercase()).ok_or_else(bad)?;
        let score: i32 = score.trim_start_matches('+').parse().map_err(|_| bad())?;
        moves.push((mv, score));
    }
    if moves.is_empty() {
        return Err("expected at least one move with its margin".into());
    }
    Ok(FfoPosition { number, position, moves })
}

/// Reads an `.obf` file whose first line is position `first`.
pub fn read_file(path: &Path, first: usize) -> Result<Vec<FfoPosition>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .enumerate()
        .map(|(i, (line_no, line))| {
            parse_line(line, first + i).map_err(|e| format!("{}:{}: {e}", path.display(), line_no + 1))
        })
        .collect()
}

/// The suite's folder, relative to the repository root.
pub const SUITE_DIR: &str = "data/ffo";

/// Where the suite lives: `data/ffo` of the repository, found in `start` or
/// the nearest of its ancestors that has one.
pub fn find_suite_dir(start: &Path) -> Option<PathBuf> {
    start.ancestors().map(|dir| dir.join(SUITE_DIR)).find(|dir| dir.is_dir())
}

/// Reads every `fforum-FIRST-LAST.obf` file of `dir`, in suite order.
pub fn read_suite(dir: &Path) -> Result<Vec<FfoPosition>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(range) = name.strip_prefix("fforum-").and_then(|n| n.strip_suffix(".obf")) {
            let first = range
                .split('-')
                .next()
                .and_then(|f| f.parse::<usize>().ok())
                .ok_or_else(|| format!("{}: expected a file name fforum-FIRST-LAST.obf", path.display()))?;
            files.push((first, path));
        }
    }
    files.sort();
    let mut suite = Vec::new();
    for (first, path) in files {
        suite.extend(read_file(&path, first)?);
    }
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obf_text_writes_the_suite_lines_back() {
        let dir = find_suite_dir(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("data/ffo");
        for (path, first) in [("fforum-1-19.obf", 1), ("fforum-40-59.obf", 40)] {
            let text = std::fs::read_to_string(dir.join(path)).unwrap();
            for (line, ffo) in text.lines().zip(read_file(&dir.join(path), first).unwrap()) {
                let written = obf_text(&ffo.position);
                assert_eq!(written, line[..written.len()], "{line}");
                assert_eq!(parse_obf(&written).unwrap(), ffo.position);
            }
        }
    }

    #[test]
    fn lines_parse_and_errors_say_what_was_expected() {
        let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";
        let p = parse_line(line, 40).unwrap();
        assert_eq!(p.position.to_move(), Color::Black);
        assert_eq!(p.position.empty_count(), 20);
        assert_eq!(p.moves[0], (Move::at(1, 0), 38));
        assert_eq!(p.score(), 38);
        assert!(parse_line("XO X; A1:+2", 1).unwrap_err().contains("64 cells"));
        let bad_side = format!("{} Y; A1:+2", "-".repeat(64));
        assert!(parse_line(&bad_side, 1).unwrap_err().contains("side to move"));
        let bad_move = format!("{} X; Z9:+2", "-".repeat(64));
        assert!(parse_line(&bad_move, 1).unwrap_err().contains("A2:+38"));
    }
}
