//! External agents, run the way the handouts' game master runs them: one
//! process per move in a folder of its own (fresh for every game, so
//! `playdata.txt` never survives a game), `input.txt` in, `output.txt` out,
//! charged the child's CPU time (user + system, all threads, from `wait4`),
//! killed when it overruns: its CPU time is polled from `/proc` while it runs
//! (`RLIMIT_CPU` stops it too, where `/proc` is missing), and an agent that
//! idles is stopped by a wall-clock backstop. A calibrate program, if given,
//! runs once per run.

use crate::answer::{Answer, Failure, Forfeit, Played};
use crate::protocol::GameProtocol;
use engine_core::agent::{Clock, Decision, parse_played_line};
use engine_core::game::Game;
use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use engine_core::agent::{CALIBRATION_FILE, INPUT_FILE, OUTPUT_FILE};
/// Where an agent's stderr goes, in its game folder.
pub const STDERR_FILE: &str = "stderr.txt";
/// Every finished game's stderr, appended in the agent's home folder (one
/// `# game-N-side` header line per game): the agent's own log of the run.
pub const STDERR_LOG: &str = "stderr.log";
/// An agent that uses no CPU (sleeps, waits) is killed after this many times
/// its remaining time in wall-clock seconds...
pub const WALL_FACTOR: f64 = 2.0;
/// ...plus this many seconds.
pub const WALL_GRACE_SECS: f64 = 1.0;
/// CPU seconds the calibrate program may use (the handout asks for 5).
pub const CALIBRATE_LIMIT_SECS: f64 = 30.0;
/// At most this many bytes from the end of what an agent wrote to stderr
/// during one move are searched for its [`played_line`] (engine's format).
///
/// [`played_line`]: engine_core::agent::played_line
pub const STDERR_TAIL_BYTES: u64 = 4096;
/// First and last sleep between checks on a running agent.
const POLL_START: Duration = Duration::from_micros(100);
const POLL_MAX: Duration = Duration::from_millis(5);

/// An external program and its calibrate program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The calibrate program and its arguments, run once per run.
    pub calibrate: Option<Vec<String>>,
}

/// Resolves a program named with a `/` against the current folder, since
/// agents run in folders of their own.
pub(crate) fn resolve(program: &str) -> PathBuf {
    if program.contains('/') {
        std::path::absolute(program).unwrap_or_else(|_| PathBuf::from(program))
    } else {
        PathBuf::from(program)
    }
}

/// How a finished child process ended.
struct Exit {
    /// `Some(code)` on a normal exit, `None` when killed by a signal.
    code: Option<i32>,
    signal: Option<i32>,
    /// User + system CPU seconds of the child and its waited-for children.
    cpu: f64,
    /// Why we killed it, if we did.
    killed: Option<Kill>,
}

/// Why the game master killed an agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kill {
    /// Its CPU time passed its remaining time.
    Cpu,
    /// It ran past the wall-clock backstop.
    Wall,
    /// The run is being abandoned.
    Abandon,
}

/// CPU seconds (user + system, all threads) the running process `pid` has
/// used so far, from `/proc/PID/stat`; `None` where that is unavailable.
fn running_cpu(pid: libc::pid_t) -> Option<f64> {
    proc_cpu(pid, false)
}

/// CPU seconds (user + system, all threads; with `children`, those of its
/// waited-for children too) the running process `pid` has used so far,
/// from `/proc/PID/stat`; `None` where that is unavailable.
pub(crate) fn proc_cpu(pid: libc::pid_t, children: bool) -> Option<f64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name in parentheses: state is field 3,
    // utime 14, stime 15, cutime 16, cstime 17 (in clock ticks).
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let counted = if children { 11..15 } else { 11..13 };
    let ticks: f64 = fields.get(counted)?.iter().map(|f| f.parse::<f64>().ok()).sum::<Option<f64>>()?;
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (per_second > 0).then(|| ticks / per_second as f64)
}

pub(crate) fn timeval_secs(t: libc::timeval) -> f64 {
    t.tv_sec as f64 + t.tv_usec as f64 * 1e-6
}

/// Runs `program args` in `dir` with a CPU limit of `cpu_limit` seconds
/// (`None`: unlimited) and a wall-clock backstop, and reaps it.
fn run_limited(
    program: &Path,
    args: &[String],
    dir: &Path,
    cpu_limit: Option<f64>,
    abandon: &AtomicBool,
) -> std::io::Result<Exit> {
    let stderr = fs::OpenOptions::new().create(true).append(true).open(dir.join(STDERR_FILE))?;
    let mut command = Command::new(program);
    command.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::null()).stderr(stderr);
    let rlimit_secs = cpu_limit.map(|s| s.ceil().max(1.0) as libc::rlim_t);
    // SAFETY: the closure runs in the child between fork and exec and calls
    // only async-signal-safe functions (setpgid, setrlimit) on local data.
    unsafe {
        command.pre_exec(move || {
            // Own process group, so a kill reaches the agent's children too.
            libc::setpgid(0, 0);
            if let Some(secs) = rlimit_secs {
                let limit = libc::rlimit { rlim_cur: secs, rlim_max: secs + 1 };
                libc::setrlimit(libc::RLIMIT_CPU, &limit);
            }
            Ok(())
        });
    }
    let child = command.spawn()?;
    let pid = child.id() as libc::pid_t;
    let deadline = cpu_limit.map(|s| Instant::now() + Duration::from_secs_f64(s * WALL_FACTOR + WALL_GRACE_SECS));
    let mut pause = POLL_START;
    let mut killed = None;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value to be overwritten.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if killed.is_some() { 0 } else { libc::WNOHANG };
        // SAFETY: `pid` is our child, not reaped yet (std never waits for it:
        // the `Child` is dropped without `wait`); the pointers are valid.
        let rc = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if rc == pid {
            let cpu = timeval_secs(usage.ru_utime) + timeval_secs(usage.ru_stime);
            let (code, signal) = if libc::WIFEXITED(status) {
                (Some(libc::WEXITSTATUS(status)), None)
            } else {
                (None, libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)))
            };
            return Ok(Exit { code, signal, cpu, killed });
        }
        if rc < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        let reason = if abandon.load(Ordering::Relaxed) {
            Some(Kill::Abandon)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Kill::Wall)
        } else if cpu_limit.is_some_and(|limit| running_cpu(pid).is_some_and(|used| used > limit)) {
            Some(Kill::Cpu)
        } else {
            None
        };
        if reason.is_some() {
            // SAFETY: signalling our child's process group (and the child
            // itself, should setpgid not have run yet).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
            }
            killed = reason;
            continue;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(POLL_MAX);
    }
}

/// Length of the file at `path` (0 when it does not exist or cannot be read).
fn file_len(path: &Path) -> u64 {
    fs::metadata(path).map_or(0, |m| m.len())
}

/// The last non-empty line of what was appended to the file at `path`
/// after its first `start` bytes (at most [`STDERR_TAIL_BYTES`] of it);
/// `None` when there is none or the file cannot be read.
fn last_line_since(path: &Path, start: u64) -> Option<String> {
    let mut file = fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let from = start.max(len.saturating_sub(STDERR_TAIL_BYTES));
    if from >= len {
        return None;
    }
    file.seek(SeekFrom::Start(from)).ok()?;
    let mut bytes = Vec::new();
    file.take(len - from).read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    text.lines().rev().find(|l| !l.trim().is_empty()).map(str::to_string)
}

/// The decision for `mv`, with what the agent's last stderr line of the
/// move says about its search when that line is a
/// [`played_line`](engine_core::agent::played_line) for `mv`; any other line
/// gives no information.
fn decision_from_log<M: std::fmt::Display>(mv: M, line: Option<&str>) -> Decision<M> {
    let Some(played) = line.and_then(parse_played_line) else { return Decision::just(mv) };
    if !played.mv.eq_ignore_ascii_case(&mv.to_string()) {
        return Decision::just(mv);
    }
    Decision { mv, score: played.score, depth: played.depth, nodes: played.nodes.unwrap_or(0) }
}

/// Prepares `spec`'s folder `home`: checks that a program named by a path
/// exists, and runs the calibrate program once (unless `calibration.txt` is
/// already there from an earlier, resumed run).
pub fn calibrate(spec: &ExternalSpec, home: &Path) -> Result<(), String> {
    let program = resolve(&spec.program);
    if spec.program.contains('/') && !program.is_file() {
        return Err(format!("{}: no such program", program.display()));
    }
    fs::create_dir_all(home).map_err(|e| format!("{}: cannot create: {e}", home.display()))?;
    let Some(words) = &spec.calibrate else { return Ok(()) };
    if home.join(CALIBRATION_FILE).exists() {
        return Ok(());
    }
    let never = AtomicBool::new(false);
    let exit = run_limited(&resolve(&words[0]), &words[1..], home, Some(CALIBRATE_LIMIT_SECS), &never)
        .map_err(|e| format!("calibrate program `{}`: cannot run: {e}", words[0]))?;
    if exit.code != Some(0) {
        return Err(format!(
            "calibrate program `{}` failed (exit {:?}, signal {:?})",
            words[0], exit.code, exit.signal
        ));
    }
    Ok(())
}

/// An external agent: a program run once per move.
#[derive(Debug)]
pub struct ExternalPlayer {
    program: PathBuf,
    args: Vec<String>,
    home: PathBuf,
    dir: Option<PathBuf>,
}

impl ExternalPlayer {
    /// The agent of `spec`, with its per-game folders under `home`.
    pub fn new(spec: &ExternalSpec, home: &Path) -> Self {
        ExternalPlayer { program: resolve(&spec.program), args: spec.args.clone(), home: home.to_path_buf(), dir: None }
    }

    /// Creates the fresh folder of game `game` for side `side` (and copies
    /// the calibration file in).
    pub fn begin(&mut self, game: u64, side: char) -> Result<(), Failure> {
        let dir = self.home.join(format!("game-{game}-{side}"));
        let setup = || -> std::io::Result<()> {
            if dir.exists() {
                fs::remove_dir_all(&dir)?;
            }
            fs::create_dir_all(&dir)?;
            let calibration = self.home.join(CALIBRATION_FILE);
            if calibration.exists() {
                fs::copy(&calibration, dir.join(CALIBRATION_FILE))?;
            }
            Ok(())
        };
        setup().map_err(|e| Failure::new(Forfeit::Crash, format!("{}: cannot prepare: {e}", dir.display())))?;
        self.dir = Some(dir);
        Ok(())
    }

    /// Runs the program once for `state` and reads its move.
    pub fn play<P: GameProtocol>(
        &mut self,
        protocol: &P,
        state: &P::State,
        clock: &Clock,
        abandon: &AtomicBool,
    ) -> Answer<<P::State as Game>::Move> {
        let dir = self.dir.clone().expect("begin() before play()");
        let output = dir.join(OUTPUT_FILE);
        let prepared = fs::remove_file(&output)
            .or_else(|e| if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) })
            .and_then(|()| fs::write(dir.join(INPUT_FILE), protocol.input_file(state, clock)));
        if let Err(e) = prepared {
            return Answer::Lost(
                Failure::new(Forfeit::Crash, format!("{}: cannot write input: {e}", dir.display())),
                0.0,
            );
        }
        let limit = clock.own_remaining.is_finite().then_some(clock.own_remaining);
        let stderr = dir.join(STDERR_FILE);
        let stderr_start = file_len(&stderr);
        let exit = match run_limited(&self.program, &self.args, &dir, limit, abandon) {
            Ok(exit) => exit,
            Err(e) => {
                let detail = format!("cannot run `{}`: {e}", self.program.display());
                return Answer::Lost(Failure::new(Forfeit::Crash, detail), 0.0);
            }
        };
        let lost = |forfeit, detail: String| Answer::Lost(Failure::new(forfeit, detail), exit.cpu);
        match exit.killed {
            Some(Kill::Abandon) => return Answer::Abandoned,
            Some(Kill::Wall) => {
                return lost(Forfeit::Timeout, format!("no answer within {:.1} s wall clock", limit.unwrap_or(0.0)));
            }
            _ => {}
        }
        if exit.killed == Some(Kill::Cpu) || exit.cpu >= clock.own_remaining || exit.signal == Some(libc::SIGXCPU) {
            return lost(Forfeit::Timeout, format!("used {:.3} s of {:.3} s", exit.cpu, clock.own_remaining));
        }
        match (exit.code, exit.signal) {
            (Some(0), _) => {}
            (Some(code), _) => return lost(Forfeit::Crash, format!("exit status {code}")),
            (None, signal) => return lost(Forfeit::Crash, format!("killed by signal {}", signal.unwrap_or(0))),
        }
        let text = match fs::read(&output) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return lost(Forfeit::NoOutput, format!("no {OUTPUT_FILE}"));
            }
            Err(e) => return lost(Forfeit::NoOutput, format!("{OUTPUT_FILE}: {e}")),
        };
        let Ok(text) = String::from_utf8(text) else {
            return lost(Forfeit::BadOutput, format!("{OUTPUT_FILE}: not UTF-8 text"));
        };
        match protocol.parse_output(&text) {
            Ok(mv) => {
                let decision = decision_from_log(mv, last_line_since(&stderr, stderr_start).as_deref());
                Answer::Move(Played { decision, cpu: exit.cpu })
            }
            Err(e) => lost(Forfeit::BadOutput, format!("{OUTPUT_FILE}: {e}")),
        }
    }

    /// Ends the game: appends its stderr to [`STDERR_LOG`]; `clean` removes
    /// the game folder (kept after a forfeit for inspection).
    pub fn finish(&mut self, clean: bool) {
        if let Some(dir) = self.dir.take() {
            close_game_folder(&self.home, &dir, clean);
        }
    }
}

/// Ends an agent's game folder `dir` in its home `home`: appends the game's
/// stderr to [`STDERR_LOG`] under a `# game-N-side` header; `clean`
/// removes the folder (kept after a forfeit for inspection).
pub fn close_game_folder(home: &Path, dir: &Path, clean: bool) {
    if let Ok(log) = fs::read(dir.join(STDERR_FILE))
        && !log.is_empty()
    {
        let name = dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut block = format!("# {name}\n").into_bytes();
        block.extend_from_slice(&log);
        if !block.ends_with(b"\n") {
            block.push(b'\n');
        }
        // One write per game: appends from several threads do not interleave.
        let appended = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(home.join(STDERR_LOG))
            .and_then(|mut f| std::io::Write::write_all(&mut f, &block));
        if let Err(e) = appended {
            eprintln!("{}: cannot append: {e}", home.join(STDERR_LOG).display());
        }
    }
    if clean {
        let _ = fs::remove_dir_all(dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_of_this_move_gives_the_search() {
        let line = "played d3 (search depth 6 score -40 nodes 5000, 0.2500 s CPU)";
        let d = decision_from_log("d3", Some(line));
        assert_eq!((d.mv, d.score, d.depth, d.nodes), ("d3", Some(-40), Some(6), 5000));
        assert_eq!(decision_from_log("D3", Some(line)).depth, Some(6), "move letters in either case");
        for other in [None, Some("played e6 (search depth 6 score -40 nodes 5000, 0.2500 s CPU)"), Some("thinking")] {
            assert_eq!(decision_from_log("d3", other), Decision::just("d3"), "{other:?}");
        }
        let d = decision_from_log("d3", Some("played d3 (one-ply, 0.0100 s CPU)"));
        assert_eq!(d, Decision::just("d3"));
    }

    #[test]
    fn only_what_the_move_appended_is_read() {
        let dir = std::env::temp_dir().join(format!("selfplay-external-tail-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(STDERR_FILE);
        assert_eq!((file_len(&path), last_line_since(&path, 0)), (0, None));
        fs::write(&path, "played d3 (one-ply, 0.0100 s CPU)\n").unwrap();
        let start = file_len(&path);
        assert_eq!(last_line_since(&path, start), None, "nothing new");
        fs::write(&path, "played d3 (one-ply, 0.0100 s CPU)\nfirst\nlast\n\n").unwrap();
        assert_eq!(last_line_since(&path, start).as_deref(), Some("last"));
        let long = format!("{}\nend", "x".repeat(2 * STDERR_TAIL_BYTES as usize));
        fs::write(&path, &long).unwrap();
        assert_eq!(last_line_since(&path, 0).as_deref(), Some("end"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
