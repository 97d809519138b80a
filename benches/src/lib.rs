//! Shared inputs for the criterion benches and the `bench` binary:
//! deterministic sample positions, the fixed search suites (defined once
//! here) and the small FFO endgame subset.

use engine_core::agent::{Agent, Clock};
use engine_core::cputime::CpuTimer;
use engine_core::game::Game;
use engine_core::mix::SplitMix;
use engine_core::playout::random_playout;
use engine_core::search::{CompiledSearch, Engine, EngineConfig, Limits, Objective, SearchGame, WIN_BOUND};
use pente::{NearRandomAgent, PenteEngine, PentePosition};
use reversi::eval::Evaluator;
use reversi::ffo::{self, FfoPosition};
use reversi::{Geometry, Position, Size8, Size12, Variant};
use reversi::{ReversiEvaluator, reversi_engine};
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// The CPU time of `iters` calls of `routine`, for criterion's
/// `iter_custom`: CPU time, unlike wall time, does not grow when other jobs
/// share the machine.
pub fn cpu_time<T>(iters: u64, mut routine: impl FnMut() -> T) -> Duration {
    let timer = CpuTimer::start();
    for _ in 0..iters {
        std::hint::black_box(routine());
    }
    timer.elapsed()
}

/// Every position of random games of `variant` from its start, `games`
/// games seeded by `seed`: a spread of openings, middle games and endings.
pub fn playout_positions<G: Geometry>(variant: Variant, games: usize, seed: u64) -> Vec<Position<G>> {
    let mut rng = SplitMix(seed);
    let mut positions = Vec::new();
    for _ in 0..games {
        random_playout(variant.start(), &mut rng, |pos: &Position<G>| {
            positions.push(*pos);
            true
        });
    }
    positions
}

/// Every position of `games` Pente games between two copies of the graders'
/// near-random agent (game `g`'s seeded by `seed + 2g` and `seed + 2g + 1`),
/// cut off after `max_plies` moves: Pente games between random players are
/// long.
pub fn pente_playout_positions(games: usize, max_plies: usize, seed: u64) -> Vec<PentePosition> {
    let mut positions = Vec::new();
    for game in 0..games as u64 {
        let mut players = [NearRandomAgent::new(seed + 2 * game), NearRandomAgent::new(seed + 2 * game + 1)];
        let mut pos = PentePosition::new();
        for ply in 0..max_plies {
            if pos.is_terminal() {
                break;
            }
            positions.push(pos.clone());
            let mv = players[ply % 2].choose(&pos, &Clock::UNLIMITED).mv;
            pos = pos.result(mv);
        }
    }
    positions
}

/// Expected total nodes of the [`Suite::Othello8`] suite. When a search
/// change alters it, `cargo run --release -p benches --bin bench` prints the
/// new count: update it here in the same commit as the change, and quote the
/// old and new counts in the commit message.
pub const OTHELLO8_NODES: u64 = 131_988;
/// Expected total nodes of the [`Suite::Duo12`] suite (update as for
/// [`OTHELLO8_NODES`]).
pub const DUO12_NODES: u64 = 85_919;
/// Expected total nodes of the [`Suite::Pente`] suite (update as for
/// [`OTHELLO8_NODES`]).
pub const PENTE_NODES: u64 = 84_628;

/// Transposition table of every Reversi suite search, in MiB (cleared
/// before each position).
pub const REVERSI_TT_MB: usize = 16;
/// Transposition table of every Pente suite search, in MiB (cleared before
/// each position).
pub const PENTE_TT_MB: usize = 16;

/// Seed of the random games the Reversi suite positions come from.
const REVERSI_SUITE_SEED: u64 = 8;
/// Random games each Reversi suite samples.
const REVERSI_SUITE_GAMES: usize = 2;
/// Empty cells at which the othello8 suite samples each game.
const OTHELLO8_STAGES: [u32; 3] = [48, 38, 28];
/// Empty cells at which the duo12 suite samples each game.
const DUO12_STAGES: [u32; 3] = [120, 100, 80];
/// Seed of the random games the Pente suite positions come from.
const PENTE_SUITE_SEED: u64 = 19;
/// Random games the Pente suite samples.
const PENTE_SUITE_GAMES: usize = 3;
/// Moves played at which the Pente suite samples each game.
const PENTE_STAGES: [usize; 3] = [8, 16, 24];
/// Near-random moves that open each Pente suite game.
const PENTE_RANDOM_MOVES: usize = 4;
/// The rest of each Pente suite game is played by the search at this depth.
const PENTE_PLAYOUT_DEPTH: u32 = 2;
/// Transposition table of that play, in MiB.
const PENTE_PLAYOUT_TT_MB: usize = 1;
/// Pente suite games are given up after this many moves.
const PENTE_MAX_PLIES: usize = 60;

/// One of the fixed search suites: a few seeded positions of one game type, each
/// searched to a fixed depth from a cleared table, with no time limit, so
/// that the node count is exactly reproducible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// 8x8 Othello with the strong engine.
    Othello8,
    /// 12x12 Duo-Othello with the strong engine.
    Duo12,
    /// Pente with the same engine.
    Pente,
}

impl Suite {
    /// Every suite, in report order.
    pub const ALL: [Suite; 3] = [Suite::Othello8, Suite::Duo12, Suite::Pente];

    /// The suite's name on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Suite::Othello8 => "othello8",
            Suite::Duo12 => "duo12",
            Suite::Pente => "pente",
        }
    }

    /// The fixed search depth of every position of the suite (chosen so that
    /// the suite takes 0.3-0.7 CPU seconds on the project machine).
    pub const fn depth(self) -> u32 {
        match self {
            Suite::Othello8 => 8,
            Suite::Duo12 => 8,
            Suite::Pente => 4,
        }
    }

    /// The node count the suite must reproduce.
    pub const fn expected_nodes(self) -> u64 {
        match self {
            Suite::Othello8 => OTHELLO8_NODES,
            Suite::Duo12 => DUO12_NODES,
            Suite::Pente => PENTE_NODES,
        }
    }

    /// The name of the constant holding [`Suite::expected_nodes`].
    pub const fn nodes_constant(self) -> &'static str {
        match self {
            Suite::Othello8 => "OTHELLO8_NODES",
            Suite::Duo12 => "DUO12_NODES",
            Suite::Pente => "PENTE_NODES",
        }
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Suite {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Suite::ALL.into_iter().find(|suite| suite.name() == s).ok_or_else(|| {
            let names: Vec<_> = Suite::ALL.iter().map(|suite| suite.name()).collect();
            format!("unknown suite {s:?}: expected one of {}", names.join(", "))
        })
    }
}

/// What one run of a suite did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SuiteRun {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// CPU seconds the searches took (table clearing excluded).
    pub seconds: f64,
}

impl SuiteRun {
    /// Nodes per CPU second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    /// The CPU time as a duration (for criterion's custom timing).
    pub fn duration(&self) -> Duration {
        Duration::from_secs_f64(self.seconds)
    }
}

/// A suite set up once (positions drawn, tables allocated) and run as often
/// as asked.
pub struct SuiteRunner {
    suite: Suite,
    searches: Searches,
}

/// The per-game state of a [`SuiteRunner`].
enum Searches {
    Othello8(EngineSearches<Position<Size8>, ReversiEvaluator<Size8>>),
    Duo12(EngineSearches<Position<Size12>, ReversiEvaluator<Size12>>),
    Pente(EngineSearches<PentePosition, pente::eval::PenteEval>),
}

impl SuiteRunner {
    /// Draws the positions of `suite` and allocates its searcher.
    pub fn new(suite: Suite) -> Self {
        let searches = match suite {
            Suite::Othello8 => Searches::Othello8(reversi_searches(Variant::Othello8, &OTHELLO8_STAGES)),
            Suite::Duo12 => Searches::Duo12(reversi_searches(Variant::Duo12, &DUO12_STAGES)),
            Suite::Pente => Searches::Pente(pente_searches()),
        };
        SuiteRunner { suite, searches }
    }

    /// The suite this runs.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// Positions of the suite.
    pub fn len(&self) -> usize {
        match &self.searches {
            Searches::Othello8(s) => s.positions.len(),
            Searches::Duo12(s) => s.positions.len(),
            Searches::Pente(s) => s.positions.len(),
        }
    }

    /// True when the suite has no position (never for the fixed suites).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Searches every position of the suite to its depth from a cleared table.
    pub fn run(&mut self) -> SuiteRun {
        let depth = self.suite.depth();
        match &mut self.searches {
            Searches::Othello8(s) => s.run(depth),
            Searches::Duo12(s) => s.run(depth),
            Searches::Pente(s) => s.run(depth),
        }
    }
}

/// The first position of each random game at or below each number of
/// empties in `stages` that is not finished and offers a real choice
/// (two moves or more), `games` games seeded by `seed`.
fn staged_positions<G: Geometry>(variant: Variant, stages: &[u32], games: usize, seed: u64) -> Vec<Position<G>> {
    let mut rng = SplitMix(seed);
    let mut positions = Vec::new();
    let mut sampled_games = 0;
    while sampled_games < games {
        let mut pos: Position<G> = variant.start();
        let mut sampled = Vec::new();
        for &empties in stages {
            pos = random_playout(pos, &mut rng, |p| p.empty_count() > empties || p.legal_moves().len() < 2);
            if pos.is_terminal() {
                break;
            }
            sampled.push(pos);
        }
        // A game that ended before its last stage is replaced by the next one.
        if sampled.len() == stages.len() {
            positions.extend(sampled);
            sampled_games += 1;
        }
    }
    positions
}

/// The positions of a suite and the engine that searches them.
struct EngineSearches<G: SearchGame, E: Evaluator<G>> {
    positions: Vec<G>,
    engine: Engine<G, E>,
}

impl<G: SearchGame, E: CompiledSearch<G>> EngineSearches<G, E> {
    fn run(&mut self, depth: u32) -> SuiteRun {
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let mut run = SuiteRun::default();
        for pos in &self.positions {
            self.engine.new_game();
            let r = self.engine.search(pos, &limits);
            run.nodes += r.nodes;
            run.seconds += r.seconds;
        }
        run
    }
}

/// The positions of a Reversi suite and the engine for them.
fn reversi_searches<G: Geometry>(variant: Variant, stages: &[u32]) -> EngineSearches<Position<G>, ReversiEvaluator<G>> {
    // The disc margin, as the Edax figures it is compared with count it.
    let config = EngineConfig { tt_mb: REVERSI_TT_MB, objective: Objective::Margin, ..EngineConfig::default() };
    let engine = reversi_engine(variant, config).expect("the compiled-in weights need no file");
    EngineSearches { positions: staged_positions(variant, stages, REVERSI_SUITE_GAMES, REVERSI_SUITE_SEED), engine }
}

/// The Pente engine with a table of `tt_mb` MiB and the compiled-in weights.
fn pente_engine(tt_mb: usize) -> PenteEngine {
    pente::pente_engine(EngineConfig { tt_mb, ..EngineConfig::default() })
        .expect("the compiled-in weights need no file")
}

/// Positions of one Pente game: the first one at or after each number of
/// moves in [`PENTE_STAGES`] that a one-ply search (with its VCF probe)
/// does not find won or lost. The game opens with [`PENTE_RANDOM_MOVES`]
/// near-random moves (agents seeded by `seed` and `seed + 1`), then both
/// sides play the search at [`PENTE_PLAYOUT_DEPTH`] (random play soon
/// leaves positions that are decided at once). Fewer positions when the
/// game ends early.
fn pente_staged_positions(seed: u64) -> Vec<PentePosition> {
    let mut openers = [NearRandomAgent::new(seed), NearRandomAgent::new(seed + 1)];
    let mut engine = pente_engine(PENTE_PLAYOUT_TT_MB);
    let mut search = |pos: &PentePosition, depth| {
        engine.new_game();
        engine.search(pos, &Limits { depth: Some(depth), ..Limits::default() })
    };
    let mut pos = PentePosition::new();
    let mut sampled = Vec::new();
    for ply in 0..PENTE_MAX_PLIES {
        if pos.is_terminal() || sampled.len() == PENTE_STAGES.len() {
            break;
        }
        if ply >= PENTE_STAGES[sampled.len()] && search(&pos, 1).score.is_some_and(|s| s.abs() < WIN_BOUND) {
            sampled.push(pos.clone());
        }
        let mv = if ply < PENTE_RANDOM_MOVES {
            openers[ply % 2].choose(&pos, &Clock::UNLIMITED).mv
        } else {
            search(&pos, PENTE_PLAYOUT_DEPTH).best
        };
        pos = pos.result(mv);
    }
    sampled
}

/// The positions of the Pente suite and the engine for them.
fn pente_searches() -> EngineSearches<PentePosition, pente::eval::PenteEval> {
    let mut positions = Vec::new();
    let mut seed = PENTE_SUITE_SEED;
    while positions.len() < PENTE_SUITE_GAMES * PENTE_STAGES.len() {
        let sampled = pente_staged_positions(seed);
        seed += 2;
        if sampled.len() == PENTE_STAGES.len() {
            positions.extend(sampled);
        }
    }
    EngineSearches { positions, engine: pente_engine(PENTE_TT_MB) }
}

/// FFO positions (numbers) of the endgame bench: 16-18 empties, together
/// solved in about 0.15 CPU seconds.
pub const ENDGAME_SUBSET: [usize; 9] = [13, 14, 15, 16, 17, 18, 19, 22, 23];

/// The [`ENDGAME_SUBSET`] positions, read from the folder named by the
/// `FFO_DIR` environment variable or else the repository's `data/ffo`
/// above `start`.
pub fn endgame_positions(start: &Path) -> Result<Vec<FfoPosition>, String> {
    let dir = std::env::var_os("FFO_DIR")
        .map(Into::into)
        .or_else(|| ffo::find_suite_dir(start))
        .ok_or_else(|| format!("no {} folder above {}: set FFO_DIR", ffo::SUITE_DIR, start.display()))?;
    let suite = ffo::read_suite(&dir)?;
    let subset: Vec<_> = suite.into_iter().filter(|p| ENDGAME_SUBSET.contains(&p.number)).collect();
    if subset.len() != ENDGAME_SUBSET.len() {
        return Err(format!("{}: positions {ENDGAME_SUBSET:?} not all found", dir.display()));
    }
    Ok(subset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The "asserted once" guard: a change of search behaviour changes a
    /// count (update the constants as their doc comment says).
    #[test]
    fn suites_reproduce_their_node_counts() {
        for suite in Suite::ALL {
            let run = SuiteRunner::new(suite).run();
            assert_eq!(run.nodes, suite.expected_nodes(), "suite {suite}");
        }
    }

    #[test]
    fn suite_names_round_trip() {
        for suite in Suite::ALL {
            assert_eq!(suite.name().parse::<Suite>(), Ok(suite));
        }
        assert!("chess".parse::<Suite>().is_err());
    }

    /// The same counts on the slower code paths: the test binary runs the
    /// count test again with `ENGINE_CODE_PATH` capped (the engine picks
    /// its path once per process).
    #[test]
    fn every_code_path_reproduces_the_node_counts() {
        let exe = std::env::current_exe().expect("the test binary's path");
        for path in ["portable", "avx2"] {
            let out = std::process::Command::new(&exe)
                .args(["--exact", "tests::suites_reproduce_their_node_counts", "--test-threads", "1"])
                .env(engine_core::CODE_PATH_VARIABLE, path)
                .output()
                .expect("the test binary runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "code path {path}:\n{stdout}{}", String::from_utf8_lossy(&out.stderr));
            assert!(stdout.contains("1 passed"), "code path {path} ran no test:\n{stdout}");
        }
    }

    #[test]
    fn suites_sample_positions_with_a_choice_at_each_stage() {
        assert_eq!(SuiteRunner::new(Suite::Othello8).len(), REVERSI_SUITE_GAMES * OTHELLO8_STAGES.len());
        assert_eq!(SuiteRunner::new(Suite::Duo12).len(), REVERSI_SUITE_GAMES * DUO12_STAGES.len());
        assert_eq!(SuiteRunner::new(Suite::Pente).len(), PENTE_SUITE_GAMES * PENTE_STAGES.len());
        let positions = staged_positions::<Size8>(Variant::Othello8, &OTHELLO8_STAGES, 2, REVERSI_SUITE_SEED);
        for (pos, &empties) in positions.iter().zip(OTHELLO8_STAGES.iter().cycle()) {
            assert!(pos.empty_count() <= empties && pos.legal_moves().len() >= 2);
        }
        let positions = staged_positions::<Size12>(Variant::Duo12, &DUO12_STAGES, 2, REVERSI_SUITE_SEED);
        for (pos, &empties) in positions.iter().zip(DUO12_STAGES.iter().cycle()) {
            assert!(pos.empty_count() <= empties && pos.legal_moves().len() >= 2);
        }
    }
}
