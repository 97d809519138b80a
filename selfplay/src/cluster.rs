//! Playing a run's games beyond this machine: the executor option of the
//! long-running programs, and the Slurm driver.
//!
//! Under `--executor slurm` a run is split into shards
//! ([`Shard`](crate::job::Shard)); the driver writes the job to
//! `OUT/shards/job.json` and a task script, submits the shards as one Slurm
//! job array (`sbatch --array`, each task runs `selfplay --job
//! OUT/shards/job.json --shard K/N --out OUT/shards/shard-K`), waits for them
//! with `squeue`, resubmits a failed task once, and merges the shard folders
//! into `OUT`'s files. The shards are deterministic, so the folder holds what
//! a local run with the same seed writes (but for CPU times). A rerun after
//! the driver was killed finds the tasks already submitted by their job
//! name and waits for them instead of submitting them again. Any other
//! cluster manager can run the same shard command (the book shows a
//! Kubernetes Indexed Job) and `selfplay merge` joins the folders.

use crate::job::{Job, Shard, pairings};
use crate::merge::merge;
use crate::record;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The folder under a run's output folder that holds the shard folders,
/// the job, the task script, the driver's state and the tasks' logs.
pub const SHARDS_DIR: &str = "shards";
/// The job the tasks play, as `{"job": ...}` (the form of `run.json`).
pub const JOB_FILE: &str = "job.json";
/// The script each array task runs.
pub const TASK_SCRIPT: &str = "task.sh";
/// The Slurm driver's state: the shard count and each task's submissions.
pub const STATE_FILE: &str = "slurm.json";
/// A failed task is submitted at most this many times in all.
pub const MAX_SUBMISSIONS: u32 = 2;
/// Shards a run is split into unless `--shards` says otherwise.
pub const DEFAULT_SHARDS: u32 = 8;
/// How often the driver asks `squeue` about the tasks.
const POLL: Duration = Duration::from_secs(2);
/// Slurm states of a task that has not ended (`squeue --states all`).
const ACTIVE_STATES: [&str; 8] =
    ["PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING", "SIGNALING"];

/// Where a run's games are played.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Executor {
    /// On this machine's threads (`--threads`).
    #[default]
    Local,
    /// As a Slurm job array of shards.
    Slurm(Slurm),
}

/// How a run is farmed out to Slurm.
#[derive(Clone, Debug, PartialEq)]
pub struct Slurm {
    /// Shards (array tasks) the run is split into; at most one per pair.
    pub shards: u32,
    /// Threads of each task, and the CPUs each asks for.
    pub cpus_per_task: usize,
    /// More `sbatch` arguments (partition, time limit, account, ..).
    pub sbatch_args: Vec<String>,
    /// The `selfplay` program the tasks run (on a shared file system).
    pub program: PathBuf,
}

/// The executor kinds `--executor` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExecutorKind {
    /// This machine's threads.
    Local,
    /// A Slurm job array of shards (sbatch, squeue).
    Slurm,
}

/// The executor options of `selfplay`, `tuner loop` and `tuner spsa`.
#[derive(clap::Args, Clone, Debug)]
pub struct ExecutorArgs {
    /// Where the games are played: local (this machine's threads, --threads)
    /// or slurm (each match a job array of --shards tasks; OUT and the
    /// programs must be on a file system the nodes share).
    #[arg(long, value_enum, default_value = "local")]
    pub executor: ExecutorKind,
    /// More sbatch arguments, split at spaces (e.g. "--partition=long --time=2:00:00").
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true, requires = "executor")]
    pub slurm_args: Option<String>,
    /// Shards (array tasks) of each match under Slurm.
    #[arg(long, default_value_t = DEFAULT_SHARDS, value_name = "N")]
    pub shards: u32,
    /// Threads of each Slurm task (sbatch --cpus-per-task).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub cpus_per_task: usize,
    /// The selfplay program the Slurm tasks run (default: the one beside this program).
    #[arg(long, value_name = "PATH")]
    pub task_program: Option<PathBuf>,
}

impl ExecutorArgs {
    /// The executor these options describe; the Slurm task program must exist.
    pub fn executor(&self) -> Result<Executor, String> {
        if self.executor == ExecutorKind::Local {
            return Ok(Executor::Local);
        }
        if self.shards == 0 || self.cpus_per_task == 0 {
            return Err("--shards and --cpus-per-task: expected at least 1".into());
        }
        let program = match &self.task_program {
            Some(p) => p.clone(),
            None => std::env::current_exe()
                .map_err(|e| format!("cannot find this program: {e}"))?
                .with_file_name(format!("selfplay{}", std::env::consts::EXE_SUFFIX)),
        };
        let program = program.canonicalize().map_err(|e| {
            format!(
                "{}: the selfplay program the Slurm tasks run is not there ({e}); build it or pass --task-program",
                program.display()
            )
        })?;
        let sbatch_args = self.slurm_args.as_deref().unwrap_or("").split_whitespace().map(String::from).collect();
        Ok(Executor::Slurm(Slurm { shards: self.shards, cpus_per_task: self.cpus_per_task, sbatch_args, program }))
    }
}

/// What the driver remembers between sessions in [`STATE_FILE`].
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct State {
    /// The shard count the run was split into (fixed at the first submission).
    shards: u32,
    /// The Slurm job name of every submission (found again by `squeue`).
    name: String,
    /// Submissions of each task (1-based) so far.
    submissions: BTreeMap<u32, u32>,
}

/// One task as `squeue` lists it: its latest submission.
#[derive(Clone, Debug, PartialEq)]
struct TaskState {
    job_id: u64,
    state: String,
}

/// Plays `job`'s games as a Slurm job array and leaves them merged in the
/// `games.csv`, `positions.csv` and `games.ggf` of the run folder `out` (the
/// caller holds its lock and has checked its `run.json`), telling `observe`
/// the games played so far at every poll and, unless `quiet`, printing each
/// new status line. Returns at once when the folder already holds every
/// game; refuses a folder a local run has begun.
pub fn play_on_slurm(
    slurm: &Slurm,
    job: &Job,
    out: &Path,
    quiet: bool,
    observe: &mut dyn FnMut(u64, u64, &str),
) -> Result<(), String> {
    if job.shard.is_some() {
        return Err("a shard is played on this machine: --shard and --executor slurm exclude each other".into());
    }
    let total = pairings(job).len() as u64 * job.games;
    let games_file = out.join(record::GAMES_FILE);
    let held = complete_rows(&games_file)?;
    if held == total {
        return Ok(());
    }
    if held > 0 {
        return Err(format!(
            "{}: holds {held} games of a run on this machine; resume it with --executor local",
            games_file.display()
        ));
    }
    let out = out.canonicalize().map_err(|e| format!("{}: {e}", out.display()))?;
    let dir = out.join(SHARDS_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let state_path = dir.join(STATE_FILE);
    // At most one shard a pair: no task plays nothing.
    let wanted = slurm.shards.min((total / 2).max(1) as u32);
    let mut state = match read_state(&state_path)? {
        // A run may be split anew only when no task of it ever ran or
        // waits: none recorded, none listed under its name, no shard's
        // folder or log (a driver killed between `sbatch` and writing the
        // state recorded none).
        Some(state) if state.submissions.is_empty() && !tasks_begun(&dir, &state.name)? => {
            State { shards: wanted, ..state }
        }
        Some(state) => {
            if state.shards != wanted && !quiet {
                eprintln!("{}: this run was split into {} shards; it keeps them", state_path.display(), state.shards);
            }
            state
        }
        None => State { shards: wanted, name: job_name(&dir), submissions: BTreeMap::new() },
    };
    record::write_json(&state_path, &serde_json::to_value(&state).map_err(|e| e.to_string())?)?;
    record::write_json(&dir.join(JOB_FILE), &serde_json::json!({ "job": job }))?;
    write_task_script(slurm, &dir, state.shards)?;
    let shards: Vec<Shard> = (1..=state.shards).map(|index| Shard { index, count: state.shards }).collect();
    let owned = |s: Shard| (0..total).filter(|&id| s.owns(id)).count() as u64;
    let mut done = vec![false; shards.len()];
    let mut shown = String::new();
    let mut tell = |played: u64, status: String| {
        if !quiet && status != shown {
            eprintln!("{status} ({played} of {total} games)");
            shown = status.clone();
        }
        observe(played, total, &status);
    };
    loop {
        let listed = squeue(&state.name)?;
        let mut played = 0;
        let mut submit = Vec::new();
        let (mut running, mut pending) = (0, 0);
        for (i, &shard) in shards.iter().enumerate() {
            let rows = complete_rows(&shard_dir(&dir, shard.index).join(record::GAMES_FILE))?;
            played += rows;
            let task = listed.get(&shard.index);
            let active = task.is_some_and(|t| ACTIVE_STATES.contains(&t.state.as_str()));
            match task.map(|t| t.state.as_str()) {
                Some("RUNNING") => running += 1,
                Some(s) if active && s != "RUNNING" => pending += 1,
                _ => {}
            }
            done[i] = rows == owned(shard) && !active;
            if done[i] || active {
                continue;
            }
            let submitted = state.submissions.get(&shard.index).copied().unwrap_or(0);
            if submitted >= MAX_SUBMISSIONS {
                let how = task.map_or("ended without its games".to_string(), |t| {
                    format!("job {}_{} ended {} without its games", t.job_id, shard.index, t.state)
                });
                return Err(format!(
                    "slurm task {} of {} failed {submitted} times ({how}): see {}",
                    shard.index,
                    state.shards,
                    log_path(&dir, shard.index).display()
                ));
            }
            if submitted > 0 {
                eprintln!(
                    "slurm task {} ended without its games ({}); submitting it again (see {})",
                    shard.index,
                    task.map_or("not listed", |t| t.state.as_str()),
                    log_path(&dir, shard.index).display()
                );
            }
            submit.push(shard.index);
        }
        if done.iter().all(|&d| d) {
            break;
        }
        if !submit.is_empty() {
            let id = sbatch(slurm, &dir, &state, &submit)?;
            for k in &submit {
                *state.submissions.entry(*k).or_insert(0) += 1;
            }
            record::write_json(&state_path, &serde_json::to_value(&state).map_err(|e| e.to_string())?)?;
            let list = submit.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            tell(played, format!("slurm job {id}: submitted tasks {list} of {}", state.shards));
        } else {
            let ended = done.iter().filter(|&&d| d).count();
            let status = format!(
                "slurm {}: {running} tasks running, {pending} waiting, {ended} of {} done",
                state.name, state.shards
            );
            tell(played, status);
        }
        std::thread::sleep(POLL);
    }
    merge_shards(&dir, &out, &shards)
}

/// The folder of shard `index`.
fn shard_dir(dir: &Path, index: u32) -> PathBuf {
    dir.join(format!("{SHARD_PREFIX}{index}"))
}

/// True when a task of the job `name`, whose shards folder is `dir`, is
/// listed by Slurm or has left a shard folder or log behind.
fn tasks_begun(dir: &Path, name: &str) -> Result<bool, String> {
    if !squeue(name)?.is_empty() {
        return Ok(true);
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    Ok(entries.filter_map(Result::ok).any(|e| e.file_name().to_string_lossy().starts_with(SHARD_PREFIX)))
}

/// The name of a shard folder before its index.
const SHARD_PREFIX: &str = "shard-";

/// The shard folders of the Slurm run in `out` that hold games so far, in
/// shard order: what a live report reads while the tasks play (none before
/// the first task has finished a game, and none once the run has merged
/// them into `out`).
pub fn shard_folders_with_games(out: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(out.join(SHARDS_DIR)) else { return Vec::new() };
    let mut found: Vec<(u32, PathBuf)> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let index = path.file_name()?.to_str()?.strip_prefix(SHARD_PREFIX)?.parse().ok()?;
            path.join(record::GAMES_FILE).is_file().then_some((index, path))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, path)| path).collect()
}

/// The log of shard `index`'s task (every submission appends to it).
fn log_path(dir: &Path, index: u32) -> PathBuf {
    dir.join(format!("{SHARD_PREFIX}{index}.log"))
}

/// A job name unique to the shards folder `dir`, so that a rerun finds the
/// tasks it submitted before.
fn job_name(dir: &Path) -> String {
    let hash = engine_core::mix::fnv1a(dir.to_string_lossy().as_bytes());
    format!("workbench-{:012x}", hash >> 16)
}

/// Complete data rows of the CSV file `path` (0 when it does not exist):
/// the lines up to the last newline, less the header.
pub fn complete_rows(path: &Path) -> Result<u64, String> {
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let len = record::complete_len(&mut file, path)?;
    let mut text = Vec::with_capacity(len as usize);
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, len), &mut text)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let lines = text.iter().filter(|&&b| b == b'\n').count() as u64;
    Ok(lines.saturating_sub(1))
}

fn read_state(path: &Path) -> Result<Option<State>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("{}:{}: expected the Slurm driver's state: {e}", path.display(), e.line())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: cannot read: {e}", path.display())),
    }
}

/// A word for `sh`: in single quotes, with its own single quotes escaped.
fn shell_word(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn write_task_script(slurm: &Slurm, dir: &Path, shards: u32) -> Result<(), String> {
    let program = shell_word(&slurm.program.to_string_lossy());
    let job = shell_word(&dir.join(JOB_FILE).to_string_lossy());
    let shard_prefix = shell_word(&dir.join(SHARD_PREFIX).to_string_lossy());
    let script = format!(
        "#!/bin/sh\n\
         # Written by the workbench's Slurm executor: array task K plays shard K of {shards}.\n\
         exec {program} --job {job} --shard \"$SLURM_ARRAY_TASK_ID/{shards}\" --threads {threads} \
         --out {shard_prefix}\"$SLURM_ARRAY_TASK_ID\"\n",
        threads = slurm.cpus_per_task,
    );
    let path = dir.join(TASK_SCRIPT);
    let tmp = path.with_extension("sh.tmp");
    std::fs::write(&tmp, script).map_err(|e| format!("{}: cannot write: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs a Slurm command; its standard output, or a one-line error.
fn slurm_command(program: &str, args: &[String]) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: cannot run it ({e}): is Slurm installed and on PATH?"))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        return Err(format!("{program} {}: {}", args.join(" "), err.trim().lines().next().unwrap_or("failed")));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Submits tasks `tasks` of the array; returns the job id.
fn sbatch(slurm: &Slurm, dir: &Path, state: &State, tasks: &[u32]) -> Result<u64, String> {
    let list = tasks.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the working folder: {e}"))?;
    let mut args = vec![
        "--parsable".to_string(),
        format!("--array={list}"),
        format!("--job-name={}", state.name),
        format!("--cpus-per-task={}", slurm.cpus_per_task),
        format!("--output={}", dir.join(format!("{SHARD_PREFIX}%a.log")).display()),
        "--open-mode=append".to_string(),
        format!("--chdir={}", cwd.display()),
    ];
    args.extend(slurm.sbatch_args.iter().cloned());
    args.push(dir.join(TASK_SCRIPT).to_string_lossy().into_owned());
    let text = slurm_command("sbatch", &args)?;
    let id = text.trim().split(';').next().unwrap_or("");
    id.parse().map_err(|_| format!("sbatch: expected a job id, found `{}`", text.trim()))
}

/// The latest submission of every task of the job array named `name`, as
/// `squeue` lists them (ended tasks stay listed for a few minutes).
fn squeue(name: &str) -> Result<BTreeMap<u32, TaskState>, String> {
    let args: Vec<String> = ["--noheader", "--array", "--states=all", &format!("--name={name}"), "--format=%A %K %T"]
        .map(String::from)
        .into();
    latest_tasks(&slurm_command("squeue", &args)?)
}

/// The latest submission of each task in `squeue --format="%A %K %T"`
/// output: `JOB TASK STATE` a line (the highest job id of a task wins; a
/// line without a single task number, a pending range, is skipped).
fn latest_tasks(text: &str) -> Result<BTreeMap<u32, TaskState>, String> {
    let mut tasks: BTreeMap<u32, TaskState> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let bad = || format!("squeue: expected `JOB TASK STATE`, found `{line}`");
        let mut words = line.split_whitespace();
        let job_id: u64 = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        let Ok(task) = words.next().ok_or_else(bad)?.parse::<u32>() else { continue };
        let state = words.next().ok_or_else(bad)?.to_string();
        if tasks.get(&task).is_none_or(|t| t.job_id < job_id) {
            tasks.insert(task, TaskState { job_id, state });
        }
    }
    Ok(tasks)
}

/// Merges the shard folders into a scratch folder, then moves its files
/// into `out` (the games last: a run is done when they are there) and
/// removes the shard folders (their logs stay).
fn merge_shards(dir: &Path, out: &Path, shards: &[Shard]) -> Result<(), String> {
    let scratch = dir.join("merged");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).map_err(|e| format!("{}: cannot remove: {e}", scratch.display()))?;
    }
    let sources: Vec<PathBuf> = shards.iter().map(|s| shard_dir(dir, s.index)).collect();
    merge(&scratch, &sources)?;
    for name in [record::POSITIONS_FILE, record::GGF_FILE, record::GAMES_FILE] {
        let from = scratch.join(name);
        if from.exists() {
            std::fs::rename(&from, out.join(name)).map_err(|e| format!("{}: cannot move: {e}", from.display()))?;
        }
    }
    for path in sources.iter().chain([&scratch]) {
        std::fs::remove_dir_all(path).map_err(|e| format!("{}: cannot remove: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_submission_of_a_task_wins() {
        let text = "12 1 FAILED\n12 2 COMPLETED\n15 1 PENDING\n16 [3-4] PENDING\n\n";
        let tasks = latest_tasks(text).unwrap();
        assert_eq!(tasks.len(), 2);
        assert_eq!(tasks[&1], TaskState { job_id: 15, state: "PENDING".into() });
        assert_eq!(tasks[&2], TaskState { job_id: 12, state: "COMPLETED".into() });
        let err = latest_tasks("12 1\n").unwrap_err();
        assert_eq!(err, "squeue: expected `JOB TASK STATE`, found `12 1`");
    }

    #[test]
    fn shell_words_survive_quotes_and_spaces() {
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }

    #[test]
    fn job_names_differ_by_folder_and_fit_slurm() {
        let a = job_name(Path::new("/runs/a/shards"));
        let b = job_name(Path::new("/runs/b/shards"));
        assert_ne!(a, b);
        assert_eq!(a, job_name(Path::new("/runs/a/shards")));
        assert!(a.len() <= 64 && a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'), "{a}");
    }

    #[test]
    fn complete_rows_skip_the_header_and_a_torn_line() {
        let dir = std::env::temp_dir().join(format!("cluster-rows-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.csv");
        assert_eq!(complete_rows(&path).unwrap(), 0);
        std::fs::write(&path, "game,pair\n0,0\n1,0\n2,1").unwrap();
        assert_eq!(complete_rows(&path).unwrap(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
