//! Runs the built `pente` binary in temporary folders, as the game master
//! does: the handout's sample `input.txt`, a hundredth of a second left,
//! malformed input and a stray argument.

use pente::Cell;
use pente::protocol::parse_input;
use selfplay::checks::{Run, assert_rejects_input, output_line, run_in, temp_dir};
use std::path::Path;
use std::time::Duration;

/// The handout's sample `input.txt` (Black to move, White on
/// 10K, 10N and 12K, Black on 11L and 10M), with `seconds` left.
fn sample(seconds: &str) -> String {
    let mut lines = vec!["..................."; 19];
    lines[19 - 12] = ".........w.........";
    lines[19 - 11] = "..........b........";
    lines[19 - 10] = ".........w.bw......";
    format!("BLACK\n{seconds}\n0,0\n{}\n", lines.join("\n"))
}

fn run_pente(dir: &Path, args: &[&str]) -> Run {
    run_in(env!("CARGO_BIN_EXE_pente"), args, dir)
}

#[test]
fn answers_the_handout_sample_legally_also_with_a_hundredth_of_a_second() {
    for (name, seconds) in [("sample", "10.0"), ("tiny", "0.01")] {
        let dir = temp_dir("pente-program", name);
        let text = sample(seconds);
        std::fs::write(dir.join("input.txt"), &text).unwrap();
        let Run { ok, stderr, cpu } = run_pente(&dir, &[]);
        assert!(ok, "{name}: {stderr}");
        let line = output_line(&dir);
        let cell = Cell::parse(&line).unwrap_or_else(|| panic!("{name}: not a cell: {line:?}"));
        assert!(parse_input(&text).unwrap().position.is_legal(cell), "{name}: {cell} is not legal");
        assert!(stderr.starts_with(&format!("played {cell} (")), "{name}: {stderr}");
        eprintln!("{name}: {cell} in {cpu:?} CPU");
        if name == "tiny" {
            assert!(cpu < Duration::from_millis(10), "took {cpu:?} with 0.01 s left");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn malformed_input_is_a_one_line_error_and_no_output() {
    let dir = temp_dir("pente-program", "malformed");
    let bad = sample("5.0").replace("0,0", "0;0");
    let expected = "input.txt: line 3: expected two non-negative integers";
    assert_rejects_input(env!("CARGO_BIN_EXE_pente"), &dir, &bad, expected);
    let Run { ok, stderr, .. } = run_pente(&dir, &["--depth", "3"]);
    assert!(!ok && stderr.contains("unexpected argument `--depth`: expected only --param"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
