//! NBoard engines as players (`nboard:PROGRAM [ARGS][;depth=D][;tc=S]`):
//! one process per game, started in a fresh folder of its own (stderr kept
//! there), spoken to in the NBoard protocol. Before each move it is sent
//! `ping N`, `set game` with the position as a GGF game (`TI`: its
//! remaining time) and `go`; the first `=== MOVE[/EVAL/TIME]` answer (or
//! Edax's `=== MOVE EVAL TIME`) after `pong N` is the move.
//!
//! Refereed like the file-protocol agents of [`crate::external`]: charged
//! the CPU time of its process (user + system, all threads, with its
//! waited-for children, read from `/proc` when it answers), killed and
//! scored a loss when it dies (crash), passes its remaining time (its CPU
//! time is polled while it thinks; one that idles is stopped by the same
//! wall-clock backstop), or answers something that is not a move
//! (bad output); the match loop scores an illegal move.

use crate::answer::{Answer, Failure, Forfeit, Played};
use crate::external::{STDERR_FILE, WALL_FACTOR, WALL_GRACE_SECS, close_game_folder, proc_cpu, resolve};
use crate::protocol::GameProtocol;
use engine_core::agent::{Clock, Decision};
use engine_core::eval::SCORE_PER_POINT;
use engine_core::game::Game;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The protocol version sent first.
pub const VERSION: u32 = 2;
/// What starts an engine's move answer.
pub const MOVE_PREFIX: &str = "===";
/// What starts an engine's node count report.
const NODESTATS_PREFIX: &str = "nodestats";
/// How often a thinking engine's clock is checked.
const POLL: Duration = Duration::from_millis(5);

/// An NBoard engine and its settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NBoardSpec {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The depth sent with `set depth` (none: the engine's own).
    pub depth: Option<u32>,
}

/// A running engine.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// CPU seconds charged so far.
    charged: f64,
    /// The number of the last `ping` sent.
    pings: u64,
}

/// CPU seconds (user + system, all threads, with its waited-for children)
/// the running process `pid` has used.
fn process_cpu(pid: u32) -> Option<f64> {
    proc_cpu(pid as libc::pid_t, true)
}

/// What an engine's `===` line says: the move text and the evaluation.
fn parse_answer(line: &str) -> Result<(String, Option<f64>), String> {
    let body = line.trim().strip_prefix(MOVE_PREFIX).unwrap_or("").trim();
    let mut words = body.split_whitespace();
    let first = words.next().ok_or_else(|| format!("expected `{MOVE_PREFIX} MOVE[/EVAL/TIME]`, found `{line}`"))?;
    let mut fields = first.split('/');
    let mv = fields.next().unwrap_or("").to_string();
    let eval = fields.next().or_else(|| words.next()).and_then(|e| e.parse::<f64>().ok()).filter(|e| e.is_finite());
    Ok((mv, eval))
}

/// The node count of a `nodestats NODES SECONDS` line.
fn parse_nodestats(line: &str) -> Option<u64> {
    let rest = line.trim().strip_prefix(NODESTATS_PREFIX)?;
    let nodes: f64 = rest.split_whitespace().next()?.parse().ok()?;
    (nodes.is_finite() && nodes >= 0.0).then_some(nodes as u64)
}

/// An NBoard engine playing one game at a time.
pub struct NBoardPlayer {
    program: PathBuf,
    args: Vec<String>,
    depth: Option<u32>,
    home: PathBuf,
    dir: Option<PathBuf>,
    running: Option<Running>,
}

impl NBoardPlayer {
    /// The engine of `spec`, with its per-game folders under `home`.
    pub fn new(spec: &NBoardSpec, home: &Path) -> Self {
        NBoardPlayer {
            program: resolve(&spec.program),
            args: spec.args.clone(),
            depth: spec.depth,
            home: home.to_path_buf(),
            dir: None,
            running: None,
        }
    }

    /// Starts the engine for game `game` as side `side` in a fresh folder
    /// and tells it the protocol version and depth.
    pub fn begin(&mut self, game: u64, side: char) -> Result<(), Failure> {
        self.stop();
        let dir = self.home.join(format!("game-{game}-{side}"));
        let crash = |what: String| Failure::new(Forfeit::Crash, what);
        let prepared = (|| -> std::io::Result<fs::File> {
            if dir.exists() {
                fs::remove_dir_all(&dir)?;
            }
            fs::create_dir_all(&dir)?;
            fs::File::create(dir.join(STDERR_FILE))
        })();
        let stderr = prepared.map_err(|e| crash(format!("{}: cannot prepare: {e}", dir.display())))?;
        self.dir = Some(dir.clone());
        let mut command = Command::new(&self.program);
        command.args(&self.args).current_dir(&dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr);
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only setpgid, which is async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                // Own process group, so a kill reaches the engine's children too.
                libc::setpgid(0, 0);
                Ok(())
            });
        }
        let mut child = command.spawn().map_err(|e| crash(format!("cannot run `{}`: {e}", self.program.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(crash("no pipes to the engine".into()));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut running = Running { child, stdin, lines, charged: 0.0, pings: 0 };
        let mut hello = format!("nboard {VERSION}\n");
        if let Some(depth) = self.depth {
            hello += &format!("set depth {depth}\n");
        }
        let sent = running.stdin.write_all(hello.as_bytes()).and_then(|()| running.stdin.flush());
        self.running = Some(running);
        sent.map_err(|e| crash(format!("cannot write to the engine: {e}")))
    }

    /// Kills the engine's process group and reaps it.
    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let pid = r.child.id() as libc::pid_t;
            // SAFETY: signalling our own child's process group (and the
            // child itself, should setpgid not have run yet).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
            }
            let _ = r.child.wait();
        }
    }

    /// How the engine ended, once it has closed its output: its exit
    /// status if it exits within the grace time.
    fn exit_detail(r: &mut Running) -> String {
        let grace = Instant::now() + Duration::from_secs_f64(WALL_GRACE_SECS);
        while Instant::now() < grace {
            match r.child.try_wait() {
                Ok(Some(status)) => {
                    return match (status.code(), std::os::unix::process::ExitStatusExt::signal(&status)) {
                        (Some(code), _) => format!("exited with status {code} without a move"),
                        (None, Some(signal)) => format!("killed by signal {signal}"),
                        _ => "ended without a move".into(),
                    };
                }
                Ok(None) => std::thread::sleep(POLL),
                Err(e) => return format!("ended without a move ({e})"),
            }
        }
        "closed its output without a move".into()
    }

    /// Asks the engine for its move in `state` with `clock` on its clock.
    pub fn play<P: GameProtocol>(
        &mut self,
        protocol: &P,
        state: &P::State,
        clock: &Clock,
        abandon: &AtomicBool,
    ) -> Answer<<P::State as Game>::Move> {
        let limit = clock.own_remaining.is_finite().then_some(clock.own_remaining);
        let Some(game) = protocol.nboard_game(state, limit) else {
            let detail = format!("NBoard engines play othello8, not {}", protocol.variant());
            return Answer::Lost(Failure::new(Forfeit::Crash, detail), 0.0);
        };
        let Some(r) = self.running.as_mut() else {
            return Answer::Lost(Failure::new(Forfeit::Crash, "the engine is not running"), 0.0);
        };
        let pid = r.child.id();
        let charge = |r: &mut Running| {
            let now = process_cpu(pid).unwrap_or(r.charged);
            let cpu = (now - r.charged).max(0.0);
            r.charged = now;
            cpu
        };
        // Whatever the engine says before its `pong` belongs to earlier commands.
        r.pings += 1;
        let pong = format!("pong {}", r.pings);
        let ask = format!("ping {}\nset game {game}\ngo\n", r.pings);
        let asked = r.stdin.write_all(ask.as_bytes()).and_then(|()| r.stdin.flush());
        if let Err(e) = asked {
            let detail = format!("cannot write to the engine ({e}): {}", Self::exit_detail(r));
            let cpu = charge(r);
            self.stop();
            return Answer::Lost(Failure::new(Forfeit::Crash, detail), cpu);
        }
        let deadline = limit.map(|s| Instant::now() + Duration::from_secs_f64(s * WALL_FACTOR + WALL_GRACE_SECS));
        let (mut nodes, mut synced) = (0, false);
        let answer = loop {
            match r.lines.recv_timeout(POLL) {
                Ok(line) if !synced => synced = line.trim() == pong,
                Ok(line) if line.trim_start().starts_with(MOVE_PREFIX) => break Ok(line),
                Ok(line) => nodes = parse_nodestats(&line).unwrap_or(nodes),
                Err(RecvTimeoutError::Timeout) => {
                    if abandon.load(Ordering::Relaxed) {
                        self.stop();
                        return Answer::Abandoned;
                    }
                    let used = process_cpu(pid).unwrap_or(r.charged) - r.charged;
                    if limit.is_some_and(|l| used > l) {
                        break Err(Failure::new(
                            Forfeit::Timeout,
                            format!("used {used:.3} s of {:.3} s", clock.own_remaining),
                        ));
                    }
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        let detail = format!("no answer within {:.1} s wall clock", limit.unwrap_or(0.0));
                        break Err(Failure::new(Forfeit::Timeout, detail));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    break Err(Failure::new(Forfeit::Crash, Self::exit_detail(r)));
                }
            }
        };
        let cpu = charge(r);
        let line = match answer {
            Ok(line) => line,
            Err(failure) => {
                self.stop();
                return Answer::Lost(failure, cpu);
            }
        };
        let parsed = parse_answer(&line).and_then(|(text, eval)| {
            let mv = protocol.parse_nboard_move(&text).map_err(|e| format!("`{}`: {e}", line.trim()))?;
            Ok((mv, eval))
        });
        match parsed {
            Ok((mv, eval)) => {
                let score = eval.map(|e| (e * f64::from(SCORE_PER_POINT)).round() as i32);
                Answer::Move(Played { decision: Decision { mv, score, depth: None, nodes }, cpu })
            }
            Err(e) => {
                self.stop();
                Answer::Lost(Failure::new(Forfeit::BadOutput, e), cpu)
            }
        }
    }

    /// Ends the game: stops the engine and closes its folder (see
    /// [`close_game_folder`]).
    pub fn finish(&mut self, clean: bool) {
        if let Some(r) = self.running.as_mut() {
            let _ = r.stdin.write_all(b"quit\n");
        }
        self.stop();
        if let Some(dir) = self.dir.take() {
            close_game_folder(&self.home, &dir, clean);
        }
    }
}

impl Drop for NBoardPlayer {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_both_forms_read() {
        assert_eq!(parse_answer("=== F5/0.50/1.2"), Ok(("F5".into(), Some(0.5))));
        assert_eq!(parse_answer("=== d6 -1.00 0.0"), Ok(("d6".into(), Some(-1.0))), "Edax's form");
        assert_eq!(parse_answer("=== F5//0.01"), Ok(("F5".into(), None)));
        assert_eq!(parse_answer("===  PA"), Ok(("PA".into(), None)));
        assert!(parse_answer("===").is_err());
        assert_eq!(parse_nodestats("nodestats 35805 0.00"), Some(35805));
        assert_eq!(parse_nodestats("nodestats x"), None);
    }

    #[test]
    fn this_process_has_a_cpu_time() {
        let cpu = process_cpu(std::process::id()).unwrap();
        assert!(cpu >= 0.0);
    }
}
