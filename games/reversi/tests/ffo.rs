//! The exact endgame solver against the published scores of the FFO
//! endgame suite (positions 1-59; the slow ones run with `--ignored`).

use engine_core::search::{Limits, Searcher};
use reversi::eval::PatternEval;
use reversi::eval::SCORE_PER_DISC;
use reversi::ffo;
use reversi::{Size8, Variant};

fn check(numbers: std::ops::RangeInclusive<usize>) {
    let dir = std::env::var_os("FFO_DIR")
        .map(Into::into)
        .or_else(|| ffo::find_suite_dir(env!("CARGO_MANIFEST_DIR").as_ref()))
        .expect("no data/ffo folder found: set FFO_DIR");
    let suite = ffo::read_suite(&dir).unwrap();
    assert_eq!(suite.len(), 59);
    let mut searcher = Searcher::new(Box::new(PatternEval::<Size8>::compiled(Variant::Othello8)), 16);
    for p in suite.iter().filter(|p| numbers.contains(&p.number)) {
        searcher.clear();
        let limits = Limits { depth: Some(p.position.empty_count()), solve: true, ..Limits::default() };
        let r = searcher.search(&p.position, &limits);
        assert!(r.exact, "#{}", p.number);
        assert_eq!(r.score, Some(p.score() * SCORE_PER_DISC), "#{}", p.number);
        let listed = p.moves.iter().find(|&&(mv, _)| mv == r.best);
        assert_eq!(listed.map(|&(_, s)| s), Some(p.score()), "#{}: {} is not a best move", p.number, r.best);
    }
}

#[test]
fn ffo_1_to_24() {
    check(1..=24);
}

#[test]
fn ffo_25_to_31() {
    check(25..=31);
}

#[test]
#[ignore = "a minute: run with --ignored"]
fn ffo_32_to_39() {
    check(32..=39);
}

#[test]
#[ignore = "the timing benchmark (see the ffo binary): run with --ignored"]
fn ffo_40_to_49() {
    check(40..=49);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn ffo_50_to_59() {
    check(50..=59);
}

/// Runs the built `ffo` program with `args`: (success, stdout, stderr).
fn ffo_program(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ffo")).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_ffo_program_takes_solver_settings_by_name() {
    // Another move-ordering weight: the same right answers by another tree.
    let run = |extra: &[&str]| {
        let (ok, stdout, stderr) = ffo_program(&[&["--from", "1", "--to", "3"][..], extra].concat());
        assert!(ok, "{stderr}");
        let total = stdout.lines().last().unwrap_or_default().to_string();
        assert!(total.ends_with(", 0 wrong"), "{stdout}");
        total.split(", ").nth(1).unwrap().trim_end_matches(" nodes").parse::<u64>().unwrap()
    };
    assert_ne!(run(&[]), run(&["--param", "endgame.reply_weight=0"]));
    for bad in ["endgame.nope=1", "endgame.reply_weight=-1", "endgame.reply_weight"] {
        let (ok, _, stderr) = ffo_program(&["--from", "1", "--to", "1", "--param", bad]);
        assert!(!ok && stderr.starts_with("error: --param ") && stderr.lines().count() == 1, "{bad}: {stderr}");
    }
}
