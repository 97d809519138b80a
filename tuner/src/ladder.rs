//! The loop's ladder, `ladder.csv`: one row per finished round (what it
//! played, fitted and proved, whether its weights were accepted, and the
//! CPU time of each step), appended and flushed row by row. Each round also
//! keeps its row in its own folder, so the ladder can be rebuilt after a
//! kill between the two writes.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The ladder's file name in the loop's folder.
pub const LADDER_FILE: &str = selfplay::report::LADDER_FILE;

/// The columns of `ladder.csv`, in order (the fields of [`LadderRow`]).
pub const LADDER_HEADER: [&str; 21] = [
    "round",
    "games",
    "positions",
    "train_positions",
    "k",
    "train_loss",
    "validation_loss",
    "verify_games",
    "wins",
    "draws",
    "losses",
    "elo",
    "elo_error",
    "llr",
    "accepted",
    "cumulative_elo",
    "weights",
    "selfplay_cpu",
    "label_cpu",
    "tune_cpu",
    "verify_cpu",
];

/// One round of the loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderRow {
    /// The round, from 1 (round 0 is the starting weights).
    pub round: u32,
    /// Self-play games of this round.
    pub games: u64,
    /// Positions those games recorded.
    pub positions: u64,
    /// Training positions of the fit (the window of the last rounds).
    pub train_positions: u64,
    /// The fit's logistic scale K.
    pub k: f64,
    /// Training loss of the fitted weights.
    pub train_loss: f64,
    /// Validation loss of the fitted weights.
    pub validation_loss: f64,
    /// Verification games played.
    pub verify_games: u64,
    /// Verification wins of the new weights.
    pub wins: u64,
    /// Verification draws.
    pub draws: u64,
    /// Verification losses of the new weights.
    pub losses: u64,
    /// Elo of the new weights against the previous best (from the pairs).
    pub elo: f64,
    /// Half width of its 95% interval.
    pub elo_error: f64,
    /// The SPRT's log-likelihood ratio at the end of the verification.
    pub llr: f64,
    /// True when the new weights became the current best.
    pub accepted: bool,
    /// Sum of the Elo of the accepted rounds so far: against round 0.
    pub cumulative_elo: f64,
    /// The current best weights after this round, relative to the loop's
    /// folder.
    pub weights: String,
    /// CPU seconds of this round's self-play games (both sides).
    pub selfplay_cpu: f64,
    /// CPU seconds of the relabelling (the process; 0 without one).
    pub label_cpu: f64,
    /// CPU seconds of the fit (the process, all threads).
    pub tune_cpu: f64,
    /// CPU seconds of the verification games (both sides).
    pub verify_cpu: f64,
}

/// `x` rounded to `decimals` places (the ladder's precision per column).
pub fn rounded(x: f64, decimals: i32) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

/// The header line and `rows` as CSV text.
pub fn to_csv(rows: &[LadderRow]) -> Result<String, String> {
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    writer.write_record(LADDER_HEADER).map_err(|e| e.to_string())?;
    for row in rows {
        writer.serialize(row).map_err(|e| e.to_string())?;
    }
    String::from_utf8(writer.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

/// The rows of a ladder file (or of a round's one-row copy), after
/// checking its header; a last line without its newline (a write cut
/// short) is left out. Errors name the file and line.
pub fn read(path: &Path) -> Result<Vec<LadderRow>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let mut reader = csv::ReaderBuilder::new().from_reader(complete.as_bytes());
    let header = reader.headers().map_err(|e| format!("{shown}:1: {e}"))?.clone();
    if header.iter().ne(LADDER_HEADER) {
        return Err(format!("{shown}:1: expected the header `{}`", LADDER_HEADER.join(",")));
    }
    reader
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.map_err(|e| format!("{shown}:{}: expected a ladder row: {e}", i + 2)))
        .collect()
}

/// Appends `row` to the ladder at `path` (with the header when the file is
/// new) and flushes it to disk.
pub fn append(path: &Path, row: &LadderRow) -> Result<(), String> {
    let shown = path.display();
    let fresh = !path.exists();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{shown}: cannot open: {e}"))?;
    let text = to_csv(std::slice::from_ref(row))?;
    let text = if fresh { text.as_str() } else { text.split_once('\n').map_or("", |(_, rest)| rest) };
    file.write_all(text.as_bytes()).and_then(|()| file.sync_data()).map_err(|e| format!("{shown}: cannot write: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(round: u32, elo: f64) -> LadderRow {
        LadderRow {
            round,
            games: 20,
            positions: 400,
            train_positions: 360,
            k: 0.0012,
            train_loss: 0.1,
            validation_loss: 0.2,
            verify_games: 20,
            wins: 12,
            draws: 0,
            losses: 8,
            elo,
            elo_error: 150.5,
            llr: 0.5,
            accepted: true,
            cumulative_elo: elo,
            weights: "round-001/tune/weights.txt".into(),
            selfplay_cpu: 1.5,
            label_cpu: 0.0,
            tune_cpu: 0.25,
            verify_cpu: 2.0,
        }
    }

    #[test]
    fn rows_append_and_read_back_through_the_documented_header() {
        let dir = std::env::temp_dir().join(format!("tuner-ladder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(LADDER_FILE);
        let rows = [row(1, 70.4), row(2, f64::INFINITY)];
        for r in &rows {
            append(&path, r).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next().unwrap(), LADDER_HEADER.join(","));
        assert_eq!(text.lines().count(), 3);
        assert_eq!(read(&path).unwrap(), rows);
        // The serialized fields are the header's columns, in its order.
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&rows[0]).unwrap();
        let own = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(own.lines().next().unwrap(), LADDER_HEADER.join(","));
        // A torn last line is left out; a bad row is an error naming its line.
        std::fs::write(&path, format!("{text}3,20,4")).unwrap();
        assert_eq!(read(&path).unwrap(), rows);
        std::fs::write(&path, format!("{text}3,x\n")).unwrap();
        let err = read(&path).unwrap_err();
        assert!(err.contains("ladder.csv:4:"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rounding_keeps_infinities() {
        assert_eq!(rounded(1.23456, 2), 1.23);
        assert_eq!(rounded(-0.005, 1), -0.0);
        assert_eq!(rounded(f64::NEG_INFINITY, 1), f64::NEG_INFINITY);
    }
}
