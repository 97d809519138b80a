//! A run's job: which games it plays and how ([`Job`]: the players and how
//! they meet, the games, the seed, the openings, the time control, the
//! shard), as `run.json` records it.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How the players of a run meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Schedule {
    /// Every player against every other.
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
}

/// A shard `index` (1-based) of `count`: the pairs whose number modulo
/// `count` is `index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 1.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}`: expected K/N with 1 <= K <= N");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// True when game `id` belongs to this shard.
    pub fn owns(self, id: u64) -> bool {
        (id / 2) % self.count as u64 == (self.index - 1) as u64
    }
}

/// Everything that decides which games a run plays and how: two runs with
/// equal jobs write the same games (resume refuses a different job).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// Variant name.
    pub variant: String,
    /// Player specs.
    pub players: Vec<String>,
    /// How they meet (with two players: one match).
    pub schedule: Schedule,
    /// Games per pairing (even: colour-swapped pairs).
    pub games: u64,
    /// Seed of every RNG of the run.
    pub seed: u64,
    /// Openings file (one flattened position per line), if any.
    pub openings: Option<PathBuf>,
    /// Random plies from the start position when no openings file is given.
    pub random_plies: u32,
    /// CPU seconds per game for players whose spec sets none.
    pub tc: f64,
    /// Record every N-th position a player chose.
    pub sample_every: u32,
    /// The shard this folder holds, if the run is split.
    pub shard: Option<Shard>,
}

/// The pairings `(a, b)` of a job: indices into its players.
pub fn pairings(job: &Job) -> Vec<(usize, usize)> {
    let n = job.players.len();
    match job.schedule {
        Schedule::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        Schedule::RoundRobin => (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect(),
    }
}

/// The job of a `run.json` (or of any JSON file with a `job` object, as
/// the cluster executor's `job.json`).
pub fn read_job(path: &Path) -> Result<Job, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}:{}: {e}", path.display(), e.line()))?;
    serde_json::from_value(value["job"].clone())
        .map_err(|e| format!("{}: expected a `job` object: {e}", path.display()))
}
