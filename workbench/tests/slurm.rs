//! Matches and a tuner loop played through a real Slurm (`--executor
//! slurm`): the folders hold what local runs with the same seeds write, a
//! driver killed while its tasks wait finds them again instead of
//! submitting them twice, and a failing task is submitted once more, then
//! named with its log. These tests need a running Slurm and are ignored
//! otherwise: `scripts/slurm-test` starts a one-node cluster and runs them.

use crate::tuner_loop;
use reversi::tuning::EngineTuning;
use selfplay::checks::temp_dir;
use selfplay::cluster::{Executor, MAX_SUBMISSIONS, SHARDS_DIR, STATE_FILE, Slurm};
use selfplay::record::{self, GAMES_FILE, GameRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tuner::round_loop::run_loop;

/// Games of the test match (20 colour-swapped pairs).
const GAMES: &str = "40";
/// Shards of the Slurm runs.
const SHARDS: &str = "4";
/// How long a test waits for a task's submission.
const SUBMIT_WAIT: Duration = Duration::from_secs(60);
/// How long a test waits for the tasks to play every game.
const TASK_WAIT: Duration = Duration::from_secs(180);

/// The arguments of the test match into `out` (deterministic players).
fn match_args(out: &Path) -> Vec<String> {
    let out = out.to_str().unwrap();
    ["--variant", "othello6", "--a", "engine:depth=3", "--b", "engine:depth=2", "--games", GAMES, "--seed", "5"]
        .iter()
        .map(|s| s.to_string())
        .chain(["--random-plies", "4", "--out", out].map(String::from))
        .collect()
}

fn selfplay(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_selfplay")).args(args).output().unwrap()
}

fn slurm_args(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["--executor", "slurm", "--shards", SHARDS].map(String::from).into();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The games of a folder in id order without their CPU seconds (the one
/// thing that differs between machines and runs).
fn games(dir: &Path) -> Vec<GameRecord> {
    let mut games = record::read_games(&dir.join(GAMES_FILE)).unwrap();
    for g in &mut games {
        (g.black_cpu, g.white_cpu) = (0.0, 0.0);
    }
    games.sort_by_key(|g| g.game);
    games
}

/// The rows of positions.csv sorted, without the `cpu` column.
fn positions(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join(record::POSITIONS_FILE)).unwrap();
    let cpu = record::POSITIONS_HEADER.iter().position(|&c| c == "cpu").unwrap();
    let mut rows: Vec<String> = text
        .lines()
        .map(|l| l.split(',').enumerate().filter(|&(i, _)| i != cpu).map(|(_, f)| f).collect::<Vec<_>>().join(","))
        .collect();
    rows.sort();
    rows
}

/// The games the shard folders of the Slurm run in `out` hold so far (the
/// complete lines of their games.csv, less the headers).
fn shard_games(out: &Path) -> u64 {
    let rows = |dir: &PathBuf| selfplay::cluster::complete_rows(&dir.join(GAMES_FILE)).unwrap();
    selfplay::cluster::shard_folders_with_games(out).iter().map(rows).sum()
}

/// The submissions of every task, from the driver's state.
fn submissions(out: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(out.join(SHARDS_DIR).join(STATE_FILE)).unwrap();
    let state: serde_json::Value = serde_json::from_str(&text).unwrap();
    state["submissions"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).collect()
}

/// The local run of the test match (played once per test binary).
fn local_match() -> PathBuf {
    static LOCAL: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    LOCAL
        .get_or_init(|| {
            let dir = temp_dir("slurm", "local").join("match");
            let mut args = match_args(&dir);
            args.extend(["--threads", "2"].map(String::from));
            ok(&selfplay(&args));
            dir
        })
        .clone()
}

fn assert_same_games(slurm: &Path, local: &Path) {
    let (a, b) = (games(slurm), games(local));
    assert_eq!(a.len(), GAMES.parse::<usize>().unwrap());
    assert_eq!(a, b, "the games through Slurm differ from the local run's");
    assert_eq!(positions(slurm), positions(local));
}

#[test]
#[ignore = "needs a running Slurm: scripts/slurm-test starts one"]
fn a_match_through_slurm_equals_the_local_run() {
    let out = temp_dir("slurm", "match").join("match");
    let mut args = match_args(&out);
    args.extend(slurm_args(&[]));
    let text = ok(&selfplay(&args));
    assert!(text.contains("W-D-L"), "{text}");
    assert_same_games(&out, &local_match());
    assert_eq!(submissions(&out), vec![1; 4], "one submission per task");
    // The shard folders were merged away; their logs stay.
    let shards = out.join(SHARDS_DIR);
    assert!(!shards.join("shard-1").exists() && shards.join("shard-1.log").exists());
    // A rerun of the finished run submits nothing and changes nothing.
    let before = std::fs::read_to_string(out.join(GAMES_FILE)).unwrap();
    ok(&selfplay(&args));
    assert_eq!(std::fs::read_to_string(out.join(GAMES_FILE)).unwrap(), before);
    assert_eq!(submissions(&out), vec![1; 4]);
}

#[test]
#[ignore = "needs a running Slurm: scripts/slurm-test starts one"]
fn a_killed_driver_finds_its_tasks_again() {
    let out = temp_dir("slurm", "kill").join("match");
    let mut args = match_args(&out);
    // The tasks wait a while before they start: the driver dies while they are queued.
    args.extend(slurm_args(&["--slurm-args", "--begin=now+8"]));
    let mut driver = Command::new(env!("CARGO_BIN_EXE_selfplay"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let state = out.join(SHARDS_DIR).join(STATE_FILE);
    let start = Instant::now();
    while !(state.exists() && submissions(&out).len() == 4) {
        assert!(start.elapsed() < SUBMIT_WAIT, "no submission after {SUBMIT_WAIT:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    driver.kill().unwrap();
    driver.wait().unwrap();
    assert!(!out.join(GAMES_FILE).exists() || games(&out).is_empty());
    // The tasks play on without the driver; until a rerun merges their
    // folders, a report of the run reads the games they hold.
    let total: u64 = GAMES.parse().unwrap();
    let start = Instant::now();
    while shard_games(&out) < total {
        assert!(start.elapsed() < TASK_WAIT, "the tasks played {} games in {TASK_WAIT:?}", shard_games(&out));
        std::thread::sleep(Duration::from_millis(200));
    }
    let page = out.with_file_name("live.html");
    ok(&selfplay(&["report", "--out", page.to_str().unwrap(), out.to_str().unwrap()].map(String::from)));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(&format!("Live from the games of {SHARDS} Slurm shard folders")), "{html}");
    assert!(html.contains(&format!("games.csv: {total} games")), "{html}");
    // The rerun waits for the queued tasks: it submits none of them again.
    let text = ok(&selfplay(&args));
    assert!(text.contains("W-D-L"), "{text}");
    assert_eq!(submissions(&out), vec![1; 4], "a task was submitted twice");
    assert_same_games(&out, &local_match());
}

/// A task program that fails on its first run in each shard, then plays.
fn flaky_program(dir: &Path) -> PathBuf {
    let path = dir.join("flaky.sh");
    let script = format!(
        "#!/bin/sh\nmark={}/failed-$SLURM_ARRAY_TASK_ID\n\
         if [ ! -e \"$mark\" ]; then touch \"$mark\"; echo 'flaky: failing on purpose' >&2; exit 3; fi\n\
         exec {} \"$@\"\n",
        dir.display(),
        env!("CARGO_BIN_EXE_selfplay")
    );
    std::fs::write(&path, script).unwrap();
    make_executable(&path);
    path
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
#[ignore = "needs a running Slurm: scripts/slurm-test starts one"]
fn a_failed_task_is_submitted_once_more_then_named() {
    let dir = temp_dir("slurm", "fail");
    let out = dir.join("flaky");
    let mut args = match_args(&out);
    let flaky = flaky_program(&dir);
    args.extend(slurm_args(&["--task-program", flaky.to_str().unwrap()]));
    ok(&selfplay(&args));
    assert_eq!(submissions(&out), vec![2; 4], "each task failed once, then played");
    assert_same_games(&out, &local_match());

    let broken = dir.join("broken.sh");
    std::fs::write(&broken, "#!/bin/sh\necho 'broken: no games today' >&2\nexit 1\n").unwrap();
    make_executable(&broken);
    let out = dir.join("broken");
    let mut args = match_args(&out);
    args.extend(slurm_args(&["--task-program", broken.to_str().unwrap()]));
    let run = selfplay(&args);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    let last = err.lines().last().unwrap_or("");
    assert!(
        last.starts_with("selfplay: slurm task ") && last.contains(&format!("failed {MAX_SUBMISSIONS} times")),
        "{err}"
    );
    let log = last.rsplit("see ").next().unwrap();
    let log_text = std::fs::read_to_string(log).unwrap_or_else(|e| panic!("{log}: {e}"));
    assert_eq!(log_text.matches("broken: no games today").count(), MAX_SUBMISSIONS as usize, "{log_text}");
}

#[test]
#[ignore = "needs a running Slurm: scripts/slurm-test starts one"]
fn a_two_round_loop_through_slurm_equals_the_local_loop() {
    let local = temp_dir("slurm", "loop-local").join("loop");
    run_loop(&EngineTuning, &tuner_loop::options(&local, None)).unwrap();
    let out = temp_dir("slurm", "loop").join("loop");
    let mut options = tuner_loop::options(&out, None);
    let program = PathBuf::from(env!("CARGO_BIN_EXE_selfplay"));
    options.executor = Executor::Slurm(Slurm { shards: 3, cpus_per_task: 1, sbatch_args: Vec::new(), program });
    let report = run_loop(&EngineTuning, &options).unwrap();
    assert_eq!(report.rounds, tuner_loop::ROUNDS);
    assert_eq!(tuner_loop::decided(&out), tuner_loop::decided(&local), "the ladders differ");
    assert!(out.join("round-001/selfplay").join(SHARDS_DIR).join(STATE_FILE).exists(), "not played on Slurm");
}
