//! Balanced opening suites: positions a number of random plies from the
//! start whose shallow-search score lies within a window around level, one
//! per symmetry class, written in the openings file form `--openings FILE`
//! reads (one flattened position a line). One code path serves every game
//! through [`SuiteGame`], which each game implements beside its
//! [`GameProtocol`].

use crate::protocol::{GameProtocol, ROW_SEPARATOR};
use crate::run::ends_within;
use engine_core::agent::Agent;
use engine_core::mix::SplitMix;
use engine_core::playout::random_line;
use engine_core::search::Budget;
use engine_core::search::{CompiledSearch, Engine, EngineConfig, Objective, SearchGame};
use std::collections::HashSet;

/// Stream of the random plies of candidate `k` (apart from the runs' streams).
const SUITE_STREAM: u64 = 1 << 62;
/// Candidates drawn per position wanted, at most.
const ATTEMPTS_PER_POSITION: usize = 200;
/// Transposition table of the scoring search, in MiB: shallow searches
/// need little, and it is cleared for every candidate.
const SUITE_TT_MB: usize = 4;
/// Plies after an opening within which no line may end the game, unless
/// the suite asks for more ([`SuiteSpec::lookahead`]).
pub const LOOKAHEAD: u32 = 2;
/// Largest `--lookahead`: every line of that many plies is played out.
pub const MAX_LOOKAHEAD: u32 = 6;
/// Depth of the scoring engine's play in the `--playout` check.
pub const PLAYOUT_DEPTH: u32 = 2;
/// Symmetries of a square board: four rotations, each with its reflection.
pub const SYMMETRIES: usize = 8;

/// What a suite holds.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteSpec {
    /// Random plies from the start.
    pub plies: u32,
    /// Largest |score| kept, in the game's window unit ([`SuiteGame::UNIT`]).
    pub window: f64,
    /// Positions wanted.
    pub count: usize,
    /// Depth of the search that scores a candidate.
    pub depth: u32,
    /// Seed of the random plies.
    pub seed: u64,
    /// Plies within which no line may end the game (at least [`LOOKAHEAD`]).
    pub lookahead: u32,
    /// Plies the scoring engine at depth [`PLAYOUT_DEPTH`] plays from a
    /// candidate, both sides, without the game ending (0: no playout). On
    /// large boards a few random plies can leave groups that block each
    /// other, and the game ends decided within a few dozen plies whoever
    /// plays it.
    pub playout: u32,
}

impl SuiteSpec {
    /// Checks the numbers; the error is one line naming the option.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.window.is_finite() && self.window >= 0.0) {
            return Err(format!("--window {}: expected a number at least 0", self.window));
        }
        if self.count == 0 {
            return Err("--count 0: expected at least one position".into());
        }
        if !(LOOKAHEAD..=MAX_LOOKAHEAD).contains(&self.lookahead) {
            return Err(format!("--lookahead {}: expected {LOOKAHEAD} to {MAX_LOOKAHEAD} plies", self.lookahead));
        }
        if self.depth == 0 {
            return Err("--depth 0: expected a search depth of at least 1".into());
        }
        Ok(())
    }
}

/// A game [`make_suite`] writes balanced openings of: its protocol (start,
/// rules, flattened form), the engine that scores a candidate, and the unit
/// of the window.
pub trait SuiteGame: GameProtocol<State: SearchGame> {
    /// The scoring engine's evaluation.
    type Eval: CompiledSearch<Self::State>;
    /// Fields of the flattened form before the board rows, which the board's
    /// symmetries leave alone: the side letter (Pente: and the captured stones).
    const HEADER_FIELDS: usize;
    /// Engine score units in one unit of the window.
    const SCORE_PER_UNIT: f64;
    /// The window's unit, as the suite file's header names it.
    const UNIT: &'static str;

    /// The engine that scores candidates, with `config`.
    fn scorer(&self, config: EngineConfig) -> Result<Engine<Self::State, Self::Eval>, String>;

    /// The form a suite keeps of the flattened position `flat`, one for all
    /// positions that are the same game up to the board's symmetries
    /// (default: [`canonical`], the eight images of a square board).
    fn canonical(&self, flat: &str) -> String {
        canonical(flat, Self::HEADER_FIELDS)
    }
}

/// The smallest of the eight images of a flattened position under the
/// board's rotations and reflections: positions that are the same game up
/// to symmetry share it. The first `header` fields (the side letter; Pente:
/// and the captured stones) are kept as they are; the rest are the rows of a
/// square board, joined by [`ROW_SEPARATOR`].
pub fn canonical(flat: &str, header: usize) -> String {
    let fields: Vec<&str> = flat.split(ROW_SEPARATOR).collect();
    let (head, rows) = fields.split_at(header.min(fields.len()));
    let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
    let n = rows.len();
    let image = |t: usize| {
        let mut out = head.join(&ROW_SEPARATOR.to_string());
        for r in 0..n {
            out.push(ROW_SEPARATOR);
            for c in 0..n {
                let (i, j) = match t {
                    0 => (r, c),
                    1 => (c, r),
                    2 => (n - 1 - r, c),
                    3 => (r, n - 1 - c),
                    4 => (n - 1 - r, n - 1 - c),
                    5 => (c, n - 1 - r),
                    6 => (n - 1 - c, r),
                    _ => (n - 1 - c, n - 1 - r),
                };
                out.push(char::from(rows[i][j]));
            }
        }
        out
    };
    (0..SYMMETRIES).map(image).min().unwrap_or_default()
}

/// One position of a suite.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteEntry {
    /// The position as the suite file holds it: the canonical form of `drawn`.
    pub flat: String,
    /// The position as the random plies drew it, flattened.
    pub drawn: String,
    /// The scoring search's score of `drawn`, in the window's unit. Its
    /// canonical image may score a little differently where the evaluation
    /// (Duo-Othello's edge tables) or the search's move order is not
    /// symmetric; scoring the drawn position keeps the Reversi suites what
    /// this command wrote before it served Pente.
    pub score: f64,
}

/// A balanced suite of the game `protocol` plays, in the order drawn.
/// Fewer than `spec.count` entries when the draws run out.
pub fn make_suite<P: SuiteGame>(protocol: &P, spec: &SuiteSpec) -> Result<Vec<SuiteEntry>, String> {
    spec.validate()?;
    // Balance is judged on the disc margin the evaluation predicts.
    let config = EngineConfig { tt_mb: SUITE_TT_MB, objective: Objective::Margin, ..EngineConfig::default() };
    let mut engine = protocol.scorer(config)?;
    let limits = Budget::Depth(spec.depth).limits();
    let (mut seen, mut suite) = (HashSet::new(), Vec::new());
    for k in 0..spec.count.saturating_mul(ATTEMPTS_PER_POSITION) {
        if suite.len() == spec.count {
            break;
        }
        let mut rng = SplitMix::stream(spec.seed, SUITE_STREAM + k as u64);
        let state = random_line(protocol.start(), spec.plies, &mut rng);
        if ends_within(&state, spec.lookahead) || ends_in_playout(&mut engine, &state, spec.playout) {
            continue;
        }
        let flat = protocol.canonical(&protocol.flatten(&state));
        if !seen.insert(flat.clone()) {
            continue;
        }
        engine.new_game();
        let r = engine.search(&state, &limits);
        let score = f64::from(r.score.unwrap_or(0)) / P::SCORE_PER_UNIT;
        if score.abs() <= spec.window {
            suite.push(SuiteEntry { flat, drawn: protocol.flatten(&state), score });
        }
    }
    Ok(suite)
}

/// True when `engine` at depth [`PLAYOUT_DEPTH`], playing both sides from
/// `state`, ends the game within `plies` plies.
pub fn ends_in_playout<S: SearchGame, E: CompiledSearch<S>>(engine: &mut Engine<S, E>, state: &S, plies: u32) -> bool {
    let limits = Budget::Depth(PLAYOUT_DEPTH).limits();
    let mut pos = state.clone();
    engine.new_game();
    for _ in 0..plies {
        if pos.is_terminal() {
            return true;
        }
        let best = engine.search(&pos, &limits).best;
        pos.make(best);
    }
    pos.is_terminal()
}
