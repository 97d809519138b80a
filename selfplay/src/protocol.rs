//! What the match loop needs to know about one game: its name, start
//! position, the file protocol of external agents, the text of a position in
//! the CSV files, how a finished game is scored, and its in-process players.
//!
//! The loop in [`crate::game`] is written against [`GameProtocol`] only;
//! [`ReversiProtocol`] implements it for every Reversi variant and
//! [`PenteProtocol`] for Pente; [`GameChoice`] is the `--variant` argument.

use crate::record::{ENDING_TIMEOUT, GGF_PLACE, GameRecord, MoveNote};
use engine::eval::discs;
use engine::pente;
use engine::protocol::{self, duo};
use engine::reference::ReversiMinimax;
use engine::reversi::ggf::{self, GgfGame};
use engine::reversi::{CompiledGeometry, Geometry, Move, Position, Variant, disc_char, reversi_engine};
use engine_core::agent::{Agent, Clock, RandomAgent};
use engine_core::game::{Color, Game};
use engine_core::search::EngineConfig;

/// Separator between the side letter and the board rows in the flattened
/// position form (`X/..../.OX./.XO./....`).
pub const ROW_SEPARATOR: char = '/';

/// How a finished game was scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The winner; `None` is a draw.
    pub winner: Option<Color>,
    /// Final score from Black's side in the game's units (Reversi: disc
    /// difference under the variant's scoring, bonus included).
    pub score: i32,
    /// Final counts `[black, white]` (Reversi: discs on the board).
    pub counts: [u32; 2],
    /// True when the score was level and a tie rule (time left, then a
    /// colour) picked the winner.
    pub tiebreak: bool,
}

/// The game-specific half of a match: everything the generic loop delegates.
pub trait GameProtocol: Send + Sync {
    /// The game state.
    type State: Game;

    /// The variant name used on the command line and in `run.json`.
    fn variant(&self) -> String;

    /// The start position.
    fn start(&self) -> Self::State;

    /// The letter of `color` in files (`X`/`O` in Reversi).
    fn side_letter(&self, color: Color) -> char;

    /// The position as one CSV field: side letter, then the rows of the
    /// position text form, all joined by [`ROW_SEPARATOR`].
    fn flatten(&self, state: &Self::State) -> String;

    /// Parses [`GameProtocol::flatten`]'s form; the error says which field
    /// is wrong and what was expected.
    fn parse_flat(&self, text: &str) -> Result<Self::State, String>;

    /// True for the pass move (never asked of an agent: the game master
    /// plays it).
    fn is_pass(&self, mv: <Self::State as Game>::Move) -> bool;

    /// The `input.txt` an external agent reads for `state` under `clock`.
    fn input_file(&self, state: &Self::State, clock: &Clock) -> String;

    /// Parses an agent's `output.txt` (syntax only; legality is the loop's job).
    fn parse_output(&self, text: &str) -> Result<<Self::State as Game>::Move, String>;

    /// True when the rules allow `mv` in `state` (default: it is one of
    /// `legal_moves`; a game whose move list is a pruned candidate set
    /// answers by the full rules).
    fn is_legal(&self, state: &Self::State, mv: <Self::State as Game>::Move) -> bool {
        state.legal_moves().contains(&mv)
    }

    /// The GGF game an NBoard engine is sent for `state` (no moves; `TI`:
    /// `seconds` on its clock, if timed); `None` for a game NBoard engines
    /// do not play (all but 8x8 Othello).
    fn nboard_game(&self, _state: &Self::State, _seconds: Option<f64>) -> Option<String> {
        None
    }

    /// Parses an NBoard engine's move (syntax only).
    fn parse_nboard_move(&self, text: &str) -> Result<<Self::State as Game>::Move, String> {
        Err(format!("`{text}`: NBoard engines play othello8, not {}", self.variant()))
    }

    /// The finished game as one GGF record (`games.ggf`): `opening`, then
    /// `moves`, with `record`'s id, players and result; `time` is each
    /// side's CPU seconds for the game `[black, white]`. `None` for a game
    /// GGF does not record (Pente).
    fn ggf_record(
        &self,
        _opening: &Self::State,
        _moves: &[MoveNote<<Self::State as Game>::Move>],
        _record: &GameRecord,
        _time: [f64; 2],
    ) -> Option<String> {
        None
    }

    /// Scores the finished `state`; `time_left` is `[black, white]` in seconds.
    fn outcome(&self, state: &Self::State, time_left: [f64; 2]) -> Outcome;

    /// The strong engine with `config`.
    fn engine(&self, config: EngineConfig) -> Result<Box<dyn Agent<Self::State>>, String>;

    /// The graders' reference minimax agent; `seed` fixes any random
    /// tie-breaks.
    fn minimax(&self, seed: u64) -> Box<dyn Agent<Self::State>>;

    /// The graders' random agent, whose choices `seed` fixes (default:
    /// uniform over the legal moves).
    fn random(&self, seed: u64) -> Box<dyn Agent<Self::State>> {
        Box::new(RandomAgent::new(seed))
    }
}

/// The game named by `--variant`: a Reversi variant or Pente (the engine's
/// weight key, which names the same choice for weight files and the tuner).
pub type GameChoice = engine::eval::WeightKey;

/// [`GameProtocol`] for a Reversi variant played on geometry `G`.
#[derive(Clone, Copy, Debug)]
pub struct ReversiProtocol<G: Geometry> {
    variant: Variant,
    geometry: std::marker::PhantomData<G>,
}

impl<G: Geometry> ReversiProtocol<G> {
    /// The protocol of `variant`, whose board must be `G`.
    pub fn new(variant: Variant) -> Self {
        assert_eq!(variant.size(), G::N, "variant {variant} is not played on this geometry");
        ReversiProtocol { variant, geometry: std::marker::PhantomData }
    }

    /// The variant played.
    pub fn reversi_variant(&self) -> Variant {
        self.variant
    }
}

impl<G: CompiledGeometry> GameProtocol for ReversiProtocol<G> {
    type State = Position<G>;

    fn variant(&self) -> String {
        self.variant.name().to_string()
    }

    fn start(&self) -> Position<G> {
        self.variant.start()
    }

    fn side_letter(&self, color: Color) -> char {
        disc_char(color)
    }

    fn flatten(&self, state: &Position<G>) -> String {
        let mut text = String::with_capacity(G::CELLS + G::N + 2);
        text.push(disc_char(state.to_move()));
        for row in state.rows() {
            text.push(ROW_SEPARATOR);
            text.push_str(&row);
        }
        text
    }

    fn parse_flat(&self, text: &str) -> Result<Position<G>, String> {
        let lines: Vec<&str> = text.trim().split(ROW_SEPARATOR).collect();
        if lines.len() != G::N + 1 {
            return Err(format!(
                "expected a side letter and {} rows separated by `{ROW_SEPARATOR}`, found {} fields",
                G::N,
                lines.len()
            ));
        }
        Position::parse(&lines.join("\n"), self.variant.scoring())
            .map_err(|e| format!("field {}: {}", e.line, e.message))
    }

    fn is_pass(&self, mv: Move<G>) -> bool {
        mv.is_pass()
    }

    fn input_file(&self, state: &Position<G>, clock: &Clock) -> String {
        duo::input_text(state, clock.own_remaining, clock.opponent_remaining)
    }

    fn parse_output(&self, text: &str) -> Result<Move<G>, String> {
        duo::parse_output(text)
    }

    fn nboard_game(&self, state: &Position<G>, seconds: Option<f64>) -> Option<String> {
        if self.variant != Variant::Othello8 {
            return None;
        }
        let mut game = GgfGame::new(*state);
        game.set_tag("PC", "selfplay");
        if let Some(s) = seconds {
            game.set_tag("TI", &ggf::clock_text(s));
        }
        Some(game.to_string())
    }

    fn parse_nboard_move(&self, text: &str) -> Result<Move<G>, String> {
        ggf::parse_move::<G>(text).ok_or_else(|| format!("expected a move like F5 or PA, found `{text}`"))
    }

    /// GGF's result is Black's disc margin; a forfeit gives the winner the
    /// whole board with the flag `t` (time) or `r` (any other forfeit), as
    /// GGF records a resignation. Evaluations are the mover's, in discs.
    fn ggf_record(
        &self,
        opening: &Position<G>,
        moves: &[MoveNote<Move<G>>],
        record: &GameRecord,
        time: [f64; 2],
    ) -> Option<String> {
        let mut game = GgfGame::new(*opening);
        game.set_tag("PC", &format!("{GGF_PLACE}{}", record.game));
        game.set_tag("PB", &ggf_tag_value(&record.black));
        game.set_tag("PW", &ggf_tag_value(&record.white));
        if time[0] == time[1] {
            if time[0].is_finite() {
                game.set_tag("TI", &ggf::clock_text(time[0]));
            }
        } else {
            for (tag, seconds) in [("TB", time[0]), ("TW", time[1])] {
                if seconds.is_finite() {
                    game.set_tag(tag, &ggf::clock_text(seconds));
                }
            }
        }
        let flag = if !record.forfeited() {
            None
        } else if record.ending == ENDING_TIMEOUT {
            Some(ggf::ResultFlag::Timeout)
        } else {
            Some(ggf::ResultFlag::Resigned)
        };
        let margin = match (flag, record.black_points()) {
            (Some(_), Some(points)) if points > 0.5 => G::CELLS as f64,
            (Some(_), _) => -(G::CELLS as f64),
            (None, _) => f64::from(record.score),
        };
        game.set_tag("RE", &ggf::result_text(margin, flag));
        for m in moves {
            game.push(m.mv, m.score.map(discs), m.cpu);
        }
        Some(game.to_string())
    }

    fn outcome(&self, state: &Position<G>, time_left: [f64; 2]) -> Outcome {
        let (black, white) = state.disc_counts();
        let score = state.score();
        let scoring = state.scoring();
        Outcome {
            winner: scoring.winner(score, time_left),
            score,
            counts: [black, white],
            tiebreak: score == 0 && scoring.ties_by_time,
        }
    }

    fn engine(&self, config: EngineConfig) -> Result<Box<dyn Agent<Position<G>>>, String> {
        Ok(Box::new(reversi_engine::<G>(self.variant, config)?))
    }

    fn minimax(&self, _seed: u64) -> Box<dyn Agent<Position<G>>> {
        Box::new(ReversiMinimax::<G>::new())
    }
}

/// `text` as a GGF tag value: a `]` would close the tag, so it becomes `)`.
fn ggf_tag_value(text: &str) -> String {
    text.replace(']', ")")
}

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
        GameChoice::PENTE.to_string()
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
        Box::new(pente::PenteMinimax::new(seed))
    }

    fn random(&self, seed: u64) -> Box<dyn Agent<pente::PentePosition>> {
        Box::new(pente::NearRandomAgent::new(seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::reversi::{Size4, Size12};

    #[test]
    fn flat_form_round_trips_and_matches_the_documented_example() {
        let p = ReversiProtocol::<Size4>::new(Variant::Tiny4);
        let start = p.start();
        assert_eq!(p.flatten(&start), "X/..../.OX./.XO./....");
        assert_eq!(p.parse_flat("X/..../.OX./.XO./....").unwrap(), start);
        assert!(p.parse_flat("X/..../.OX./.XO.").unwrap_err().contains("found 4 fields"));
        assert!(p.parse_flat("X/..../.OX./.XQ./....").unwrap_err().starts_with("field 4:"));
    }

    #[test]
    fn input_file_follows_the_duo_handout() {
        let p = ReversiProtocol::<Size12>::new(Variant::Duo12);
        let text = p.input_file(&p.start(), &Clock { own_remaining: 300.0, opponent_remaining: 286.46 });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 14);
        assert_eq!(lines[0], "O");
        assert_eq!(lines[1], "300 286.46");
        assert_eq!(lines[4], "..XO........");
        assert_eq!(lines[5], "..OX........");
        assert_eq!(lines[10], "........XO..");
        assert!(text.ends_with(".\n") && !text.contains('\r'));
    }

    #[test]
    fn output_parsing_accepts_one_move_line() {
        let p = ReversiProtocol::<Size12>::new(Variant::Duo12);
        assert_eq!(p.parse_output("c2\n").unwrap().to_string(), "c2");
        assert_eq!(p.parse_output("l12").unwrap().to_string(), "l12");
        for bad in ["", "C2\n", "c 2\n", "m1\n", "c13\n", "pass\n", "c2\nd3\n", "c2\r\n"] {
            assert!(p.parse_output(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn duo_ties_go_to_time_then_x() {
        let p = ReversiProtocol::<Size4>::new(Variant::Tiny4);
        // Tiny4 has no tie rule: a level game is a draw.
        let level = p.parse_flat("X/XXOO/XXOO/XXOO/XXOO").unwrap();
        assert_eq!(p.outcome(&level, [1.0, 2.0]).winner, None);
        let duo = ReversiProtocol::<Size12>::new(Variant::Duo12);
        // O has one disc more than X: the +1 bonus levels the score.
        let mut rows = vec!["XXXXXXOOOOOO".to_string(); 12];
        rows[0] = "XXXXX.OOOOOO".into();
        let text = format!("X/{}", rows.join("/"));
        let pos = duo.parse_flat(&text).unwrap();
        let o = duo.outcome(&pos, [10.0, 20.0]);
        assert_eq!((o.score, o.counts, o.tiebreak), (0, [71, 72], true));
        assert_eq!(o.winner, Some(Color::White));
        assert_eq!(duo.outcome(&pos, [20.0, 10.0]).winner, Some(Color::Black));
        assert_eq!(duo.outcome(&pos, [10.0, 10.0]).winner, Some(Color::Black));
    }

    /// The handout's example: White on 10K, 10N, 12K, Black on 11L, 10M,
    /// Black to move.
    fn handout_position() -> pente::PentePosition {
        let cell = |t: &str| pente::Cell::parse(t).unwrap();
        let stones = [("10K", Color::White), ("10N", Color::White), ("12K", Color::White)]
            .into_iter()
            .chain([("11L", Color::Black), ("10M", Color::Black)])
            .map(|(t, c)| (cell(t), c))
            .collect::<Vec<_>>();
        pente::PentePosition::from_stones(&stones, Color::Black, 0, 0)
    }

    #[test]
    fn choice_parses_every_variant_and_pente() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<GameChoice>().unwrap(), GameChoice::Reversi(v));
        }
        assert_eq!("pente".parse::<GameChoice>().unwrap(), GameChoice::Pente);
        let err = "go".parse::<GameChoice>().unwrap_err();
        assert!(err.starts_with("unknown variant `go`") && err.ends_with("duo12, pente"), "{err}");
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
        let read = protocol::pente::parse_input(&text).unwrap();
        assert_eq!((read.color, read.time_left), (Color::Black, 100.0));
        assert_eq!(read.position, pos);
        // A sliver of time stays positive in the file.
        let tiny = p.input_file(&pos, &Clock { own_remaining: 0.004, opponent_remaining: 1.0 });
        assert_eq!(protocol::pente::parse_input(&tiny).unwrap().time_left, 0.004);
    }

    #[test]
    fn pente_flat_form_round_trips_with_captures() {
        let p = PenteProtocol;
        let empty_row = format!("/{}", ".".repeat(19));
        assert_eq!(p.flatten(&p.start()), format!("w/0,0{}", empty_row.repeat(19)));
        let mut agent = RandomAgent::new(7);
        let mut captures_seen = false;
        for game in 0..20 {
            let mut pos = p.start();
            for _ in 0..(40 + game) {
                if pos.is_terminal() {
                    break;
                }
                let flat = p.flatten(&pos);
                assert_eq!(p.parse_flat(&flat).unwrap(), pos, "{flat}");
                captures_seen |= pos.captured(Color::White) + pos.captured(Color::Black) > 0;
                let mv = Agent::<pente::PentePosition>::choose(&mut agent, &pos, &Clock::UNLIMITED).mv;
                pos.make(mv);
            }
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
        engine::eval::WeightSet::compiled(engine::eval::WeightKey::Pente).save(&path).unwrap();
        assert!(p.engine(config(&path)).is_ok());
        engine::eval::WeightSet::compiled(Variant::Tiny4).save(&path).unwrap();
        let wrong = p.engine(config(&path)).err().unwrap();
        assert!(wrong.contains("w.txt") && wrong.contains("tiny4"), "{wrong}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pente_output_parsing_is_strict() {
        let p = PenteProtocol;
        assert_eq!(p.parse_output("9N\n").unwrap(), pente::Cell::parse("9N").unwrap());
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
            pos.make(pente::Cell::parse(mv).unwrap());
        }
        let o = p.outcome(&pos, [1.0, 2.0]);
        assert_eq!((o.winner, o.score, o.tiebreak), (Some(Color::White), -1, false));
        // Ten stones captured by Black: Black wins whatever the clocks say.
        let mut rows = vec![".".repeat(19); 19];
        rows[0] = format!("bww.b{}", ".".repeat(14));
        let text = format!("b/0,8/{}", rows.join("/"));
        let mut pos = p.parse_flat(&text).unwrap();
        let capture = pente::Cell::parse("19D").unwrap();
        let mut pos2 = pos.clone();
        pos2.make(capture);
        let o = p.outcome(&pos2, [1.0, 2.0]);
        assert_eq!((o.winner, o.score, o.counts), (Some(Color::Black), 1, [10, 0]));
        // Unfinished and level: the clock decides, equal clocks draw.
        pos.make(pente::Cell::parse("1A").unwrap());
        assert_eq!(p.outcome(&pos, [3.0, 2.0]).winner, Some(Color::Black));
        assert_eq!(p.outcome(&pos, [1.0, 2.0]).winner, Some(Color::White));
        assert_eq!(p.outcome(&pos, [2.0, 2.0]).winner, None);
    }
}
