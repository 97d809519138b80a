//! The `tuner` program's commands for any game, each generic over the
//! game's [`TuningGame`]: `tune`, `verify`, `loop` and `convert`, and `spsa`
//! for any game's registry entry (the
//! program itself, which picks the game by `--variant`, is the
//! workbench's).

use crate::dataset::{Dataset, Rows};
use crate::game::TuningGame;
use crate::gradient::GradientOptions;
use crate::local_search::{Bounds, LocalSearch, PassLog};
use crate::matches::{self, MatchPlan, MoveBudget};
use crate::round_loop::{self, LoopOptions, LoopSettings};
use crate::run::{self, Model, Target, weight_set};
use engine_core::weights::{WeightKind, WeightSet, binary_notes, is_binary};
use selfplay::job::{Job, Schedule};
use selfplay::record::FolderLock;
use selfplay::report::LiveReport;
use selfplay::run::RunOptions;
use selfplay::stats::Sprt;
use std::path::{Path, PathBuf};

/// `tuner convert`'s arguments.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The weights file to read: the text form (of this layout or an older
    /// one) or the binary form (of this layout).
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The file to write: the binary form when it ends in `.bin`, else text.
    #[arg(long, value_name = "FILE")]
    to: PathBuf,
    /// A line for a binary file's header (repeat).
    #[arg(long)]
    note: Vec<String>,
}

/// `tuner loop`'s arguments.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("length").required(true).args(["rounds", "hours"]))]
pub struct LoopArgs {
    /// Variant whose evaluation is tuned (a Reversi variant or pente).
    #[arg(long)]
    pub variant: String,
    /// The loop's folder: rounds, ladder.csv, best.txt (one loop at a time).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Stop once the ladder has this many rounds.
    #[arg(long)]
    rounds: Option<u32>,
    /// Start no round after this many hours (of this run).
    #[arg(long)]
    hours: Option<f64>,
    /// Weights of round 0 (default: compiled in).
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Self-play games per round (even).
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Search nodes per move, in self-play and verification.
    #[arg(long, default_value_t = 20_000, conflicts_with = "depth")]
    nodes: u64,
    /// Search to this depth per move instead of a node budget.
    #[arg(long)]
    depth: Option<u32>,
    /// Transposition table of each engine in MiB (default: the engine's).
    #[arg(long, value_name = "MIB", default_value_t = 0)]
    tt: usize,
    /// Random plies before each pair's opening.
    #[arg(long, default_value_t = 10)]
    random_plies: u32,
    /// Rounds of positions a fit sees (this round's and those before).
    #[arg(long, default_value_t = 3)]
    window: u32,
    /// Relabel each round's positions with a search of this depth using
    /// the current best weights (`tuner label`; Reversi) and fit the labels
    /// (with --target label or score=K).
    #[arg(long, value_name = "D")]
    label_depth: Option<u32>,
    /// Training target, as for `tune`: result, discs, label, blend=L (L
    /// times the result plus 1 - L times the final disc difference) or
    /// score=K.
    #[arg(long, default_value = "discs")]
    target: String,
    /// The target blend=L: L times the game result plus 1 - L times the
    /// final disc difference (a search-score target is --target label on
    /// relabelled data; the loop does not relabel).
    #[arg(long, conflicts_with = "target")]
    lambda: Option<f64>,
    /// One game pair in N validates.
    #[arg(long, default_value_t = 10)]
    validation_every: u64,
    #[command(flatten)]
    adam: AdamArgs,
    /// Verification games at most (even).
    #[arg(long, default_value_t = 400)]
    verify_games: u64,
    /// Verification games between two looks at the SPRT (even).
    #[arg(long, default_value_t = 20)]
    verify_chunk: u64,
    /// The verification's SPRT: elo0,elo1[,alpha,beta].
    #[arg(long, default_value = "0,20", value_parser = Sprt::parse)]
    sprt: Sprt,
    /// Seed of the openings and of everything random.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// At the end, write the best weights as the engine's compiled-in file
    /// (games/reversi/weights/VARIANT.bin, or --compiled).
    #[arg(long)]
    write_compiled: bool,
    /// Where --write-compiled writes.
    #[arg(long, value_name = "PATH", requires = "write_compiled")]
    compiled: Option<PathBuf>,
    /// Rewrite OUT/report.html as the loop goes (the ladder, its Elo),
    /// for a browser left open on it.
    #[arg(long)]
    report: bool,
    /// Where the games are played (this machine or a Slurm cluster).
    #[command(flatten)]
    executor: selfplay::cluster::ExecutorArgs,
}

/// `tuner verify`'s arguments.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Variant to play (a Reversi variant or pente).
    #[arg(long)]
    pub variant: String,
    /// A tuning folder: its weights.txt meets its start.txt (unless --new /
    /// --old say otherwise).
    #[arg(long, value_name = "DIR")]
    tuned: Option<PathBuf>,
    /// The new weights file.
    #[arg(long, value_name = "FILE", required_unless_present = "tuned")]
    new: Option<PathBuf>,
    /// The old weights file.
    #[arg(long, value_name = "FILE", required_unless_present = "tuned")]
    old: Option<PathBuf>,
    /// Games (an even number: colour-swapped pairs).
    #[arg(long, default_value_t = 400)]
    games: u64,
    /// Search depth of both engines.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Random plies before each pair's opening.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Output folder of the match (resumable).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Where the games are played (this machine or a Slurm cluster).
    #[command(flatten)]
    executor: selfplay::cluster::ExecutorArgs,
}

/// `tune`'s arguments.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// Variant whose evaluation is tuned (a Reversi variant or pente).
    #[arg(long)]
    pub variant: String,
    /// positions.csv files, or self-play output folders holding one.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Folder for the checkpoint, tune_log.csv and the tuned weights.txt.
    #[arg(long)]
    out: PathBuf,
    /// Start from this weights file instead of the compiled-in weights (a
    /// file of an older layout works: tables it lacks start at 0).
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Use this K instead of fitting it to the starting weights.
    #[arg(long)]
    k: Option<f64>,
    /// Training target: result, discs (final disc difference), label (the
    /// `tuner label` column where a file has one, else discs), blend=L, or
    /// score=K (the label through the fit's logistic with K, which fixes
    /// the fit's K: a perfect fit evaluates each position at its label).
    #[arg(long, default_value = "result")]
    target: Target,
    /// One game in N goes to the validation set.
    #[arg(long, default_value_t = 10)]
    validation_every: u64,
    /// Stop after this many passes without validation improvement.
    #[arg(long, default_value_t = 2)]
    patience: usize,
    /// Stop after this many passes in any case.
    #[arg(long, default_value_t = 100)]
    max_passes: usize,
    /// Continue the run saved in --out (local search only).
    #[arg(long)]
    resume: bool,
    /// Optimiser: `adam` (full-batch gradient with an L2 penalty: fits
    /// large pattern tables) or `local` (Texel local search, checkpointed).
    #[arg(long, default_value = "adam")]
    optimizer: Optimizer,
    #[command(flatten)]
    adam: AdamArgs,
    /// Where to write the compiled-in binary weights file (default: the
    /// engine's file for the variant or pente, games/reversi/weights/VARIANT.bin).
    #[arg(long, value_name = "PATH")]
    compiled: Option<PathBuf>,
    /// Do not write the compiled-in weights file.
    #[arg(long, conflicts_with = "compiled")]
    no_compiled: bool,
    /// A line for the compiled-in file's header (repeat), e.g. the commands
    /// that made the data.
    #[arg(long, value_name = "TEXT")]
    note: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// The settings of an Adam fit (`tune`, `loop`).
#[derive(clap::Args)]
pub struct AdamArgs {
    /// Adam: step size in score units (1/100 disc).
    #[arg(long, default_value_t = GradientOptions::default().learning_rate)]
    learning_rate: f64,
    /// Adam: weight of the L2 penalty on the weights (in logit units).
    #[arg(long, default_value_t = GradientOptions::default().l2)]
    l2: f64,
    /// Adam: epochs at most (it also stops after --patience-epochs without
    /// a better validation loss).
    #[arg(long, default_value_t = GradientOptions::default().epochs)]
    epochs: usize,
    /// Adam: epochs without a better validation loss before a rate stops.
    #[arg(long, default_value_t = GradientOptions::default().patience)]
    patience_epochs: usize,
    /// Adam: restarts from the best weights at a quarter of the last rate
    /// after a rate stops.
    #[arg(long, default_value_t = GradientOptions::default().decays)]
    decays: usize,
    /// Adam: the L2 penalty pulls towards the start weights (--start or the
    /// compiled-in ones) instead of zero, for a fine-tune on new data.
    #[arg(long)]
    anchor: bool,
}

impl AdamArgs {
    fn options(&self) -> GradientOptions {
        GradientOptions {
            learning_rate: self.learning_rate,
            l2: self.l2,
            epochs: self.epochs,
            patience: self.patience_epochs,
            decays: self.decays,
            anchored: self.anchor,
        }
    }
}

/// How `tune` fits the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Optimizer {
    /// Full-batch Adam with an L2 penalty.
    Adam,
    /// Texel local search.
    Local,
}

/// Names on stderr the tables a weights file of an older layout lacked
/// (they are zeros now).
pub fn report_zeroed(path: &Path, zeroed: &[String]) {
    if !zeroed.is_empty() {
        eprintln!("{}: {} table(s) not in the file are 0: {}", path.display(), zeroed.len(), zeroed.join(", "));
    }
}

/// Worker threads: `given`, else one per core.
pub fn threads_or_cores(given: Option<usize>) -> usize {
    given.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The extension of the binary weights form.
const BINARY_EXTENSION: &str = "bin";

/// `tuner convert`: rewrites a weights file of `G` in the other form.
pub fn convert<G: TuningGame>(_game: &G, args: &ConvertArgs) -> Result<(), String> {
    let shown = args.from.display().to_string();
    let bytes = std::fs::read(&args.from).map_err(|e| format!("{shown}: {e}"))?;
    // A binary source's own notes (what made those weights) carry over.
    let mut source_notes = Vec::new();
    let (set, zeroed) = if is_binary(&bytes) {
        source_notes = binary_notes(&bytes).into_iter().map(|n| format!("source: {n}")).collect();
        (WeightSet::<G::Key>::parse_binary(&bytes, &shown)?, Vec::new())
    } else {
        let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: expected a text or binary weights file"))?;
        WeightSet::<G::Key>::parse_filling(&text, &shown)?
    };
    report_zeroed(&args.from, &zeroed);
    if args.to.extension().is_some_and(|e| e == BINARY_EXTENSION) {
        let mut notes = args.note.clone();
        notes.extend(source_notes);
        run::write_compiled(&args.to, &set, &notes)
    } else {
        set.save(&args.to)
    }
}

/// The positions.csv behind each --data argument.
pub fn data_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths.iter().map(|p| if p.is_dir() { p.join("positions.csv") } else { p.clone() }).collect()
}

/// `tuner tune`: fits `G`'s weights to positions and writes them out.
pub fn tune<G: TuningGame>(game: &G, args: &TuneArgs) -> Result<(), String> {
    let variant: G::Key = args.variant.parse()?;
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().map_err(|e| e.to_string())?;
    }
    let start = match &args.start {
        Some(path) => {
            // A start from before a layout change: new tables start at zero.
            let (set, zeroed) = WeightSet::<G::Key>::load_filling(path)?;
            report_zeroed(path, &zeroed);
            set
        }
        None => WeightSet::compiled(variant),
    };
    if start.key != variant {
        return Err(format!("start weights are for {}, expected {variant}", start.key));
    }
    tune_with(variant, args, &*game.model(start))
}

fn tune_with<K: WeightKind>(variant: K, args: &TuneArgs, model: &dyn Model) -> Result<(), String> {
    // A score target fixes the K of the fit.
    let k_arg = match (args.k, args.target.fixed_k()) {
        (Some(k), Some(target_k)) if k != target_k => {
            return Err(format!("--k {k} and --target score={target_k}: the fit must use the target's K"));
        }
        (k, target_k) => k.or(target_k),
    };
    if args.resume && matches!(args.optimizer, Optimizer::Adam) {
        return Err("--resume continues a local search: rerun the Adam fit instead (it takes minutes)".into());
    }
    let files = data_files(&args.data);
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let _lock = FolderLock::acquire(&args.out)?;
    let bounds = model.bounds();
    weight_set(variant, &model.weights()).save(&args.out.join(run::START_NAME))?;
    let log_path = args.out.join(run::LOG_NAME);
    let loaded = std::time::Instant::now();
    let report = |train: usize, validation: usize, bytes: usize| {
        eprintln!(
            "{train} training and {validation} validation positions from {} file(s) in {:.1} s, {bytes} bytes each",
            files.len(),
            loaded.elapsed().as_secs_f64()
        );
    };
    let (k, best_weights, log, positions) = match (args.optimizer, model.packer()) {
        (Optimizer::Adam, Some(packer)) => {
            let (train, validation) =
                run::load_split_packed(&files, model, packer, args.target, args.validation_every)?;
            report(train.len(), validation.len(), crate::packed::BYTES_PER_POSITION);
            let (k, weights, log) = adam_fit(args, model, &bounds, k_arg, &log_path, &train, &validation)?;
            (k, weights, log, (train.len(), validation.len()))
        }
        (optimizer, _) => {
            let (train, validation) = run::load_split(&files, model, args.target, args.validation_every)?;
            report(train.len(), validation.len(), train.bytes_per_position());
            let (k, weights, log) = match optimizer {
                Optimizer::Local => local_fit(args, model, &bounds, k_arg, &log_path, &train, &validation)?,
                Optimizer::Adam => adam_fit(args, model, &bounds, k_arg, &log_path, &train, &validation)?,
            };
            (k, weights, log, (train.len(), validation.len()))
        }
    };
    run::write_atomically(&log_path, run::log_csv(&log))?;

    let best = weight_set(variant, &best_weights);
    best.save(&args.out.join("weights.txt"))?;
    let first = &log[0];
    let best_row = run::best_row(&log);
    eprintln!(
        "best validation loss {:.6} (pass {}), from {:.6}; weights in {}",
        best_row.validation_loss,
        best_row.pass,
        first.validation_loss,
        args.out.join("weights.txt").display()
    );
    if !args.no_compiled {
        let path = args.compiled.clone().unwrap_or_else(|| variant.compiled_path());
        let mut notes = vec![
            format!("dataset: {}", files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")),
            format!(
                "positions: {} training, {} validation; K = {k:.6}; target {:?}",
                positions.0, positions.1, args.target
            ),
            format!(
                "loss: training {:.6} -> {:.6}, validation {:.6} -> {:.6} (pass {})",
                first.train_loss, best_row.train_loss, first.validation_loss, best_row.validation_loss, best_row.pass
            ),
        ];
        notes.extend(args.note.iter().cloned());
        run::write_compiled(&path, &best, &notes)?;
        eprintln!("wrote {} (rebuild the engine to compile the new weights in)", path.display());
    }
    Ok(())
}

/// What a fit returns: its K, the best weights and the log.
type FitOutcome = (f64, Vec<i32>, Vec<PassLog>);

/// The local search of `tune`, checkpointed after every pass (`--resume`
/// continues it).
fn local_fit(
    args: &TuneArgs,
    model: &dyn Model,
    bounds: &[Bounds],
    k: Option<f64>,
    log_path: &Path,
    train: &Dataset,
    validation: &Dataset,
) -> Result<FitOutcome, String> {
    let checkpoint = args.out.join("checkpoint.json");
    let mut search = if args.resume && checkpoint.exists() {
        let state = run::load_checkpoint(&checkpoint)?;
        if state.weights.len() != bounds.len() {
            return Err(format!("{}: checkpoint is for another weight layout", checkpoint.display()));
        }
        eprintln!("resuming after pass {}", state.log.len() - 1);
        LocalSearch::resume(train, validation, bounds, state)
    } else {
        LocalSearch::start(train, validation, bounds, model.weights(), k)
    };
    eprintln!("K = {:.6}", search.state.k);
    run::run_passes(&mut search, args.patience, args.max_passes, &checkpoint, log_path)?;
    Ok((search.state.k, search.state.best_weights, search.state.log))
}

/// The Adam fit of `tune` on either form of the data.
fn adam_fit<R: Rows>(
    args: &TuneArgs,
    model: &dyn Model,
    bounds: &[Bounds],
    k: Option<f64>,
    log_path: &Path,
    train: &R,
    validation: &R,
) -> Result<FitOutcome, String> {
    let start = model.weights();
    let k = run::scale_k(train, &start, k);
    eprintln!("K = {k:.6}");
    let options = args.adam.options();
    let input = run::FitInput { train, validation, bounds, start: &start, k };
    let done = run::adam(&input, &options, log_path, |row| {
        eprintln!(
            "epoch {}: train {:.6}, validation {:.6}, {} weights changed, {:.1} s",
            row.pass, row.train_loss, row.validation_loss, row.changed, row.seconds
        );
    })?;
    Ok((done.k, done.fit.weights, done.fit.log))
}

/// `tuner verify`: plays two weight files of `G` against each other.
pub fn verify<G: TuningGame>(game: &G, args: &VerifyArgs) -> Result<(), String> {
    let variant: G::Key = args.variant.parse()?;
    let pick = |given: &Option<PathBuf>, name: &str| {
        given.clone().or_else(|| args.tuned.as_ref().map(|d| d.join(name))).expect("clap requires one")
    };
    let (new, old) = (pick(&args.new, "weights.txt"), pick(&args.old, run::START_NAME));
    for path in [&new, &old] {
        matches::check_weights(path, variant)?;
    }
    let plan = MatchPlan {
        budget: MoveBudget::Depth(args.depth),
        tt_mb: 0,
        games: args.games,
        random_plies: args.random_plies,
        seed: args.seed,
    };
    let job = matches::match_job(variant, &new, &old, &plan);
    let threads = threads_or_cores(args.threads);
    let options = RunOptions {
        out: args.out.clone(),
        threads,
        sprt: None,
        command: std::env::args().collect(),
        quiet: false,
        executor: args.executor.executor()?,
    };
    let summary = matches::play(game, variant, &job, &options, |_, _, _| {})?;
    print!("{}", summary.report);
    Ok(())
}

/// `tuner loop`: runs or resumes `G`'s overnight loop.
pub fn tuner_loop<G: TuningGame>(game: &G, args: &LoopArgs) -> Result<(), String> {
    let variant: G::Key = args.variant.parse()?;
    if let Some(hours) = args.hours
        && !(hours.is_finite() && hours > 0.0)
    {
        return Err(format!("--hours {hours}: expected a positive number"));
    }
    let target = args.lambda.map_or_else(|| args.target.clone(), |l| format!("blend={l}"));
    // Fail on a bad target before anything is written.
    target.parse::<Target>().map_err(|e| format!("--target/--lambda: {e}"))?;
    let settings = LoopSettings {
        variant: variant.to_string(),
        seed: args.seed,
        start: args.start.clone(),
        games: args.games,
        budget: args.depth.map_or(MoveBudget::Nodes(args.nodes), MoveBudget::Depth),
        tt_mb: args.tt,
        random_plies: args.random_plies,
        window: args.window,
        label_depth: args.label_depth,
        target,
        validation_every: args.validation_every,
        adam: args.adam.options(),
        verify_games: args.verify_games,
        verify_chunk: args.verify_chunk,
        sprt: args.sprt,
    };
    let options = LoopOptions {
        out: args.out.clone(),
        settings,
        rounds: args.rounds,
        hours: args.hours,
        threads: threads_or_cores(args.threads),
        write_compiled: args.write_compiled.then(|| args.compiled.clone().unwrap_or_else(|| variant.compiled_path())),
        quiet: false,
        stop_after_steps: None,
        report: args.report,
        executor: args.executor.executor()?,
    };
    let report = round_loop::run_loop(game, &options)?;
    eprintln!(
        "{} rounds in {}; best weights {} (cumulative Elo {:+.1})",
        report.rounds,
        args.out.join(crate::ladder::LADDER_FILE).display(),
        report.best.display(),
        report.cumulative_elo
    );
    if let Some(path) = &options.write_compiled {
        eprintln!("wrote {} (rebuild the engine to compile the new weights in)", path.display());
    }
    Ok(())
}

/// `tuner spsa`'s arguments.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("budget").required(true).args(["tc", "nodes", "depth"]))]
pub struct SpsaArgs {
    /// Variant to play (any game the selfplay program plays).
    #[arg(long)]
    pub variant: String,
    /// The parameters: one a line, `NAME, int|float, START, MIN, MAX,
    /// C_END, R_END` (OpenBench's form; `#` starts a comment).
    #[arg(long, value_name = "FILE")]
    params: PathBuf,
    /// CPU seconds per game for each side (the games' time control).
    #[arg(long, value_name = "S")]
    tc: Option<f64>,
    /// Search nodes per move instead of a clock (reproducible games).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Search depth per move instead of a clock (reproducible games).
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Iterations of the whole run (the gains reach C_END and R_END at the
    /// last).
    #[arg(long)]
    iterations: u64,
    /// Colour-swapped game pairs of θ+ against θ- each iteration.
    #[arg(long, default_value_t = 8)]
    pairs_per_iteration: u64,
    /// Transposition table of each engine in MiB (default: the engine's).
    #[arg(long, value_name = "MIB", default_value_t = 0)]
    tt: usize,
    /// Openings file (one flattened position a line, a balanced suite);
    /// else --random-plies from the start.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Random plies before each pair's opening when no openings file is given.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// The run's folder: spsa.json, spsa.csv, iter-NNNNN/, tuned.txt,
    /// verify/ (one run at a time; rerun the same command to resume).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Seed of the signs and the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Skip the proof match of the tuned values against the start.
    #[arg(long)]
    no_verify: bool,
    /// Games of the proof match at most (even).
    #[arg(long, default_value_t = 400)]
    verify_games: u64,
    /// CPU seconds per game of the proof match (default: --tc): tune at a
    /// short time control, prove at a longer one.
    #[arg(long, value_name = "S")]
    verify_tc: Option<f64>,
    /// The proof match's SPRT: elo0,elo1[,alpha,beta].
    #[arg(long, default_value = "0,10", value_parser = Sprt::parse)]
    sprt: Sprt,
    /// Games played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Rewrite OUT/report.html as the run goes (each parameter's
    /// trajectory, the proof match), for a browser left open on it.
    #[arg(long)]
    report: bool,
    /// Where the games are played (this machine or a Slurm cluster).
    #[command(flatten)]
    executor: selfplay::cluster::ExecutorArgs,
}

/// What decides an SPSA run's trajectory: a rerun on its folder must give
/// the same.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct SpsaSettings {
    variant: String,
    params: Vec<crate::spsa::SpsaParam>,
    iterations: u64,
    pairs_per_iteration: u64,
    tc: Option<f64>,
    budget: Option<MoveBudget>,
    tt_mb: usize,
    openings: Option<PathBuf>,
    random_plies: u32,
    seed: u64,
}

/// The engine spec of `values` of `params` under the run's budget.
fn spsa_spec(settings: &SpsaSettings, params: &[crate::spsa::SpsaParam], values: &[f64]) -> String {
    let mut options = Vec::new();
    match settings.budget {
        Some(MoveBudget::Nodes(n)) => options.push(format!("nodes={n}")),
        Some(MoveBudget::Depth(d)) => options.push(format!("depth={d}")),
        None => {}
    }
    if settings.tt_mb > 0 {
        options.push(format!("tt={}", settings.tt_mb));
    }
    options.extend(params.iter().zip(values).map(|(p, &v)| format!("{}={}", p.name, p.playable(v))));
    format!("engine:{}", options.join(","))
}

/// `tuner spsa`: runs or resumes an SPSA tuning of search parameters in
/// the games of `family`, then proves the result by a match.
pub fn spsa(family: &dyn selfplay::family::GameFamily, args: &SpsaArgs) -> Result<(), String> {
    use crate::spsa::{self, Spsa};
    if !family.variants().contains(&args.variant.as_str()) {
        return Err(format!("--variant {}: not one of {}", args.variant, family.variants().join(", ")));
    }
    if args.iterations == 0 || args.pairs_per_iteration == 0 {
        return Err("--iterations and --pairs-per-iteration: expected at least 1".into());
    }
    if args.verify_tc.is_some() && args.tc.is_none() {
        return Err("--verify-tc: expected a timed run (--tc); at a node or depth budget the proof plays at it".into());
    }
    for (flag, tc) in [("--tc", args.tc), ("--verify-tc", args.verify_tc)] {
        if let Some(tc) = tc
            && !(tc.is_finite() && tc > 0.0)
        {
            return Err(format!("{flag} {tc}: expected a positive number of seconds"));
        }
    }
    let params = spsa::read_params(&args.params)?;
    let settings = SpsaSettings {
        variant: args.variant.clone(),
        params: params.clone(),
        iterations: args.iterations,
        pairs_per_iteration: args.pairs_per_iteration,
        tc: args.tc,
        budget: args.nodes.map(MoveBudget::Nodes).or(args.depth.map(MoveBudget::Depth)),
        tt_mb: args.tt,
        openings: args.openings.clone(),
        random_plies: args.random_plies,
        seed: args.seed,
    };
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let _lock = FolderLock::acquire(&args.out)?;
    run::check_or_write_settings(&args.out.join(spsa::SETTINGS_FILE), &settings, "an SPSA run")?;
    let threads = threads_or_cores(args.threads);
    let executor = args.executor.executor()?;
    let command: Vec<String> = std::env::args().collect();
    let job = |players: Vec<String>, games: u64, seed: u64| Job {
        variant: settings.variant.clone(),
        players,
        schedule: Schedule::RoundRobin,
        games,
        seed,
        openings: settings.openings.clone(),
        random_plies: settings.random_plies,
        tc: settings.tc.unwrap_or(matches::UNTIMED_GAME_SECONDS),
        sample_every: 1,
        shard: None,
    };
    let schedule = Spsa { params: params.clone(), iterations: args.iterations, seed: args.seed };
    let verify_dir = args.out.join(spsa::VERIFY_DIR);
    let live = args.report.then(|| {
        let dirs = vec![args.out.clone(), verify_dir.clone()];
        std::cell::RefCell::new(LiveReport::new(dirs, args.out.join(selfplay::report::REPORT_FILE)))
    });
    let tick = || {
        if let Some(live) = &live {
            live.borrow_mut().tick();
        }
    };
    let play = |k: u64, plus: &[f64], minus: &[f64]| {
        let players = vec![spsa_spec(&settings, &params, plus), spsa_spec(&settings, &params, minus)];
        let games = 2 * settings.pairs_per_iteration;
        let job = job(players, games, engine_core::mix::splitmix64(settings.seed ^ k));
        let out = args.out.join(format!("iter-{k:05}"));
        let options = RunOptions {
            out: out.clone(),
            threads,
            sprt: None,
            command: command.clone(),
            quiet: true,
            executor: executor.clone(),
        };
        family.run_observed(&job, &options, &mut |_, _, _| tick())?;
        let tally = matches::MatchTally::of_folder(&out)?;
        let w = tally.wdl;
        Ok(spsa::IterationResult { wins: w.wins, draws: w.draws, losses: w.losses, cpu_seconds: tally.cpu_seconds })
    };
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let show = |row: &spsa::SpsaRow| {
        let r = &row.result;
        let values: Vec<String> = names.iter().zip(&row.theta).map(|(n, t)| format!("{n}={t:.4}")).collect();
        eprintln!(
            "iteration {}/{}: +{} ={} -{}  {}",
            row.iteration + 1,
            args.iterations,
            r.wins,
            r.draws,
            r.losses,
            values.join(" ")
        );
        tick();
    };
    let rows = spsa::run(&schedule, &args.out.join(spsa::SPSA_FILE), play, show)?;
    let theta = &rows.last().expect("at least one iteration").theta;
    let tuned = args.out.join(spsa::TUNED_FILE);
    run::write_atomically(&tuned, spsa::tuned_text(&params, theta, args.iterations))?;
    let (flags, _) = spsa::flags(&params, theta);
    println!("tuned ({}): {flags}", tuned.display());
    let write_report = || {
        if let Some(live) = &live {
            live.borrow_mut().write_now();
            println!("report: {}", live.borrow().path().display());
        }
    };
    if args.no_verify {
        write_report();
        return Ok(());
    }
    let start = schedule.start();
    let players = vec![spsa_spec(&settings, &params, theta), spsa_spec(&settings, &params, &start)];
    let games = args.verify_games + args.verify_games % 2;
    let mut job = job(players, games, engine_core::mix::splitmix64(settings.seed ^ u64::MAX));
    if let Some(tc) = args.verify_tc {
        job.tc = tc;
    }
    let options = RunOptions { out: verify_dir, threads, sprt: Some(args.sprt), command, quiet: false, executor };
    let summary = family.run_observed(&job, &options, &mut |_, _, _| tick())?;
    print!("{}", summary.report);
    write_report();
    Ok(())
}
