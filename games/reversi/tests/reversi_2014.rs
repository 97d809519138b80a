//! The 8x8 greedy/minimax/alpha-beta program (handout 003) against the six
//! published reference cases (byte for byte apart from CRLF and the final
//! newline), the handout's minimax log and tie rule, and bad input files.

use engine_core::game::{Color, Game};
use reversi::{Position, Scoring, Size8};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The reference cases, copied unchanged from the course materials (`shared/data/reversi-2014`).
const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/reversi-2014");
const OPENING: &str = "********\n********\n********\n***OX***\n***XO***\n********\n********\n********\n";
/// The opening after X plays d3.
const AFTER_D3: &str = "********\n********\n***X****\n***XX***\n***XO***\n********\n********\n********\n";

/// A fresh empty folder for one run.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-2014-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the program in a fresh folder holding `input`; returns its exit
/// status and `output.txt` if written.
fn run(name: &str, input: &str) -> (Output, Option<String>) {
    let dir = scratch(name);
    std::fs::write(dir.join("input.txt"), input).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_reversi-2014")).current_dir(&dir).output().unwrap();
    let written = std::fs::read_to_string(dir.join("output.txt")).ok();
    std::fs::remove_dir_all(&dir).unwrap();
    (output, written)
}

/// Lines without `\r`, ignoring a final newline.
fn normalise(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end_matches('\r').to_owned()).collect()
}

fn solve(name: &str, input: &str) -> String {
    let (output, written) = run(name, input);
    assert!(output.status.success(), "{name}: {}", String::from_utf8_lossy(&output.stderr));
    let written = written.expect("output.txt written");
    assert!(!written.contains('\r') && written.ends_with('\n'), "{name}: output lines end with LF");
    written
}

#[test]
fn the_six_reference_cases() {
    let dir = Path::new(REFERENCE);
    for case in 1..=6 {
        let input = std::fs::read_to_string(dir.join(format!("input{case}.txt"))).unwrap();
        let expected = std::fs::read_to_string(dir.join(format!("output{case}.txt"))).unwrap();
        let written = solve(&format!("case{case}"), &input);
        assert_eq!(normalise(&written), normalise(&expected), "reference case {case}");
    }
}

#[test]
fn the_handouts_minimax_log() {
    let expected = "root,0,-Infinity d3,1,Infinity c3,2,-3 d3,1,-3 e3,2,0 d3,1,-3 c5,2,0 d3,1,-3 root,0,-3 \
        c4,1,Infinity c3,2,-3 c4,1,-3 e3,2,0 c4,1,-3 c5,2,0 c4,1,-3 root,0,-3 \
        f5,1,Infinity f4,2,0 f5,1,0 d6,2,0 f5,1,0 f6,2,-3 f5,1,-3 root,0,-3 \
        e6,1,Infinity f4,2,0 e6,1,0 d6,2,0 e6,1,0 f6,2,-3 e6,1,-3 root,0,-3";
    let written = solve("minimax", &format!("2\nX\n2\n{OPENING}"));
    let lines = normalise(&written);
    assert_eq!(lines[..8].join("\n") + "\n", AFTER_D3, "d3 played");
    assert_eq!(lines[8], "Node,Depth,Value");
    assert_eq!(lines[9..].join(" "), expected);
}

#[test]
fn greedy_breaks_ties_in_reading_order_and_writes_no_log() {
    // All four opening moves are worth 4 for X: d3 comes first.
    let written = solve("greedy", &format!("1\nX\n5\n{OPENING}"));
    assert_eq!(written, AFTER_D3);
    // A board where O has no discs is a leaf: greedy and the engine leave it as it is.
    let lone = OPENING.replace('O', "X");
    for task in [1, 4] {
        assert_eq!(solve(&format!("leaf{task}"), &format!("{task}\nX\n1\n{lone}")), lone);
    }
}

fn parse_board(text: &str, to_move: Color) -> Position<Size8> {
    Position::parse(
        &format!("{}\n{}", if to_move == Color::Black { "X" } else { "O" }, text.replace('*', ".")),
        Scoring::WOF,
    )
    .unwrap()
}

#[test]
fn competition_plays_a_legal_move_of_the_strong_engine() {
    for (player, color) in [("X", Color::Black), ("O", Color::White)] {
        let before = parse_board(OPENING, color);
        let written = solve(&format!("competition-{player}"), &format!("4\n{player}\n3\n{OPENING}"));
        let after = parse_board(&written, color.opponent());
        let successors: Vec<_> = before.legal_moves().iter().map(|&mv| before.result(mv)).collect();
        assert!(successors.contains(&after), "{player}: not a legal successor:\n{written}");
    }
}

#[test]
fn malformed_input_is_an_error_and_writes_nothing() {
    let good_rows = OPENING;
    let cases = [
        ("", "line 1"),
        (&format!("5\nX\n2\n{good_rows}") as &str, "line 1: expected the task"),
        (&format!("3\nx\n2\n{good_rows}"), "line 2: expected the player"),
        (&format!("3\nX\n-1\n{good_rows}"), "line 3: expected the cutoff depth"),
        (&format!("3\nX\ntwo\n{good_rows}"), "line 3: expected the cutoff depth"),
        (&format!("3\nX\n2\n{}", good_rows.replacen("***OX***", "***OX**", 1)), "line 7: expected 8 cells"),
        (&format!("3\nX\n2\n{}", good_rows.replacen("***OX***", "***0X***", 1)), "line 7: expected `*`, `X` or `O`"),
        (&format!("3\nX\n2\n{}", good_rows.lines().take(7).collect::<Vec<_>>().join("\n")), "line 11"),
        (&format!("3\nX\n2\n{good_rows}XX\n"), "line 12: expected end of file"),
    ];
    for (i, (input, needle)) in cases.iter().enumerate() {
        let (output, written) = run(&format!("bad{i}"), input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "case {i} succeeded");
        assert!(written.is_none(), "case {i} wrote output.txt");
        assert!(stderr.contains("input.txt") && stderr.contains(needle), "case {i}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "case {i}: one line: {stderr}");
    }
}

#[test]
fn missing_input_is_an_error() {
    let dir = scratch("missing");
    let output = Command::new(env!("CARGO_BIN_EXE_reversi-2014")).current_dir(&dir).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("input.txt"));
    assert!(!dir.join("output.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Swaps `X` and `O` in `text`.
fn swap_colors(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .collect()
}

#[test]
fn playing_o_is_the_mirror_of_playing_x() {
    // The reference cases play X; with the colours swapped and the program
    // playing O, the values (from the program's side) and moves are the same.
    let dir = Path::new(REFERENCE);
    for case in [2, 5, 6] {
        let input = std::fs::read_to_string(dir.join(format!("input{case}.txt"))).unwrap();
        let expected = std::fs::read_to_string(dir.join(format!("output{case}.txt"))).unwrap();
        let lines = normalise(&input);
        assert_eq!(lines[1], "X");
        let swapped_input = format!("{}\nO\n{}\n{}\n", lines[0], lines[2], swap_colors(&lines[3..].join("\n")));
        let written = solve(&format!("mirror{case}"), &swapped_input);
        let mut expected = normalise(&expected);
        for row in &mut expected[..8] {
            *row = swap_colors(row);
        }
        assert_eq!(normalise(&written), expected, "mirrored case {case}");
    }
}
