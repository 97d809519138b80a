//! Full-batch Adam on the Texel loss with an L2 penalty: moves every weight
//! at once, so it fits tables with hundreds of thousands of entries that the
//! one-weight-at-a-time [`local_search`](crate::local_search) cannot reach.
//!
//! The objective, in logit units so that the penalty `l2` does not depend on
//! the score scale:
//!
//! `Σ_p (t_p - σ(K e_p))² + l2 · Σ_i (K w_i)²`
//!
//! A weight used by few positions feels a small data gradient and is held
//! near zero by the penalty; a weight used by many is fitted by the data.
//! Gradients are gathered per weight through the inverted index in fixed
//! order, so a run is reproducible to the bit whatever the thread count.

use crate::dataset::{Dataset, Inverted};
use crate::local_search::{Bounds, PassLog};
use crate::loss::{ordered_sum, sigmoid};
use rayon::prelude::*;
use std::time::Instant;

/// Adam's decay of the mean gradient.
const BETA1: f64 = 0.9;
/// Adam's decay of the mean squared gradient.
const BETA2: f64 = 0.999;
/// Adam's guard against division by zero.
const EPSILON: f64 = 1e-12;

/// The settings of a gradient fit.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GradientOptions {
    /// Step size, in weight units (score units: 1/100 disc).
    pub learning_rate: f64,
    /// Weight of the L2 penalty (in logit units; see the module doc).
    pub l2: f64,
    /// Epochs at most.
    pub epochs: usize,
    /// Stop after this many epochs without a better validation loss.
    pub patience: usize,
}

impl Default for GradientOptions {
    fn default() -> Self {
        GradientOptions { learning_rate: 4.0, l2: 1.0, epochs: 400, patience: 30 }
    }
}

/// A finished fit: the weights (rounded, within their bounds) with the
/// lowest validation loss, and the log of every epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct GradientFit {
    /// The best weights.
    pub weights: Vec<i32>,
    /// The epoch they come from.
    pub best_epoch: usize,
    /// One row per epoch (`pass` is the epoch; `changed` counts the rounded
    /// weights the epoch changed), epoch 0 first; losses are mean squared
    /// errors without the penalty.
    pub log: Vec<PassLog>,
}

/// The evaluations of every position of `data` under real-valued `weights`.
fn evaluate(data: &Dataset, weights: &[f64]) -> Vec<f64> {
    (0..data.len())
        .into_par_iter()
        .map(|p| data.features(p).map(|(i, m)| weights[i as usize] * f64::from(m)).sum())
        .collect()
}

/// Mean squared error of `sigmoid(k * evals)` against the targets.
fn mean_loss(data: &Dataset, evals: &[f64], k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    ordered_sum(data.len(), |p| (data.target(p) - sigmoid(k * evals[p])).powi(2)) / data.len() as f64
}

/// The weights rounded to integers within their bounds.
fn rounded(weights: &[f64], bounds: &[Bounds]) -> Vec<i32> {
    weights.iter().zip(bounds).map(|(&w, b)| (w.round() as i32).clamp(b.min, b.max)).collect()
}

/// Fits weights to `train` from `start` with scale `k`, keeping the epoch
/// with the lowest validation loss; `progress` sees each epoch's log row.
pub fn fit(
    train: &Dataset,
    validation: &Dataset,
    bounds: &[Bounds],
    start: &[i32],
    k: f64,
    options: &GradientOptions,
    mut progress: impl FnMut(&PassLog),
) -> GradientFit {
    assert_eq!(bounds.len(), start.len(), "one bound per weight");
    let inverted: Inverted = train.inverted(start.len());
    let mut weights: Vec<f64> = start.iter().map(|&w| f64::from(w)).collect();
    let (mut m, mut v) = (vec![0.0; weights.len()], vec![0.0; weights.len()]);
    let mut log = Vec::new();
    let mut previous = rounded(&weights, bounds);
    let record = |pass: usize, weights: &[f64], changed: usize, seconds: f64| PassLog {
        pass,
        train_loss: mean_loss(train, &evaluate(train, weights), k),
        validation_loss: mean_loss(validation, &evaluate(validation, weights), k),
        changed,
        seconds,
    };
    log.push(record(0, &weights, 0, 0.0));
    progress(&log[0]);
    let (mut best, mut best_epoch) = (previous.clone(), 0);
    let mut best_loss = log[0].validation_loss;
    for epoch in 1..=options.epochs {
        let started = Instant::now();
        // d/de_p of (t - σ(k e))²: -2 (t - σ) σ (1 - σ) k.
        let evals = evaluate(train, &weights);
        let coefficient: Vec<f64> = (0..train.len())
            .into_par_iter()
            .map(|p| {
                let s = sigmoid(k * evals[p]);
                -2.0 * (train.target(p) - s) * s * (1.0 - s) * k
            })
            .collect();
        let penalty = 2.0 * options.l2 * k * k;
        let gradient: Vec<f64> = (0..weights.len())
            .into_par_iter()
            .map(|i| {
                let data: f64 =
                    inverted.users(i).iter().map(|&(p, mult)| coefficient[p as usize] * f64::from(mult)).sum();
                data + penalty * weights[i]
            })
            .collect();
        let (c1, c2) = (1.0 - BETA1.powi(epoch as i32), 1.0 - BETA2.powi(epoch as i32));
        for (i, g) in gradient.into_iter().enumerate() {
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
            let step = options.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
            weights[i] = (weights[i] - step).clamp(f64::from(bounds[i].min), f64::from(bounds[i].max));
        }
        let now = rounded(&weights, bounds);
        let changed = now.iter().zip(&previous).filter(|(a, b)| a != b).count();
        previous = now;
        log.push(record(epoch, &weights, changed, started.elapsed().as_secs_f64()));
        let row = &log[epoch];
        progress(row);
        if row.validation_loss < best_loss {
            (best, best_epoch, best_loss) = (previous.clone(), epoch, row.validation_loss);
        } else if epoch - best_epoch >= options.patience {
            break;
        }
    }
    GradientFit { weights: best, best_epoch, log }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Sample, mix};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const WEIGHTS: usize = 40;
    const K: f64 = 0.01;

    fn synthetic(truth: &[i32], positions: usize, seed: u64) -> Dataset {
        crate::testdata::synthetic(truth, positions, 6, K, seed)
    }

    #[test]
    fn recovers_known_weights_from_zero_and_is_reproducible() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let truth: Vec<i32> = (0..WEIGHTS).map(|_| rng.random_range(-150..=150)).collect();
        let all = synthetic(&truth, 40_000, 1);
        let (train, validation) = all.split_by_game(|g| mix(g).is_multiple_of(5));
        let bounds = vec![Bounds { min: -1000, max: 1000, step: 1 }; WEIGHTS];
        let options = GradientOptions { learning_rate: 5.0, l2: 0.01, epochs: 300, patience: 300 };
        let fit_once = || fit(&train, &validation, &bounds, &[0; WEIGHTS], K, &options, |_| {});
        let result = fit_once();
        let log = &result.log;
        assert!(log[result.best_epoch].validation_loss < log[0].validation_loss * 0.9, "{:?}", log.last());
        // Close to the truth: within 25 score units on average.
        let error: f64 =
            result.weights.iter().zip(&truth).map(|(&w, &t)| f64::from((w - t).abs())).sum::<f64>() / WEIGHTS as f64;
        assert!(error < 25.0, "mean error {error}: {:?} vs {truth:?}", result.weights);
        // The same run on one thread gives the same weights.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        assert_eq!(pool.install(fit_once).weights, result.weights);
    }

    #[test]
    fn the_penalty_holds_rare_weights_near_zero() {
        // Weight 0 appears in one position only: with a penalty its fitted
        // value stays small whatever that position's result says.
        let mut data = Dataset::new();
        data.push(&Sample { game: 0, features: vec![(0, 1)], target: 1.0 });
        for p in 1..2000 {
            data.push(&Sample { game: p, features: vec![(1, 1)], target: if p % 4 == 0 { 0.0 } else { 1.0 } });
        }
        let bounds = vec![Bounds { min: -1000, max: 1000, step: 1 }; 2];
        let options = GradientOptions { learning_rate: 5.0, l2: 5.0, epochs: 400, patience: 400 };
        let result = fit(&data, &data, &bounds, &[0, 0], K, &options, |_| {});
        assert!(result.weights[0].abs() < 30, "{:?}", result.weights);
        // The common weight finds the 3:1 odds: sigmoid(K w) = 0.75.
        let fitted = sigmoid(K * f64::from(result.weights[1]));
        assert!((fitted - 0.75).abs() < 0.03, "{fitted}");
    }
}
