//! Pente in a match: [`PenteProtocol`] (handout 002's file protocol), its
//! balanced suites, the registry entry [`PENTE`], and the expected game
//! length learnt from run folders (`selfplay game-length`).

use crate::eval::WeightKey;
use crate::pente;
use crate::pente::PenteEngine;
use crate::protocol;
use engine_core::agent::{Agent, Clock};
use engine_core::game::{Color, Game};
use engine_core::search::EngineConfig;
use selfplay::family::OneVariant;
use selfplay::openings::SuiteGame;
use selfplay::protocol::{GameProtocol, Outcome, ROW_SEPARATOR};
use selfplay::record;
use std::path::{Path, PathBuf};

/// [`GameProtocol`] for Pente (handout 002 as settled by PROTOCOLS.md).
///
/// Side letters are `w` and `b` as on the board; White moves first. The
/// flattened form is the side letter, the captured stones `WHITE,BLACK` (the
/// order of `input.txt`'s third line) and the 19 board lines (row 19 first),
/// joined by [`ROW_SEPARATOR`]: captures decide games, so a position without
/// them could not be read back. The score is +1 (Black won), -1 or 0; the
/// counts are the stones each side captured. A full board is level: the side
/// with more time left wins it, as the handout says of draws.
#[derive(Clone, Copy, Debug, Default)]
pub struct PenteProtocol;

impl PenteProtocol {
    /// Fields of the flattened form: side, captured counts, 19 board lines.
    const FLAT_FIELDS: usize = 2 + pente::board::SIZE;
    /// The `input.txt` line of the seconds left, which the flattened form lacks.
    const INPUT_TIME_LINE: usize = 2;
}

impl GameProtocol for PenteProtocol {
    type State = pente::PentePosition;

    fn variant(&self) -> String {
        WeightKey::PENTE.to_string()
    }

    fn start(&self) -> pente::PentePosition {
        pente::PentePosition::new()
    }

    fn side_letter(&self, color: Color) -> char {
        match color {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    fn flatten(&self, state: &pente::PentePosition) -> String {
        let board = protocol::pente::board_text(state);
        let mut text = format!(
            "{}{ROW_SEPARATOR}{},{}",
            self.side_letter(state.to_move()),
            state.captured(Color::White),
            state.captured(Color::Black)
        );
        for line in board.lines() {
            text.push(ROW_SEPARATOR);
            text.push_str(line);
        }
        text
    }

    /// Reads the form through the `input.txt` parser (one set of board
    /// checks), then maps its line numbers back to fields.
    fn parse_flat(&self, text: &str) -> Result<pente::PentePosition, String> {
        let fields: Vec<&str> = text.trim().split(ROW_SEPARATOR).collect();
        if fields.len() != Self::FLAT_FIELDS {
            return Err(format!(
                "expected a side letter, `white,black` captured stones and {} rows separated by `{ROW_SEPARATOR}`, found {} fields",
                pente::board::SIZE,
                fields.len()
            ));
        }
        let color = match fields[0] {
            "w" => "WHITE",
            "b" => "BLACK",
            other => return Err(format!("field 1: expected the side letter w or b, found {other:?}")),
        };
        let input = format!("{color}\n1\n{}\n", fields[1..].join("\n"));
        let parsed = protocol::pente::parse_input(&input).map_err(|e| {
            let field = if e.line > Self::INPUT_TIME_LINE { e.line - 1 } else { e.line };
            format!("field {field}: {}", e.message)
        })?;
        if parsed.counts_were_pairs {
            return Err(format!(
                "field 2: expected captured stones (even counts that fit the board), found {:?}",
                fields[1]
            ));
        }
        Ok(parsed.position)
    }

    fn is_pass(&self, _mv: pente::Cell) -> bool {
        false
    }

    /// The handout's `input.txt`: colour, the mover's seconds left (only its
    /// own clock: the handout has no line for the opponent's), captured
    /// stones `white,black`, the 19 board lines.
    fn input_file(&self, state: &pente::PentePosition, clock: &Clock) -> String {
        protocol::pente::input_text(state, clock.own_remaining)
    }

    fn parse_output(&self, text: &str) -> Result<pente::Cell, String> {
        protocol::pente::parse_output(text)
    }

    /// By the full rules: any empty cell (White's first two stones as the
    /// opening rule says), not only the candidates `legal_moves` lists.
    fn is_legal(&self, state: &pente::PentePosition, mv: pente::Cell) -> bool {
        state.is_legal(mv)
    }

    fn outcome(&self, state: &pente::PentePosition, time_left: [f64; 2]) -> Outcome {
        let counts = [state.captured(Color::Black), state.captured(Color::White)];
        let score = state.final_score();
        let [black, white] = time_left;
        let level = state.winner().is_none();
        let by_time = if black > white {
            Some(Color::Black)
        } else if white > black {
            Some(Color::White)
        } else {
            None
        };
        let winner = if level { by_time } else { state.winner() };
        Outcome { winner, score, counts, tiebreak: level && winner.is_some() }
    }

    fn engine(&self, config: EngineConfig) -> Result<Box<dyn Agent<pente::PentePosition>>, String> {
        Ok(Box::new(pente::pente_engine(config)?))
    }

    fn minimax(&self, seed: u64) -> Box<dyn Agent<pente::PentePosition>> {
        Box::new(pente::pente_minimax(seed))
    }

    fn random(&self, seed: u64) -> Box<dyn Agent<pente::PentePosition>> {
        Box::new(pente::NearRandomAgent::new(seed))
    }
}

/// Pente's window is in the engine's own score units (the pattern
/// evaluation's, as `positions.csv` and the `played` line report them):
/// Pente has no discs to count.
impl SuiteGame for PenteProtocol {
    type Eval = pente::eval::PenteEval;
    const HEADER_FIELDS: usize = 2;
    const SCORE_PER_UNIT: f64 = 1.0;
    const UNIT: &'static str = "score units";

    fn scorer(&self, config: EngineConfig) -> Result<PenteEngine, String> {
        pente::pente_engine(config)
    }
}

/// Pente's entry in the programs' registry.
pub static PENTE: OneVariant<PenteProtocol> = OneVariant { name: &[WeightKey::PENTE], protocol: PenteProtocol };

/// Stones placed before the Pente position `flat` (flattened: side, captured
/// `white,black`, rows): those on the board and those captured.
fn pente_plies(flat: &str) -> Result<u32, String> {
    let mut parts = flat.split('/');
    let captured = parts.nth(1).ok_or_else(|| format!("`{flat}`: expected side/captured/rows"))?;
    let mut stones = 0u32;
    for n in captured.split(',') {
        stones += n.parse::<u32>().map_err(|_| format!("`{captured}`: expected captured counts `white,black`"))?;
    }
    Ok(stones + parts.map(|row| row.chars().filter(|c| matches!(c, 'w' | 'b')).count() as u32).sum::<u32>())
}

/// `selfplay game-length`: learns the expected Pente game length from the
/// normally ended games of `sources` and writes the table to `out`, with
/// the command and the games it came from as comments.
pub fn game_length(out: &Path, sources: &[PathBuf]) -> Result<String, String> {
    let mut plies = Vec::new();
    for dir in sources {
        for game in record::games_in(dir)? {
            if game.ending == "normal" || game.ending == "tiebreak" {
                let opening = pente_plies(&game.opening).map_err(|e| format!("{}: {e}", dir.display()))?;
                plies.push(opening + game.plies);
            }
        }
    }
    if plies.len() < pente::length::MIN_GAMES_PER_ROW {
        return Err(format!("{} finished games: expected at least {}", plies.len(), pente::length::MIN_GAMES_PER_ROW));
    }
    let table = pente::length::GameLength::learn(&plies);
    let mean = f64::from(plies.iter().sum::<u32>()) / plies.len() as f64;
    let comments = vec![
        format!("made by: {}", std::env::args().collect::<Vec<_>>().join(" ")),
        format!("from {} games, {mean:.1} plies on average", plies.len()),
    ];
    std::fs::write(out, table.to_text(&comments)).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    Ok(format!("wrote {} ({} games, {mean:.1} plies on average)", out.display(), plies.len()))
}
