//! The `analyze` command: exact scores against the FFO suite's published
//! values, the output line's form, legal principal variations, and bad
//! input reported as one line naming the file and line.

use engine_core::game::Game;
use reversi::ffo::{parse_line, parse_obf};
use reversi::{Move, Size8};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_analyze")).args(args).output().unwrap()
}

/// A file in the temporary directory, removed when the test is done with it.
struct TempFile(PathBuf);

impl std::ops::Deref for TempFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp_file(name: &str, text: &str) -> TempFile {
    let path = std::env::temp_dir().join(format!("analyze-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    TempFile(path)
}

/// The fields of one output line, checked against the documented form.
struct Line {
    k: usize,
    depth: u32,
    score: String,
    mv: String,
    nodes: u64,
    seconds: f64,
    pv: Vec<String>,
}

fn parse(line: &str) -> Line {
    let w: Vec<&str> = line.split(' ').collect();
    let keys: Vec<&str> = w.iter().step_by(2).take(6).copied().collect();
    assert_eq!(keys, ["position", "depth", "score", "move", "nodes", "seconds"], "{line}");
    assert_eq!(w[12], "pv", "{line}");
    Line {
        k: w[1].parse().unwrap(),
        depth: w[3].parse().unwrap(),
        score: w[5].into(),
        mv: w[7].into(),
        nodes: w[9].parse().unwrap(),
        seconds: w[11].parse().unwrap(),
        pv: w[13..].iter().map(|s| s.to_string()).collect(),
    }
}

fn ffo_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/ffo/fforum-1-19.obf")
}

#[test]
fn exact_scores_match_the_ffo_suite_and_lines_have_the_documented_form() {
    let text = std::fs::read_to_string(ffo_file()).unwrap();
    let lines: Vec<&str> = text.lines().take(3).collect();
    let obf = temp_file("three.obf", &(lines.join("\n") + "\n"));
    let out = analyze(&["--variant", "othello8", "--exact", "--obf", obf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let got: Vec<Line> = stdout.lines().map(parse).collect();
    assert_eq!(got.len(), 3);
    for (i, (line, expected)) in got.iter().zip(&lines).enumerate() {
        let ffo = parse_line(expected, i + 1).unwrap();
        assert_eq!(line.k, i + 1);
        assert_eq!(line.score.parse::<i32>().unwrap(), ffo.score(), "position {}", i + 1);
        let mv = Move::<Size8>::parse(&line.mv).unwrap();
        assert!(ffo.moves.iter().any(|&(m, s)| m == mv && s == ffo.score()), "{} is not a best move", line.mv);
        assert_eq!(line.depth, ffo.position.empty_count());
        assert!(line.nodes > 0 && line.seconds >= 0.0);
    }
}

#[test]
fn depth_limited_lines_have_legal_principal_variations() {
    let text = std::fs::read_to_string(ffo_file()).unwrap();
    let first = text.lines().next().unwrap();
    // The OBF form allows a line with no moves, only a comment.
    let board = first.split(';').next().unwrap();
    let obf = temp_file("pv.obf", &format!("% a comment line\n{board}; no margins here\n"));
    let out = analyze(&["--variant", "othello8", "--depth", "5", "--obf", obf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = parse(String::from_utf8(out.stdout).unwrap().lines().next().unwrap());
    assert_eq!(line.depth, 5);
    assert!(line.score.contains('.'), "a midgame score has decimals: {}", line.score);
    assert_eq!(line.pv.first(), Some(&line.mv));
    let mut pos = parse_obf(board).unwrap();
    for mv in &line.pv {
        let mv = if mv == "pass" { Move::<Size8>::PASS } else { Move::<Size8>::parse(mv).unwrap() };
        assert!(pos.legal_moves().contains(&mv), "{mv} is not legal in the line {:?}", line.pv);
        pos.make(mv);
    }
}

#[test]
fn bad_input_gives_one_line_naming_the_file_and_line() {
    let ffo = std::fs::read_to_string(ffo_file()).unwrap();
    let bad_obf = temp_file("bad.obf", &format!("{}\nXXXX X\n", ffo.lines().next().unwrap()));
    let bad_rows = temp_file("bad.txt", "X\n........\n...Q....\n");
    let finished = temp_file("full.txt", &format!("X\n{}", "XXXX\n".repeat(4)));
    let cases = [
        (
            vec!["--variant", "othello8", "--depth", "2", "--obf", bad_obf.to_str().unwrap()],
            "bad.obf:2: expected 64 cells",
        ),
        (vec!["--variant", "othello8", "--depth", "2", bad_rows.to_str().unwrap()], "bad.txt:3:"),
        (
            vec!["--variant", "tiny4", "--depth", "2", finished.to_str().unwrap()],
            "full.txt:1: expected a position with moves left",
        ),
        (vec!["--variant", "othello8", "--depth", "2", "/no/such/file"], "/no/such/file: cannot read"),
        (vec!["--variant", "duo12", "--depth", "2", "--obf", bad_obf.to_str().unwrap()], "expected --variant othello8"),
        (vec!["--variant", "nope", "--depth", "2", bad_rows.to_str().unwrap()], "unknown variant `nope`"),
    ];
    for (args, expected) in cases {
        let out = analyze(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn depth_searches_full_width_and_selectivity_is_a_percentage() {
    // The duo12 start (its engine plays with ProbCut): `--depth` alone, 100%
    // and `mpc.confidence=0` are one full-width search; a bad percentage is
    // a one-line error.
    let start = reversi::Variant::Duo12.start::<reversi::Size12>();
    let file = temp_file("duo12.txt", &start.to_string());
    let path = file.to_str().unwrap();
    let nodes = |extra: &[&str]| {
        let mut args = vec!["--variant", "duo12", "--depth", "7", path];
        args.extend_from_slice(extra);
        let out = analyze(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        parse(String::from_utf8(out.stdout).unwrap().lines().next().unwrap()).nodes
    };
    let full = nodes(&[]);
    assert_eq!(nodes(&["--selectivity", "100"]), full);
    assert_eq!(nodes(&["--param", "mpc.confidence=0"]), full);
    for bad in ["0", "120"] {
        let out = analyze(&["--variant", "duo12", "--depth", "3", "--selectivity", bad, path]);
        assert!(!out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim().lines().count(), 1, "{bad}");
    }
    assert!(!analyze(&["--variant", "duo12", "--depth", "3", "--selectivity", "x", path]).status.success());
}

#[test]
fn the_probcut_fit_counts_every_pair_of_depths_and_prints_the_registry_settings() {
    let text = std::fs::read_to_string(ffo_file()).unwrap();
    let obf = temp_file("fit.obf", &(text.lines().take(3).collect::<Vec<_>>().join("\n") + "\n"));
    let out = analyze(&["--variant", "othello8", "--depth", "5", "--fit-probcut", "--obf", obf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    // Depths 1-5: pairs 1-3, 2-4, 3-5 at gap 2 and 1-5 at gap 4, per position.
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("probcut gap 2 pairs 9 mean "), "{stdout}");
    assert!(lines[1].starts_with("probcut gap 4 pairs 3 mean "), "{stdout}");
    let fit: Vec<&str> = lines[2].split(' ').collect();
    assert_eq!(fit[..2], ["probcut", "fit"], "{stdout}");
    let sigma: f64 = fit[2].strip_prefix("mpc.sigma=").unwrap().parse().unwrap();
    let per_ply: f64 = fit[3].strip_prefix("mpc.sigma_per_ply=").unwrap().parse().unwrap();
    assert!(sigma >= 0.01 && per_ply >= 0.0, "{stdout}");
    let shallow = analyze(&["--variant", "othello8", "--depth", "2", "--fit-probcut", "--obf", obf.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&shallow.stderr);
    assert!(!shallow.status.success() && stderr.contains("expected --depth 3 or more"), "{stderr}");
}
