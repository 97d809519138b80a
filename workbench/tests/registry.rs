//! Every registered game plays through the `selfplay` program by its
//! variant name, and an unknown name is a one-line error listing them.

use std::path::Path;
use std::process::Command;

/// Runs the `selfplay` program with `args`.
fn selfplay(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_selfplay")).args(args).output().expect("selfplay runs")
}

#[test]
fn each_registered_game_plays_a_match_by_its_name() {
    for (variant, players) in
        [("connect4", ["engine:depth=2,tt=1", "engine:depth=1,tt=1"]), ("othello6", ["engine:depth=2,tt=1", "random"])]
    {
        let out = std::env::temp_dir().join(format!("workbench-registry-{}-{variant}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let o = selfplay(&[
            "--variant",
            variant,
            "--a",
            players[0],
            "--b",
            players[1],
            "--games",
            "4",
            "--threads",
            "2",
            "--random-plies",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{variant}: {}", String::from_utf8_lossy(&o.stderr));
        let games = std::fs::read_to_string(Path::new(&out).join("games.csv")).unwrap();
        assert_eq!(games.lines().count(), 5, "{variant}: a header and 4 games");
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn an_unknown_variant_is_a_one_line_error_naming_every_game() {
    let o = selfplay(&["--variant", "go", "--games", "2", "--out", "/nonexistent/never"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("unknown variant `go`")
            && err.contains("duo12")
            && err.contains("pente")
            && err.contains("connect4"),
        "{err}"
    );
}
