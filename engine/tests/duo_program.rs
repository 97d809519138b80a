//! Runs the built `duo-othello` binary in temporary folders, as the game
//! master does, and checks that `output.txt` holds a legal move.

use engine::game::{Color, Game};
use engine::reversi::{Move, Position, Size12, Variant, disc_char};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

type Pos = Position<Size12>;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duo-program-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn input_text(pos: &Pos, own: &str, opponent: &str) -> String {
    let rows: String = pos.rows().iter().map(|r| format!("{r}\n")).collect();
    format!("{}\n{own} {opponent}\n{rows}", disc_char(pos.to_move()))
}

/// Runs the agent in `dir`; returns (exit success, stderr, CPU time of the
/// child: user + system, as the game master's `time` charges it).
// The child is reaped by `wait4`, which also returns its resource usage.
#[allow(clippy::zombie_processes)]
fn run_agent(dir: &Path) -> (bool, String, Duration) {
    let child = Command::new(env!("CARGO_BIN_EXE_duo-othello"))
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("stderr.log")).unwrap())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; `status` and `usage` are valid out
    // pointers for the duration of the call.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    (ok, std::fs::read_to_string(dir.join("stderr.log")).unwrap(), cpu)
}

/// The move in `dir/output.txt`, checked to be exactly one LF-terminated line.
fn read_move(dir: &Path) -> Move<Size12> {
    let out = std::fs::read_to_string(dir.join("output.txt")).unwrap();
    let line = out.strip_suffix('\n').unwrap_or_else(|| panic!("no final LF: {out:?}"));
    assert!(!line.contains('\n') && !line.contains('\r'), "{out:?}");
    Move::parse(line).unwrap_or_else(|| panic!("not a move: {out:?}"))
}

#[test]
fn answers_legally_with_time_and_with_a_hundredth_of_a_second() {
    let start: Pos = Variant::Duo12.start();
    for (name, own) in [("normal", "1.5"), ("tiny", "0.01")] {
        let dir = temp_dir(name);
        std::fs::write(dir.join("input.txt"), input_text(&start, own, "300")).unwrap();
        let (ok, stderr, cpu) = run_agent(&dir);
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
    let dir = temp_dir("game");
    let mut pos: Pos = Variant::Duo12.start();
    let mut own = 2.0f64;
    for _ in 0..6 {
        assert_eq!(pos.to_move(), Color::White);
        std::fs::write(dir.join("input.txt"), input_text(&pos, &format!("{own:.6}"), "300")).unwrap();
        let (ok, stderr, cpu) = run_agent(&dir);
        assert!(ok, "{stderr}");
        let mv = read_move(&dir);
        assert!(pos.is_legal(mv) && !mv.is_pass(), "{mv}");
        assert!(std::fs::read_to_string(dir.join("playdata.txt")).unwrap().starts_with("duo-othello playdata 1\n"));
        own -= cpu.as_secs_f64();
        pos = pos.play(mv);
        let reply = pos.legal_moves()[0];
        pos = pos.play(reply);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_input_is_a_one_line_error_and_no_output() {
    let start: Pos = Variant::Duo12.start();
    let dir = temp_dir("malformed");
    let bad = input_text(&start, "300", "300").replacen("..XO", "..XQ", 1);
    std::fs::write(dir.join("input.txt"), bad).unwrap();
    let (ok, stderr, _) = run_agent(&dir);
    assert!(!ok);
    assert!(stderr.contains("input.txt: line 5: expected `X`, `O` or `.`"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!dir.join("output.txt").exists());
    // Missing input.txt altogether.
    std::fs::remove_file(dir.join("input.txt")).unwrap();
    let (ok, stderr, _) = run_agent(&dir);
    assert!(!ok && stderr.contains("input.txt: cannot read"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
