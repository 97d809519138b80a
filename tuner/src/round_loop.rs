//! `tuner loop`: the overnight research loop as one resumable command.
//!
//! Each round, in its folder `round-NNN` of the loop's folder:
//! 1. `selfplay/`: the current best weights play themselves at a node or
//!    depth budget per move (a selfplay run, resumed game by game); with a
//!    label depth, `labelled.csv`: its positions scored by a deeper search
//!    (`tuner label`);
//! 2. `tune/`: Adam from the current best on the positions of the last
//!    `window` rounds (the code path of `tuner tune`);
//! 3. `verify/chunk-CCC/`: the fitted weights against the current best at
//!    the same budget, colour-swapped pairs from random openings, chunk
//!    after chunk until the SPRT on the pairs decides or the game cap is
//!    reached;
//! 4. the decision: the round's row goes to `ladder.csv` and, when the
//!    new weights are accepted, they become the current best (`best.txt`).
//!
//! A step is done when its marker (`selfplay.json`, `label.json`,
//! `tune.json`, `verify.json`, `row.csv`) exists; markers and weights are written
//! through a temporary file and a rename, so a rerun after a kill redoes at
//! most the step that was cut short. Everything that decides (games,
//! openings, the fit, the SPRT at chunk ends) is fixed by the settings and
//! the seed, never by the clock: a killed and rerun loop writes the same
//! ladder as an uninterrupted one, but for its CPU-second columns.

use crate::dataset::Rows;
use crate::game::{LabelRequest, TuningGame};
use crate::gradient::GradientOptions;
use crate::ladder::{self, LADDER_FILE, LadderRow};
use crate::matches::{self, MatchPlan, MatchTally, MoveBudget};
use crate::run::{self, Model, Target, weight_set};
use engine_core::cputime::process_cpu_time;
use engine_core::mix::splitmix64;
use engine_core::weights::{WeightKind, WeightSet};
use indicatif::{ProgressBar, ProgressStyle};
use selfplay::record::{self, FolderLock};
use selfplay::report::LiveReport;
use selfplay::run::RunOptions;
use selfplay::stats::{Sprt, Verdict};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The loop's settings file in its folder.
pub const SETTINGS_FILE: &str = selfplay::report::LOOP_FILE;
/// The starting weights (round 0), copied into the loop's folder.
pub const START_FILE: &str = "start.txt";
/// A copy of the current best weights.
pub const BEST_FILE: &str = "best.txt";
/// Markers of a round's finished steps (see the module doc).
const SELFPLAY_MARKER: &str = "selfplay.json";
/// See [`SELFPLAY_MARKER`].
const LABEL_MARKER: &str = "label.json";
/// See [`SELFPLAY_MARKER`].
const TUNE_MARKER: &str = "tune.json";
/// See [`SELFPLAY_MARKER`].
const VERIFY_MARKER: &str = "verify.json";
/// The marker of a finished round: its ladder row.
const ROW_MARKER: &str = "row.csv";
/// A round's relabelled positions (with a label depth).
pub const LABELLED_FILE: &str = "labelled.csv";
/// The fitted weights in a round's `tune/` folder.
pub const TUNED_FILE: &str = "weights.txt";

/// What decides the loop's ladder: a rerun on the same folder must give
/// the same settings (the rounds, hours and threads may change).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopSettings {
    /// Variant: the name of the game's weight set (a Reversi variant,
    /// pente, ..).
    pub variant: String,
    /// Seed of every game's opening and random choice.
    pub seed: u64,
    /// The weights of round 0 (`None`: the compiled-in weights).
    pub start: Option<PathBuf>,
    /// Self-play games per round (even).
    pub games: u64,
    /// Search budget per move, in self-play and verification alike.
    pub budget: MoveBudget,
    /// Transposition table of each engine in MiB (0: the engine's default).
    pub tt_mb: usize,
    /// Random plies before each pair's opening.
    pub random_plies: u32,
    /// Rounds whose positions a fit sees (this one and the ones before).
    pub window: u32,
    /// Relabel each round's positions with a search of this depth (the
    /// current best's weights; `tuner label`) and fit the window's labels
    /// (Reversi; the target must read them: `label` or `score=K`).
    pub label_depth: Option<u32>,
    /// Training target, as `tuner tune --target` takes it.
    pub target: String,
    /// One game pair in this many validates.
    pub validation_every: u64,
    /// The Adam fit's settings.
    pub adam: GradientOptions,
    /// Verification games at most (even).
    pub verify_games: u64,
    /// Verification games between two looks at the SPRT (even).
    pub verify_chunk: u64,
    /// The SPRT of the verification (Elo of the new weights).
    pub sprt: Sprt,
}

/// A run of the loop.
#[derive(Clone, Debug)]
pub struct LoopOptions {
    /// The loop's folder.
    pub out: PathBuf,
    /// What decides the ladder.
    pub settings: LoopSettings,
    /// Stop once this many rounds are in the ladder.
    pub rounds: Option<u32>,
    /// Start no round after this many hours of this session.
    pub hours: Option<f64>,
    /// Games played at once.
    pub threads: usize,
    /// Write the final best weights as the compiled-in binary file here.
    pub write_compiled: Option<PathBuf>,
    /// Show nothing (tests).
    pub quiet: bool,
    /// Stop after this many steps of this session, as a kill would (tests).
    pub stop_after_steps: Option<u32>,
    /// Rewrite the loop's `report.html` as it goes (`--report`).
    pub report: bool,
    /// Where the matches' games are played.
    pub executor: selfplay::cluster::Executor,
}

/// How a run of the loop ended.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopReport {
    /// Rounds in the ladder.
    pub rounds: u32,
    /// The current best weights.
    pub best: PathBuf,
    /// Sum of the accepted rounds' Elo.
    pub cumulative_elo: f64,
    /// True when [`LoopOptions::stop_after_steps`] stopped it.
    pub stopped: bool,
}

/// Marker of a finished self-play step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SelfplayDone {
    games: u64,
    positions: u64,
    cpu_seconds: f64,
}

/// Marker of a finished relabelling (all zeros without one).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct LabelDone {
    positions: u64,
    cpu_seconds: f64,
}

/// Marker of a finished fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TuneDone {
    k: f64,
    train_positions: u64,
    validation_positions: u64,
    best_epoch: usize,
    start_validation_loss: f64,
    train_loss: f64,
    validation_loss: f64,
    cpu_seconds: f64,
}

/// Marker of a finished verification.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct VerifyDone {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    pairs: [u64; 5],
    llr: f64,
    /// `H1`, `H0`, `cap` (the game cap came first) or `same` (the fit
    /// returned the current best's weights: no game to play).
    verdict: String,
    cpu_seconds: f64,
}

/// The verdict text of a verification the game cap ended.
const CAP_VERDICT: &str = "cap";
/// The verdict text of a fit that returned the current best's weights.
const SAME_VERDICT: &str = "same";
/// Seed streams of a round's steps.
const SELFPLAY_STREAM: u64 = 1;
/// See [`SELFPLAY_STREAM`]; chunk `c` of the verification adds `c`.
const VERIFY_STREAM: u64 = 1 << 32;
/// Decimals of the ladder's losses and K.
const LOSS_DECIMALS: i32 = 6;
/// Decimals of its Elo columns and LLR.
const ELO_DECIMALS: i32 = 2;
/// Decimals of its CPU seconds.
const CPU_DECIMALS: i32 = 2;
/// Seconds in an hour.
const SECONDS_PER_HOUR: f64 = 3600.0;

/// The seed of `stream` in `round` under the loop's `seed`.
fn step_seed(seed: u64, round: u32, stream: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(seed) ^ u64::from(round)) ^ stream)
}

fn round_dir(out: &Path, round: u32) -> PathBuf {
    out.join(format!("round-{round:03}"))
}

/// The one progress display of the loop: a bar on a terminal, a line per
/// step otherwise, nothing when quiet; and the live report, if asked for.
struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    report: Option<RefCell<LiveReport>>,
}

impl Progress {
    fn new(quiet: bool, report: Option<LiveReport>) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} {prefix} [{bar:25}] {pos}/{len} | {msg}")
                    .expect("the template is valid")
                    .progress_chars("=> "),
            );
            bar
        });
        Progress { bar, quiet, report: report.map(RefCell::new) }
    }

    /// Shows the match folder `folder` on the live report beside the
    /// ladder, in place of the round's match shown before.
    fn follow(&self, folder: &Path) {
        if let Some(report) = &self.report {
            report.borrow_mut().follow(folder);
        }
    }

    /// Rewrites the live report when it is due.
    fn tick(&self) {
        if let Some(report) = &self.report {
            report.borrow_mut().tick();
        }
    }

    /// A new step: `round R <step>`, `len` units.
    fn step(&self, round: u32, step: &str, len: u64) {
        if let Some(bar) = &self.bar {
            bar.set_prefix(format!("round {round} {step}"));
            bar.set_length(len);
            bar.set_position(0);
            bar.set_message("");
        }
    }

    fn update(&self, pos: u64, len: u64, message: &str) {
        self.tick();
        if let Some(bar) = &self.bar {
            bar.set_length(len);
            bar.set_position(pos);
            bar.set_message(message.to_string());
        }
    }

    fn line(&self, text: &str) {
        self.tick();
        match &self.bar {
            Some(bar) => bar.println(text),
            None if !self.quiet => eprintln!("{text}"),
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(report) = &self.report {
            report.borrow_mut().write_now();
        }
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The loop's state between rounds.
struct State {
    rows: Vec<LadderRow>,
    /// The current best weights, relative to the folder.
    best: String,
    cumulative_elo: f64,
}

impl State {
    fn from_rows(rows: Vec<LadderRow>) -> Self {
        let best = rows.last().map_or_else(|| START_FILE.to_string(), |r| r.weights.clone());
        let cumulative_elo = rows.last().map_or(0.0, |r| r.cumulative_elo);
        State { rows, best, cumulative_elo }
    }
}

/// Runs (or resumes) the loop of `game` in `options.out`.
pub fn run_loop<G: TuningGame>(game: &G, options: &LoopOptions) -> Result<LoopReport, String> {
    let settings = &options.settings;
    let variant: G::Key = settings.variant.parse()?;
    let target: Target = settings.target.parse()?;
    for (name, games) in [("games", settings.games), ("verify games", settings.verify_games)] {
        if games == 0 || !games.is_multiple_of(2) {
            return Err(format!("{name} {games}: expected a positive even number (colour-swapped pairs)"));
        }
    }
    if settings.verify_chunk == 0 || !settings.verify_chunk.is_multiple_of(2) {
        return Err(format!("verify chunk {}: expected a positive even number", settings.verify_chunk));
    }
    if settings.label_depth.is_some() {
        if !game.can_label(variant) {
            return Err(format!("label depth: {variant} has no reference search to label with"));
        }
        if !matches!(target, Target::Label | Target::Score(_)) {
            return Err(format!("label depth with target `{}`: expected label or score=K", settings.target));
        }
    }
    if settings.window == 0 {
        return Err("window 0: expected at least one round".into());
    }
    let out = &options.out;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: cannot create: {e}", out.display()))?;
    let _lock = FolderLock::acquire(out)?;
    run::check_or_write_settings(&out.join(SETTINGS_FILE), settings, "a loop")?;
    let start_path = out.join(START_FILE);
    if !start_path.exists() {
        let start = match &settings.start {
            Some(path) => WeightSet::<G::Key>::load_filling(path)?.0,
            None => WeightSet::compiled(variant),
        };
        if start.key != variant {
            return Err(format!("start weights are for {}, expected {variant}", start.key));
        }
        run::save_atomically(&start_path, &start)?;
    }
    let mut state = State::from_rows(finished_rounds(out)?);
    reconcile_ladder(out, &state.rows)?;
    write_best::<G::Key>(out, &state.best)?;

    let progress = Progress::new(options.quiet, options.report.then(|| LiveReport::of(out)));
    let session = Instant::now();
    let mut steps = 0u32;
    let mut step_done = || {
        steps += 1;
        options.stop_after_steps.is_some_and(|limit| steps >= limit)
    };
    let report = |state: &State, stopped: bool| LoopReport {
        rounds: state.rows.len() as u32,
        best: out.join(&state.best),
        cumulative_elo: state.cumulative_elo,
        stopped,
    };
    loop {
        let round = state.rows.len() as u32 + 1;
        if options.rounds.is_some_and(|n| round > n)
            || options.hours.is_some_and(|h| session.elapsed().as_secs_f64() >= h * SECONDS_PER_HOUR)
        {
            break;
        }
        let dir = round_dir(out, round);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
        let best = out.join(&state.best);
        let context = Step { game, variant, settings, options, progress: &progress, round, dir: &dir };

        let stopped = 'round: {
            let marker = |name: &str| dir.join(name);
            let Some(selfplay) = resume_or_run(&marker(SELFPLAY_MARKER), &mut step_done, || context.selfplay(&best))?
            else {
                break 'round true;
            };
            let label = match settings.label_depth {
                None => LabelDone::default(),
                Some(depth) => {
                    let run = || context.label(&best, depth);
                    let Some(done) = resume_or_run(&marker(LABEL_MARKER), &mut step_done, run)? else {
                        break 'round true;
                    };
                    done
                }
            };
            let Some(tune) = resume_or_run(&marker(TUNE_MARKER), &mut step_done, || context.tune(&best, target))?
            else {
                break 'round true;
            };
            let tuned = dir.join("tune").join(TUNED_FILE);
            let Some(verify) = resume_or_run(&marker(VERIFY_MARKER), &mut step_done, || context.verify(&tuned, &best))?
            else {
                break 'round true;
            };
            let row = decide(round, &state, (&selfplay, &label, &tune, &verify), out, &tuned);
            ladder::append(&out.join(LADDER_FILE), &row)?;
            run::write_atomically(&marker(ROW_MARKER), ladder::to_csv(std::slice::from_ref(&row))?)?;
            progress.line(&row_line(&row));
            state.best = row.weights.clone();
            state.cumulative_elo = row.cumulative_elo;
            state.rows.push(row);
            write_best::<G::Key>(out, &state.best)?;
            step_done()
        };
        if stopped {
            progress.finish();
            return Ok(report(&state, true));
        }
    }
    progress.finish();
    if let Some(path) = &options.write_compiled {
        let set = WeightSet::<G::Key>::load(&out.join(&state.best))?;
        let notes = vec![format!(
            "tuner loop {}: {} rounds, cumulative Elo {:+.1}, weights {}",
            out.display(),
            state.rows.len(),
            state.cumulative_elo,
            state.best
        )];
        run::write_compiled(path, &set, &notes)?;
    }
    Ok(report(&state, false))
}

/// A step of a round: its result read from its `marker` when the step is
/// done, else run and then marked. `None` when the session must stop after
/// it (`stop_after` says so: the kill of the tests).
fn resume_or_run<T: Serialize + for<'de> Deserialize<'de>>(
    marker: &Path,
    stop_after: &mut impl FnMut() -> bool,
    run: impl FnOnce() -> Result<T, String>,
) -> Result<Option<T>, String> {
    if let Some(done) = run::read_json(marker)? {
        return Ok(Some(done));
    }
    let done = run()?;
    run::write_json(marker, &done)?;
    Ok((!stop_after()).then_some(done))
}

/// The rows of the rounds whose `row.csv` exists, from round 1 on.
fn finished_rounds(out: &Path) -> Result<Vec<LadderRow>, String> {
    let mut rows = Vec::new();
    loop {
        let path = round_dir(out, rows.len() as u32 + 1).join(ROW_MARKER);
        if !path.exists() {
            return Ok(rows);
        }
        let mut read = ladder::read(&path)?;
        if read.len() != 1 {
            return Err(format!("{}: expected one ladder row", path.display()));
        }
        rows.push(read.remove(0));
    }
}

/// Makes `ladder.csv` hold exactly the finished rounds' rows (a kill may
/// have left a row of an unfinished round or half a row).
fn reconcile_ladder(out: &Path, rows: &[LadderRow]) -> Result<(), String> {
    let path = out.join(LADDER_FILE);
    let text = ladder::to_csv(rows)?;
    if path.exists() && std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
        return Ok(());
    }
    if rows.is_empty() && !path.exists() {
        return Ok(());
    }
    run::write_atomically(&path, text)
}

fn write_best<K: WeightKind>(out: &Path, best: &str) -> Result<(), String> {
    let set = WeightSet::<K>::load(&out.join(best))?;
    run::save_atomically(&out.join(BEST_FILE), &set)
}

/// The markers of a round's steps.
type Steps<'a> = (&'a SelfplayDone, &'a LabelDone, &'a TuneDone, &'a VerifyDone);

/// The decision and the ladder row of a round whose steps are done.
fn decide(round: u32, state: &State, steps: Steps<'_>, out: &Path, tuned: &Path) -> LadderRow {
    let (selfplay, label, tune, verify) = steps;
    let pairs = selfplay::stats::Pentanomial(verify.pairs);
    let (elo, error) = pairs.elo().map_or((0.0, 0.0), |e| (e.elo, e.error));
    // A round that won every pair has Elo `inf`: the sum counts each round
    // with the SPRT's prior of two even pairs, finite whatever the score.
    let counted = ladder::rounded(pairs.elo_with_prior(), ELO_DECIMALS);
    let accepted = verify.verdict == "H1" || (verify.verdict == CAP_VERDICT && verify.llr > 0.0);
    let weights = if accepted {
        tuned.strip_prefix(out).unwrap_or(tuned).to_string_lossy().into_owned()
    } else {
        state.best.clone()
    };
    let elo = ladder::rounded(elo, ELO_DECIMALS);
    LadderRow {
        round,
        games: selfplay.games,
        positions: selfplay.positions,
        train_positions: tune.train_positions,
        k: ladder::rounded(tune.k, LOSS_DECIMALS + 2),
        train_loss: ladder::rounded(tune.train_loss, LOSS_DECIMALS),
        validation_loss: ladder::rounded(tune.validation_loss, LOSS_DECIMALS),
        verify_games: verify.games,
        wins: verify.wins,
        draws: verify.draws,
        losses: verify.losses,
        elo,
        elo_error: ladder::rounded(error, ELO_DECIMALS),
        llr: ladder::rounded(verify.llr, ELO_DECIMALS),
        accepted,
        cumulative_elo: ladder::rounded(state.cumulative_elo + if accepted { counted } else { 0.0 }, ELO_DECIMALS),
        weights,
        selfplay_cpu: ladder::rounded(selfplay.cpu_seconds, CPU_DECIMALS),
        label_cpu: ladder::rounded(label.cpu_seconds, CPU_DECIMALS),
        tune_cpu: ladder::rounded(tune.cpu_seconds, CPU_DECIMALS),
        verify_cpu: ladder::rounded(verify.cpu_seconds, CPU_DECIMALS),
    }
}

/// The line a finished round prints.
fn row_line(r: &LadderRow) -> String {
    format!(
        "round {}: {} games, {} positions; validation loss {:.6}; W-D-L {}-{}-{}, {}, LLR {:.2}: {}; cumulative Elo {:+.1}",
        r.round,
        r.games,
        r.positions,
        r.validation_loss,
        r.wins,
        r.draws,
        r.losses,
        selfplay::stats::elo_text(r.elo, r.elo_error),
        r.llr,
        if r.accepted { "accepted" } else { "rejected" },
        r.cumulative_elo
    )
}

/// What every step of a round needs.
struct Step<'a, G: TuningGame> {
    game: &'a G,
    variant: G::Key,
    settings: &'a LoopSettings,
    options: &'a LoopOptions,
    progress: &'a Progress,
    round: u32,
    dir: &'a Path,
}

impl<G: TuningGame> Step<'_, G> {
    fn run_options(&self, out: PathBuf) -> RunOptions {
        RunOptions {
            out,
            threads: self.options.threads,
            sprt: None,
            command: std::env::args().collect(),
            quiet: true,
            executor: self.options.executor.clone(),
        }
    }

    /// The loop's way of playing `games` games from the openings of `seed`.
    fn plan(&self, games: u64, seed: u64) -> MatchPlan {
        let s = self.settings;
        MatchPlan { budget: s.budget, tt_mb: s.tt_mb, games, random_plies: s.random_plies, seed }
    }

    /// Plays `job` into `out`; an interrupted run is an error (rerun to continue).
    fn play(&self, job: &selfplay::job::Job, out: PathBuf, before: u64, total: u64, extra: &str) -> Result<(), String> {
        self.progress.follow(&out);
        let summary = matches::play(self.game, self.variant, job, &self.run_options(out), |games, _, status| {
            self.progress.update(before + games, total, &format!("{status}{extra}"));
        })?;
        if summary.stopped_early {
            return Err("interrupted: rerun the same command to continue".into());
        }
        Ok(())
    }

    /// Step 1: the current best plays itself.
    fn selfplay(&self, best: &Path) -> Result<SelfplayDone, String> {
        let s = self.settings;
        self.progress.step(self.round, "self-play", s.games);
        let seed = step_seed(s.seed, self.round, SELFPLAY_STREAM);
        let job = matches::match_job(self.variant, best, best, &self.plan(s.games, seed));
        let folder = self.dir.join("selfplay");
        self.play(&job, folder.clone(), 0, s.games, "")?;
        let tally = MatchTally::of_folder(&folder)?;
        let mut positions = 0u64;
        record::read_positions(&folder.join(record::POSITIONS_FILE), |_| {
            positions += 1;
            Ok(())
        })?;
        Ok(SelfplayDone { games: tally.wdl.games(), positions, cpu_seconds: tally.cpu_seconds })
    }

    /// Step 1b (with a label depth): the round's positions scored by a
    /// search of `depth` with the current best's weights.
    fn label(&self, best: &Path, depth: u32) -> Result<LabelDone, String> {
        self.progress.step(self.round, "label", 0);
        let input = self.dir.join("selfplay").join(record::POSITIONS_FILE);
        let cpu = process_cpu_time();
        let out = self.dir.join(LABELLED_FILE);
        let request = LabelRequest { input: &input, out: &out, depth, weights: best, threads: self.options.threads };
        let mut progress =
            |done: usize, total: usize| self.progress.update(done as u64, total as u64, "positions labelled");
        let selected = self.game.label(self.variant, &request, &mut progress)?;
        Ok(LabelDone { positions: selected as u64, cpu_seconds: (process_cpu_time() - cpu).as_secs_f64() })
    }

    /// Step 2: Adam from the current best on the window's positions.
    fn tune(&self, best: &Path, target: Target) -> Result<TuneDone, String> {
        let (s, round) = (self.settings, self.round);
        let first = round.saturating_sub(s.window - 1).max(1);
        let data = |r: u32| {
            let dir = round_dir(&self.options.out, r);
            if s.label_depth.is_some() {
                dir.join(LABELLED_FILE)
            } else {
                dir.join("selfplay").join(record::POSITIONS_FILE)
            }
        };
        let files: Vec<PathBuf> = (first..=round).map(data).collect();
        let start = WeightSet::<G::Key>::load(best)?;
        let cpu = process_cpu_time();
        let done = self.fit(&*self.game.model(start), &files, target)?;
        Ok(TuneDone { cpu_seconds: (process_cpu_time() - cpu).as_secs_f64(), ..done })
    }

    fn fit(&self, model: &dyn Model, files: &[PathBuf], target: Target) -> Result<TuneDone, String> {
        let s = self.settings;
        self.progress.step(self.round, "tune", s.adam.epochs as u64);
        match model.packer() {
            Some(packer) => {
                let (train, validation) = run::load_split_packed(files, model, packer, target, s.validation_every)?;
                self.fit_rows(model, target, &train, &validation)
            }
            None => {
                let (train, validation) = run::load_split(files, model, target, s.validation_every)?;
                self.fit_rows(model, target, &train, &validation)
            }
        }
    }

    fn fit_rows<R: Rows>(
        &self,
        model: &dyn Model,
        target: Target,
        train: &R,
        validation: &R,
    ) -> Result<TuneDone, String> {
        let s = self.settings;
        let folder = self.dir.join("tune");
        std::fs::create_dir_all(&folder).map_err(|e| format!("{}: cannot create: {e}", folder.display()))?;
        let start = model.weights();
        run::save_atomically(&folder.join(run::START_NAME), &weight_set(self.variant, &start))?;
        let k = run::scale_k(train, &start, target.fixed_k());
        let bounds = model.bounds();
        let log_path = folder.join(run::LOG_NAME);
        let input = run::FitInput { train, validation, bounds: &bounds, start: &start, k };
        let done = run::adam(&input, &s.adam, &log_path, |row| {
            let message = format!("train {:.6}, validation {:.6}", row.train_loss, row.validation_loss);
            self.progress.update(row.pass as u64, s.adam.epochs as u64, &message);
        })?;
        run::save_atomically(&folder.join(TUNED_FILE), &weight_set(self.variant, &done.fit.weights))?;
        let best = run::best_row(&done.fit.log);
        Ok(TuneDone {
            k,
            train_positions: train.len() as u64,
            validation_positions: validation.len() as u64,
            best_epoch: done.fit.best_epoch,
            start_validation_loss: done.fit.log[0].validation_loss,
            train_loss: best.train_loss,
            validation_loss: best.validation_loss,
            cpu_seconds: 0.0,
        })
    }

    /// Step 3: the fitted weights against the current best, chunk after
    /// chunk, until the SPRT decides or the cap is reached.
    fn verify(&self, tuned: &Path, best: &Path) -> Result<VerifyDone, String> {
        let s = self.settings;
        if WeightSet::<G::Key>::load(tuned)? == WeightSet::<G::Key>::load(best)? {
            // Identical engines: every pair would split and say nothing.
            let verdict = SAME_VERDICT.to_string();
            return Ok(VerifyDone {
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                pairs: [0; 5],
                llr: 0.0,
                verdict,
                cpu_seconds: 0.0,
            });
        }
        self.progress.step(self.round, "verify", s.verify_games);
        let mut tally = MatchTally::default();
        let mut chunk = 0u64;
        loop {
            let games = s.verify_chunk.min(s.verify_games - tally.wdl.games());
            let seed = step_seed(s.seed, self.round, VERIFY_STREAM + chunk);
            let job = matches::match_job(self.variant, tuned, best, &self.plan(games, seed));
            let folder = self.dir.join("verify").join(format!("chunk-{chunk:03}"));
            let llr = s.sprt.llr(&tally.pairs);
            self.play(&job, folder.clone(), tally.wdl.games(), s.verify_games, &format!(" | LLR so far {llr:.2}"))?;
            let mut games_of_chunk = record::games_in(&folder)?;
            if games_of_chunk.len() as u64 != games {
                return Err(format!("{}: expected {games} games", folder.display()));
            }
            // Pairs are numbered within a chunk: keep them apart.
            for g in &mut games_of_chunk {
                g.game += chunk * s.verify_chunk;
            }
            tally.add_games(&games_of_chunk);
            chunk += 1;
            let verdict = match s.sprt.verdict(&tally.pairs) {
                Verdict::H1 => "H1",
                Verdict::H0 => "H0",
                Verdict::Continue if tally.wdl.games() >= s.verify_games => CAP_VERDICT,
                Verdict::Continue => continue,
            };
            let w = tally.wdl;
            return Ok(VerifyDone {
                games: w.games(),
                wins: w.wins,
                draws: w.draws,
                losses: w.losses,
                pairs: tally.pairs.0,
                llr: s.sprt.llr(&tally.pairs),
                verdict: verdict.to_string(),
                cpu_seconds: tally.cpu_seconds,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_seeds_differ_by_round_and_stream() {
        let a = step_seed(1, 1, SELFPLAY_STREAM);
        assert_eq!(a, step_seed(1, 1, SELFPLAY_STREAM));
        assert_ne!(a, step_seed(1, 2, SELFPLAY_STREAM));
        assert_ne!(a, step_seed(2, 1, SELFPLAY_STREAM));
        assert_ne!(step_seed(1, 1, VERIFY_STREAM), step_seed(1, 1, VERIFY_STREAM + 1));
    }
}
