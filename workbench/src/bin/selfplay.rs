//! `selfplay`: runs matches and self-play between engines, the reference
//! agents and external programs; `selfplay merge` joins shard folders.
//! Without arguments: the default self-play job (book: programs/selfplay.md).

use clap::{Args, Parser, Subcommand};
use pente::matches as pente_matches;
use reversi::matches::reversi;
use selfplay::cluster::ExecutorArgs;
use selfplay::job::{Job, Schedule, Shard};
use selfplay::openings::{LOOKAHEAD, SuiteSpec};
use selfplay::report::LiveReport;
use selfplay::run::RunOptions;
use selfplay::stats::Sprt;
use std::path::PathBuf;
use std::process::ExitCode;

/// Parallel match runner: engine vs engine, engine vs reference agents or
/// external programs; writes games.csv, positions.csv and run.json to --out.
#[derive(Parser)]
#[command(version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Merge shard folders into one folder.
    Merge {
        /// The merged folder (must not hold games yet).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The shard folders.
        #[arg(required = true, value_name = "DIR")]
        sources: Vec<PathBuf>,
    },
    /// Learn Pente's expected game length (the time plan's table) from the
    /// games of run folders.
    GameLength {
        /// The table to write (the engine's is games/pente/data/pente_game_length.txt).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Pente run folders.
        #[arg(required = true, value_name = "DIR")]
        sources: Vec<PathBuf>,
    },
    /// Write a self-contained HTML report of run folders (matches, the
    /// tuner's loop, SPSA runs): tables, plots and a game viewer; the page
    /// reloads itself every 30 s, so rerun this while a run goes on.
    Report {
        /// The page to write (default: report.html in the first folder).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Run folders.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
    /// Convert the positions.csv rows of othello8 run folders to OBF lines
    /// (64 cells, the side to move, `;`), one a row in file order.
    Export {
        /// The OBF file to write.
        #[arg(long, value_name = "FILE")]
        obf: PathBuf,
        /// othello8 run folders.
        #[arg(required = true, value_name = "DIR")]
        sources: Vec<PathBuf>,
    },
    /// Write a balanced opening suite: positions PLIES random plies deep
    /// whose shallow-search score is within ±WINDOW, one per symmetry class,
    /// for --openings.
    Openings {
        /// A registered variant (see --variant of a match).
        #[arg(long)]
        variant: String,
        /// Random plies from the start.
        #[arg(long, default_value_t = 8)]
        plies: u32,
        /// Largest |score| kept: in discs (Reversi), in the engine's score
        /// units (Pente, as positions.csv reports them).
        #[arg(long, default_value_t = 2.0)]
        window: f64,
        /// Positions wanted.
        #[arg(long, default_value_t = 500)]
        count: usize,
        /// Depth of the scoring search.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Seed of the random plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Reject positions from which any line of this many plies ends the
        /// game (2 to 6; every line is played, so keep it small in Pente).
        #[arg(long, default_value_t = LOOKAHEAD)]
        lookahead: u32,
        /// Reject positions from which the scoring engine at depth 2,
        /// playing both sides, ends the game within this many plies (0: no
        /// such check).
        #[arg(long, default_value_t = 0)]
        playout: u32,
        /// The suite file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

#[derive(Args)]
struct RunArgs {
    /// Variant: tiny4, othello6, othello8, othello10, othello12, duo12,
    /// pente or connect4 (every game of the registry, workbench::GAMES).
    #[arg(long, default_value = "duo12")]
    variant: String,
    /// First player: engine[:depth=D,nodes=N,movetime=S,tc=S,tt=MB,weights=FILE,nps=N,eval=E,objective=wins|discs,PARAM=V],
    /// classic[:same keys] (the classic heuristic), random, minimax, or
    /// cmd:PROGRAM [ARGS][;tc=S][;calibrate=PROGRAM [ARGS]].
    #[arg(long = "a", default_value = "engine:depth=4", value_name = "SPEC")]
    a: String,
    /// Second player (same forms as --a).
    #[arg(long = "b", default_value = "engine:depth=3", value_name = "SPEC")]
    b: String,
    /// Players of a tournament (repeat; replaces --a and --b).
    #[arg(long = "player", value_name = "SPEC")]
    players: Vec<String>,
    /// How tournament players meet.
    #[arg(long, value_enum, default_value = "round-robin")]
    schedule: Schedule,
    /// Games per pairing: colour-swapped pairs from the same opening (even).
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of every random choice (openings, random players).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings: one flattened position per line (`X/row1/row2/...`).
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Random plies from the start position before the players take over.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// CPU seconds per game for players whose spec sets no tc.
    #[arg(long, default_value_t = 300.0)]
    tc: f64,
    /// Write every N-th position a player chose to positions.csv.
    #[arg(long, default_value_t = 1, value_name = "N")]
    sample: u32,
    /// Output folder; rerunning the same command there resumes.
    #[arg(long, default_value = "data/runs/selfplay-default", value_name = "DIR")]
    out: PathBuf,
    /// Stop early: elo0,elo1[,alpha,beta].
    #[arg(long, value_parser = Sprt::parse, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    sprt: Option<Sprt>,
    /// Play only shard K of N (pairs split by number modulo N).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Rewrite OUT/report.html as the games come in (`selfplay report`),
    /// for a browser left open on it.
    #[arg(long)]
    report: bool,
    /// Play the job of FILE (a run's run.json, or the job.json of a cluster
    /// run) instead of the one the flags describe; --shard, --out,
    /// --threads, --sprt and the executor still apply.
    #[arg(long, value_name = "FILE", conflicts_with_all = JOB_FLAGS)]
    job: Option<PathBuf>,
    #[command(flatten)]
    executor: ExecutorArgs,
}

/// The flags that describe a job, which --job replaces.
const JOB_FLAGS: [&str; 11] =
    ["variant", "a", "b", "players", "schedule", "games", "seed", "openings", "random_plies", "tc", "sample"];

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Merge { out, sources }) => selfplay::merge::merge(&out, &sources).map(|text| println!("{text}")),
        Some(Command::Report { out, dirs }) => {
            let out = out.unwrap_or_else(|| dirs[0].join(selfplay::report::REPORT_FILE));
            selfplay::report::write_report(&dirs, &out).map(|()| println!("{}", out.display()))
        }
        Some(Command::Export { obf, sources }) => reversi::export_obf(&obf, &sources).map(|text| println!("{text}")),
        Some(Command::GameLength { out, sources }) => {
            pente_matches::game_length(&out, &sources).map(|text| println!("{text}"))
        }
        Some(Command::Openings { variant, plies, window, count, depth, seed, lookahead, playout, out }) => {
            let spec = SuiteSpec { plies, window, count, depth, seed, lookahead, playout };
            let command: Vec<String> = std::env::args().collect();
            workbench::game(&variant).and_then(|g| g.write_suite(&variant, &spec, &out, &command))
        }
        None => run_match(cli.run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("selfplay: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run_match(args: RunArgs) -> Result<(), String> {
    if !(args.tc.is_finite() && args.tc > 0.0) {
        return Err(format!("--tc {}: expected a positive number of seconds", args.tc));
    }
    let job = match &args.job {
        Some(path) => Job { shard: args.shard, ..selfplay::job::read_job(path)? },
        None => Job {
            variant: args.variant.clone(),
            players: if args.players.is_empty() { vec![args.a, args.b] } else { args.players },
            schedule: args.schedule,
            games: args.games,
            seed: args.seed,
            openings: args.openings,
            random_plies: args.random_plies,
            tc: args.tc,
            sample_every: args.sample.max(1),
            shard: args.shard,
        },
    };
    let game = workbench::game(&job.variant)?;
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = RunOptions {
        out: args.out,
        threads,
        sprt: args.sprt,
        command: std::env::args().collect(),
        quiet: false,
        executor: args.executor.executor()?,
    };
    let mut live = args.report.then(|| LiveReport::of(&options.out));
    let summary = game.run_observed(&job, &options, &mut |_, _, _| {
        if let Some(live) = &mut live {
            live.tick();
        }
    })?;
    print!("{}", summary.report);
    if let Some(live) = &mut live {
        live.write_now();
        println!("report: {}", live.path().display());
    }
    if summary.stopped_early && summary.sprt_decided {
        println!("stopped early: the SPRT reached its verdict after {} games", summary.games);
    } else if summary.stopped_early {
        println!(
            "stopped early: {} of the games are in {}; rerun the same command to continue",
            summary.games,
            options.out.display()
        );
    }
    Ok(())
}
