//! Connect Four in a match: [`Connect4Protocol`], the game's half of a
//! `selfplay` match on the standard 7x6 board, its balanced suites and its
//! entry in the programs' registry, [`CONNECT4`].
//!
//! No handout defines a file protocol for Connect Four; an external
//! program (`cmd:`) reads this `input.txt`: the side to move (`X` moves
//! first, `O`), then the mover's and the opponent's CPU seconds left, then
//! the board's rows, top row first, `X`, `O` and `.`; and writes to
//! `output.txt` one line, the column of its move (1 to 7). The flattened
//! form of the CSV files is the side letter and the rows, top first,
//! joined by `/`.

use crate::agents::engine;
use crate::board::{Column, Position, Size};
use crate::eval::WindowEval;
use engine_core::agent::{Agent, Clock};
use engine_core::game::{Color, Game};
use engine_core::search::{Engine, EngineConfig};
use selfplay::family::OneVariant;
use selfplay::openings::SuiteGame;
use selfplay::protocol::{GameProtocol, Outcome, ROW_SEPARATOR};

/// The variant's name on the command line: its weight set's.
pub const VARIANT: &str = crate::weights::Connect4Weights::NAME;

/// The side letter of `color`.
const fn letter(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// [`GameProtocol`] for Connect Four on the standard board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Connect4Protocol;

/// Connect Four's entry in the programs' registry.
pub static CONNECT4: OneVariant<Connect4Protocol> = OneVariant { name: &[VARIANT], protocol: Connect4Protocol };

impl Connect4Protocol {
    /// The board.
    const SIZE: Size = Size::STANDARD;

    /// The rows of `state`, top first.
    fn rows(state: &Position) -> Vec<String> {
        state.to_string().lines().map(str::to_string).collect()
    }

    /// The position of the side letter `side` and the rows `rows` (top
    /// first); the error names the row (1: the top) and what was expected.
    fn from_rows(side: &str, rows: &[&str]) -> Result<Position, String> {
        let size = Self::SIZE;
        if rows.len() != size.height() {
            return Err(format!("expected {} rows, found {}", size.height(), rows.len()));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, row) in rows.iter().enumerate() {
            let r = size.height() - 1 - i;
            if row.len() != size.width() {
                return Err(format!("row {}: expected {} cells, found {:?}", i + 1, size.width(), row));
            }
            for (c, ch) in row.chars().enumerate() {
                let cell = size.cell(Column::new(c), r);
                match ch {
                    'X' => black |= cell,
                    'O' => white |= cell,
                    '.' => {}
                    other => return Err(format!("row {}: expected X, O or ., found {other:?}", i + 1)),
                }
            }
        }
        let mover = match side {
            "X" => Color::Black,
            "O" => Color::White,
            other => return Err(format!("expected the side letter X or O, found {other:?}")),
        };
        let (own, mask) = if mover == Color::Black { (black, black | white) } else { (white, black | white) };
        let pos = Position::from_key(size, own.wrapping_add(mask))
            .filter(|p| p.occupied() == mask)
            .ok_or("expected discs stacked from the bottom of each column, as many X as O (X to move) or one X more (O to move)")?;
        if pos.to_move() != mover {
            return Err(format!("the disc counts put {} to move, not {side}", letter(pos.to_move())));
        }
        Ok(pos)
    }
}

impl GameProtocol for Connect4Protocol {
    type State = Position;

    fn variant(&self) -> String {
        VARIANT.to_string()
    }

    fn start(&self) -> Position {
        Position::new(Self::SIZE)
    }

    fn side_letter(&self, color: Color) -> char {
        letter(color)
    }

    fn flatten(&self, state: &Position) -> String {
        let mut text = letter(state.to_move()).to_string();
        for row in Self::rows(state) {
            text.push(ROW_SEPARATOR);
            text.push_str(&row);
        }
        text
    }

    fn parse_flat(&self, text: &str) -> Result<Position, String> {
        let fields: Vec<&str> = text.trim().split(ROW_SEPARATOR).collect();
        let (side, rows) = fields.split_first().ok_or("expected a side letter and rows")?;
        Self::from_rows(side, rows)
    }

    fn is_pass(&self, _mv: Column) -> bool {
        false
    }

    fn input_file(&self, state: &Position, clock: &Clock) -> String {
        let mut text = format!("{}\n{} {}\n", letter(state.to_move()), clock.own_remaining, clock.opponent_remaining);
        for row in Self::rows(state) {
            text += &row;
            text.push('\n');
        }
        text
    }

    fn parse_output(&self, text: &str) -> Result<Column, String> {
        let line = text.strip_suffix('\n').unwrap_or(text);
        if line.contains('\n') {
            return Err("expected one line holding the column, found more".into());
        }
        match line.parse::<usize>() {
            Ok(c) if (1..=Self::SIZE.width()).contains(&c) => Ok(Column::new(c - 1)),
            _ => Err(format!("expected a column from 1 to {}, found {line:?}", Self::SIZE.width())),
        }
    }

    /// +1 when Black (`X`) made four in a row, -1 when White did, 0 for a
    /// full board (a draw: Connect Four has no tie rule); the counts are
    /// each side's discs.
    fn outcome(&self, state: &Position, _time_left: [f64; 2]) -> Outcome {
        let counts = [state.discs(Color::Black).count_ones(), state.discs(Color::White).count_ones()];
        Outcome { winner: state.winner(), score: state.final_score(), counts, tiebreak: false }
    }

    fn engine(&self, config: EngineConfig) -> Result<Box<dyn Agent<Position>>, String> {
        Ok(Box::new(engine(config)?))
    }

    /// No grader's reference agent exists: the engine at depth 4 with the
    /// window evaluation stands in.
    fn minimax(&self, _seed: u64) -> Box<dyn Agent<Position>> {
        Box::new(crate::agents::engine_at_depth(MINIMAX_DEPTH))
    }
}

/// Depth of the stand-in reference agent.
const MINIMAX_DEPTH: u32 = 4;

/// A suite's window is in the evaluation's score units (open windows are
/// worth a few units each); the board's one symmetry is the mirror.
impl SuiteGame for Connect4Protocol {
    type Eval = WindowEval;
    const HEADER_FIELDS: usize = 1;
    const SCORE_PER_UNIT: f64 = 1.0;
    const UNIT: &'static str = "score units";

    fn scorer(&self, config: EngineConfig) -> Result<Engine<Position, WindowEval>, String> {
        engine(config)
    }

    fn canonical(&self, flat: &str) -> String {
        let mirrored: Vec<String> = flat
            .split(ROW_SEPARATOR)
            .enumerate()
            .map(|(i, f)| if i < Self::HEADER_FIELDS { f.to_string() } else { f.chars().rev().collect() })
            .collect();
        let mirrored = mirrored.join(&ROW_SEPARATOR.to_string());
        if mirrored.as_str() < flat { mirrored } else { flat.to_string() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_form_round_trips_and_rejects_floating_discs() {
        let p = Connect4Protocol;
        let pos = Position::from_moves(Size::STANDARD, "4453").unwrap();
        let flat = p.flatten(&pos);
        assert_eq!(flat, "X/......./......./......./......./...O.../..OXX..");
        assert_eq!(p.parse_flat(&flat).unwrap(), pos);
        assert_eq!(p.parse_flat(&p.flatten(&p.start())).unwrap(), p.start());
        for bad in [
            "X/......./......./......./......./...O.../..O.X..",
            "O/......./......./......./......./...O.../..OXX..",
            "X/......./......./......./......./...O...",
            "X/......./......./......./......./...O.../..OXQ..",
            "Z/......./......./......./......./...O.../..OXX..",
            "X/......./......./......./......./...X.../..OXX..",
        ] {
            assert!(p.parse_flat(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn outputs_are_one_column_and_the_mirror_is_one_suite_entry() {
        let p = Connect4Protocol;
        assert_eq!(p.parse_output("4\n").unwrap(), Column::new(3));
        for bad in ["", "0", "8", "4\n5\n", " 4", "d"] {
            assert!(p.parse_output(bad).is_err(), "{bad:?}");
        }
        let left = p.flatten(&Position::from_moves(Size::STANDARD, "12").unwrap());
        let right = p.flatten(&Position::from_moves(Size::STANDARD, "76").unwrap());
        assert_ne!(left, right);
        assert_eq!(p.canonical(&left), p.canonical(&right));
    }

    #[test]
    fn a_four_wins_and_a_full_board_draws() {
        let p = Connect4Protocol;
        let won = Position::from_moves(Size::STANDARD, "4455667").unwrap();
        let o = p.outcome(&won, [1.0, 1.0]);
        assert_eq!((o.winner, o.score, o.counts), (Some(Color::Black), 1, [4, 3]));
    }
}
