//! Connect Four players: the engine (the workspace's generic search with
//! the window evaluation), the engine's random player, and a game loop
//! between any two [`Agent`]s.

use crate::board::{Column, Position};
use crate::eval::WindowEval;
use engine_core::agent::{Agent, Clock, RandomAgent};
use engine_core::eval::Evaluation;
use engine_core::game::{Color, Game};
use engine_core::search::{CompiledSearch, Engine, EngineConfig};

/// Connect Four's search is compiled in the crate that plays it (the
/// default method: rustc builds the generic search for this game here).
impl CompiledSearch<Position> for WindowEval {}

/// The engine: iterative-deepening PVS with the transposition table, the
/// Connect Four tactics and the window evaluation.
pub type Connect4Engine = Engine<Position, WindowEval>;

/// Transposition table size of [`engine_at_depth`], in MiB.
pub const SMALL_TABLE_MB: usize = 16;

/// An engine called `connect4` playing under `config`, with the window
/// evaluation under `config.weights` (a weights file of either form;
/// default: compiled in). Fails when the configuration asks for another
/// evaluation, which Connect Four does not have, or the file is bad.
pub fn engine(config: EngineConfig) -> Result<Connect4Engine, String> {
    if config.evaluation != Evaluation::default() {
        return Err(format!("Connect Four has no {} evaluation", config.evaluation.name()));
    }
    let eval = match &config.weights {
        Some(path) => WindowEval::from_file(path)?,
        None => WindowEval::default(),
    };
    config.check::<Position>()?;
    Ok(Engine::with_evaluator("connect4".into(), Box::new(eval), config))
}

/// An engine searching exactly `depth` plies a move, with a
/// [`SMALL_TABLE_MB`] table.
pub fn engine_at_depth(depth: u32) -> Connect4Engine {
    let config = EngineConfig { depth: Some(depth), tt_mb: SMALL_TABLE_MB, ..EngineConfig::default() };
    Engine::with_evaluator(format!("connect4-d{depth}"), Box::new(WindowEval::default()), config)
}

/// A player of uniformly random legal moves, fixed by `seed` (the
/// engine's [`RandomAgent`]).
pub fn random_agent(seed: u64) -> RandomAgent {
    RandomAgent::new(seed)
}

/// A finished game: its moves and last position.
#[derive(Clone, Debug)]
pub struct Record {
    /// The moves from the start position.
    pub moves: Vec<Column>,
    /// The final position.
    pub end: Position,
}

impl Record {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        self.end.winner()
    }
}

/// Plays `start` to the end, `black` moving for Black and `white` for
/// White, both untimed, after telling each a new game starts.
pub fn play(start: &Position, black: &mut dyn Agent<Position>, white: &mut dyn Agent<Position>) -> Record {
    black.new_game();
    white.new_game();
    let mut pos = *start;
    let mut moves = Vec::new();
    while !pos.is_terminal() {
        let agent: &mut dyn Agent<Position> = if pos.to_move() == Color::Black { &mut *black } else { &mut *white };
        let mv = agent.choose(&pos, &Clock::UNLIMITED).mv;
        assert!(pos.is_playable(mv), "{} played the full column {mv}", agent.name());
        pos.make(mv);
        moves.push(mv);
    }
    Record { moves, end: pos }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn configurations_connect_four_lacks_are_refused_and_weights_files_are_read() {
        assert!(engine(EngineConfig::default()).is_ok());
        let classic = EngineConfig { evaluation: Evaluation::Classic, ..EngineConfig::default() };
        assert!(engine(classic).is_err());
        let with = |path: PathBuf| engine(EngineConfig { weights: Some(path), ..EngineConfig::default() });
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        assert!(with(root.join("weights/hand.txt")).is_ok());
        assert!(with(root.join("weights/connect4.bin")).is_ok());
        let err = with(PathBuf::from("no-such.bin")).err().unwrap();
        assert!(err.starts_with("no-such.bin: ") && !err.contains('\n'), "{err}");
        // A Reversi weights file is another game's set.
        let err = with(root.join("../reversi/weights/othello8.bin")).err().unwrap();
        assert!(err.contains("othello8") && err.contains("connect4") && !err.contains('\n'), "{err}");
    }

    #[test]
    fn random_games_end_legally() {
        let record = play(&Position::default(), &mut random_agent(1), &mut random_agent(2));
        assert!(record.end.is_terminal());
        let replay = Position::from_moves(record.end.size(), &crate::board::move_string(&record.moves));
        assert_eq!(replay, Ok(record.end));
    }
}
