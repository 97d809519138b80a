//! What the match loop needs to know about one game: its name, start
//! position, the file protocol of external agents, the text of a position in
//! the CSV files, how a finished game is scored, and its in-process players.
//!
//! The loop in [`crate::game`] is written against [`GameProtocol`] only;
//! each game implements it in its own crate (Reversi's and Pente's in
//! `reversi::matches`, Connect Four's in `connect4::matches`) and lists its
//! variants as a [`crate::family::GameFamily`].

use crate::record::{GameRecord, MoveNote};
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
