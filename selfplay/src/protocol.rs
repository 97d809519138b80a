//! What the match loop needs to know about one game: its name, start
//! position, the file protocol of external agents, the text of a position in
//! the CSV files, how a finished game is scored, and its in-process players.
//!
//! The loop in [`crate::game`] is written against [`GameProtocol`] only;
//! [`ReversiProtocol`] implements it for every Reversi variant.

use engine::agent::{Agent, Clock};
use engine::game::{Color, Game};
use engine::reference::MinimaxAgent;
use engine::reversi::{Geometry, Move, Position, Variant, disc_char};
use engine::search::{EngineConfig, ReversiEngine};

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

    /// Scores the finished `state`; `time_left` is `[black, white]` in seconds.
    fn outcome(&self, state: &Self::State, time_left: [f64; 2]) -> Outcome;

    /// The strong engine with `config`.
    fn engine(&self, config: EngineConfig) -> Result<Box<dyn Agent<Self::State>>, String>;

    /// The graders' reference minimax agent.
    fn minimax(&self) -> Box<dyn Agent<Self::State>>;
}

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
}

impl<G: Geometry> GameProtocol for ReversiProtocol<G> {
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
        let mut text = String::with_capacity(G::CELLS + G::N + 40);
        text.push(disc_char(state.to_move()));
        text.push('\n');
        // `{}` prints the shortest text that reads back as the same double
        // (`300` for 300.0), as the handout's example shows.
        text.push_str(&format!("{} {}\n", clock.own_remaining, clock.opponent_remaining));
        for row in state.rows() {
            text.push_str(&row);
            text.push('\n');
        }
        text
    }

    fn parse_output(&self, text: &str) -> Result<Move<G>, String> {
        let mut lines = text.split('\n');
        let first = lines.next().unwrap_or("");
        if lines.any(|l| !l.trim().is_empty()) {
            return Err("expected one line holding the move, found more".into());
        }
        match Move::<G>::parse(first) {
            Some(mv) if !mv.is_pass() => Ok(mv),
            _ => Err(format!(
                "expected a move like `c3` (column a-{}, row 1-{}), found `{}`",
                engine::reversi::COLUMN_LETTERS[G::N - 1] as char,
                G::N,
                first.escape_debug()
            )),
        }
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
        Ok(Box::new(ReversiEngine::<G>::new(self.variant, config)?))
    }

    fn minimax(&self) -> Box<dyn Agent<Position<G>>> {
        Box::new(MinimaxAgent::<G>::new())
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
}
