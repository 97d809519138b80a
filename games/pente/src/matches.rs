//! Pente in a match: [`PenteProtocol`] (handout 002's file protocol), its
//! balanced suites, the registry entry [`PENTE`], and the expected game
//! length learnt from run folders (`selfplay game-length`).

use crate::PenteEngine;
use crate::weights::PenteWeights;
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
    const FLAT_FIELDS: usize = 2 + crate::board::SIZE;
    /// The `input.txt` line of the seconds left, which the flattened form lacks.
    const INPUT_TIME_LINE: usize = 2;
}

impl GameProtocol for PenteProtocol {
    type State = crate::PentePosition;

    fn variant(&self) -> String {
        PenteWeights::NAME.to_string()
    }

    fn start(&self) -> crate::PentePosition {
        crate::PentePosition::new()
    }

    fn side_letter(&self, color: Color) -> char {
        match color {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    fn flatten(&self, state: &crate::PentePosition) -> String {
        let board = crate::protocol::board_text(state);
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
    fn parse_flat(&self, text: &str) -> Result<crate::PentePosition, String> {
        let fields: Vec<&str> = text.trim().split(ROW_SEPARATOR).collect();
        if fields.len() != Self::FLAT_FIELDS {
            return Err(format!(
                "expected a side letter, `white,black` captured stones and {} rows separated by `{ROW_SEPARATOR}`, found {} fields",
                crate::board::SIZE,
                fields.len()
            ));
        }
        let color = match fields[0] {
            "w" => "WHITE",
            "b" => "BLACK",
            other => return Err(format!("field 1: expected the side letter w or b, found {other:?}")),
        };
        let input = format!("{color}\n1\n{}\n", fields[1..].join("\n"));
        let parsed = crate::protocol::parse_input(&input).map_err(|e| {
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

    fn is_pass(&self, _mv: crate::Cell) -> bool {
        false
    }

    /// The handout's `input.txt`: colour, the mover's seconds left (only its
    /// own clock: the handout has no line for the opponent's), captured
    /// stones `white,black`, the 19 board lines.
    fn input_file(&self, state: &crate::PentePosition, clock: &Clock) -> String {
        crate::protocol::input_text(state, clock.own_remaining)
    }

    fn parse_output(&self, text: &str) -> Result<crate::Cell, String> {
        crate::protocol::parse_output(text)
    }

    /// By the full rules: any empty cell (White's first two stones as the
    /// opening rule says), not only the candidates `legal_moves` lists.
    fn is_legal(&self, state: &crate::PentePosition, mv: crate::Cell) -> bool {
        state.is_legal(mv)
    }

    fn outcome(&self, state: &crate::PentePosition, time_left: [f64; 2]) -> Outcome {
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

    fn engine(&self, config: EngineConfig) -> Result<Box<dyn Agent<crate::PentePosition>>, String> {
        Ok(Box::new(crate::pente_engine(config)?))
    }

    fn minimax(&self, seed: u64) -> Box<dyn Agent<crate::PentePosition>> {
        Box::new(crate::pente_minimax(seed))
    }

    fn random(&self, seed: u64) -> Box<dyn Agent<crate::PentePosition>> {
        Box::new(crate::NearRandomAgent::new(seed))
    }
}

/// Pente's window is in the engine's own score units (the pattern
/// evaluation's, as `positions.csv` and the `played` line report them):
/// Pente has no discs to count.
impl SuiteGame for PenteProtocol {
    type Eval = crate::eval::PenteEval;
    const HEADER_FIELDS: usize = 2;
    const SCORE_PER_UNIT: f64 = 1.0;
    const UNIT: &'static str = "score units";

    fn scorer(&self, config: EngineConfig) -> Result<PenteEngine, String> {
        crate::pente_engine(config)
    }
}

/// Pente's entry in the programs' registry.
pub static PENTE: OneVariant<PenteProtocol> = OneVariant { name: &[PenteWeights::NAME], protocol: PenteProtocol };

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
    if plies.len() < crate::length::MIN_GAMES_PER_ROW {
        return Err(format!("{} finished games: expected at least {}", plies.len(), crate::length::MIN_GAMES_PER_ROW));
    }
    let table = crate::length::GameLength::learn(&plies);
    let mean = f64::from(plies.iter().sum::<u32>()) / plies.len() as f64;
    let comments = vec![
        format!("made by: {}", std::env::args().collect::<Vec<_>>().join(" ")),
        format!("from {} games, {mean:.1} plies on average", plies.len()),
    ];
    std::fs::write(out, table.to_text(&comments)).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    Ok(format!("wrote {} ({} games, {mean:.1} plies on average)", out.display(), plies.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::{PenteWeights, WeightSet};
    use crate::{Cell, PentePosition};
    use engine_core::agent::Clock;
    use engine_core::game::{Color, Game};
    use engine_core::mix::SplitMix;
    use engine_core::playout::random_playout;
    use selfplay::checks::check_suite;
    use selfplay::openings::{LOOKAHEAD, MAX_LOOKAHEAD, SYMMETRIES, SuiteSpec, canonical, make_suite};
    use std::collections::HashSet;

    /// The handout's example: White on 10K, 10N, 12K, Black on 11L, 10M,
    /// Black to move.
    fn handout_position() -> PentePosition {
        let cell = |t: &str| Cell::parse(t).unwrap();
        let stones = [("10K", Color::White), ("10N", Color::White), ("12K", Color::White)]
            .into_iter()
            .chain([("11L", Color::Black), ("10M", Color::Black)])
            .map(|(t, c)| (cell(t), c))
            .collect::<Vec<_>>();
        PentePosition::from_stones(&stones, Color::Black, 0, 0)
    }

    #[test]
    fn pente_input_file_follows_the_handout_and_reads_back() {
        let p = PenteProtocol;
        let pos = handout_position();
        let text = p.input_file(&pos, &Clock { own_remaining: 100.0, opponent_remaining: 7.5 });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3 + 19);
        assert_eq!(&lines[..3], ["BLACK", "100", "0,0"]);
        // Row 19 is the first board line, so row r is line 3 + (19 - r).
        assert_eq!(lines[3 + 19 - 12], ".........w.........");
        assert_eq!(lines[3 + 19 - 11], "..........b........");
        assert_eq!(lines[3 + 19 - 10], ".........w.bw......");
        assert!(text.ends_with(".\n") && !text.contains('\r'));
        let read = crate::protocol::parse_input(&text).unwrap();
        assert_eq!((read.color, read.time_left), (Color::Black, 100.0));
        assert_eq!(read.position, pos);
        // A sliver of time stays positive in the file.
        let tiny = p.input_file(&pos, &Clock { own_remaining: 0.004, opponent_remaining: 1.0 });
        assert_eq!(crate::protocol::parse_input(&tiny).unwrap().time_left, 0.004);
    }

    #[test]
    fn pente_flat_form_round_trips_with_captures() {
        let p = PenteProtocol;
        let empty_row = format!("/{}", ".".repeat(19));
        assert_eq!(p.flatten(&p.start()), format!("w/0,0{}", empty_row.repeat(19)));
        let mut rng = SplitMix(7);
        let mut captures_seen = false;
        for game in 0..20 {
            let mut plies = 40 + game;
            random_playout(p.start(), &mut rng, |pos: &PentePosition| {
                let flat = p.flatten(pos);
                assert_eq!(p.parse_flat(&flat).unwrap(), *pos, "{flat}");
                captures_seen |= pos.captured(Color::White) + pos.captured(Color::Black) > 0;
                plies -= 1;
                plies > 0
            });
        }
        assert!(captures_seen, "no position with captures was checked");
    }

    #[test]
    fn pente_flat_form_errors_name_the_field() {
        let p = PenteProtocol;
        let start = p.flatten(&p.start());
        let err = |text: &str| p.parse_flat(text).unwrap_err();
        assert!(err("w/0,0/...").contains("found 3 fields"));
        assert!(err(&start.replacen('w', "x", 1)).starts_with("field 1:"));
        assert!(err(&start.replacen("0,0", "0;0", 1)).starts_with("field 2:"));
        assert!(err(&start.replacen("0,0", "1,0", 1)).starts_with("field 2:"), "odd counts are pairs");
        let mut fields: Vec<String> = start.split(ROW_SEPARATOR).map(String::from).collect();
        fields[4] = format!("{}q", ".".repeat(18));
        let bad_row = fields.join("/");
        assert!(err(&bad_row).starts_with("field 5:"), "{}", err(&bad_row));
    }

    #[test]
    fn pente_engine_reads_a_weights_file() {
        let p = PenteProtocol;
        let dir = std::env::temp_dir().join(format!("selfplay-pente-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.txt");
        let config = |path: &std::path::Path| EngineConfig { weights: Some(path.to_path_buf()), ..Default::default() };
        let missing = p.engine(config(&path)).err().unwrap();
        assert!(missing.contains("w.txt"), "{missing}");
        WeightSet::compiled(PenteWeights).save(&path).unwrap();
        assert!(p.engine(config(&path)).is_ok());
        // Another game's weights file (a Reversi variant's key) is refused by name.
        let text = WeightSet::compiled(PenteWeights).to_text().replace("variant pente", "variant tiny4");
        std::fs::write(&path, text).unwrap();
        let wrong = p.engine(config(&path)).err().unwrap();
        assert!(wrong.contains("w.txt") && wrong.contains("tiny4"), "{wrong}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pente_output_parsing_is_strict() {
        let p = PenteProtocol;
        assert_eq!(p.parse_output("9N\n").unwrap(), Cell::parse("9N").unwrap());
        assert_eq!(p.parse_output("19T").unwrap().to_string(), "19T");
        assert_eq!(p.parse_output("1A\n\n").unwrap().to_string(), "1A");
        for bad in ["", "9n\n", "09N\n", " 9N\n", "9 N\n", "9I\n", "20A\n", "0A\n", "N9\n", "9N\r\n", "9N\n10K\n"] {
            assert!(p.parse_output(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn pente_outcomes_five_captures_and_full_board() {
        let p = PenteProtocol;
        // White completes row 10 from 10H to 10M; Black plays row 5.
        let mut pos = p.start();
        for mv in ["10K", "5A", "10G", "5B", "10H", "5C", "10J", "5D", "10L"] {
            pos.make(Cell::parse(mv).unwrap());
        }
        let o = p.outcome(&pos, [1.0, 2.0]);
        assert_eq!((o.winner, o.score, o.tiebreak), (Some(Color::White), -1, false));
        // Ten stones captured by Black: Black wins whatever the clocks say.
        let mut rows = vec![".".repeat(19); 19];
        rows[0] = format!("bww.b{}", ".".repeat(14));
        let text = format!("b/0,8/{}", rows.join("/"));
        let mut pos = p.parse_flat(&text).unwrap();
        let capture = Cell::parse("19D").unwrap();
        let mut pos2 = pos.clone();
        pos2.make(capture);
        let o = p.outcome(&pos2, [1.0, 2.0]);
        assert_eq!((o.winner, o.score, o.counts), (Some(Color::Black), 1, [10, 0]));
        // Unfinished and level: the clock decides, equal clocks draw.
        pos.make(Cell::parse("1A").unwrap());
        assert_eq!(p.outcome(&pos, [3.0, 2.0]).winner, Some(Color::Black));
        assert_eq!(p.outcome(&pos, [1.0, 2.0]).winner, Some(Color::White));
        assert_eq!(p.outcome(&pos, [2.0, 2.0]).winner, None);
    }

    /// The 19x19 cell `(line, col)` under symmetry `t` of the square.
    fn image_cell(t: usize, (line, col): (usize, usize)) -> Cell {
        let n = crate::board::SIZE;
        let (l, c) = if t & 4 != 0 { (col, line) } else { (line, col) };
        let l = if t & 1 != 0 { n - 1 - l } else { l };
        let c = if t & 2 != 0 { n - 1 - c } else { c };
        Cell::at(l, c)
    }

    /// Plays `moves` (board-text line, column) from the start under symmetry `t`.
    fn pente_line(t: usize, moves: &[(usize, usize)]) -> PentePosition {
        let mut pos = PentePosition::new();
        for &m in moves {
            let cell = image_cell(t, m);
            assert!(pos.is_legal(cell), "{cell} under symmetry {t}");
            pos.make(cell);
        }
        pos
    }

    #[test]
    fn a_pente_position_and_its_images_share_one_canonical_form_with_the_captures_kept() {
        let protocol = PenteProtocol;
        let header = PenteProtocol::HEADER_FIELDS;
        // White takes the pair 10L-10M with 10N, then two stones off the
        // axes and diagonals: a line with no symmetry of its own.
        let moves = [(9, 9), (9, 10), (6, 6), (9, 11), (9, 12), (8, 10), (12, 7)];
        let pos = pente_line(0, &moves);
        assert_eq!((pos.captured(Color::White), pos.captured(Color::Black)), (2, 0));
        let flat = protocol.flatten(&pos);
        let form = canonical(&flat, header);
        assert!(form.starts_with("b/2,0/"), "{form}");
        assert_eq!(protocol.parse_flat(&form).unwrap().captured(Color::White), 2);
        let mut images = HashSet::new();
        for t in 0..SYMMETRIES {
            let image = protocol.flatten(&pente_line(t, &moves));
            images.insert(image.clone());
            assert_eq!(canonical(&image, header), form, "symmetry {t}");
        }
        assert_eq!(images.len(), SYMMETRIES, "the line has a symmetry of its own");
        // One stone fewer is another position.
        let shorter = protocol.flatten(&pente_line(0, &moves[..moves.len() - 1]));
        assert_ne!(canonical(&shorter, header), form);
    }

    /// Plies played to reach `pos` (every ply puts one stone down).
    fn pente_plies(pos: &PentePosition) -> u32 {
        pos.stone_count() + pos.captured(Color::White) + pos.captured(Color::Black)
    }

    #[test]
    fn pente_suites_hold_distinct_balanced_playable_positions() {
        let spec = SuiteSpec { plies: 4, window: 40.0, count: 6, depth: 2, seed: 4, lookahead: LOOKAHEAD, playout: 0 };
        check_suite(&PenteProtocol, &spec, pente_plies);
    }

    #[test]
    fn bad_numbers_are_one_line_errors() {
        let good = SuiteSpec { plies: 4, window: 1.0, count: 2, depth: 2, seed: 1, lookahead: LOOKAHEAD, playout: 0 };
        for bad in [
            SuiteSpec { window: -1.0, ..good.clone() },
            SuiteSpec { window: f64::NAN, ..good.clone() },
            SuiteSpec { count: 0, ..good.clone() },
            SuiteSpec { depth: 0, ..good.clone() },
            SuiteSpec { lookahead: LOOKAHEAD - 1, ..good.clone() },
            SuiteSpec { lookahead: MAX_LOOKAHEAD + 1, ..good.clone() },
        ] {
            let e = make_suite(&PenteProtocol, &bad).unwrap_err();
            assert!(e.starts_with("--") && !e.contains('\n'), "{e}");
        }
    }
}
