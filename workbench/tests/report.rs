//! `selfplay report` on a real run: a tiny match played by the `selfplay`
//! program, then the report of its folder.

use std::path::Path;
use std::process::Command;

/// Games of the match.
const GAMES: u64 = 4;

/// Runs the `selfplay` program with `args`; panics with its stderr on failure.
fn selfplay(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_selfplay")).args(args).output().expect("selfplay runs");
    assert!(out.status.success(), "selfplay {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn a_report_of_a_real_match_holds_its_games() {
    let dir = std::env::temp_dir().join(format!("workbench-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    let games = GAMES.to_string();
    selfplay(&[
        "--variant",
        "othello6",
        "--a",
        "engine:depth=1,tt=1",
        "--b",
        "engine:depth=1,tt=1",
        "--games",
        &games,
        "--threads",
        "1",
        "--random-plies",
        "2",
        "--sprt",
        "0,10",
        "--out",
        run.to_str().unwrap(),
    ]);
    let printed = selfplay(&["report", run.to_str().unwrap()]);
    let page = run.join("report.html");
    assert_eq!(Path::new(printed.trim()), page, "prints the path it wrote");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(&format!("games.csv: {GAMES} games;")), "{html}");
    assert!(html.contains(&format!("<td>{GAMES}</td>")), "the pairing's games");
    assert!(html.contains("<meta http-equiv=\"refresh\""));
    assert!(html.contains("class=\"viewer\"") && html.contains("LLR "));
    assert!(!html.contains("http://") && !html.contains("https://"));

    // --out elsewhere; a folder that is no run is refused with one line.
    let other = dir.join("other.html");
    assert_eq!(
        selfplay(&["report", "--out", other.to_str().unwrap(), run.to_str().unwrap()]).trim(),
        other.to_str().unwrap()
    );
    assert!(other.is_file());
    let out = Command::new(env!("CARGO_BIN_EXE_selfplay")).args(["report", dir.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("expected a run folder"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
