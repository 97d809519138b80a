//! What a seat answers when asked for a move: the move with the CPU time it
//! cost, or the forfeit that lost the game. Shared by the in-process and the
//! external seats and read by the match loop.

use crate::record::ENDING_TIMEOUT;
use engine_core::agent::Decision;

/// Why a player lost a game without finishing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// Used up its time (or was killed for running too long).
    Timeout,
    /// Could not be started, exited with an error or died on a signal.
    Crash,
    /// Wrote no `output.txt`.
    NoOutput,
    /// Wrote an `output.txt` that does not hold a move.
    BadOutput,
    /// Chose an illegal move.
    IllegalMove,
}

impl Forfeit {
    /// The name in the `ending` column of `games.csv`.
    pub const fn name(self) -> &'static str {
        match self {
            Forfeit::Timeout => ENDING_TIMEOUT,
            Forfeit::Crash => "crash",
            Forfeit::NoOutput => "no-output",
            Forfeit::BadOutput => "bad-output",
            Forfeit::IllegalMove => "illegal-move",
        }
    }
}

/// A forfeit and what happened, for the log and the `detail` column.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Why the game was lost.
    pub forfeit: Forfeit,
    /// A one-line description.
    pub detail: String,
}

impl Failure {
    /// A failure of kind `forfeit`.
    pub fn new(forfeit: Forfeit, detail: impl Into<String>) -> Self {
        Failure { forfeit, detail: detail.into() }
    }
}

/// A move as played, with the CPU time it cost.
#[derive(Clone, Copy, Debug)]
pub struct Played<M> {
    /// The decision (move and search information).
    pub decision: Decision<M>,
    /// CPU seconds charged for it.
    pub cpu: f64,
}

/// The outcome of asking a seat for a move.
pub enum Answer<M> {
    /// A move (not yet checked for legality).
    Move(Played<M>),
    /// The player lost the game.
    Lost(Failure, f64),
    /// The run is being abandoned (second Ctrl-C).
    Abandoned,
}
