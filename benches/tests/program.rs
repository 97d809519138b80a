//! The `bench` program answers `--help` and refuses what it does not know
//! (and `cargo test --workspace` builds it, so the documentation's examples
//! can run it).

use std::process::Command;

#[test]
fn bench_explains_itself_and_refuses_unknown_options() {
    let bench = env!("CARGO_BIN_EXE_bench");
    let help = Command::new(bench).arg("--help").output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.lines().next().is_some_and(|l| l.contains("nodes per CPU second")), "{text}");
    let bad = Command::new(bench).arg("--no-such-option").output().unwrap();
    assert!(!bad.status.success());
}
