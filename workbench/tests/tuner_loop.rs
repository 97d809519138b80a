//! `tuner loop` on othello6 in a few seconds: the ladder it writes, a loop
//! killed after every step or in the middle of its steps writing the same
//! ladder as an uninterrupted one, and a held folder refused.

use reversi::tuning::EngineTuning;
use selfplay::stats::{Pentanomial, Sprt};
use std::path::{Path, PathBuf};
use tuner::gradient::GradientOptions;
use tuner::ladder::{self, LADDER_FILE, LadderRow};
use tuner::matches::MoveBudget;
use tuner::round_loop::{BEST_FILE, LoopOptions, LoopSettings, START_FILE, run_loop};

pub const ROUNDS: u32 = 2;
const GAMES: u64 = 16;
const VERIFY_GAMES: u64 = 40;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tuner-loop-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn settings(seed: u64) -> LoopSettings {
    LoopSettings {
        variant: "othello6".into(),
        seed,
        start: None,
        games: GAMES,
        budget: MoveBudget::Nodes(300),
        tt_mb: 1,
        random_plies: 4,
        window: 2,
        label_depth: None,
        target: "discs".into(),
        validation_every: 4,
        adam: GradientOptions { epochs: 40, patience: 10, ..GradientOptions::default() },
        verify_games: VERIFY_GAMES,
        verify_chunk: 10,
        sprt: Sprt { elo0: 0.0, elo1: 100.0, alpha: 0.05, beta: 0.05 },
    }
}

pub fn options(out: &Path, stop_after_steps: Option<u32>) -> LoopOptions {
    LoopOptions {
        out: out.to_path_buf(),
        settings: settings(7),
        rounds: Some(ROUNDS),
        hours: None,
        threads: 2,
        write_compiled: None,
        quiet: true,
        stop_after_steps,
        report: false,
        executor: Default::default(),
    }
}

/// The ladder without its CPU-second columns (the only ones a kill changes).
pub fn decided(out: &Path) -> Vec<LadderRow> {
    let mut rows = ladder::read(&out.join(LADDER_FILE)).unwrap();
    for r in &mut rows {
        (r.selfplay_cpu, r.label_cpu, r.tune_cpu, r.verify_cpu) = (0.0, 0.0, 0.0, 0.0);
    }
    rows
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Keeps the header and the first half of the rows of a CSV file, as a
/// kill in the middle of a step leaves it.
fn truncate_rows(path: &Path) {
    let text = read(path);
    let lines: Vec<&str> = text.lines().collect();
    let keep = 1 + (lines.len() - 1) / 2;
    std::fs::write(path, lines[..keep].join("\n") + "\n").unwrap();
}

#[test]
fn a_tiny_loop_writes_its_ladder() {
    let out = scratch("ladder");
    let report = run_loop(&EngineTuning, &LoopOptions { report: true, ..options(&out, None) }).unwrap();
    assert!(!report.stopped);
    // The live page shows the ladder and, beside it, the last round's
    // match (its self-play, or its verification when the fit changed the
    // weights).
    let page = read(&out.join(selfplay::report::REPORT_FILE));
    let last_round = out.join(format!("round-{ROUNDS:03}"));
    assert!(page.contains("<section class=\"loop\">") && page.contains("<section class=\"match\">"), "{page}");
    assert!(page.contains(&format!("Match: <code>{}", last_round.display())), "{page}");
    let text = read(&out.join(LADDER_FILE));
    assert_eq!(
        text.lines().next().unwrap(),
        "round,games,positions,train_positions,k,train_loss,validation_loss,verify_games,wins,draws,losses,\
         elo,elo_error,llr,accepted,cumulative_elo,weights,selfplay_cpu,label_cpu,tune_cpu,verify_cpu"
    );
    let rows = ladder::read(&out.join(LADDER_FILE)).unwrap();
    assert_eq!(rows.iter().map(|r| r.round).collect::<Vec<_>>(), (1..=ROUNDS).collect::<Vec<_>>());
    let mut best = START_FILE.to_string();
    let mut cumulative = 0.0;
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r.games, GAMES);
        // The fit saw most of the window's positions (the rest validate).
        let window: u64 = rows[i.saturating_sub(1)..=i].iter().map(|r| r.positions).sum();
        assert!(r.positions > GAMES && r.train_positions > window / 2 && r.train_positions < window, "{r:?}");
        assert!(r.k > 0.0 && r.train_loss > 0.0 && r.validation_loss > 0.0, "{r:?}");
        // The verification: whole pairs, within the cap, Elo signed as W-L.
        assert_eq!(r.wins + r.draws + r.losses, r.verify_games);
        assert!(r.verify_games % 2 == 0 && r.verify_games <= VERIFY_GAMES, "{r:?}");
        assert_eq!(r.elo.partial_cmp(&0.0), r.wins.partial_cmp(&r.losses), "{r:?}");
        assert!(r.selfplay_cpu > 0.0 && r.verify_cpu > 0.0 && r.label_cpu == 0.0, "{r:?}");
        if r.accepted {
            best = format!("round-{:03}/tune/weights.txt", r.round);
            // The sum counts each round with the SPRT's prior (finite).
            let verify: serde_json::Value =
                serde_json::from_str(&read(&out.join(format!("round-{:03}/verify.json", r.round)))).unwrap();
            let pairs: Vec<u64> = verify["pairs"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
            let counted = Pentanomial(pairs.try_into().unwrap()).elo_with_prior();
            assert!(counted.is_finite() && counted.partial_cmp(&0.0) == r.elo.partial_cmp(&0.0), "{r:?}");
            cumulative += counted;
            // An accepted fit won its match: the SPRT's H1, or a positive
            // LLR at the cap.
            assert!(r.llr > 0.0 && r.wins > r.losses, "{r:?}");
        }
        assert_eq!(r.weights, best);
        assert!((r.cumulative_elo - cumulative).abs() < 0.02, "{r:?}");
        // The round keeps its own row.
        let own = ladder::read(&out.join(format!("round-{:03}/row.csv", r.round))).unwrap();
        assert_eq!(own, vec![r.clone()]);
    }
    assert_eq!(read(&out.join(BEST_FILE)), read(&out.join(&best)));
    assert_eq!(report.best, out.join(&best));
    // The fit started from the best weights of its round.
    assert_eq!(read(&out.join("round-001/tune/start.txt")), read(&out.join(START_FILE)));
    // A rerun with more rounds to do continues; with other settings it is refused.
    let mut other = options(&out, None);
    other.settings.seed = 8;
    let err = run_loop(&EngineTuning, &other).unwrap_err();
    assert!(err.contains("`seed` differs") && !err.contains('\n'), "{err}");
    let again = run_loop(&EngineTuning, &options(&out, None)).unwrap();
    assert_eq!(again.rounds, ROUNDS);
    assert_eq!(ladder::read(&out.join(LADDER_FILE)).unwrap(), rows, "a finished loop does nothing");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_killed_loop_writes_the_same_ladder() {
    let straight = scratch("straight");
    run_loop(&EngineTuning, &options(&straight, None)).unwrap();
    let expected = decided(&straight);
    assert_eq!(expected.len(), ROUNDS as usize);

    // Killed after every step: each session does one step.
    let killed = scratch("killed");
    let mut sessions = 0;
    while run_loop(&EngineTuning, &options(&killed, Some(1))).unwrap().stopped {
        sessions += 1;
        assert!(sessions <= 4 * ROUNDS as usize, "the loop never ends");
    }
    assert_eq!(sessions, 4 * ROUNDS as usize);
    assert_eq!(decided(&killed), expected);
    assert_eq!(read(&killed.join(BEST_FILE)), read(&straight.join(BEST_FILE)));

    // Killed in the middle of the last round's steps: markers gone, games
    // and positions half written, the ladder's row and a torn line left.
    let round = killed.join(format!("round-{ROUNDS:03}"));
    for marker in ["selfplay.json", "tune.json", "verify.json", "row.csv", "tune/weights.txt"] {
        std::fs::remove_file(round.join(marker)).unwrap();
    }
    truncate_rows(&round.join("selfplay/games.csv"));
    truncate_rows(&round.join("verify/chunk-000/games.csv"));
    std::fs::write(round.join("tune/tune_log.csv"), "pass,train").unwrap();
    let mut ladder_text = read(&killed.join(LADDER_FILE));
    ladder_text += "3,16,2";
    std::fs::write(killed.join(LADDER_FILE), ladder_text).unwrap();
    assert!(!run_loop(&EngineTuning, &options(&killed, None)).unwrap().stopped);
    assert_eq!(decided(&killed), expected);
    assert_eq!(read(&killed.join(BEST_FILE)), read(&straight.join(BEST_FILE)));

    // Another seed plays other games.
    let reseeded = scratch("reseeded");
    let mut other = options(&reseeded, None);
    other.settings.seed = 8;
    other.rounds = Some(1);
    run_loop(&EngineTuning, &other).unwrap();
    assert_ne!(decided(&reseeded)[0], expected[0]);
    for dir in [straight, killed, reseeded] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn no_round_starts_after_the_hours() {
    let out = scratch("hours");
    let mut timed = options(&out, None);
    (timed.rounds, timed.hours) = (None, Some(1e-12));
    let report = run_loop(&EngineTuning, &timed).unwrap();
    assert_eq!((report.rounds, report.stopped), (0, false));
    assert!(!out.join("round-001").exists() && out.join(START_FILE).exists());
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_second_loop_on_a_held_folder_is_refused() {
    let out = scratch("held");
    std::fs::create_dir_all(&out).unwrap();
    let held = selfplay::record::FolderLock::acquire(&out).unwrap();
    let err = run_loop(&EngineTuning, &options(&out, None)).unwrap_err();
    assert!(err.contains("another run") && !err.contains('\n'), "{err}");
    assert!(!out.join(LADDER_FILE).exists() && !out.join("round-001").exists());
    drop(held);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_loop_with_a_label_depth_fits_the_labels() {
    let out = scratch("labelled");
    let mut labelled = options(&out, None);
    labelled.rounds = Some(1);
    labelled.settings.label_depth = Some(2);
    // The labels need a target that reads them.
    let err = run_loop(&EngineTuning, &labelled).unwrap_err();
    assert!(err.contains("expected label or score=K"), "{err}");
    labelled.settings.target = "label".into();
    let report = run_loop(&EngineTuning, &labelled).unwrap();
    assert_eq!(report.rounds, 1);
    let row = &ladder::read(&out.join(LADDER_FILE)).unwrap()[0];
    let round = out.join("round-001");
    let labels = read(&round.join("labelled.csv"));
    assert!(labels.lines().next().unwrap().ends_with(",label"));
    // Every unfinished position is labelled, and the fit saw those rows.
    let rows = labels.lines().count() as u64 - 1;
    assert!(rows > 0 && rows <= row.positions, "{rows} labels of {row:?}");
    assert!(row.train_positions < rows && row.label_cpu > 0.0, "{row:?}");
    // Without labels (same seed: the same games) the fit differs.
    let plain = scratch("unlabelled");
    let mut unlabelled = options(&plain, None);
    unlabelled.rounds = Some(1);
    run_loop(&EngineTuning, &unlabelled).unwrap();
    let plain_row = &ladder::read(&plain.join(LADDER_FILE)).unwrap()[0];
    assert_eq!((plain_row.games, plain_row.positions), (row.games, row.positions));
    assert_ne!(read(&plain.join("round-001/tune/weights.txt")), read(&round.join("tune/weights.txt")));
    for dir in [out, plain] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn a_fit_that_returns_its_start_is_rejected_without_games() {
    // No epoch: the fit is the current best, so the two engines would be one.
    let out = scratch("same");
    let mut options = options(&out, None);
    options.settings.adam.epochs = 0;
    options.rounds = Some(1);
    run_loop(&EngineTuning, &options).unwrap();
    let rows = ladder::read(&out.join(LADDER_FILE)).unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!((r.verify_games, r.wins, r.draws, r.losses, r.accepted), (0, 0, 0, 0, false), "{r:?}");
    assert_eq!((r.elo, r.cumulative_elo, r.verify_cpu), (0.0, 0.0, 0.0), "{r:?}");
    assert_eq!(r.weights, START_FILE);
    assert!(!out.join("round-001/verify").exists(), "no game played");
    let _ = std::fs::remove_dir_all(&out);
}

/// Connect Four, a game the tuner names nowhere, through the `tuner`
/// program: one round of the loop fits its weight set and proves the fit
/// in a match; an unknown variant is refused with the list of weight sets.
#[test]
fn the_tuner_program_runs_a_round_of_connect_four() {
    let out = scratch("connect4");
    let shown = out.display().to_string();
    let tuner = |variant: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tuner"))
            .args(["loop", "--variant", variant, "--rounds", "1", "--games", "40", "--nodes", "300", "--tt", "1"])
            .args(["--random-plies", "4", "--epochs", "30", "--verify-games", "20", "--verify-chunk", "10"])
            .args(["--threads", "2", "--out", &shown])
            .output()
            .unwrap()
    };
    let run = tuner("connect4");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let rows = ladder::read(&out.join(LADDER_FILE)).unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(r.games, 40);
    // Every game fills at least 7 cells, so the fit saw positions of them all.
    assert!(r.positions >= 7 * 40 && r.train_positions > r.positions / 2, "{r:?}");
    assert!(r.verify_games.is_multiple_of(2) && r.verify_games <= 20 && r.wins + r.draws + r.losses == r.verify_games);
    let tuned = engine_core::weights::WeightSet::<connect4::weights::Connect4Weights>::load(
        &out.join("round-001/tune/weights.txt"),
    )
    .unwrap();
    tuned.validate().unwrap();
    assert!(read(&out.join("round-001/selfplay/games.csv")).lines().nth(1).unwrap().contains("weights="));
    let refused = tuner("go");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("unknown variant `go`") && err.contains("connect4"), "{err}");
    std::fs::remove_dir_all(&out).unwrap();
}
