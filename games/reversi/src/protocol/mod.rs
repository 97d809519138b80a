//! File protocols of the competition programs, one file per protocol: what
//! the game masters write and read, parsed, validated and written here, so
//! that the programs and `selfplay`'s game master share one implementation.
//!
//! The file names, the number format and the small helpers every
//! protocol shares are the core's ([`engine_core::agent`]).

pub mod duo;
pub mod nboard;

pub use engine_core::agent::{CALIBRATION_FILE, INPUT_FILE, OUTPUT_FILE, asks_for_help, seconds_text, single_line};

/// State a Duo program keeps across the moves of one game.
pub const PLAYDATA_FILE: &str = "playdata.txt";
