//! NBoard engines as `nboard:` players: the `nboard` program (built next to
//! `selfplay`) plays the in-process engine without a forfeit, and small
//! shell scripts pretending to be NBoard engines that crash, hang, spin,
//! answer an illegal move, no move at all or never `pong` lose each game
//! while the run goes on.

use reversi::matches::ReversiProtocol;
use reversi::{Size8, Variant};
use selfplay::job::{Job, Schedule};
use selfplay::record::{self, GameRecord};
use selfplay::run::{self, RunOptions};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A fresh, empty temporary folder for test `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("selfplay-nboard-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays `games` othello8 games between specs `a` and `b` into `out`.
fn run(out: &Path, a: &str, b: &str, games: u64) -> Result<Vec<GameRecord>, String> {
    let job = Job {
        variant: "othello8".into(),
        players: vec![a.into(), b.into()],
        schedule: Schedule::RoundRobin,
        games,
        seed: 19,
        openings: None,
        random_plies: 2,
        tc: 300.0,
        sample_every: 1,
        shard: None,
    };
    let options = RunOptions {
        out: out.join("run"),
        threads: 1,
        sprt: None,
        command: vec!["test".into()],
        quiet: true,
        executor: Default::default(),
    };
    run::run(&ReversiProtocol::<Size8>::new(Variant::Othello8), &job, &options)?;
    record::games_in(&out.join("run"))
}

/// The `nboard` program of this build.
fn nboard_program() -> PathBuf {
    let program = Path::new(env!("CARGO_BIN_EXE_selfplay")).with_file_name("nboard");
    assert!(program.exists(), "{}: build it first (cargo build --release)", program.display());
    program
}

#[test]
fn our_nboard_program_plays_the_engine_without_a_forfeit() {
    let dir = temp_dir("match");
    let b = format!("nboard:{};depth=4", nboard_program().display());
    let games = run(&dir, "engine:depth=4", &b, 4).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.ending, "normal", "{g:?}");
        let winner = match g.score.signum() {
            1 => "1-0",
            -1 => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(g.result, winner, "the final score decides: {g:?}");
        let nboard_cpu = if g.black == b { g.black_cpu } else { g.white_cpu };
        assert!(nboard_cpu > 0.0, "the child's CPU time is charged: {g:?}");
    }
    // The same engine at the same depth, in process and through the
    // protocol: a colour-swapped pair replays one game move for move.
    for pair in games.chunks(2) {
        assert_eq!((pair[0].score, pair[0].plies), (pair[1].score, pair[1].plies), "{pair:?}");
    }
    let positions = fs::read_to_string(dir.join("run").join(record::POSITIONS_FILE)).unwrap();
    assert!(positions.lines().count() > 4 * 20, "the engine's moves are sampled too");
    fs::remove_dir_all(&dir).unwrap();
}

/// The answer to `ping N` the protocol asks for.
const PONG: &str = "echo \"pong $rest\"";

/// A bash script that reads NBoard commands and answers `go` with `on_go`
/// and `ping` with `on_ping`.
fn fake_engine(dir: &Path, name: &str, on_go: &str, on_ping: &str) -> String {
    let path = dir.join(name);
    let body = format!(
        "#!/bin/bash\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    go) {on_go} ;;\n    ping) {on_ping} ;;\n  esac\ndone\n"
    );
    fs::write(&path, body).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn engines_that_crash_hang_or_answer_badly_lose_and_the_run_goes_on() {
    let dir = temp_dir("fakes");
    for (name, on_go, on_ping, ending) in [
        ("crash", "exit 3", PONG, "crash"),
        ("hang", "sleep 60", PONG, "timeout"),
        ("spin", "while :; do :; done", PONG, "timeout"),
        ("illegal", "echo '=== A1/0.00/0.01'", PONG, "illegal-move"),
        ("malformed", "echo '=== ZZ'", PONG, "bad-output"),
        ("silent", "echo 'status thinking'; exec 1>&-; sleep 60", PONG, "crash"),
        // An answer before the `pong` is not taken for the move: unsynchronised, it idles.
        ("unsynchronised", "echo '=== F5'", "true", "timeout"),
    ] {
        let spec = format!("nboard:{};tc=1", fake_engine(&dir, name, on_go, on_ping));
        let out = dir.join(format!("{name}-run"));
        let games = run(&out, "random", &spec, 2).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(games.len(), 2, "{name}: both games played");
        for g in &games {
            let fake_is_black = g.black == spec;
            assert_eq!(g.result, if fake_is_black { "0-1" } else { "1-0" }, "{name}: {g:?}");
            assert_eq!(g.ending, ending, "{name}: {g:?}");
            let side = if fake_is_black { "X: " } else { "O: " };
            assert!(g.detail.starts_with(side), "{name}: {g:?}");
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nboard_players_need_othello8_and_a_program() {
    let dir = temp_dir("variant");
    let engine = fake_engine(&dir, "engine", "echo '=== PA'", PONG);
    let job = Job {
        variant: "othello6".into(),
        players: vec!["random".into(), format!("nboard:{engine}")],
        schedule: Schedule::RoundRobin,
        games: 2,
        seed: 1,
        openings: None,
        random_plies: 0,
        tc: 10.0,
        sample_every: 1,
        shard: None,
    };
    let options = RunOptions {
        out: dir.join("run"),
        threads: 1,
        sprt: None,
        command: vec![],
        quiet: true,
        executor: Default::default(),
    };
    let e = run::run(&ReversiProtocol::<reversi::Size6>::new(Variant::Othello6), &job, &options).unwrap_err();
    assert!(e.contains("expected --variant othello8, found othello6") && !e.contains('\n'), "{e}");
    let e = run(&dir.join("missing"), "random", "nboard:./no/such/engine", 2).unwrap_err();
    assert!(e.contains("no such program") && !e.contains('\n'), "{e}");
    fs::remove_dir_all(&dir).unwrap();
}
