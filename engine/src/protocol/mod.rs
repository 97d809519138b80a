//! File protocols of the competition programs, one file per protocol: what
//! the game masters write and read, parsed, validated and written here, so
//! that the programs and `selfplay`'s game master share one implementation.
//!
//! This module owns the number format every protocol uses; the file names
//! the game masters and agents share are the core's
//! ([`engine_core::agent`]).

pub mod duo;
pub mod nboard;
pub mod pente;

pub use engine_core::agent::{CALIBRATION_FILE, INPUT_FILE, OUTPUT_FILE};

/// State a Duo program keeps across the moves of one game.
pub const PLAYDATA_FILE: &str = "playdata.txt";

/// Whether a program's arguments ask for its help text (`-h` or `--help`
/// anywhere): the file-protocol programs take no other options worth a
/// parser, yet answer `--help` like the others.
pub fn asks_for_help<S: AsRef<str>>(mut args: impl Iterator<Item = S>) -> bool {
    args.any(|a| matches!(a.as_ref(), "-h" | "--help"))
}

/// Seconds as the input files write them: the shortest text that reads back
/// as the same number (`300` for 300.0, `0.004` for 0.004), so a small
/// positive time never rounds to zero.
pub fn seconds_text(seconds: f64) -> String {
    format!("{seconds}")
}

/// The one line of a program's `output.txt` (blank lines after it are
/// allowed), or the error that there are more.
pub fn single_line(text: &str) -> Result<&str, String> {
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    if lines.any(|l| !l.trim().is_empty()) {
        return Err("expected one line holding the move, found more".into());
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_read_back_as_the_same_number() {
        for t in [300.0, 286.46, 0.004, 1e-9, 0.1 + 0.2, 59.999_999_7] {
            assert_eq!(seconds_text(t).parse::<f64>(), Ok(t));
        }
        assert_eq!(seconds_text(300.0), "300");
    }
}
