//! The Duo-Othello competition program (`duo-othello`, `duo-calibrate`):
//! reading `input.txt`, writing `output.txt`, the `playdata.txt` kept across
//! the moves of one game and the `calibration.txt` of this machine.
//!
//! Guard rails, in order of priority: a legal move is written as soon as the
//! board is read (the best move by a one-ply evaluation), before any optional
//! work; the search only runs when time allows, and its move replaces the
//! first one only when legal. Files the program wrote itself
//! (`playdata.txt`, `calibration.txt`) are versioned and validated, and
//! ignored when stale or corrupt.

use crate::eval::{Evaluator, PatternEval};
use crate::reversi_engine;
use crate::{Geometry, Move, Position, Size12, Variant, disc_char, parse_rows, parse_side};
use engine_core::agent::{Agent, Clock, Decision};
use engine_core::bitboard::BitSet;
use engine_core::cputime::{CpuTimer, process_cpu_time};
use engine_core::game::{Color, Game};
use engine_core::mix::fnv1a;
use engine_core::search::quick_end::safe_moves;
use engine_core::search::{EngineConfig, Limits, Outcomes, Overrun, ParamSettings, SearchGame};
use std::fmt::Write as _;
use std::path::Path;

/// The board of Duo-Othello.
pub type Board = Size12;
/// A Duo-Othello position.
pub type DuoPosition = Position<Board>;
/// A Duo-Othello move.
pub type DuoMove = Move<Board>;

use super::seconds_text;
pub use super::{CALIBRATION_FILE, INPUT_FILE, OUTPUT_FILE, PLAYDATA_FILE};
use crate::COLUMN_LETTERS;

/// The `input.txt` a game master writes for `pos` (any board size): the
/// side to move, the mover's and the opponent's seconds left, the rows.
pub fn input_text<G: Geometry>(pos: &Position<G>, own: f64, opponent: f64) -> String {
    let mut text = String::with_capacity(G::CELLS + G::N + 40);
    text.push(disc_char(pos.to_move()));
    text.push('\n');
    let _ = writeln!(text, "{} {}", seconds_text(own), seconds_text(opponent));
    for row in pos.rows() {
        text.push_str(&row);
        text.push('\n');
    }
    text
}

/// The text of `output.txt` for `mv`: the cell and a line feed.
pub fn output_text<G: Geometry>(mv: Move<G>) -> String {
    format!("{mv}\n")
}

/// Reads a program's `output.txt`: one line holding a move like `c3` (its
/// syntax only: legality is the game master's check).
pub fn parse_output<G: Geometry>(text: &str) -> Result<Move<G>, String> {
    let first = super::single_line(text)?;
    match Move::<G>::parse(first) {
        Some(mv) if !mv.is_pass() => Ok(mv),
        _ => Err(format!(
            "expected a move like `c3` (column a-{}, row 1-{}), found `{}`",
            COLUMN_LETTERS[G::N - 1] as char,
            G::N,
            first.escape_debug()
        )),
    }
}

/// Own remaining time assumed when the time line cannot be read: small, so
/// the agent plays fast rather than risking the clock.
pub const FALLBACK_TIME: f64 = 1.0;
/// Below this many seconds left, the search is skipped: the one-ply move is
/// the answer.
pub const TINY_TIME: f64 = 0.05;
/// Below this many seconds left, not even the one-ply move: reading the
/// evaluation's weights costs about 10 ms of CPU, so the first legal move
/// (already on disk) is the answer.
pub const FIRST_MOVE_TIME: f64 = 0.03;
/// Seconds per move the game master charges beyond what the process
/// measures itself (start-up, exit), before playdata has measured it.
pub const DEFAULT_OVERHEAD: f64 = 0.003;
/// Below this many seconds left, the search gets a small transposition
/// table: clearing a large one would cost more than the move may take.
pub const SMALL_TABLE_TIME: f64 = 2.0;
/// Transposition table size (MiB) when little time is left.
const SMALL_TABLE_MB: usize = 4;
/// The clock keeps this multiple of the estimated cost of every move still
/// to come (start-up and the game master's overhead), so that the moves
/// played without a search at the end of the game never run it out.
pub const RESERVE_FACTOR: f64 = 1.5;
/// Weight of the newest overhead sample in the running estimate.
const OVERHEAD_BLEND: f64 = 0.5;
/// Overhead samples above this are taken as measurement noise (e.g. the game
/// master charging the wait for the disk) and capped.
const MAX_OVERHEAD: f64 = 0.5;

/// What `input.txt` says.
#[derive(Clone, Debug, PartialEq)]
pub struct DuoInput {
    /// The position, the side to play to move.
    pub position: DuoPosition,
    /// Own remaining CPU seconds, when readable.
    pub own_time: Option<f64>,
    /// The opponent's remaining CPU seconds, when readable.
    pub opponent_time: Option<f64>,
    /// Problems that did not stop the program (each a one-line message).
    pub warnings: Vec<String>,
}

/// Parses a remaining-time field: a finite, non-negative number.
fn parse_time(word: Option<&str>) -> Option<f64> {
    word?.parse::<f64>().ok().filter(|t| t.is_finite() && *t >= 0.0)
}

/// True when `line` looks like a board row (so the time line is missing).
fn is_board_row(line: &str) -> bool {
    line.chars().count() == Board::N && line.chars().all(|c| matches!(c, 'X' | 'O' | '.'))
}

/// Parses `input.txt`. A missing or bad side, or an unreadable board, is an
/// error naming the file and line; a bad time line or trailing text only
/// adds a warning. An input where the side to play has no legal move is an
/// error (the game master never sends one).
pub fn parse_input(text: &str) -> Result<DuoInput, String> {
    let err = |line: usize, msg: &str| format!("{INPUT_FILE}: line {line}: {msg}");
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let side = parse_side(lines.first().copied().unwrap_or(""), 1).map_err(|e| err(e.line, &e.message))?;
    let mut warnings = Vec::new();
    let (mut own_time, mut opponent_time) = (None, None);
    let board_start = match lines.get(1) {
        Some(l) if is_board_row(l) => {
            warnings.push(err(2, "expected two remaining times, found a board row; assuming little time"));
            1
        }
        Some(l) => {
            let mut words = l.split_whitespace();
            own_time = parse_time(words.next());
            opponent_time = parse_time(words.next());
            if own_time.is_none() || opponent_time.is_none() || words.next().is_some() {
                warnings.push(err(
                    2,
                    &format!("expected two non-negative numbers (own and opponent seconds), found `{l}`"),
                ));
            }
            2
        }
        None => return Err(err(2, "expected two remaining times, found end of file")),
    };
    let mut rows = lines[board_start..].iter().copied();
    let (black, white) = parse_rows::<Board>(&mut rows, board_start + 1).map_err(|e| err(e.line, &e.message))?;
    if let Some(i) = rows.position(|l| !l.is_empty()) {
        let line = board_start + Board::N + i + 1;
        warnings.push(err(line, "expected end of file after the 12 board rows; ignoring the rest"));
    }
    let position: DuoPosition = Position::from_discs(black, white, side, Variant::Duo12.scoring());
    if position.moves().is_empty() {
        return Err(format!("{INPUT_FILE}: {} has no legal move on this board", disc_char(side)));
    }
    Ok(DuoInput { position, own_time, opponent_time, warnings })
}

/// The move a one-ply search with `eval` picks among `candidates` (legal
/// moves of `pos`, at least one): the one whose result is worst for the
/// opponent (the first on ties); a move that ends the game is valued by
/// `outcomes`, a win above every evaluation and a loss below.
pub fn one_ply_move<E: Evaluator<DuoPosition>>(
    pos: &DuoPosition,
    eval: &E,
    candidates: &[DuoMove],
    outcomes: Outcomes,
) -> DuoMove {
    let mut best = (candidates[0], i32::MIN);
    for &mv in candidates {
        let next = pos.play(mv);
        let score = if next.is_terminal() {
            outcomes.final_score(-next.final_score_for_mover(), pos.to_move())
        } else {
            -eval.evaluate(&next)
        };
        if score > best.1 {
            best = (mv, score);
        }
    }
    best.0
}

/// Writes `text` to `dir/name` through a temporary file and a rename, so the
/// game master never reads a half-written file.
fn write_atomically(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    let result = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &path));
    result.or_else(|_| std::fs::write(&path, text)).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// The first line of `playdata.txt`.
pub const PLAYDATA_FORMAT: &str = "duo-othello playdata 2";

/// What the agent remembers between its moves of one game.
///
/// Text form: [`PLAYDATA_FORMAT`], then `side X|O`, `board` (the 144 cells
/// after our move, row 1 first), `own_time` (own seconds left when that move
/// started), `used` (CPU seconds the process measured for it), `overhead`
/// (running estimate of seconds per move charged beyond `used`), `moves`
/// (our moves so far), and `check` (FNV-1a 64 of the lines before, hex).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayData {
    /// Our colour.
    pub side: Color,
    /// The position right after our last move.
    pub board: DuoPosition,
    /// Own remaining seconds when our last move started.
    pub own_time: f64,
    /// CPU seconds the process measured for our last move.
    pub used: f64,
    /// Estimated seconds per move charged beyond what we measure.
    pub overhead: f64,
    /// Our moves so far in this game.
    pub moves: u32,
    /// How far our searches overran their time plans so far.
    pub overrun: Overrun,
}

impl PlayData {
    /// The text form, checksum included.
    pub fn to_text(&self) -> String {
        let mut body = String::new();
        let _ = writeln!(body, "{PLAYDATA_FORMAT}");
        let _ = writeln!(body, "side {}", disc_char(self.side));
        let _ = writeln!(body, "board {}", self.board.rows().concat());
        let _ = writeln!(body, "own_time {}", self.own_time);
        let _ = writeln!(body, "used {}", self.used);
        let _ = writeln!(body, "overhead {}", self.overhead);
        let _ = writeln!(body, "moves {}", self.moves);
        let _ = writeln!(body, "overrun_moves {}", self.overrun.moves);
        let _ = writeln!(body, "overrun_sum {}", self.overrun.sum);
        let check = fnv1a(body.as_bytes());
        let _ = writeln!(body, "check {check:016x}");
        body
    }

    /// Parses the text form; `None` when anything is missing, malformed or
    /// fails the checksum.
    pub fn parse(text: &str) -> Option<Self> {
        let end = text.rfind("check ")?;
        let (body, check) = text.split_at(end);
        let check = u64::from_str_radix(check.strip_prefix("check ")?.strip_suffix('\n')?, 16).ok()?;
        if fnv1a(body.as_bytes()) != check {
            return None;
        }
        let mut lines = body.lines();
        if lines.next()? != PLAYDATA_FORMAT {
            return None;
        }
        let mut field = |name: &str| lines.next()?.strip_prefix(name)?.strip_prefix(' ');
        let side = parse_side(field("side")?, 0).ok()?;
        let cells = field("board")?;
        if cells.len() != Board::CELLS {
            return None;
        }
        let rows: Vec<&str> = (0..Board::N).map(|r| &cells[r * Board::N..(r + 1) * Board::N]).collect();
        let (black, white) = parse_rows::<Board>(&mut rows.into_iter(), 0).ok()?;
        let board = Position::from_discs(black, white, side.opponent(), Variant::Duo12.scoring());
        let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
        let own_time = number(field("own_time")?)?;
        let used = number(field("used")?)?;
        let overhead = number(field("overhead")?)?.min(MAX_OVERHEAD);
        let moves = field("moves")?.parse().ok()?;
        let overrun = Overrun { moves: number(field("overrun_moves")?)?, sum: number(field("overrun_sum")?)? };
        Some(PlayData { side, board, own_time, used, overhead, moves, overrun })
    }

    /// True when this playdata can belong to the game of `pos` (our move,
    /// `own_time` left): same side, no disc of the stored board has gone,
    /// and our clock has not gone up.
    pub fn fits(&self, pos: &DuoPosition, own_time: Option<f64>) -> bool {
        let occupied = pos.player() | pos.opponent();
        let stored = self.board.player() | self.board.opponent();
        self.side == pos.to_move() && (stored - occupied).is_empty() && own_time.is_none_or(|t| t <= self.own_time)
    }

    /// The overhead estimate after our last move was charged
    /// `own_time_then - own_time_now` seconds.
    pub fn updated_overhead(&self, own_time_now: f64) -> f64 {
        let sample = (self.own_time - own_time_now - self.used).clamp(0.0, MAX_OVERHEAD);
        (1.0 - OVERHEAD_BLEND) * self.overhead + OVERHEAD_BLEND * sample
    }
}

/// Reads `dir/playdata.txt` for the game of `pos`; `None` when absent,
/// corrupt or stale.
pub fn read_playdata(dir: &Path, pos: &DuoPosition, own_time: Option<f64>) -> Option<PlayData> {
    let bytes = std::fs::read(dir.join(PLAYDATA_FILE)).ok()?;
    let data = PlayData::parse(std::str::from_utf8(&bytes).ok()?)?;
    data.fits(pos, own_time).then_some(data)
}

/// The first line of `calibration.txt`.
pub const CALIBRATION_FORMAT: &str = "duo-othello calibration 1";

/// Plausible search speeds; anything outside is a corrupt file.
const NPS_RANGE: std::ops::RangeInclusive<f64> = 1e3..=1e10;

/// This machine's measured speed.
///
/// Text form: [`CALIBRATION_FORMAT`], then `nps N` (search nodes per CPU
/// second), `evals_per_second N` (pattern evaluations per CPU second) and
/// `cpu_seconds S` (what the measurement cost); unknown lines are ignored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// Search nodes per CPU second.
    pub nps: f64,
    /// Pattern evaluations per CPU second.
    pub evals_per_second: f64,
    /// CPU seconds the measurement took.
    pub cpu_seconds: f64,
}

impl Calibration {
    /// The text form.
    pub fn to_text(&self) -> String {
        format!(
            "{CALIBRATION_FORMAT}\nnps {:.0}\nevals_per_second {:.0}\ncpu_seconds {:.3}\n",
            self.nps, self.evals_per_second, self.cpu_seconds
        )
    }

    /// Parses the text form; an error names the line and what was expected.
    pub fn parse(text: &str) -> Result<Self, String> {
        let err = |line: usize, msg: String| format!("{CALIBRATION_FILE}: line {line}: {msg}");
        let mut lines = text.lines().map(str::trim);
        if lines.next() != Some(CALIBRATION_FORMAT) {
            return Err(err(1, format!("expected `{CALIBRATION_FORMAT}`")));
        }
        let (mut nps, mut evals, mut cpu) = (None, None, None);
        for (i, line) in lines.enumerate() {
            let mut words = line.split_whitespace();
            let (Some(key), Some(value)) = (words.next(), words.next()) else { continue };
            let slot = match key {
                "nps" => &mut nps,
                "evals_per_second" => &mut evals,
                "cpu_seconds" => &mut cpu,
                _ => continue,
            };
            let v: f64 = value.parse().map_err(|_| err(i + 2, format!("expected a number after `{key}`")))?;
            *slot = Some(v);
        }
        let nps = nps.ok_or_else(|| err(2, "expected `nps N`".into()))?;
        if !NPS_RANGE.contains(&nps) {
            return Err(err(2, format!("nps {nps} outside {NPS_RANGE:?}")));
        }
        Ok(Calibration { nps, evals_per_second: evals.unwrap_or(0.0), cpu_seconds: cpu.unwrap_or(0.0) })
    }
}

/// Writes `dir/calibration.txt`.
pub fn write_calibration(dir: &Path, calibration: &Calibration) -> Result<(), String> {
    write_atomically(dir, CALIBRATION_FILE, &calibration.to_text())
}

/// Reads `dir/calibration.txt`; `None` (with a note on stderr) when absent or
/// unusable.
pub fn read_calibration(dir: &Path) -> Option<Calibration> {
    let text = std::fs::read_to_string(dir.join(CALIBRATION_FILE)).ok()?;
    Calibration::parse(&text).map_err(|e| eprintln!("ignoring {e}")).ok()
}

/// Positions from random games of Duo-Othello, for measurements.
pub fn sample_positions(count: usize, seed: u64) -> Vec<DuoPosition> {
    let mut rng = engine_core::mix::SplitMix(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        engine_core::playout::random_playout(Variant::Duo12.start(), &mut rng, |pos: &DuoPosition| {
            if pos.moves().any() {
                out.push(*pos);
            }
            out.len() < count
        });
    }
    out
}

/// Measures pattern evaluations per CPU second for about `budget` seconds,
/// with the code path (portable or AVX2/BMI2) the search uses on this CPU.
pub fn measure_evals(budget: f64) -> f64 {
    let eval = PatternEval::<Board>::compiled(Variant::Duo12);
    let positions = sample_positions(1000, 1);
    let timer = CpuTimer::start();
    let (mut count, mut sink) = (0u64, 0i64);
    while timer.elapsed().as_secs_f64() < budget {
        sink = sink.wrapping_add(eval.evaluate_sum(&positions));
        count += positions.len() as u64;
    }
    std::hint::black_box(sink);
    count as f64 / timer.elapsed().as_secs_f64().max(1e-9)
}

/// Measures the engine's search speed (nodes per CPU second) for about
/// `budget` seconds, searching midgame positions a fraction of a second each.
pub fn measure_nps(budget: f64) -> Result<f64, String> {
    const PER_MOVE: f64 = 0.2;
    let config = EngineConfig { move_time: Some(PER_MOVE), ..EngineConfig::default() };
    let mut engine = reversi_engine::<Board>(Variant::Duo12, config)?;
    let positions = sample_positions(60, 2);
    let timer = CpuTimer::start();
    let mut nodes = 0u64;
    for pos in positions.iter().skip(20).cycle() {
        if timer.elapsed().as_secs_f64() >= budget - PER_MOVE {
            break;
        }
        nodes += engine.choose(pos, &Clock::UNLIMITED).nodes;
    }
    Ok(nodes as f64 / timer.elapsed().as_secs_f64().max(1e-9))
}

/// What one run of the program did, for logs and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct RunReport {
    /// The move written to `output.txt`.
    pub mv: DuoMove,
    /// The search's decision when the search ran and its move was written.
    pub search: Option<Decision<DuoMove>>,
    /// Warnings about the input.
    pub warnings: Vec<String>,
}

/// The clock the search may plan with when `own` seconds are left, a move
/// costs `per_move` seconds outside the search and the board has `empties`
/// empty cells: what is left after reserving [`RESERVE_FACTOR`] times that
/// cost for each of our remaining moves. `None` (answer at once) when that
/// is below [`TINY_TIME`].
pub fn search_clock(own: f64, per_move: f64, empties: u32) -> Option<f64> {
    let own_moves_left = (f64::from(empties) / 2.0).ceil().max(1.0);
    let clock = own - RESERVE_FACTOR * per_move * own_moves_left;
    (clock >= TINY_TIME).then_some(clock)
}

/// Plays one move in `dir` with search parameters `params`: reads `input.txt`, writes `output.txt` (first the
/// first legal move, then the one-ply move unless under [`FIRST_MOVE_TIME`]
/// is left, then the search's), then updates
/// `playdata.txt`. Errors are
/// one line naming the file; `output.txt` is written whenever the board and
/// side could be read.
pub fn play(dir: &Path, params: &ParamSettings) -> Result<RunReport, String> {
    let input_path = dir.join(INPUT_FILE);
    let bytes = std::fs::read(&input_path).map_err(|e| format!("{}: cannot read: {e}", input_path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let input = parse_input(&text)?;
    let pos = input.position;
    // A legal move on disk before anything else can go wrong.
    let first = pos.legal_moves()[0];
    write_atomically(dir, OUTPUT_FILE, &output_text(first))?;
    let own = input.own_time.unwrap_or(FALLBACK_TIME);
    let mut mv = first;
    // The moves that walk into no quick forced blockade; the one-ply move
    // is one of them, and so is the search's unless it saw deeper.
    let blockade_plies = params.over(DuoPosition::GAME_PARAMS).blockade_plies.round() as u32;
    let mut safe = Vec::new();
    if own >= FIRST_MOVE_TIME {
        let clock = Clock { own_remaining: own, opponent_remaining: input.opponent_time.unwrap_or(own) };
        let outcomes = EngineConfig::default().outcomes(&pos, &clock, &Limits::default());
        safe = safe_moves(&pos, blockade_plies, outcomes);
        let eval = PatternEval::<Board>::compiled(Variant::Duo12);
        mv = one_ply_move(&pos, &eval, &safe, outcomes);
        if mv != first {
            write_atomically(dir, OUTPUT_FILE, &output_text(mv))?;
        }
    }

    let only_move = pos.moves().count() == 1;
    let previous = read_playdata(dir, &pos, input.own_time);
    let overhead = match (&previous, input.own_time) {
        (Some(p), Some(t)) => p.updated_overhead(t),
        (Some(p), None) => p.overhead,
        _ => DEFAULT_OVERHEAD,
    };
    let mut search = None;
    let mut overrun = previous.as_ref().map_or_else(Overrun::default, |p| p.overrun);
    let per_move = overhead + process_cpu_time().as_secs_f64();
    let search_time = search_clock(own, per_move, pos.empty_count());
    if let (false, Some(own_remaining)) = (only_move, search_time) {
        let clock = Clock { own_remaining, opponent_remaining: input.opponent_time.unwrap_or(own) };
        let nps_hint = read_calibration(dir).map(|c| c.nps);
        let tt_mb = if own < SMALL_TABLE_TIME { SMALL_TABLE_MB } else { 0 };
        let config = EngineConfig { nps_hint, tt_mb, params: params.clone(), ..EngineConfig::default() };
        match reversi_engine::<Board>(Variant::Duo12, config) {
            Ok(mut engine) => {
                engine.set_overrun(overrun);
                let decision = engine.choose(&pos, &clock);
                overrun = engine.overrun();
                let saw_deeper = decision.depth.is_some_and(|d| d > blockade_plies);
                if !saw_deeper && !safe.is_empty() && !safe.contains(&decision.mv) {
                    eprintln!(
                        "search move {} walks into a quick blockade at depth {:?}; kept {mv}",
                        decision.mv, decision.depth
                    );
                } else if pos.is_legal(decision.mv) && !decision.mv.is_pass() {
                    if decision.mv != mv {
                        write_atomically(dir, OUTPUT_FILE, &output_text(decision.mv))?;
                    }
                    mv = decision.mv;
                    search = Some(decision);
                } else {
                    eprintln!("search returned illegal move {}; kept {mv}", decision.mv);
                }
            }
            Err(e) => eprintln!("engine unavailable ({e}); kept {mv}"),
        }
    }
    let after = pos.play(mv);
    let data = PlayData {
        side: pos.to_move(),
        board: after,
        own_time: own,
        used: process_cpu_time().as_secs_f64(),
        overhead,
        moves: previous.map_or(0, |p| p.moves) + 1,
        overrun,
    };
    if let Err(e) = write_atomically(dir, PLAYDATA_FILE, &data.to_text()) {
        eprintln!("{e}");
    }
    Ok(RunReport { mv, search, warnings: input.warnings })
}

#[cfg(test)]
mod tests;
