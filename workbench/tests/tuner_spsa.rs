//! `tuner spsa` on othello6 at a node budget: a run killed in its middle
//! and rerun writes the same iterations as an uninterrupted one, the
//! tuned values come out as flags and registry lines, a held folder and
//! other settings are refused, and a bad parameters file is named with
//! its line.

use selfplay::checks::temp_dir;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tuner::spsa::{SPSA_FILE, TUNED_FILE};

const PARAMS: &str = "\
# name, kind, start, min, max, c_end, r_end
mpc.confidence, float, 1.0, 0.0, 3.0, 0.5, 0.01
search.aspiration_depth, int, 4, 1, 8, 1, 0.01
";
const ITERATIONS: &str = "8";

/// The arguments of a run in `out` with the parameters file `params`.
fn args<'a>(out: &'a str, params: &'a str) -> Vec<&'a str> {
    vec![
        "spsa",
        "--variant",
        "othello6",
        "--params",
        params,
        "--nodes",
        "1000",
        "--tt",
        "1",
        "--iterations",
        ITERATIONS,
        "--pairs-per-iteration",
        "3",
        "--random-plies",
        "4",
        "--threads",
        "2",
        "--seed",
        "11",
        "--no-verify",
        "--out",
        out,
    ]
}

fn tuner(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tuner")).args(args).output().unwrap()
}

/// The rows of `spsa.csv` without their CPU-second column (the one thing
/// a kill changes).
fn decided(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join(SPSA_FILE)).unwrap();
    text.lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(5);
            f.join(",")
        })
        .collect()
}

#[test]
fn a_killed_spsa_run_resumes_on_the_same_trajectory() {
    let dir = temp_dir("tuner-spsa", "resume");
    let params = dir.join("params.txt");
    std::fs::write(&params, PARAMS).unwrap();
    let p = params.to_str().unwrap();
    let whole = dir.join("whole");
    let out = tuner(&args(whole.to_str().unwrap(), p));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let straight = decided(&whole);
    assert_eq!(straight.len(), 9, "{straight:?}");
    assert_eq!(straight[0], "iteration,games,wins,draws,losses,mpc.confidence,search.aspiration_depth");
    let tuned = std::fs::read_to_string(whole.join(TUNED_FILE)).unwrap();
    assert!(tuned.contains("--param mpc.confidence=") && tuned.contains("search.aspiration_depth: 4 -> "), "{tuned}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("--param search.aspiration_depth="));
    // The report reads each start and range from the spsa.json the tuner
    // wrote (the values of PARAMS above).
    let html = selfplay::report::render(std::slice::from_ref(&whole)).unwrap();
    assert!(html.contains("<td class=\"text\">mpc.confidence</td><td>1</td><td>0-3</td>"), "{html}");
    assert!(html.contains("<td class=\"text\">search.aspiration_depth</td><td>4</td><td>1-8</td>"), "{html}");

    // Killed once its first iteration is recorded, then rerun.
    let cut = dir.join("cut");
    let cut_arg = cut.to_str().unwrap().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuner"))
        .args(args(&cut_arg, p))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(cut.join(SPSA_FILE)).map_or(0, |t| t.lines().count()) < 2 {
        assert!(Instant::now() < deadline, "no iteration within two minutes");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let rows = decided(&cut).len();
    assert!(rows < straight.len(), "the kill came after the end: {rows} rows");
    let out = tuner(&args(&cut_arg, p));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(decided(&cut), straight);
    assert_eq!(std::fs::read_to_string(cut.join(TUNED_FILE)).unwrap(), tuned);
}

#[test]
fn other_settings_held_folders_and_bad_parameter_files_are_refused() {
    let dir = temp_dir("tuner-spsa", "refuse");
    let params = dir.join("params.txt");
    std::fs::write(&params, PARAMS).unwrap();
    let p = params.to_str().unwrap();
    let out_dir = dir.join("run");
    let run = out_dir.to_str().unwrap();
    assert!(tuner(&args(run, p)).status.success());
    // Another seed on the same folder.
    let mut other = args(run, p);
    let seed = other.iter().position(|a| *a == "--seed").unwrap();
    other[seed + 1] = "12";
    let out = tuner(&other);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("`seed` differs") && err.lines().count() == 1, "{err}");
    // A folder another run holds.
    let _held = selfplay::record::FolderLock::acquire(&out_dir).unwrap();
    let out = tuner(&args(run, p));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("another run"), "{err}");
    // A parameters file with a bad line.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# header\nmpc.confidence, float, 1.0, 0.0, 3.0, 0.5\n").unwrap();
    let fresh = dir.join("fresh");
    let out = tuner(&args(fresh.to_str().unwrap(), bad.to_str().unwrap()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("bad.txt: line 2: 6 fields") && err.lines().count() == 1, "{err}");
    // A name no registry knows fails on the first match.
    std::fs::write(&bad, "search.no_such, float, 1.0, 0.0, 3.0, 0.5, 0.01\n").unwrap();
    let out = tuner(&args(fresh.to_str().unwrap(), bad.to_str().unwrap()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("search.no_such"), "{err}");
}

#[test]
fn the_proof_match_plays_at_its_own_time_control() {
    let dir = temp_dir("tuner-spsa", "verify-tc");
    let params = dir.join("params.txt");
    std::fs::write(&params, PARAMS).unwrap();
    let out_dir = dir.join("run");
    let (p, run) = (params.to_str().unwrap(), out_dir.to_str().unwrap());
    let timed = [
        "spsa",
        "--variant",
        "othello6",
        "--params",
        p,
        "--tc",
        "0.2",
        "--iterations",
        "1",
        "--pairs-per-iteration",
        "1",
        "--random-plies",
        "4",
        "--threads",
        "2",
        "--verify-games",
        "2",
        "--verify-tc",
        "0.3",
        "--sprt",
        "0,100",
        "--out",
        run,
    ];
    let out = tuner(&timed);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tc = |folder: &str| selfplay::job::read_job(&out_dir.join(folder).join("run.json")).unwrap().tc;
    assert_eq!(tc("iter-00000"), 0.2);
    assert_eq!(tc("verify"), 0.3);
    // Only a timed run has a time control to change.
    let untimed_dir = dir.join("untimed");
    let mut untimed = args(untimed_dir.to_str().unwrap(), p);
    untimed.extend(["--verify-tc", "1"]);
    let out = tuner(&untimed);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.starts_with("tuner: --verify-tc: expected a timed run (--tc)"), "{err}");
}
