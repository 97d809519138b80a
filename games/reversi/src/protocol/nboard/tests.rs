//! The session against the protocol's description (weltyc/ntest,
//! instructions/Protocol.htm): the answers' forms, legality by the rules,
//! exact hints against a plain solver, and determinism.

use super::*;
use crate::ggf::parse_move;
use engine_core::bitboard::BitSet;

/// The example session's game (the protocol description's "Example Session").
const EXAMPLE_GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// Runs `commands` through a fresh session: (stdout lines, stderr lines).
fn session(commands: &[&str]) -> (Vec<String>, Vec<String>, Session) {
    let mut s = Session::new(EngineConfig { tt_mb: 1, ..EngineConfig::default() }).unwrap();
    let (mut out, mut log) = (Vec::new(), Vec::new());
    for c in commands {
        if s.handle(c, &mut out, &mut log).unwrap() == Flow::Quit {
            break;
        }
    }
    let lines = |b: Vec<u8>| String::from_utf8(b).unwrap().lines().map(String::from).collect::<Vec<_>>();
    (lines(out), lines(log), s)
}

/// The move of a `=== MOVE/EVAL/TIME` line, checked for the form.
fn go_move(line: &str) -> Move<Size8> {
    let body = line.strip_prefix("=== ").unwrap_or_else(|| panic!("{line}"));
    let fields: Vec<&str> = body.split('/').collect();
    assert_eq!(fields.len(), 3, "{line}");
    assert!(fields[1].is_empty() || fields[1].parse::<f64>().is_ok(), "{line}");
    assert!(fields[2].parse::<f64>().is_ok_and(|t| t >= 0.0), "{line}");
    parse_move(fields[0]).unwrap_or_else(|| panic!("{line}"))
}

/// The fields of a `search PV EVAL 0 DEPTH` line: (moves, eval, depth).
fn search_line(line: &str) -> (Vec<Move<Size8>>, f64, String) {
    let w: Vec<&str> = line.split(' ').collect();
    assert_eq!((w.len(), w[0], w[3]), (5, "search", "0"), "{line}");
    let pv = w[1].split('-').map(|m| parse_move(m).unwrap_or_else(|| panic!("{line}"))).collect();
    (pv, w[2].parse().unwrap(), w[4].to_string())
}

/// The exact score of `pos` for its side to move, by the rules alone.
fn solve(pos: &Position<Size8>) -> i32 {
    if pos.is_terminal() {
        return pos.score() * pos.to_move().sign();
    }
    pos.legal_moves().iter().map(|&m| -solve(&pos.play(m))).max().unwrap()
}

/// A position `empties` empty squares from the end, reached by moves chosen
/// by `seed`, with moves left.
fn late_position(empties: u32, mut seed: u64) -> GgfGame<Size8> {
    loop {
        let mut game = GgfGame::new(Variant::Othello8.start());
        let mut pos = game.start;
        while pos.empty_count() > empties && !pos.is_terminal() {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let moves = pos.legal_moves();
            let mv = moves[(seed >> 33) as usize % moves.len()];
            game.push(mv, None, None);
            pos.make(mv);
        }
        if !pos.is_terminal() {
            return game;
        }
    }
}

#[test]
fn the_example_session_is_answered_in_the_protocols_form() {
    let set_game = format!("set game {EXAMPLE_GAME}");
    let (out, log, s) = session(&["nboard 2", &set_game, "set depth 6", "ping 1", "go"]);
    assert!(log.is_empty(), "{log:?}");
    assert_eq!(out[..3], ["set myname Workbench", "set myname Workbench6", "pong 1"]);
    assert!(out[3].starts_with("status "), "{out:?}");
    let nodestats: Vec<&str> = out[4].split(' ').collect();
    assert_eq!(nodestats[0], "nodestats");
    assert!(nodestats[1].parse::<u64>().is_ok() && nodestats[2].parse::<f64>().is_ok(), "{out:?}");
    assert!(s.position().is_legal(go_move(&out[5])) && !go_move(&out[5]).is_pass(), "{out:?}");
    assert_eq!(out.len(), 6);
    assert_eq!(s.position().empty_count(), 52, "go does not play its move");
}

#[test]
fn hints_give_the_n_best_distinct_legal_moves_then_status() {
    let (out, _, s) = session(&[&format!("set game {EXAMPLE_GAME}"), "set depth 4", "hint 3", "ping 7"]);
    let pos = s.position();
    let searches: Vec<_> = out.iter().filter(|l| l.starts_with("search ")).map(|l| search_line(l)).collect();
    assert_eq!(searches.len(), 3, "{out:?}");
    let firsts: Vec<_> = searches.iter().map(|(pv, _, _)| pv[0]).collect();
    assert!(firsts.iter().all(|&m| pos.is_legal(m)), "{out:?}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{out:?}");
    assert!(searches.windows(2).all(|w| w[0].1 >= w[1].1), "best first: {out:?}");
    assert!(searches.iter().all(|(_, _, d)| d == "4"), "{out:?}");
    // Each PV is a legal line from the position.
    for (pv, _, _) in &searches {
        let mut p = pos;
        for &m in pv {
            assert!(p.is_legal(m), "{out:?}");
            p.make(m);
        }
    }
    let n = out.len();
    assert_eq!(out[n - 2], "status", "status ends the hint: {out:?}");
    assert_eq!(out[n - 1], "pong 7");
    // More moves asked than there are: all of them.
    let (out, _, s) = session(&[&format!("set game {EXAMPLE_GAME}"), "set depth 2", "hint 60"]);
    let count = out.iter().filter(|l| l.starts_with("search ")).count();
    assert_eq!(count, s.position().legal_moves().len());
}

#[test]
fn exact_hints_match_a_plain_solver() {
    for seed in 1..4 {
        let game = late_position(7, seed);
        let pos = game.position();
        let (out, log, _) = session(&[&format!("set game {game}"), "set depth 12", "hint 40"]);
        assert!(log.is_empty(), "{log:?}");
        let searches: Vec<_> = out.iter().filter(|l| l.starts_with("search ")).map(|l| search_line(l)).collect();
        assert_eq!(searches.len(), pos.legal_moves().len(), "{out:?}");
        for (pv, eval, depth) in searches {
            assert_eq!(depth, EXACT_DEPTH, "{out:?}");
            assert_eq!(eval, f64::from(-solve(&pos.play(pv[0]))), "{} in {game}", pv[0]);
        }
        let (out, _, _) = session(&[&format!("set game {game}"), "set depth 12", "go"]);
        let line = out.iter().find(|l| l.starts_with("=== ")).unwrap();
        let eval: f64 = line.split('/').nth(1).unwrap().parse().unwrap();
        assert_eq!(eval, f64::from(solve(&pos)), "{line} in {game}");
        assert_eq!(-solve(&pos.play(go_move(line))), solve(&pos), "{line}: a best move");
    }
}

#[test]
fn sessions_are_deterministic() {
    let commands = [format!("set game {EXAMPLE_GAME}"), "set depth 5".into(), "hint 4".into(), "go".into()];
    let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
    // Times vary from run to run; the rest does not.
    let strip = |lines: Vec<String>| -> Vec<String> {
        lines
            .into_iter()
            .filter(|l| !l.starts_with("nodestats"))
            .map(|l| if l.starts_with("=== ") { l.rsplit_once('/').unwrap().0.to_string() } else { l })
            .collect()
    };
    assert_eq!(strip(session(&commands).0), strip(session(&commands).0));
}

#[test]
fn moves_update_the_game_and_bad_ones_are_refused() {
    let (out, log, s) = session(&["move F5/0.5/1.2", "move d6", "move PA", "move Z9", "C3", "move D3//0.5"]);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(log[0].contains("move PA: expected a legal move in BO[8 "), "{log:?}");
    assert!(log[1].contains("expected a move like F5"), "{log:?}");
    let mut expected: Position<Size8> = Variant::Othello8.start();
    for m in ["f5", "d6", "c3", "d3"] {
        expected.make(Move::parse(m).unwrap());
    }
    assert_eq!(s.position(), expected);
}

#[test]
fn a_side_without_moves_passes_before_the_opponent_moves() {
    let game = (1..500)
        .map(|seed| late_position(12, seed))
        .find(|g| g.position().moves().is_empty())
        .expect("a random game with a pass");
    let reply = game.position().pass().legal_moves()[0];
    let (_, log, s) = session(&[&format!("set game {game}"), &format!("move {}", ggf::move_text(reply))]);
    assert!(log.is_empty(), "{log:?}");
    assert_eq!(s.position(), game.position().pass().play(reply));
}

#[test]
fn other_commands_answer_as_the_protocol_says() {
    let (out, log, _) = session(&[
        "nboard 1",
        "learn",
        "ping 42",
        "set contempt 30",
        "status",
        "frobnicate 3",
        "set colour red",
        "quit",
        "ping 9",
    ]);
    assert_eq!(out[0], "set myname Workbench");
    assert_eq!(out[1..3], ["learned", "pong 42"]);
    assert!(out[3].starts_with("status Workbench: depth 10, B to move, 60 empty"), "{out:?}");
    assert_eq!(out.len(), 4, "nothing after quit: {out:?}");
    assert_eq!(log.len(), 3, "{log:?}");
    assert!(log[0].contains("expected protocol version 2"), "{log:?}");
    assert!(log[1].contains("unknown command `frobnicate 3`") && log[2].contains("`set colour red`"), "{log:?}");
    let (_, log, s) = session(&["set game (;GM[Othello]TY[8]BO[8 --- *];)", "set depth x", "hint 0", "set contempt y"]);
    assert_eq!(log.len(), 4, "{log:?}");
    assert!(log[0].starts_with("nboard: set game: GGF character ") && log[0].contains("expected 64 cells"), "{log:?}");
    assert_eq!(s.position(), Variant::Othello8.start(), "a bad game leaves the old one");
    assert_eq!(s.contempt(), 0);
}

#[test]
fn the_clock_is_the_time_control_less_the_movers_times() {
    let game = "(;GM[Othello]TI[1:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//20]B[E6//5];)";
    let (_, _, s) = session(&[&format!("set game {game}")]);
    assert_eq!(s.clock_left(), Some(40.0), "White used 20 of 60 s");
    let (_, _, s) = session(&[&format!("set game {game}"), "move F4//70"]);
    assert_eq!(s.clock_left(), Some(45.0), "Black used 15 of 60 s");
    let (_, _, s) = session(&[&format!("set game {}", game.replace("TI[1:00]", ""))]);
    assert_eq!(s.clock_left(), None);
}
