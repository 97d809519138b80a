//! `bench [--suite S]... [--no-check]`: runs the fixed search suites once
//! and prints `nodes N nps R` per suite and in total (R: nodes per CPU
//! second), for quick before/after checks of a search change; the total line
//! names the code path the engine ran (see `ENGINE_CODE_PATH`). Fails when a
//! suite's node count differs from the expected one in `benches::Suite`.
//! `--history FILE` appends the figures to a CSV (`date,commit,bench,nodes,nps`,
//! the format `notebooks/bench-history.ipynb` reads, e.g. `data/bench/history.csv`).

use benches::{Suite, SuiteRun, SuiteRunner};
use clap::Parser;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

/// Header of the history CSV.
const HISTORY_HEADER: &str = "date,commit,bench,nodes,nps";

/// Runs the fixed search suites and reports nodes and nodes per CPU second.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Suite to run: othello8, duo12 or pente (repeatable; default: all).
    #[arg(long = "suite", value_name = "SUITE")]
    suites: Vec<Suite>,
    /// Only report: do not compare the node counts with the expected ones.
    #[arg(long)]
    no_check: bool,
    /// Append each suite's figures to this CSV (created with a header).
    #[arg(long, value_name = "FILE")]
    history: Option<PathBuf>,
    /// Commit recorded in the history (default: `git rev-parse --short HEAD`).
    #[arg(long, value_name = "ID")]
    commit: Option<String>,
}

/// The civil date and time (UTC) of `secs` seconds after the Unix epoch, as
/// `YYYY-MM-DDTHH:MM:SSZ` (days to date by the proleptic Gregorian calendar).
fn utc_timestamp(secs: u64) -> String {
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Shift the epoch to 0000-03-01 so leap days end each 400-year era.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

/// The short id of the checked-out commit, or `unknown` outside a git tree.
fn current_commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".to_string(), |s| s.trim().to_string())
}

/// Appends `rows` (bench name, run) to the history CSV at `path`.
fn append_history(path: &Path, commit: &str, rows: &[(String, SuiteRun)]) -> Result<(), String> {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let date = utc_timestamp(now);
    let fresh = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    let mut text = String::new();
    if fresh {
        text.push_str(HISTORY_HEADER);
        text.push('\n');
    }
    for (bench, run) in rows {
        text.push_str(&format!("{date},{commit},{bench},{},{:.0}\n", run.nodes, run.nps()));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: cannot append: {e}", path.display()))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let suites = if args.suites.is_empty() { Suite::ALL.to_vec() } else { args.suites };
    let mut total = SuiteRun::default();
    let mut mismatches = Vec::new();
    let mut rows = Vec::new();
    for suite in suites {
        let mut runner = SuiteRunner::new(suite);
        let run = runner.run();
        println!(
            "{:<9} positions {} depth {:>2} {:>7.3} s nodes {} nps {:.0}",
            suite.name(),
            runner.len(),
            suite.depth(),
            run.seconds,
            run.nodes,
            run.nps()
        );
        if run.nodes != suite.expected_nodes() {
            mismatches.push((suite, run.nodes));
        }
        rows.push((format!("search {} depth {}", suite.name(), suite.depth()), run));
        total.nodes += run.nodes;
        total.seconds += run.seconds;
    }
    println!(
        "{:<9} code path {:<8} {:>10.3} s nodes {} nps {:.0}",
        "total",
        engine_core::code_path_name(),
        total.seconds,
        total.nodes,
        total.nps()
    );
    if let Some(path) = &args.history {
        let commit = args.commit.clone().unwrap_or_else(current_commit);
        if let Err(e) = append_history(path, &commit, &rows) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    if args.no_check || mismatches.is_empty() {
        return ExitCode::SUCCESS;
    }
    for (suite, nodes) in mismatches {
        eprintln!(
            "error: suite {suite} searched {nodes} nodes, expected {} (search behaviour changed: update {} in benches/src/lib.rs, or pass --no-check)",
            suite.expected_nodes(),
            suite.nodes_constant()
        );
    }
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use super::utc_timestamp;

    #[test]
    fn timestamps_match_known_dates() {
        // Dates from the Unix `date -u -d @SECS` of each figure.
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_timestamp(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(utc_timestamp(4_102_444_800), "2100-01-01T00:00:00Z");
    }
}
