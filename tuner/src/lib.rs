//! Weight tuning on self-play positions (the Texel method).
//!
//! [`dataset`] holds the positions' evaluation features in compact form,
//! [`packed`] the positions themselves in at most 64 bytes each,
//! [`loss`] the reproducible Texel loss and the fit of its scale K,
//! [`gradient`] (full-batch Adam with an L2 penalty, for large tables) and
//! [`local_search`] the optimisers, [`run`] a tuning run on disk and its
//! [`Model`](run::Model) (an evaluation as the tuner sees it); [`game`] is
//! what a game provides ([`TuningGame`](game::TuningGame)), implemented
//! beside each game; [`matches`] plays weight files against each other,
//! [`round_loop`] chains self-play, tuning and proof round after round,
//! keeping its [`ladder`], and [`cli`] is the `tuner` program's commands
//! for any game. The crate names no game. The evaluations stay linear in
//! their weights, so a position's score is `Σ weight[i] * multiplicity[i]`
//! over its features.

pub mod cli;
pub mod dataset;
pub mod game;
pub mod gradient;
pub mod ladder;
pub mod local_search;
pub mod loss;
pub mod matches;
pub mod packed;
pub mod round_loop;
pub mod run;
pub mod spsa;

/// Synthetic training data for the optimisers' tests.
#[cfg(test)]
pub(crate) mod testdata {
    use crate::dataset::{Dataset, Sample};
    use crate::loss::sigmoid;
    use engine_core::mix::SplitMix;
    use rand::RngExt;

    /// Positions with `per_position` random sparse features each, labelled by
    /// drawing the result from sigmoid(k * eval) under the known weights
    /// `truth`; ten positions per game.
    pub(crate) fn synthetic(truth: &[i32], positions: usize, per_position: usize, k: f64, seed: u64) -> Dataset {
        let mut rng = SplitMix(seed);
        let mut data = Dataset::new();
        for p in 0..positions {
            let features: Vec<(u32, i32)> = (0..per_position)
                .map(|_| (rng.random_range(0..truth.len() as u32), rng.random_range(-2..=2)))
                .collect();
            let eval: i64 = features.iter().map(|&(i, m)| i64::from(truth[i as usize]) * i64::from(m)).sum();
            let target = if rng.random::<f64>() < sigmoid(k * eval as f64) { 1.0 } else { 0.0 };
            data.push(&Sample { game: (p / 10) as u64, features, target });
        }
        data
    }
}

#[cfg(test)]
mod tests {
    use crate::dataset::{Dataset, mix};
    use crate::local_search::{Bounds, LocalSearch};

    const WEIGHTS: usize = 12;
    const K: f64 = 0.01;

    fn synthetic(truth: &[i32], positions: usize, seed: u64) -> Dataset {
        crate::testdata::synthetic(truth, positions, 4, K, seed)
    }

    fn cosine(a: &[i32], b: &[i32]) -> f64 {
        let dot: f64 = a.iter().zip(b).map(|(&x, &y)| f64::from(x) * f64::from(y)).sum();
        let norm = |v: &[i32]| v.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>().sqrt();
        dot / (norm(a) * norm(b))
    }

    #[test]
    fn recovers_the_direction_of_known_weights() {
        let truth: Vec<i32> = vec![120, -80, 40, 0, 200, -150, 60, -20, 90, -40, 10, 170];
        let all = synthetic(&truth, 40_000, 1);
        let (train, validation) = all.split_by_game(|g| mix(g).is_multiple_of(5));
        let bounds = vec![Bounds { min: -1000, max: 1000, step: 4 }; WEIGHTS];
        // From zero weights K cannot be fitted (every K scores 0.5): give it.
        let mut search = LocalSearch::start(&train, &validation, &bounds, vec![0; WEIGHTS], Some(K));
        let first = search.state.log[0].clone();
        while !search.state.finished && search.state.log.len() < 60 {
            search.pass(3, |_| {});
        }
        let last = search.state.log.last().unwrap();
        assert!(last.train_loss < first.train_loss && search.state.best_validation < first.validation_loss);
        let found = &search.state.best_weights;
        assert!(cosine(found, &truth) > 0.97, "found {found:?}");
        // The scale comes back too, within sampling noise.
        let norm = |v: &[i32]| v.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>().sqrt();
        assert!((norm(found) / norm(&truth) - 1.0).abs() < 0.25, "found {found:?}");
    }

    #[test]
    fn a_resumed_run_equals_an_uninterrupted_one() {
        let truth: Vec<i32> = (0..WEIGHTS as i32).map(|i| 25 * (i - 5)).collect();
        let all = synthetic(&truth, 8_000, 2);
        let (train, validation) = all.split_by_game(|g| mix(g).is_multiple_of(5));
        let bounds = vec![Bounds { min: -500, max: 500, step: 2 }; WEIGHTS];
        let start: Vec<i32> = (0..WEIGHTS as i32).map(|i| 7 * (i % 3) - 5).collect();
        let mut straight = LocalSearch::start(&train, &validation, &bounds, start.clone(), None);
        for _ in 0..4 {
            straight.pass(10, |_| {});
        }
        let mut first_half = LocalSearch::start(&train, &validation, &bounds, start, None);
        for _ in 0..2 {
            first_half.pass(10, |_| {});
        }
        // What a checkpoint stores, through its file format.
        let saved = serde_json::to_string(&first_half.state).unwrap();
        drop(first_half);
        let mut resumed = LocalSearch::resume(&train, &validation, &bounds, serde_json::from_str(&saved).unwrap());
        for _ in 0..2 {
            resumed.pass(10, |_| {});
        }
        assert_eq!(resumed.state.weights, straight.state.weights);
        assert_eq!(resumed.state.best_weights, straight.state.best_weights);
        let losses =
            |s: &LocalSearch| s.state.log.iter().map(|r| (r.train_loss, r.validation_loss)).collect::<Vec<_>>();
        assert_eq!(losses(&resumed), losses(&straight));
    }
}
