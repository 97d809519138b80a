//! The NBoard protocol (Chris Welty's, version 2), engine side, for 8x8
//! Othello: the GUI writes one command a line on the engine's stdin, the
//! engine answers on stdout.
//!
//! | command | answer |
//! |---|---|
//! | `nboard 2` | `set myname NAME` |
//! | `set depth D` | `set myname NAMED`; later searches go to depth `D` |
//! | `set game GGF` | the position is the one after the game's moves |
//! | `set contempt N` | accepted (draws are scored 0) |
//! | `move F5[/EVAL[/TIME]]` (or `PA`) | the move is played |
//! | `hint N` | `status ...`, one `search PV EVAL 0 DEPTH` line for each of the `N` best moves, `nodestats NODES SECONDS`, `status` |
//! | `go` | `status ...`, `nodestats NODES SECONDS`, `=== MOVE/EVAL/TIME` (the move is not played) |
//! | `ping N` | `pong N`, after everything sent before it is answered |
//! | `learn` | `learned` (there is no book to learn into) |
//! | `status` | `status` and what the engine is set to |
//! | `quit` | the session ends |
//!
//! Evaluations are in discs from the side to move; a `DEPTH` of `100%` is
//! an exact solve. `go` searches to the set depth within the clock the game
//! gives (`TI` less the times of the mover's moves; no `TI`: untimed);
//! `hint` is not bound by the clock. Anything else is ignored with a line on
//! the error stream. Searches are deterministic: the same session gives the
//! same answers.

use crate::analysis::MAX_PV;
use crate::ggf::{self, GgfGame, clock_seconds};
use crate::{Move, Position, ReversiEngine, Size8, Variant, reversi_engine};
use engine_core::agent::Clock;
use engine_core::bitboard::BitSet;
use engine_core::game::{Color, Game};
use engine_core::search::{Band, EngineConfig, Limits};
use std::io::{self, Write};

/// The name the engine gives itself (`set myname`).
pub const ENGINE_NAME: &str = "Workbench";
/// The protocol version this module speaks.
pub const VERSION: u32 = 2;
/// Search depth before any `set depth` (GUIs send one first).
pub const DEFAULT_DEPTH: u32 = 10;
/// The depth field of an exact solve.
pub const EXACT_DEPTH: &str = "100%";
/// The GGF tag of the game's time control.
pub const TIME_TAG: &str = "TI";
/// Seconds on a clock that the recorded times have used up: the engine
/// still answers, at once.
const EMPTY_CLOCK: f64 = 0.01;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit`: end the session.
    Quit,
}

/// One evaluated root move of a hint.
struct Hint {
    /// The move and the expected line after it.
    pv: Vec<Move<Size8>>,
    /// Score in score units from the side to move.
    score: i32,
    /// True when the score is exact.
    exact: bool,
}

/// An NBoard session: the engine, the game and the settings.
pub struct Session {
    config: EngineConfig,
    engine: ReversiEngine<Size8>,
    game: GgfGame<Size8>,
    depth: u32,
    contempt: i32,
}

impl Session {
    /// A session at the start position whose engine plays with `config`
    /// (its depth is the protocol's to set); fails when the engine cannot
    /// be made (a bad weights file).
    pub fn new(config: EngineConfig) -> Result<Self, String> {
        let config = EngineConfig { depth: Some(DEFAULT_DEPTH), ..config };
        let engine = reversi_engine::<Size8>(Variant::Othello8, config.clone())?;
        Ok(Session { config, engine, game: GgfGame::new(Variant::Othello8.start()), depth: DEFAULT_DEPTH, contempt: 0 })
    }

    /// The current position.
    pub fn position(&self) -> Position<Size8> {
        self.game.position()
    }

    /// The contempt last set (disks, from Black's side; not used).
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// Handles one command line: answers go to `out` (flushed), complaints
    /// about the command to `log`.
    pub fn handle(&mut self, line: &str, out: &mut impl Write, log: &mut impl Write) -> io::Result<Flow> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "nboard" => {
                if rest.parse::<u32>().ok() != Some(VERSION) {
                    writeln!(log, "nboard: expected protocol version {VERSION}, found `{rest}`; going on")?;
                }
                writeln!(out, "set myname {ENGINE_NAME}")?;
            }
            "set" => self.set(rest, out, log)?,
            "move" => self.play(rest, log)?,
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n > 0 => self.hint(n, out, log)?,
                _ => writeln!(log, "nboard: hint: expected a positive number of moves, found `{rest}`")?,
            },
            "go" => self.go(out, log)?,
            "ping" => writeln!(out, "pong {rest}")?,
            "learn" => writeln!(out, "learned")?,
            "status" => {
                let pos = self.position();
                writeln!(
                    out,
                    "status {ENGINE_NAME}: depth {}, {} to move, {} empty",
                    self.depth,
                    ggf_side(pos.to_move()),
                    pos.empty_count()
                )?;
            }
            "quit" => return Ok(Flow::Quit),
            // Protocol version 1 sent a move alone (`F5`).
            _ if rest.is_empty() && ggf::parse_move::<Size8>(command).is_some() => self.play(command, log)?,
            _ => writeln!(log, "nboard: ignoring unknown command `{line}`")?,
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn set(&mut self, rest: &str, out: &mut impl Write, log: &mut impl Write) -> io::Result<()> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(depth) if depth > 0 => {
                    if depth != self.depth {
                        self.config.depth = Some(depth);
                        // The configuration was accepted once, so this cannot fail.
                        match reversi_engine::<Size8>(Variant::Othello8, self.config.clone()) {
                            Ok(engine) => self.engine = engine,
                            Err(e) => writeln!(log, "nboard: set depth: {e}")?,
                        }
                        self.depth = depth;
                    }
                    writeln!(out, "set myname {ENGINE_NAME}{depth}")?;
                }
                _ => writeln!(log, "nboard: set depth: expected a positive whole number, found `{value}`")?,
            },
            "game" => match GgfGame::<Size8>::parse(value, Variant::Othello8.scoring()) {
                Ok(game) => self.game = game,
                Err(e) => writeln!(log, "nboard: set game: {e}; keeping the previous game")?,
            },
            "contempt" => match value.parse::<i32>() {
                Ok(c) => self.contempt = c,
                Err(_) => writeln!(log, "nboard: set contempt: expected a whole number, found `{value}`")?,
            },
            _ => writeln!(log, "nboard: ignoring unknown setting `set {rest}`")?,
        }
        Ok(())
    }

    /// `move MOVE[/EVAL[/TIME]]`: plays the move, passing first for a side
    /// that has no move.
    fn play(&mut self, value: &str, log: &mut impl Write) -> io::Result<()> {
        let pos = self.position();
        let m = match ggf::parse_move_value::<Size8>(pos.to_move(), value) {
            Ok(m) => m,
            Err(e) => return writeln!(log, "nboard: move: {e}"),
        };
        if pos.is_terminal() {
            return writeln!(log, "nboard: move {value}: expected no move, the game is over");
        }
        let mut game = self.game.clone();
        if !m.mv.is_pass() && pos.moves().is_empty() {
            game.push(Move::PASS, None, None);
        }
        if !game.position().is_legal(m.mv) {
            let text = ggf::board_text(&game.position());
            return writeln!(log, "nboard: move {value}: expected a legal move in BO[{text}]");
        }
        game.push(m.mv, m.eval, m.seconds);
        self.game = game;
        Ok(())
    }

    /// The clock of the side to move: the game's `TI` less the recorded
    /// times of that side's moves (`None`: untimed).
    fn clock_left(&self) -> Option<f64> {
        let total = clock_seconds(self.game.tag(TIME_TAG)?)?;
        if total <= 0.0 {
            return None;
        }
        let mover = self.position().to_move();
        let used: f64 = self.game.moves.iter().filter(|m| m.color == mover).filter_map(|m| m.seconds).sum();
        Some((total - used).max(EMPTY_CLOCK))
    }

    fn go(&mut self, out: &mut impl Write, log: &mut impl Write) -> io::Result<()> {
        let pos = self.position();
        if pos.is_terminal() {
            return writeln!(log, "nboard: go: the game is over");
        }
        writeln!(out, "status {ENGINE_NAME} is thinking")?;
        out.flush()?;
        let clock = match self.clock_left() {
            Some(left) => Clock { own_remaining: left, opponent_remaining: left },
            None => Clock::UNLIMITED,
        };
        let r = self.engine.play(&pos, &clock);
        writeln!(out, "nodestats {} {:.2}", r.nodes, r.seconds)?;
        let eval = r.score.map(|s| format!("{:.2}", Band::points(s))).unwrap_or_default();
        writeln!(out, "=== {}/{eval}/{:.2}", ggf::move_text(r.best), r.seconds)
    }

    /// Evaluates every root move to the set depth (each reply searched one
    /// ply less) and returns them best first.
    fn evaluate_moves(&mut self, pos: &Position<Size8>) -> (Vec<Hint>, u64, f64) {
        let limits =
            Limits { depth: Some(self.depth.saturating_sub(1).max(1)), search_forced: true, ..Limits::default() };
        let mover = pos.to_move();
        let outcomes = self.config.outcomes(pos, &Clock::UNLIMITED, &limits);
        let (mut hints, mut nodes, mut seconds) = (Vec::new(), 0, 0.0);
        for &mv in pos.legal_moves().iter() {
            let child = pos.play(mv);
            if child.is_terminal() {
                let score = outcomes.final_score(child.final_score() * mover.sign(), mover);
                hints.push(Hint { pv: vec![mv], score, exact: true });
                continue;
            }
            let r = self.engine.search(&child, &limits);
            nodes += r.nodes;
            seconds += r.seconds;
            let Some(score) = r.score else { continue };
            let mut pv = vec![mv];
            pv.extend(self.engine.principal_variation(&child, r.best, MAX_PV - 1));
            hints.push(Hint { pv, score: -score, exact: r.exact });
        }
        hints.sort_by_key(|h| -h.score);
        (hints, nodes, seconds)
    }

    fn hint(&mut self, n: usize, out: &mut impl Write, log: &mut impl Write) -> io::Result<()> {
        let pos = self.position();
        if pos.is_terminal() {
            writeln!(log, "nboard: hint: the game is over")?;
            return writeln!(out, "status");
        }
        writeln!(out, "status {ENGINE_NAME} is analysing")?;
        out.flush()?;
        let (hints, nodes, seconds) = self.evaluate_moves(&pos);
        for h in hints.iter().take(n) {
            let pv: Vec<String> = h.pv.iter().map(|&m| ggf::move_text(m)).collect();
            let depth = if h.exact { EXACT_DEPTH.to_string() } else { self.depth.to_string() };
            writeln!(out, "search {} {:.2} 0 {depth}", pv.join("-"), Band::points(h.score))?;
        }
        writeln!(out, "nodestats {nodes} {seconds:.2}")?;
        writeln!(out, "status")
    }
}

/// The GGF letter of a side (`B` or `W`).
const fn ggf_side(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

#[cfg(test)]
mod tests;
