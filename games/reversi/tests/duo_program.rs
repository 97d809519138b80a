//! Runs the built `duo-othello` binary in temporary folders, as the game
//! master does, and checks that `output.txt` holds a legal move.

use engine_core::game::{Color, Game};
use reversi::{Move, Position, Size12, Variant, disc_char};
use selfplay::checks::{Run, assert_rejects_input, output_line, run_in, temp_dir};
use std::path::{Path, PathBuf};
use std::time::Duration;

type Pos = Position<Size12>;

fn input_text(pos: &Pos, own: &str, opponent: &str) -> String {
    let rows: String = pos.rows().iter().map(|r| format!("{r}\n")).collect();
    format!("{}\n{own} {opponent}\n{rows}", disc_char(pos.to_move()))
}

fn dir_for(name: &str) -> PathBuf {
    temp_dir("duo-program", name)
}

/// Runs the agent in `dir`.
fn run_agent(dir: &Path) -> Run {
    run_in(env!("CARGO_BIN_EXE_duo-othello"), &[], dir)
}

/// The move in `dir/output.txt`.
fn read_move(dir: &Path) -> Move<Size12> {
    let line = output_line(dir);
    Move::parse(&line).unwrap_or_else(|| panic!("not a move: {line:?}"))
}

#[test]
fn answers_legally_with_time_and_with_a_hundredth_of_a_second() {
    let start: Pos = Variant::Duo12.start();
    for (name, own) in [("normal", "1.5"), ("tiny", "0.01")] {
        let dir = dir_for(name);
        std::fs::write(dir.join("input.txt"), input_text(&start, own, "300")).unwrap();
        let Run { ok, stderr, cpu } = run_agent(&dir);
        assert!(ok, "{name}: {stderr}");
        let mv = read_move(&dir);
        assert!(start.is_legal(mv) && !mv.is_pass(), "{name}: {mv}");
        eprintln!("{name}: {mv} in {cpu:?} CPU");
        if name == "tiny" {
            assert!(cpu < Duration::from_millis(10), "took {cpu:?} with 0.01 s left");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn plays_a_game_opening_across_moves_with_playdata() {
    // The agent plays O against a fixed reply rule (X's first legal move),
    // reading back its own playdata on every move.
    let dir = dir_for("game");
    let mut pos: Pos = Variant::Duo12.start();
    // Enough clock that every move searches at a measurable target even
    // when a busy machine makes the start-up's CPU time (which the clock
    // reserves for each move to come) several times what it is alone: at
    // 2 s, one run of the whole suite measured only one of the six.
    let mut own = 6.0f64;
    for _ in 0..6 {
        assert_eq!(pos.to_move(), Color::White);
        std::fs::write(dir.join("input.txt"), input_text(&pos, &format!("{own:.6}"), "300")).unwrap();
        let Run { ok, stderr, cpu } = run_agent(&dir);
        assert!(ok, "{stderr}");
        let mv = read_move(&dir);
        assert!(pos.is_legal(mv) && !mv.is_pass(), "{mv}");
        assert!(std::fs::read_to_string(dir.join("playdata.txt")).unwrap().starts_with("duo-othello playdata 2\n"));
        own -= cpu.as_secs_f64();
        pos = pos.play(mv);
        let reply = pos.legal_moves()[0];
        pos = pos.play(reply);
    }
    // Each run measured its search's overrun and the next one carried it on.
    let playdata = std::fs::read_to_string(dir.join("playdata.txt")).unwrap();
    let measured: f64 = playdata
        .lines()
        .find_map(|l| l.strip_prefix("overrun_moves "))
        .and_then(|n| n.parse().ok())
        .expect("an overrun_moves line");
    assert!(measured >= 2.0, "{playdata}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_input_is_a_one_line_error_and_no_output() {
    let start: Pos = Variant::Duo12.start();
    let dir = dir_for("malformed");
    let bad = input_text(&start, "300", "300").replacen("..XO", "..XQ", 1);
    assert_rejects_input(env!("CARGO_BIN_EXE_duo-othello"), &dir, &bad, "input.txt: line 5: expected `X`, `O` or `.`");
    std::fs::remove_dir_all(&dir).unwrap();
}
