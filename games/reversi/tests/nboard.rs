//! The `nboard` program in a scripted NBoard session, its answers checked
//! against the protocol's description (weltyc/ntest,
//! instructions/Protocol.htm): `set myname` on `nboard`, `=== MOVE/EVAL/TIME`
//! on `go`, `search PV EVAL 0 DEPTH` lines for the `hint N` best moves,
//! `pong N` once everything before the `ping` is answered; and the moves
//! legal by the rules in the game `set game` gave.

use reversi::ggf::{GgfGame, parse_move};
use reversi::{Move, Position, Size8, Variant};
use std::io::Write;
use std::process::{Command, Stdio};

/// A game from the protocol description's example session.
const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// Runs `nboard` on `script` (stdin closed after it): stdout and stderr lines.
fn nboard(script: &str) -> (Vec<String>, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nboard"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect();
    (stdout, String::from_utf8(out.stderr).unwrap(), out.status.success())
}

fn position() -> Position<Size8> {
    GgfGame::<Size8>::parse(GAME, Variant::Othello8.scoring()).unwrap().position()
}

#[test]
fn a_scripted_session_gets_the_protocols_answers() {
    let script = format!("nboard 2\nset game {GAME}\nset depth 4\ngo\nhint 3\nping 1\n");
    let (out, err, ok) = nboard(&script);
    assert!(ok && err.is_empty(), "{err}");
    let pos = position();
    assert_eq!(out[0], "set myname Workbench");
    assert_eq!(out[1], "set myname Workbench4");
    // go: `=== MOVE/EVAL/TIME`, a legal move.
    let go: Vec<&String> = out.iter().filter(|l| l.starts_with("===")).collect();
    assert_eq!(go.len(), 1, "{out:?}");
    let fields: Vec<&str> = go[0].strip_prefix("=== ").unwrap().split('/').collect();
    assert_eq!(fields.len(), 3, "{out:?}");
    let mv: Move<Size8> = parse_move(fields[0]).unwrap();
    assert!(pos.is_legal(mv) && !mv.is_pass(), "{} in\n{pos}", go[0]);
    assert!(fields[1].parse::<f64>().is_ok() && fields[2].parse::<f64>().is_ok(), "{out:?}");
    // hint 3: three `search` lines with distinct legal first moves.
    let searches: Vec<Vec<&str>> =
        out.iter().filter(|l| l.starts_with("search ")).map(|l| l.split(' ').collect()).collect();
    assert_eq!(searches.len(), 3, "{out:?}");
    let mut firsts = Vec::new();
    for w in &searches {
        assert_eq!((w.len(), w[3], w[4]), (5, "0", "4"), "{out:?}");
        assert!(w[2].parse::<f64>().is_ok(), "{out:?}");
        let first: Move<Size8> = parse_move(&w[1][..2]).unwrap();
        assert!(pos.is_legal(first), "{w:?}");
        firsts.push(first);
    }
    firsts.sort_by_key(|m| m.cell());
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "distinct: {out:?}");
    // `status` closes the hint, and `pong 1` comes last.
    assert_eq!(out[out.len() - 2], "status");
    assert_eq!(out.last().unwrap(), "pong 1");
    assert!(out.iter().filter(|l| l.starts_with("nodestats ")).count() >= 2, "{out:?}");
}

#[test]
fn bad_commands_get_one_line_on_stderr_and_the_session_goes_on() {
    let (out, err, ok) = nboard("nboard 2\nset game (;GM[Othello]BO[8 x];)\nfrobnicate\nmove J9\nping 5\n");
    assert!(ok, "{err}");
    assert_eq!(out, ["set myname Workbench", "pong 5"]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].starts_with("nboard: set game: GGF character "), "{err}");
    assert!(lines[1].contains("unknown command `frobnicate`") && lines[2].contains("move like F5"), "{err}");
}

#[test]
fn bad_options_are_one_line_and_a_failure() {
    let out = Command::new(env!("CARGO_BIN_EXE_nboard")).args(["--selectivity", "0"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success() && err.lines().count() == 1 && err.contains("expected a percentage"), "{err}");
}
