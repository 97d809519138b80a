//! A run: the schedule of games (pairings, colour-swapped pairs, openings,
//! seeds, shards), the worker threads that play them, the single writer
//! that appends results, keeps the tally and shows progress, resuming, Ctrl-C
//! and the final report. Also `merge` of shard folders.

use crate::cluster::{self, Executor};
use crate::game::{FinishedGame, GameSetup, play_game};
use crate::job::{Job, pairings, read_job};
use crate::player::{PlayerKind, PlayerSpec, Seat};
use crate::protocol::GameProtocol;
use crate::record::{self, FolderLock, GameRecord, RUN_FILE, Store};
use crate::stats::{Pentanomial, Sprt, Verdict, Wdl};
use engine_core::game::Game;
use engine_core::mix::SplitMix;
use engine_core::playout::random_line;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Stream of the opening RNG of opening `k` is `OPENING_STREAM + k`; game
/// `id` uses stream `id`: streams of `--seed` ([`SplitMix::stream`]).
pub const OPENING_STREAM: u64 = 1 << 63;
/// Without a terminal, a plain progress line is printed every this many
/// percent of the games.
pub const PLAIN_PROGRESS_PERCENT: u64 = 5;
/// Random openings drawn before falling back to the start position when
/// every one of them ends the game.
const MAX_OPENING_ATTEMPTS: u32 = 1000;
/// How often the writer looks at Ctrl-C while waiting for games.
const POLL: Duration = Duration::from_millis(200);

/// How a run is carried out (may change between resumed sessions).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Output folder.
    pub out: PathBuf,
    /// Games played at once.
    pub threads: usize,
    /// Stop early on an SPRT verdict.
    pub sprt: Option<Sprt>,
    /// The command line, for `run.json`.
    pub command: Vec<String>,
    /// Print nothing but errors (tests).
    pub quiet: bool,
    /// Where the games are played: this machine's threads or a cluster.
    pub executor: Executor,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games in the folder at the end (resumed ones included).
    pub games: u64,
    /// Games played by this session.
    pub played: u64,
    /// Positions written by this session.
    pub positions: u64,
    /// Wall seconds of this session.
    pub seconds: f64,
    /// The report text printed at the end.
    pub report: String,
    /// True when the run stopped before its last game (Ctrl-C or SPRT).
    pub stopped_early: bool,
    /// True when the SPRT reached a verdict (a rerun plays no more games).
    pub sprt_decided: bool,
}

/// Openings read from a file: one flattened position per line; blank lines
/// and lines starting with `#` are skipped.
pub fn read_openings<P: GameProtocol>(protocol: &P, path: &Path) -> Result<Vec<P::State>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = protocol.parse_flat(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        if pos.is_terminal() {
            return Err(format!(
                "{}:{}: expected a position with moves left, found a finished game",
                path.display(),
                i + 1
            ));
        }
        openings.push(pos);
    }
    if openings.is_empty() {
        return Err(format!("{}: expected at least one opening position", path.display()));
    }
    Ok(openings)
}

/// The opening of the `k`-th pair of every pairing: from `book` when it
/// holds any, else `job.random_plies` random plies from the start.
pub fn opening<P: GameProtocol>(protocol: &P, job: &Job, book: &[P::State], k: u64) -> P::State {
    if !book.is_empty() {
        return book[(k % book.len() as u64) as usize].clone();
    }
    let mut rng = SplitMix::stream(job.seed, OPENING_STREAM + k);
    // Random plies can end the game or leave it a ply or two from its end
    // (Duo's two groups may lose contact): draw again from the same stream
    // until the players have a game to play.
    for _ in 0..MAX_OPENING_ATTEMPTS {
        let state = random_line(protocol.start(), job.random_plies, &mut rng);
        if !ends_within(&state, OPENING_LOOKAHEAD) {
            return state;
        }
    }
    protocol.start()
}

/// Plies after a random opening within which no line may end the game: a
/// Duo opening whose two groups have lost contact can leave both players
/// without moves a ply or two later, a game decided by the dice alone.
pub const OPENING_LOOKAHEAD: u32 = 2;

/// True when some line of at most `plies` plies from `state` ends the game.
pub fn ends_within<S: Game>(state: &S, plies: u32) -> bool {
    if state.is_terminal() {
        return true;
    }
    plies > 0
        && state.legal_moves().iter().any(|&mv| {
            let mut next = state.clone();
            next.make(mv);
            ends_within(&next, plies - 1)
        })
}

/// Running tally of a run, from the first player of each pairing.
#[derive(Clone, Debug, Default)]
struct Tally {
    wdl: Vec<Wdl>,
    pairs: Vec<Pentanomial>,
    /// First game of a pair waiting for its partner: pair -> points of `a`.
    halves: HashMap<u64, f64>,
    total_wdl: Wdl,
    total_pairs: Pentanomial,
}

impl Tally {
    fn new(pairings: usize) -> Self {
        Tally { wdl: vec![Wdl::default(); pairings], pairs: vec![Pentanomial::default(); pairings], ..Tally::default() }
    }

    fn add(&mut self, job: &Job, game: &GameRecord) {
        let pairing = (game.game / job.games) as usize;
        let a_is_black = (game.game % job.games).is_multiple_of(2);
        let black = game.black_points().unwrap_or(0.5);
        let a = if a_is_black { black } else { 1.0 - black };
        self.wdl[pairing].add(a);
        self.total_wdl.add(a);
        if let Some(first) = self.halves.remove(&game.pair) {
            self.pairs[pairing].add(first + a);
            self.total_pairs.add(first + a);
        } else {
            self.halves.insert(game.pair, a);
        }
    }

    /// The one-line status: W-D-L, Elo, LOS, and the SPRT's LLR.
    fn status(&self, sprt: Option<&Sprt>) -> String {
        let w = &self.total_wdl;
        let mut s = format!("W-D-L {}-{}-{}", w.wins, w.draws, w.losses);
        if let Some(e) = self.total_pairs.elo().or_else(|| w.elo()) {
            s += &format!("  {e}");
        }
        if let Some(sprt) = sprt {
            let (lo, hi) = sprt.bounds();
            s += &format!("  LLR {:.2} ({lo:.2}, {hi:.2})", sprt.llr(&self.total_pairs));
        }
        s
    }
}

static INTERRUPTS: AtomicU32 = AtomicU32::new(0);
/// Raised by the second Ctrl-C: games in flight are abandoned.
static ABANDON: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    // Only atomics here: async-signal-safe.
    if INTERRUPTS.fetch_add(1, Ordering::SeqCst) >= 1 {
        ABANDON.store(true, Ordering::SeqCst);
    }
}

fn install_interrupt_handler() {
    // SAFETY: the handler only touches atomics; `signal` with a valid
    // function pointer is sound.
    unsafe {
        libc::signal(libc::SIGINT, on_interrupt as *const () as libc::sighandler_t);
    }
}

/// Checks `run.json` of `dir` against `job`, or writes it.
fn check_or_write_run_file(dir: &Path, job: &Job, options: &RunOptions) -> Result<(), String> {
    let path = dir.join(RUN_FILE);
    if path.exists() {
        let old = read_job(&path)?;
        if &old != job {
            let (a, b) = (serde_json::to_value(&old).unwrap(), serde_json::to_value(job).unwrap());
            let field =
                a.as_object().unwrap().iter().find(|(k, v)| b.get(k.as_str()) != Some(v)).map(|(k, _)| k.clone());
            return Err(format!(
                "{}: this folder holds a different run (`{}` differs); use another --out or the same options",
                path.display(),
                field.unwrap_or_default()
            ));
        }
        return Ok(());
    }
    let value = serde_json::json!({
        "command": options.command,
        "job": job,
        "threads": options.threads,
        "sprt": options.sprt,
        "engine_version": env!("CARGO_PKG_VERSION"),
        "columns": {
            "games.csv": record::GAMES_HEADER,
            "positions.csv": record::POSITIONS_HEADER,
        },
    });
    record::write_json(&path, &value)
}

/// Validates the job's players once (engine options, weights files) and runs
/// the calibrate programs of external players. Returns each player's home.
fn prepare_players<P: GameProtocol>(protocol: &P, specs: &[PlayerSpec], out: &Path) -> Result<Vec<PathBuf>, String> {
    let mut homes = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let home = out.join("agents").join(format!("p{i}"));
        match &spec.kind {
            PlayerKind::External(ext) => crate::external::calibrate(ext, &home).map_err(|e| format!("{spec}: {e}"))?,
            _ => {
                Seat::new(protocol, spec, 0, &home).map_err(|e| format!("{spec}: {e}"))?;
            }
        }
        homes.push(home);
    }
    Ok(homes)
}

/// Runs (or resumes) `job` in `options.out`.
pub fn run<P: GameProtocol>(protocol: &P, job: &Job, options: &RunOptions) -> Result<Summary, String> {
    run_observed(protocol, job, options, |_, _, _| {})
}

/// [`run`], telling `observe` after each game the games in the folder, the
/// games the folder will hold, and the status line (W-D-L, Elo, LLR): for a
/// caller that shows its own progress (`options.quiet`).
pub fn run_observed<P: GameProtocol>(
    protocol: &P,
    job: &Job,
    options: &RunOptions,
    mut observe: impl FnMut(u64, u64, &str),
) -> Result<Summary, String> {
    if job.players.len() < 2 {
        return Err("expected at least two players".into());
    }
    if job.games == 0 || !job.games.is_multiple_of(2) {
        return Err(format!("--games {}: expected a positive even number (colour-swapped pairs)", job.games));
    }
    let specs: Vec<PlayerSpec> =
        job.players.iter().map(|s| s.parse().map_err(|e| format!("player `{s}`: {e}"))).collect::<Result<_, _>>()?;
    let book = match &job.openings {
        Some(path) => read_openings(protocol, path)?,
        None => Vec::new(),
    };
    // The job is checked before anything in the folder is touched.
    std::fs::create_dir_all(&options.out).map_err(|e| format!("{}: cannot create: {e}", options.out.display()))?;
    let _lock = FolderLock::acquire(&options.out)?;
    check_or_write_run_file(&options.out, job, options)?;
    let homes = prepare_players(protocol, &specs, &options.out)?;
    if let Executor::Slurm(slurm) = &options.executor {
        cluster::play_on_slurm(slurm, job, &options.out, options.quiet, &mut observe)?;
    }
    let (mut store, finished) = Store::open(&options.out)?;
    let pairings = pairings(job);
    let total_ids = pairings.len() as u64 * job.games;
    let mut tally = Tally::new(pairings.len());
    let done: HashSet<u64> = finished.iter().map(|g| g.game).collect();
    for game in &finished {
        if game.game >= total_ids || job.shard.is_some_and(|s| !s.owns(game.game)) {
            return Err(format!(
                "{}: game {} is not part of this run",
                options.out.join(record::GAMES_FILE).display(),
                game.game
            ));
        }
        tally.add(job, game);
    }
    let todo: Vec<u64> =
        (0..total_ids).filter(|&id| job.shard.is_none_or(|s| s.owns(id)) && !done.contains(&id)).collect();
    let shard_total = done.len() as u64 + todo.len() as u64;

    let stop = AtomicBool::new(options.sprt.is_some_and(|s| s.verdict(&tally.total_pairs) != Verdict::Continue));
    let next = AtomicUsize::new(0);
    let failure: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    install_interrupt_handler();

    let progress = Progress::new(options.quiet, shard_total, done.len() as u64);
    let started = Instant::now();
    let mut summary = Summary { games: done.len() as u64, ..Summary::default() };
    let threads = options.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::channel::<FinishedGame>();

    let worker = |tx: mpsc::Sender<FinishedGame>| {
        let mut kept: Vec<Option<Seat<P::State>>> = specs.iter().map(|_| None).collect();
        loop {
            if stop.load(Ordering::Relaxed) || INTERRUPTS.load(Ordering::Relaxed) > 0 {
                return;
            }
            let Some(&id) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else { return };
            let pairing = (id / job.games) as usize;
            let local = id % job.games;
            let (a, b) = pairings[pairing];
            let (black, white) = if local.is_multiple_of(2) { (a, b) } else { (b, a) };
            let mut rng = SplitMix::stream(job.seed, id);
            let seeds = [rng.next_u64(), rng.next_u64()];
            let mut seat = |player: usize, seed: u64| match kept[player].take() {
                Some(seat) => Ok(seat),
                None => Seat::new(protocol, &specs[player], seed, &homes[player]),
            };
            let seats = seat(black, seeds[0]).and_then(|b| Ok([b, seat(white, seeds[1])?]));
            let mut seats = match seats {
                Ok(s) => s,
                Err(e) => {
                    *failure.lock().unwrap() = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
            };
            let time = [specs[black].tc.unwrap_or(job.tc), specs[white].tc.unwrap_or(job.tc)];
            let setup = GameSetup {
                id,
                seed: job.seed,
                opening: opening(protocol, job, &book, local / 2),
                names: [specs[black].text.clone(), specs[white].text.clone()],
                time,
                sample_every: job.sample_every.max(1),
            };
            let [s0, s1] = &mut seats;
            let result = play_game(protocol, &setup, [s0, s1], &ABANDON);
            // Engines keep their tables between games (`new_game` clears
            // what a game may not inherit); seeded players start afresh.
            for (player, seat) in [black, white].into_iter().zip(seats) {
                if specs[player].reusable() {
                    kept[player] = Some(seat);
                }
            }
            match result {
                Some(result) => {
                    if tx.send(result).is_err() {
                        return;
                    }
                }
                None => return,
            }
        }
    };

    let mut write_error = None;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.scope(|s| {
                let worker = &worker;
                for _ in 0..threads {
                    let tx = tx.clone();
                    s.spawn(move |_| worker(tx));
                }
            });
            drop(tx);
        });
        let mut warned = 0;
        loop {
            let seen = INTERRUPTS.load(Ordering::Relaxed);
            if seen > warned {
                warned = seen;
                progress.println(if seen == 1 {
                    "interrupted: finishing the games in flight (Ctrl-C again to abandon them)"
                } else {
                    "interrupted again: abandoning the games in flight"
                });
            }
            let FinishedGame { record: game, positions, ggf } = match rx.recv_timeout(POLL) {
                Ok(result) => result,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if write_error.is_some() {
                continue;
            }
            if let Err(e) = store.append(&game, &positions, ggf.as_deref()) {
                write_error = Some(e);
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            if !game.detail.is_empty() {
                progress.println(&format!(
                    "game {}: {} lost by {} ({})",
                    game.game,
                    game.black_or_white_loser(),
                    game.ending,
                    game.detail
                ));
            }
            tally.add(job, &game);
            summary.games += 1;
            summary.played += 1;
            summary.positions += positions.len() as u64;
            if options.sprt.is_some_and(|sprt| sprt.verdict(&tally.total_pairs) != Verdict::Continue) {
                stop.store(true, Ordering::Relaxed);
            }
            let status = tally.status(options.sprt.as_ref());
            progress.update(summary.games, &status);
            observe(summary.games, shard_total, &status);
        }
    });
    progress.finish();
    if let Some(e) = write_error.or_else(|| failure.lock().unwrap().take()) {
        return Err(e);
    }
    summary.seconds = started.elapsed().as_secs_f64();
    summary.stopped_early = summary.games < shard_total;
    summary.sprt_decided = options.sprt.is_some_and(|s| s.verdict(&tally.total_pairs) != Verdict::Continue);
    summary.report = report(job, &specs, &pairings, &tally, options.sprt.as_ref(), &summary);
    Ok(summary)
}

impl GameRecord {
    /// The loser's player spec (`-` for a draw).
    fn black_or_white_loser(&self) -> &str {
        match self.result.as_str() {
            "1-0" => &self.white,
            "0-1" => &self.black,
            _ => "-",
        }
    }
}

/// The final report: per pairing W/D/L, score, Elo, LOS, pairs, nElo, SPRT.
fn report(
    job: &Job,
    specs: &[PlayerSpec],
    pairings: &[(usize, usize)],
    tally: &Tally,
    sprt: Option<&Sprt>,
    summary: &Summary,
) -> String {
    let mut out = String::new();
    for (k, &(a, b)) in pairings.iter().enumerate() {
        let w = &tally.wdl[k];
        out += &format!("{} vs {} ({}): {} games\n", specs[a], specs[b], job.variant, w.games());
        if let Some(e) = w.elo() {
            out += &format!("  W-D-L {}-{}-{}, score {:.1}%, {e}\n", w.wins, w.draws, w.losses, 100.0 * e.score);
        }
        let p = &tally.pairs[k];
        if let Some(e) = p.elo() {
            let c = p.0;
            out += &format!(
                "  pairs LL {} LD {} WL+DD {} WD {} WW {}: {}, n{}, LOS {:.1}%\n",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                crate::stats::elo_text(e.elo, e.error),
                crate::stats::elo_text(e.nelo, e.nelo_error),
                100.0 * e.los
            );
        }
        if let Some(sprt) = sprt {
            let (lo, hi) = sprt.bounds();
            let verdict = match sprt.verdict(p) {
                Verdict::H1 => "H1 accepted",
                Verdict::H0 => "H0 accepted",
                Verdict::Continue => "no verdict yet",
            };
            out += &format!(
                "  SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} ({lo:.2}, {hi:.2}), {verdict}\n",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                sprt.llr(p)
            );
        }
    }
    if summary.played > 0 {
        let rate = summary.positions as f64 / summary.seconds.max(1e-9);
        out += &format!(
            "this session: {} games, {} positions in {:.1} s ({:.2} games/s, {:.0} positions/hour)\n",
            summary.played,
            summary.positions,
            summary.seconds,
            summary.played as f64 / summary.seconds.max(1e-9),
            rate * 3600.0
        );
    }
    out
}

/// Live progress: an indicatif bar on a terminal, plain lines otherwise.
struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    started: Instant,
    start_count: u64,
    next_line: std::cell::Cell<u64>,
    quiet: bool,
}

impl Progress {
    fn new(quiet: bool, total: u64, done: u64) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            let style =
                ProgressStyle::with_template("{elapsed_precise} [{bar:25}] {pos}/{len} games, ETA {eta} | {msg}")
                    .expect("the template is valid")
                    .progress_chars("=> ");
            bar.set_style(style);
            bar.set_position(done);
            bar.reset_eta();
            bar
        });
        let step = (total * PLAIN_PROGRESS_PERCENT).div_ceil(100).max(1);
        Progress {
            bar,
            total,
            started: Instant::now(),
            start_count: done,
            next_line: std::cell::Cell::new(done + step),
            quiet,
        }
    }

    fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None if !self.quiet => eprintln!("{line}"),
            None => {}
        }
    }

    fn update(&self, done: u64, status: &str) {
        let secs = self.started.elapsed().as_secs_f64();
        let rate = (done - self.start_count) as f64 / secs.max(1e-9);
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(format!("{rate:.2} games/s | {status}"));
        } else if !self.quiet && (done >= self.next_line.get() || done == self.total) {
            let step = (self.total * PLAIN_PROGRESS_PERCENT).div_ceil(100).max(1);
            self.next_line.set(done + step);
            let eta = if rate > 0.0 { (self.total - done) as f64 / rate } else { 0.0 };
            eprintln!(
                "{done}/{} games ({:.0}%), {rate:.2} games/s, ETA {eta:.0} s | {status}",
                self.total,
                100.0 * done as f64 / self.total.max(1) as f64
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.abandon();
        }
    }
}
