//! What the tests of every game's crate check the same way: a built
//! competition program run once as a file-protocol game master runs it (in
//! a folder of its own, charged the CPU time `wait4` reports), errors that
//! fit one line, truncated input, and the promises of a balanced suite.
//! Test support: a broken promise or an I/O failure panics.

use crate::openings::{SuiteEntry, SuiteGame, SuiteSpec, canonical, ends_in_playout, make_suite};
use crate::run::ends_within;
use engine_core::agent::Agent;
use engine_core::search::{Budget, EngineConfig};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A fresh, empty temporary folder for test `name` of `program`.
pub fn temp_dir(program: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{program}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What one run of a program did.
pub struct Run {
    /// True when it exited with status 0.
    pub ok: bool,
    /// Everything it wrote to stderr.
    pub stderr: String,
    /// Its CPU time (user + system, as the game master's `time` charges it).
    pub cpu: Duration,
}

/// Runs the program `exe` with `args` in `dir` and waits for it.
// The child is reaped by `wait4`, which also returns its resource usage.
#[allow(clippy::zombie_processes)]
pub fn run_in(exe: &str, args: &[&str], dir: &Path) -> Run {
    let child = Command::new(exe)
        .args(args)
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
    Run { ok, stderr: std::fs::read_to_string(dir.join("stderr.log")).unwrap(), cpu }
}

/// The text of `dir/output.txt`, checked to be exactly one LF-terminated line.
pub fn output_line(dir: &Path) -> String {
    let out = std::fs::read_to_string(dir.join("output.txt")).unwrap();
    let line = out.strip_suffix('\n').unwrap_or_else(|| panic!("no final LF: {out:?}"));
    assert!(!line.contains('\n') && !line.contains('\r'), "{out:?}");
    line.to_string()
}

/// Checks that the program `exe` rejects the text `bad` as `input.txt` in
/// `dir` with a single stderr line containing `expected` and writes no
/// `output.txt`, and that it fails naming `input.txt` when there is none.
pub fn assert_rejects_input(exe: &str, dir: &Path, bad: &str, expected: &str) {
    std::fs::write(dir.join("input.txt"), bad).unwrap();
    let Run { ok, stderr, .. } = run_in(exe, &[], dir);
    assert!(!ok);
    assert!(stderr.contains(expected), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!dir.join("output.txt").exists());
    std::fs::remove_file(dir.join("input.txt")).unwrap();
    let Run { ok, stderr, .. } = run_in(exe, &[], dir);
    assert!(!ok && stderr.contains("input.txt: cannot read"), "{stderr}");
}

/// An error message fit for one line of a report.
pub fn one_line(message: &str) -> bool {
    !message.is_empty() && !message.contains('\n')
}

/// Every prefix of `text` at a character boundary, the empty one included:
/// the files a game master could leave half written.
pub fn prefixes(text: &str) -> impl Iterator<Item = &str> {
    (0..=text.len()).filter(|&i| text.is_char_boundary(i)).map(|i| &text[..i])
}

/// Checks what a suite promises: `spec.count` positions, each in
/// canonical form and unique under the symmetries, `plies` of it
/// `spec.plies`, no line of `spec.lookahead` plies ending the game, nor
/// `spec.playout` plies of a fresh depth-[`PLAYOUT_DEPTH`](crate::openings::PLAYOUT_DEPTH) engine's play,
/// and a fresh search at `spec.depth` scoring it within the window.
pub fn check_suite<P: SuiteGame>(protocol: &P, spec: &SuiteSpec, plies: impl Fn(&P::State) -> u32) {
    let suite = make_suite(protocol, spec).unwrap();
    assert_eq!(suite.len(), spec.count);
    let distinct: HashSet<String> = suite.iter().map(|e| canonical(&e.flat, P::HEADER_FIELDS)).collect();
    assert_eq!(distinct.len(), suite.len());
    let mut engine = protocol.scorer(EngineConfig::default()).unwrap();
    for SuiteEntry { flat, drawn, score } in &suite {
        assert_eq!(&canonical(flat, P::HEADER_FIELDS), flat);
        assert_eq!(&canonical(drawn, P::HEADER_FIELDS), flat);
        for text in [flat, drawn] {
            let pos = protocol.parse_flat(text).unwrap();
            assert_eq!(plies(&pos), spec.plies, "{text}");
            assert!(!ends_within(&pos, spec.lookahead), "{text}");
        }
        let start = protocol.parse_flat(drawn).unwrap();
        assert!(
            !ends_in_playout(&mut engine, &start, spec.playout),
            "{drawn}: over within {} plies of play",
            spec.playout
        );
        engine.new_game();
        let again = engine.search(&start, &Budget::Depth(spec.depth).limits()).score.unwrap();
        let again = f64::from(again) / P::SCORE_PER_UNIT;
        assert_eq!(again, *score, "{drawn}");
        assert!(again.abs() <= spec.window, "{drawn}: {again}");
    }
}
