//! Games between weight files through the selfplay library: the engine
//! spec of a weights file under a node or depth budget, the job of a
//! two-player match (`tuner verify`, the loop's self-play and proof),
//! playing it through the game's registry entry, and the tally of a
//! finished match from its `games.csv`.

use crate::game::TuningGame;
use engine_core::weights::{WeightKind, WeightSet};
use selfplay::job::{Job, Schedule};
use selfplay::record::{self, GameRecord};
use selfplay::run::{RunOptions, Summary};
use selfplay::stats::{Pentanomial, Wdl};
use std::path::Path;

/// Clock of a depth- or node-limited game: never reached, so nothing a
/// game decides depends on the time it takes.
pub const UNTIMED_GAME_SECONDS: f64 = 1e6;

/// How far the engines of a match search each move: the same work on
/// every machine either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveBudget {
    /// About this many search nodes per move.
    Nodes(u64),
    /// Full iterations to this depth.
    Depth(u32),
}

/// The engine player spec of `weights` under `budget`
/// (`engine:nodes=N,weights=FILE`), with a transposition table of `tt_mb`
/// MiB (0: the engine's default, and no `tt` in the spec).
pub fn engine_spec(budget: MoveBudget, tt_mb: usize, weights: &Path) -> String {
    let limit = match budget {
        MoveBudget::Nodes(n) => format!("nodes={n}"),
        MoveBudget::Depth(d) => format!("depth={d}"),
    };
    let table = if tt_mb == 0 { String::new() } else { format!(",tt={tt_mb}") };
    format!("engine:{limit}{table},weights={}", weights.display())
}

/// Checks that `path` holds weights of `variant`.
pub fn check_weights<K: WeightKind>(path: &Path, variant: K) -> Result<(), String> {
    let set = WeightSet::<K>::load(path)?;
    if set.key != variant {
        return Err(format!("{}: weights are for {}, expected {variant}", path.display(), set.key));
    }
    Ok(())
}

/// How the games of a match are played (the players aside).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchPlan {
    /// Search budget of both engines.
    pub budget: MoveBudget,
    /// Their transposition tables in MiB (0: the engine's default).
    pub tt_mb: usize,
    /// Games (even: colour-swapped pairs).
    pub games: u64,
    /// Random plies before each pair's opening.
    pub random_plies: u32,
    /// Seed of the openings.
    pub seed: u64,
}

/// The match of `first` against `second` (weights files) under `plan`,
/// every position recorded.
pub fn match_job<K: WeightKind>(variant: K, first: &Path, second: &Path, plan: &MatchPlan) -> Job {
    let spec = |weights: &Path| engine_spec(plan.budget, plan.tt_mb, weights);
    Job {
        variant: variant.to_string(),
        players: vec![spec(first), spec(second)],
        schedule: Schedule::RoundRobin,
        games: plan.games,
        seed: plan.seed,
        openings: None,
        random_plies: plan.random_plies,
        tc: UNTIMED_GAME_SECONDS,
        sample_every: 1,
        shard: None,
    }
}

/// Runs (or resumes) `job`, a match of `game`'s `variant`; `observe`
/// sees each game as [`selfplay::run::run_observed`] reports it.
pub fn play<G: TuningGame>(
    game: &G,
    variant: G::Key,
    job: &Job,
    options: &RunOptions,
    mut observe: impl FnMut(u64, u64, &str),
) -> Result<Summary, String> {
    game.family(variant).run_observed(job, options, &mut observe)
}

/// The first player's results in a two-player match: W-D-L, the pairs
/// (games `2k` and `2k + 1`; a game without its partner is left out of
/// the pairs) and the CPU seconds both sides used.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchTally {
    /// Wins, draws and losses of the first player.
    pub wdl: Wdl,
    /// Its pair scores.
    pub pairs: Pentanomial,
    /// CPU seconds of every game, both sides.
    pub cpu_seconds: f64,
}

impl MatchTally {
    /// Adds the games of a two-player match (the first player is Black in
    /// even games), in any order.
    pub fn add_games(&mut self, games: &[GameRecord]) {
        let mut by_id: Vec<&GameRecord> = games.iter().collect();
        by_id.sort_by_key(|g| g.game);
        let first_points = |g: &GameRecord| {
            let black = g.black_points().unwrap_or(0.5);
            if g.game.is_multiple_of(2) { black } else { 1.0 - black }
        };
        for g in &by_id {
            self.wdl.add(first_points(g));
            self.cpu_seconds += g.black_cpu + g.white_cpu;
        }
        for w in by_id.windows(2) {
            if w[0].game.is_multiple_of(2) && w[1].game == w[0].game + 1 {
                self.pairs.add(first_points(w[0]) + first_points(w[1]));
            }
        }
    }

    /// The tally of the match in the run folder `dir`.
    pub fn of_folder(dir: &Path) -> Result<MatchTally, String> {
        let mut tally = MatchTally::default();
        tally.add_games(&record::games_in(dir)?);
        Ok(tally)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: u64, result: &str) -> GameRecord {
        GameRecord {
            game: id,
            pair: id / 2,
            seed: 1,
            opening: String::new(),
            black: "a".into(),
            white: "b".into(),
            result: result.into(),
            black_count: 0,
            white_count: 0,
            score: 0,
            plies: 0,
            black_cpu: 0.25,
            white_cpu: 0.5,
            ending: "normal".into(),
            detail: String::new(),
        }
    }

    #[test]
    fn tallies_count_the_first_players_points_in_pairs() {
        // Pair 0: first wins as Black (1-0), wins as White (0-1): WW.
        // Pair 1: first loses as Black, draws as White: LD. Game 4 alone.
        let games = [game(3, "1/2-1/2"), game(0, "1-0"), game(1, "0-1"), game(2, "0-1"), game(4, "1-0")];
        let mut t = MatchTally::default();
        t.add_games(&games);
        assert_eq!((t.wdl.wins, t.wdl.draws, t.wdl.losses), (3, 1, 1));
        assert_eq!(t.pairs.0, [0, 1, 0, 0, 1]);
        assert!((t.cpu_seconds - 5.0 * 0.75).abs() < 1e-12);
    }

    #[test]
    fn specs_name_the_budget_and_the_file() {
        let p = Path::new("w.txt");
        assert_eq!(engine_spec(MoveBudget::Nodes(5000), 0, p), "engine:nodes=5000,weights=w.txt");
        assert_eq!(engine_spec(MoveBudget::Depth(4), 0, p), "engine:depth=4,weights=w.txt");
        assert_eq!(engine_spec(MoveBudget::Depth(4), 2, p), "engine:depth=4,tt=2,weights=w.txt");
        for spec in [engine_spec(MoveBudget::Nodes(5000), 1, p), engine_spec(MoveBudget::Depth(4), 0, p)] {
            assert!(spec.parse::<selfplay::player::PlayerSpec>().is_ok(), "{spec}");
        }
    }
}
