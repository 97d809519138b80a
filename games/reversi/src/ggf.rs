//! Games in the Generic Game Format (GGF) of the Generic Game Server and
//! the NBoard GUI, one game a record:
//!
//! ```text
//! (;GM[Othello]PC[NBoard]PB[..]PW[..]RE[?]TI[15:00]TY[8]BO[8 <cells> <side>]B[F5//0.01]W[D6/-1.00/0.5]...;)
//! ```
//!
//! `BO` holds the board size, the cells row 1 first (`*` Black, `O` White,
//! `-` empty; whitespace between them is ignored) and the side to move; `B`
//! and `W` hold a move (`F5`, or `PA` for a pass), optionally followed by
//! `/EVAL` and `/SECONDS`. `TY` is the board type: its leading number is the
//! board size (8, 10 or 12 here; flags after it are kept but not played).
//! Other tags are kept as they are. This module owns the parsing and the
//! writing; both check the moves against the rules.

use super::geometry::Geometry;
use super::position::{Move, Position, Scoring};
use engine_core::bitboard::BitSet;
use engine_core::game::{Color, Game};
use std::fmt;

/// What opens a GGF record.
pub const OPEN: &str = "(;";
/// What closes it.
pub const CLOSE: &str = ";)";
/// The game tag's value for Othello.
pub const OTHELLO: &str = "Othello";
/// A black disc in `BO`.
const BLACK_CELL: char = '*';
/// A white disc in `BO`.
const WHITE_CELL: char = 'O';
/// An empty cell in `BO`.
const EMPTY_CELL: char = '-';
/// The move text of a pass.
pub const PASS: &str = "PA";
/// Separates a move from its evaluation and time.
const FIELD_SEPARATOR: char = '/';
/// Seconds per minute (and minutes per hour) in a `TI` value.
const SECONDS_PER_MINUTE: f64 = 60.0;

/// One move of a game with what its player reported.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove<G: Geometry> {
    /// Who played it.
    pub color: Color,
    /// The move (a pass included).
    pub mv: Move<G>,
    /// The mover's evaluation in discs, if given.
    pub eval: Option<f64>,
    /// Seconds the move took, if given.
    pub seconds: Option<f64>,
}

/// A GGF game on a board of geometry `G`.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame<G: Geometry> {
    /// Tags other than `GM`, `TY`, `BO` and the moves, in their order
    /// (`PC`, `DT`, `PB`, `PW`, `RE`, `TI`, ...).
    pub tags: Vec<(String, String)>,
    /// The board type (`TY`), e.g. `8`.
    pub board_type: String,
    /// The start position (`BO`).
    pub start: Position<G>,
    /// The moves, each legal in turn from `start`.
    pub moves: Vec<GgfMove<G>>,
}

/// How a GGF result (`RE`) came about, written after the margin and a `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFlag {
    /// The loser resigned (`r`); a selfplay forfeit other than time.
    Resigned,
    /// The loser ran out of time (`t`).
    Timeout,
}

impl ResultFlag {
    /// The flag's letter.
    pub const fn letter(self) -> char {
        match self {
            ResultFlag::Resigned => 'r',
            ResultFlag::Timeout => 't',
        }
    }
}

/// A `RE` value: Black's margin in discs with two decimals (`+12.00`,
/// `-3.00`, `+0.00`), then `:` and the flag's letter when the game did not
/// end on the board.
pub fn result_text(black_margin: f64, flag: Option<ResultFlag>) -> String {
    match flag {
        Some(flag) => format!("{black_margin:+.2}:{}", flag.letter()),
        None => format!("{black_margin:+.2}"),
    }
}

/// A GGF error: what was expected, at which character (from 1) of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfError {
    /// Character position in the text, counted from 1.
    pub at: usize,
    /// What was expected there.
    pub message: String,
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GGF character {}: {}", self.at, self.message)
    }
}

impl std::error::Error for GgfError {}

fn error(at: usize, message: impl Into<String>) -> GgfError {
    GgfError { at: at + 1, message: message.into() }
}

/// The board size a `TY` value names: its leading number.
fn board_size(board_type: &str) -> Option<usize> {
    let digits: String = board_type.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// A move in GGF's form: the move's own name in upper case (`F5`), or `PA`.
pub fn move_text<G: Geometry>(mv: Move<G>) -> String {
    if mv.is_pass() { PASS.to_string() } else { mv.to_string().to_ascii_uppercase() }
}

/// Parses a move in either case: a cell like `F5`, or `PA` / `PASS` for a pass.
pub fn parse_move<G: Geometry>(text: &str) -> Option<Move<G>> {
    let lower = text.trim().to_ascii_lowercase();
    if lower == "pa" || lower == "pass" {
        return Some(Move::PASS);
    }
    Move::parse(&lower).filter(|m| !m.is_pass())
}

/// Parses a `B`/`W` value (or an NBoard `move`) of `color`:
/// `MOVE[/EVAL[/SECONDS]]`, empty fields allowed.
pub fn parse_move_value<G: Geometry>(color: Color, value: &str) -> Result<GgfMove<G>, String> {
    let mut fields = value.split(FIELD_SEPARATOR);
    let text = fields.next().unwrap_or("");
    let mv = parse_move::<G>(text).ok_or_else(|| format!("expected a move like F5 or PA, found `{text}`"))?;
    let number = |field: Option<&str>, what: &str| -> Result<Option<f64>, String> {
        match field.map(str::trim) {
            None | Some("") => Ok(None),
            Some(f) => f
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Some)
                .ok_or_else(|| format!("expected {what} after `/`, found `{f}`")),
        }
    };
    let eval = number(fields.next(), "an evaluation in discs")?;
    let seconds = number(fields.next(), "a time in seconds")?;
    if fields.next().is_some() {
        return Err(format!("expected MOVE/EVAL/TIME, found more fields in `{value}`"));
    }
    Ok(GgfMove { color, mv, eval, seconds })
}

/// Parses a `BO` value for geometry `G`: size, cells, side to move.
fn parse_board<G: Geometry>(value: &str, scoring: Scoring) -> Result<Position<G>, String> {
    let value = value.trim();
    let (size, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
    if size.parse::<usize>().ok() != Some(G::N) {
        return Err(format!("expected board size {} first in BO, found `{size}`", G::N));
    }
    let chars: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != G::CELLS + 1 {
        return Err(format!(
            "expected {} cells and the side to move in BO, found {} characters",
            G::CELLS,
            chars.len()
        ));
    }
    let (mut black, mut white) = (G::Bits::EMPTY, G::Bits::EMPTY);
    for (cell, &c) in chars[..G::CELLS].iter().enumerate() {
        match c {
            BLACK_CELL => black |= BitSet::bit(cell),
            WHITE_CELL => white |= BitSet::bit(cell),
            EMPTY_CELL => {}
            other => return Err(format!("cell {}: expected `*`, `O` or `-` in BO, found `{other}`", cell + 1)),
        }
    }
    let to_move = match chars[G::CELLS] {
        BLACK_CELL => Color::Black,
        WHITE_CELL => Color::White,
        other => return Err(format!("expected the side to move `*` or `O` at the end of BO, found `{other}`")),
    };
    Ok(Position::from_discs(black, white, to_move, scoring))
}

/// The `BO` value of `pos`.
pub fn board_text<G: Geometry>(pos: &Position<G>) -> String {
    let mut out = format!("{} ", G::N);
    for cell in 0..G::CELLS {
        out.push(if pos.discs(Color::Black).contains(cell) {
            BLACK_CELL
        } else if pos.discs(Color::White).contains(cell) {
            WHITE_CELL
        } else {
            EMPTY_CELL
        });
    }
    out.push(' ');
    out.push(if pos.to_move() == Color::Black { BLACK_CELL } else { WHITE_CELL });
    out
}

impl<G: Geometry> GgfGame<G> {
    /// A game from `start` with no moves and no other tags.
    pub fn new(start: Position<G>) -> Self {
        GgfGame { tags: Vec::new(), board_type: G::N.to_string(), start, moves: Vec::new() }
    }

    /// Parses one GGF game (surrounding whitespace allowed) whose board is
    /// `G`, scoring the position with `scoring`. Every move must be legal in
    /// turn; a move by the side not to move is read as a pass of the side to
    /// move first when that side has no move.
    pub fn parse(text: &str, scoring: Scoring) -> Result<Self, GgfError> {
        let start_at = text.len() - text.trim_start().len();
        let body = text.trim();
        let Some(inner) = body.strip_prefix(OPEN) else {
            return Err(error(start_at, format!("expected `{OPEN}` to open the game")));
        };
        let Some(inner) = inner.strip_suffix(CLOSE) else {
            return Err(error(start_at + body.len(), format!("expected `{CLOSE}` to close the game")));
        };
        let base = start_at + OPEN.len();
        let mut tags = Vec::new();
        let (mut game, mut board_type, mut board) = (None, None, None);
        let mut moves: Vec<(usize, Color, &str)> = Vec::new();
        let mut i = 0;
        let bytes = inner.as_bytes();
        while i < bytes.len() {
            if bytes[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let name_start = i;
            while i < bytes.len() && bytes[i].is_ascii_uppercase() {
                i += 1;
            }
            if i == name_start {
                return Err(error(
                    base + i,
                    format!("expected a tag name like PB, found `{}`", inner[i..].chars().next().unwrap_or(' ')),
                ));
            }
            let name = &inner[name_start..i];
            if bytes.get(i) != Some(&b'[') {
                return Err(error(base + i, format!("expected `[` after tag {name}")));
            }
            let value_start = i + 1;
            let Some(len) = inner[value_start..].find(']') else {
                return Err(error(base + i, format!("expected `]` to close tag {name}")));
            };
            let value = &inner[value_start..value_start + len];
            let at = base + value_start;
            match name {
                "GM" => game = Some((at, value)),
                "TY" => board_type = Some((at, value)),
                "BO" => board = Some((at, value)),
                "B" => moves.push((at, Color::Black, value)),
                "W" => moves.push((at, Color::White, value)),
                _ => tags.push((name.to_string(), value.to_string())),
            }
            i = value_start + len + 1;
        }
        if let Some((at, g)) = game
            && !g.eq_ignore_ascii_case(OTHELLO)
        {
            return Err(error(at, format!("expected GM[{OTHELLO}], found GM[{g}]")));
        }
        let board_type = match board_type {
            Some((at, ty)) => {
                if board_size(ty) != Some(G::N) {
                    return Err(error(at, format!("expected board type TY[{}], found TY[{ty}]", G::N)));
                }
                ty.to_string()
            }
            None => G::N.to_string(),
        };
        let Some((at, bo)) = board else {
            return Err(error(base + inner.len(), "expected a BO tag holding the start position"));
        };
        let start = parse_board::<G>(bo, scoring).map_err(|e| error(at, e))?;
        let mut pos = start;
        let mut played = Vec::with_capacity(moves.len());
        for (k, (at, color, value)) in moves.into_iter().enumerate() {
            let m = parse_move_value::<G>(color, value).map_err(|e| error(at, format!("move {}: {e}", k + 1)))?;
            if pos.to_move() != color && !m.mv.is_pass() && !pos.is_terminal() && pos.moves().is_empty() {
                // An unrecorded pass of the side to move.
                played.push(GgfMove { color: pos.to_move(), mv: Move::PASS, eval: None, seconds: None });
                pos = pos.pass();
            }
            if pos.to_move() != color {
                return Err(error(
                    at,
                    format!("move {}: expected a move by {}, found one by {color:?}", k + 1, side_tag(pos.to_move())),
                ));
            }
            if !pos.is_legal(m.mv) || (m.mv.is_pass() && pos.is_terminal()) {
                return Err(error(at, format!("move {}: expected a legal move, found `{}`", k + 1, move_text(m.mv))));
            }
            pos.make(m.mv);
            played.push(m);
        }
        Ok(GgfGame { tags, board_type, start, moves: played })
    }

    /// The position after the moves.
    pub fn position(&self) -> Position<G> {
        let mut pos = self.start;
        for m in &self.moves {
            pos.make(m.mv);
        }
        pos
    }

    /// The value of tag `name`, if the game has one.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value` (replacing an earlier value).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Plays `mv` (legal in [`GgfGame::position`]) with what its player reported.
    pub fn push(&mut self, mv: Move<G>, eval: Option<f64>, seconds: Option<f64>) {
        let color = self.position().to_move();
        self.moves.push(GgfMove { color, mv, eval, seconds });
    }
}

/// The tag letter of a side's moves.
const fn side_tag(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// The seconds of a `TI` value (the time control): its first
/// `/`-separated field, `S`, `M:SS` or `H:MM:SS` (fractions allowed);
/// `None` when it is not one.
pub fn clock_seconds(ti: &str) -> Option<f64> {
    let first = ti.split(FIELD_SEPARATOR).next()?.trim();
    if first.is_empty() {
        return None;
    }
    let mut total = 0.0;
    for part in first.split(':') {
        let x: f64 = part.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0)?;
        total = total * SECONDS_PER_MINUTE + x;
    }
    Some(total)
}

/// A `TI` value of `seconds`: `M:SS.ss`.
pub fn clock_text(seconds: f64) -> String {
    let minutes = (seconds / SECONDS_PER_MINUTE).floor();
    format!("{minutes}:{:05.2}", seconds - minutes * SECONDS_PER_MINUTE)
}

/// A number as GGF writes it: the shortest text that reads back the same.
fn number_text(x: f64) -> String {
    format!("{x}")
}

impl<G: Geometry> fmt::Display for GgfGame<G> {
    /// The game on one line, `GM` first, then the other tags, `TY`, `BO`
    /// and the moves (`F5`, `F5/EVAL`, `F5//SECONDS` or `F5/EVAL/SECONDS`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{OPEN}GM[{OTHELLO}]")?;
        for (name, value) in &self.tags {
            write!(f, "{name}[{value}]")?;
        }
        write!(f, "TY[{}]BO[{}]", self.board_type, board_text(&self.start))?;
        for m in &self.moves {
            write!(f, "{}[{}", side_tag(m.color), move_text(m.mv))?;
            match (m.eval, m.seconds) {
                (None, None) => {}
                (Some(e), None) => write!(f, "/{}", number_text(e))?,
                (e, Some(s)) => write!(f, "/{}/{}", e.map(number_text).unwrap_or_default(), number_text(s))?,
            }
            f.write_str("]")?;
        }
        f.write_str(CLOSE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Size8, Size10, Variant};
    use proptest::prelude::*;

    /// A game from the Generic Game Server, quoted in weltyc/novello's
    /// test/com/welty/othello/api/SyncStatelessEngineTest.java as "a game
    /// where the next move is a pass".
    const REAL_GAME: &str = "(;GM[Othello]PC[GGS/os]DT[2009.07.02_09:24:22.MDT]PB[triple0]PW[Saio3000]RB[2173.03]RW[2175.52]TI[10:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[f6]B[e6]W[f4]B[e3]W[c5]B[c4]W[d6]B[c6]W[b5]B[d7]W[e7]B[b6]W[c8]B[f7]W[f8]B[a6]W[b3]B[c3]W[f3]B[g3]W[e2]B[g4]W[g5]B[f2]W[f1]B[c7]W[h4]B[h6]W[h5]B[g2]W[a4]B[b4]W[a5]B[h2]W[a3]B[h3]W[a7]B[e8]W[d8]B[g6]W[c2]B[b2]W[d2]B[a2]W[a1]B[d3]W[h1]B[b7]W[g7]B[c1]W[e1]B[b1]W[d1]B[h8]W[h7]B[g8]W[a8]B[b8];)";

    #[test]
    fn results_read_as_the_format_description_writes_them() {
        // The GGF description's own examples: `RE[+64.00:r]` and `RE[-3.00]`.
        assert_eq!(result_text(64.0, Some(ResultFlag::Resigned)), "+64.00:r");
        assert_eq!(result_text(-3.0, None), "-3.00");
        assert_eq!(result_text(0.0, None), "+0.00");
        assert_eq!(result_text(-8.0, Some(ResultFlag::Timeout)), "-8.00:t");
    }

    #[test]
    fn the_protocol_example_parses() {
        // The example session of the NBoard protocol description (weltyc/ntest,
        // instructions/Protocol.htm).
        let text = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
        let game = GgfGame::<Size8>::parse(text, Scoring::WOF).unwrap();
        assert_eq!(game.start, Variant::Othello8.start());
        assert_eq!(game.moves.len(), 8);
        assert_eq!(game.tag("PB"), Some("./mEdax"));
        assert_eq!(game.tag("TI"), Some("15:00"));
        assert_eq!(game.position().to_move(), Color::Black);
        assert_eq!(game.position().empty_count(), 60 - 8);
        assert_eq!(GgfGame::<Size8>::parse(&game.to_string(), Scoring::WOF).unwrap(), game);
    }

    #[test]
    fn errors_say_what_was_expected_where() {
        let good = "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)";
        let cases = [
            (good.replace("(;", ""), "expected `(;`"),
            (good.replace(";)", ""), "expected `;)`"),
            (good.replace("GM[Othello]", "GM[Chess]"), "expected GM[Othello]"),
            (good.replace("TY[8]", "TY[10]"), "expected board type TY[8]"),
            (good.replace("BO[8 ", "BO[10 "), "expected board size 8"),
            (good.replace("--- *]", "-- *]"), "found 64 characters"),
            (good.replace("--- *]", "--- X]"), "side to move"),
            (good.replace("B[F5]", "B[F4]"), "move 1: expected a legal move, found `F4`"),
            (good.replace("B[F5]", "W[F5]"), "expected a move by B"),
            (good.replace("B[F5]", "B[Z9]"), "expected a move like F5"),
            (good.replace("B[F5]", "B[F5/x]"), "expected an evaluation"),
            (good.replace("B[F5]", "B[F5]pb[x]"), "expected a tag name"),
            (good.replace("B[F5]", "B[F5"), "expected `]`"),
            (good.replace("BO[8 ", "XX[8 "), "expected a BO tag"),
        ];
        for (text, expected) in cases {
            let e = GgfGame::<Size8>::parse(&text, Scoring::WOF).unwrap_err().to_string();
            assert!(e.contains(expected) && e.starts_with("GGF character ") && !e.contains('\n'), "{text}: {e}");
        }
    }

    #[test]
    fn a_real_ggs_game_ends_with_white_to_pass() {
        let text = REAL_GAME;
        let game = GgfGame::<Size8>::parse(text, Scoring::WOF).unwrap();
        assert_eq!(game.moves.len(), 59);
        let end = game.position();
        assert_eq!(end.to_move(), Color::White);
        assert!(!end.is_terminal());
        assert_eq!(&end.legal_moves()[..], &[Move::PASS]);
    }

    #[test]
    fn unrecorded_passes_are_played() {
        // The GGS game above (RE[+0.000]: drawn), finished by Black on the
        // last empty square after White's pass, which the record leaves out.
        let text = REAL_GAME.replace(";)", "");
        let end = GgfGame::<Size8>::parse(REAL_GAME, Scoring::WOF).unwrap().position();
        let last = end.pass().legal_moves()[0];
        let text = format!("{text}B[{}];)", move_text(last));
        let game = GgfGame::<Size8>::parse(&text, Scoring::WOF).unwrap();
        assert_eq!(game.moves.len(), 61);
        assert_eq!((game.moves[59].color, game.moves[59].mv), (Color::White, Move::PASS));
        assert!(game.position().is_terminal());
        assert_eq!(game.position().score(), 0, "RE[+0.000]");
        assert!(game.to_string().contains("W[PA]B["), "{game}");
    }

    #[test]
    fn time_controls_read_and_write() {
        assert_eq!(clock_seconds("15:00"), Some(900.0));
        assert_eq!(clock_seconds("10:00//02:00"), Some(600.0));
        assert_eq!(clock_seconds("1:00:00"), Some(3600.0));
        assert_eq!(clock_seconds("42.5"), Some(42.5));
        for bad in ["", "x", "1:x", "-5", "//2:00"] {
            assert_eq!(clock_seconds(bad), None, "{bad}");
        }
        for s in [0.0, 5.5, 59.99, 60.0, 754.25, 3600.0] {
            let text = clock_text(s);
            assert!((clock_seconds(&text).unwrap() - s).abs() < 0.006, "{s}: {text}");
        }
        assert_eq!(clock_text(905.5), "15:05.50");
    }

    #[test]
    fn ten_by_ten_games_parse() {
        let start: Position<Size10> = Variant::Othello10.start();
        let mut game = GgfGame::new(start);
        let mv = start.legal_moves()[0];
        game.push(mv, None, Some(1.5));
        let text = game.to_string();
        assert!(text.contains("TY[10]BO[10 "), "{text}");
        assert_eq!(GgfGame::<Size10>::parse(&text, Scoring::WOF).unwrap(), game);
        assert!(GgfGame::<Size8>::parse(&text, Scoring::WOF).unwrap_err().to_string().contains("TY[8]"));
    }

    /// A game of random legal moves from the 8x8 start with random reports.
    fn random_game(choices: &[(u8, Option<i16>, Option<u16>)]) -> GgfGame<Size8> {
        let mut game = GgfGame::new(Variant::Othello8.start());
        let mut pos = game.start;
        for &(pick, eval, time) in choices {
            if pos.is_terminal() {
                break;
            }
            let moves = pos.legal_moves();
            let mv = moves[pick as usize % moves.len()];
            game.push(mv, eval.map(|e| f64::from(e) / 100.0), time.map(|t| f64::from(t) / 100.0));
            pos.make(mv);
        }
        game
    }

    proptest! {
        #[test]
        fn written_games_read_back(
            choices in proptest::collection::vec((any::<u8>(), any::<Option<i16>>(), any::<Option<u16>>()), 0..70),
            tags in proptest::collection::vec(("[A-Z]{2}", "[a-zA-Z0-9 .:/+?-]{0,12}"), 0..4),
        ) {
            let mut game = random_game(&choices);
            for (name, value) in &tags {
                if !["GM", "TY", "BO", "B", "W"].contains(&name.as_str()) {
                    game.set_tag(name, value);
                }
            }
            let text = game.to_string();
            let back = GgfGame::<Size8>::parse(&text, Scoring::WOF).unwrap();
            prop_assert_eq!(back.position(), game.position());
            prop_assert_eq!(back, game);
        }

        #[test]
        fn damaged_games_never_panic(cut in 0usize..400, byte in any::<u8>(), at in 0usize..400) {
            let text = random_game(&[(1, Some(5), Some(7)); 20]).to_string();
            let mut bytes = text.into_bytes();
            let at = at % bytes.len();
            bytes[at] = byte;
            bytes.truncate(cut.max(1).min(bytes.len()));
            let _ = GgfGame::<Size8>::parse(&String::from_utf8_lossy(&bytes), Scoring::WOF);
        }
    }
}
