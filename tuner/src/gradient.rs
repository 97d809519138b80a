//! Full-batch Adam on the Texel loss with an L2 penalty: moves every weight
//! at once, so it fits tables with hundreds of thousands of entries that the
//! one-weight-at-a-time [`local_search`](crate::local_search) cannot reach.
//!
//! The objective, in logit units so that the penalty `l2` does not depend on
//! the score scale:
//!
//! `Σ_p (t_p - σ(K e_p))² + l2 · Σ_i (K (w_i - a_i))²`
//!
//! with the anchor `a` zero, or the start weights when
//! [`GradientOptions::anchored`] (a fine-tune). A weight used by few
//! positions feels a small data gradient and is held near its anchor by the
//! penalty; a weight used by many is fitted by the data.
//!
//! Each epoch reads every training position once: its features (from the
//! stored features or the packed board, see [`Rows`]), its evaluation, its
//! loss and its share of the gradient. The positions are cut into fixed
//! chunks dealt round-robin to [`LANES`] lanes; each lane sums its chunks in
//! order into its own gradient and the lanes are added in order, so a run is
//! reproducible to the bit whatever the thread count, and nothing beyond the
//! lanes' gradients is stored per weight.

use crate::dataset::Rows;
use crate::local_search::{Bounds, PassLog};
use crate::loss::{CHUNK, ordered_sum, sigmoid};
use rayon::prelude::*;
use std::time::Instant;

/// Adam's decay of the mean gradient.
const BETA1: f64 = 0.9;
/// Adam's decay of the mean squared gradient.
const BETA2: f64 = 0.999;
/// Adam's guard against division by zero.
const EPSILON: f64 = 1e-12;
/// What a rate is multiplied by at each restart (see [`GradientOptions::decays`]).
pub const DECAY_FACTOR: f64 = 0.25;
/// Gradients summed side by side in one epoch: the most threads it keeps
/// busy, and the memory it takes (one `f64` per weight and lane).
pub const LANES: usize = 16;

/// The settings of a gradient fit.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GradientOptions {
    /// Step size, in weight units (score units: 1/100 disc).
    pub learning_rate: f64,
    /// Weight of the L2 penalty (in logit units; see the module doc).
    pub l2: f64,
    /// Epochs at most.
    pub epochs: usize,
    /// Stop a rate after this many epochs without a better validation loss.
    pub patience: usize,
    /// Restarts after a rate stops: Adam starts afresh from the best weights
    /// so far at [`DECAY_FACTOR`] times the last rate. Adam's first steps
    /// move every weight by about the rate, which overshoots once the start
    /// is already good (the loop's later rounds); a smaller rate then still
    /// finds the gain.
    #[serde(default = "default_decays")]
    pub decays: usize,
    /// The penalty pulls each weight towards its start value instead of
    /// zero: a fine-tune of fitted weights on new data keeps what the data
    /// does not speak about (other phases, unseen configurations).
    #[serde(default)]
    pub anchored: bool,
}

const fn default_decays() -> usize {
    2
}

impl Default for GradientOptions {
    fn default() -> Self {
        GradientOptions {
            learning_rate: 4.0,
            l2: 1.0,
            epochs: 400,
            patience: 30,
            decays: default_decays(),
            anchored: false,
        }
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

/// The evaluation of the features in `features` under `weights`.
#[inline]
fn dot(features: &[(u32, i32)], weights: &[f64]) -> f64 {
    features.iter().map(|&(i, m)| weights[i as usize] * f64::from(m)).sum()
}

/// Mean squared error of `sigmoid(k * eval)` against the targets.
fn mean_loss<R: Rows>(data: &R, weights: &[f64], k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let evals: Vec<f64> = (0..data.len())
        .into_par_iter()
        .map_init(Vec::new, |features, p| {
            data.features_into(p, features);
            dot(features, weights)
        })
        .collect();
    ordered_sum(data.len(), |p| (data.target(p) - sigmoid(k * evals[p])).powi(2)) / data.len() as f64
}

/// One read of `data` under `weights`: the mean loss and the gradient of
/// the summed loss (without the penalty), to the bit whatever the threads.
fn loss_and_gradient<R: Rows>(data: &R, weights: &[f64], k: f64) -> (f64, Vec<f64>) {
    let chunks = data.len().div_ceil(CHUNK);
    let lanes: Vec<(f64, Vec<f64>)> = (0..LANES.min(chunks.max(1)))
        .into_par_iter()
        .map(|lane| {
            let (mut loss, mut gradient) = (0.0, vec![0.0; weights.len()]);
            let mut features = Vec::new();
            for chunk in (lane..chunks).step_by(LANES) {
                for p in chunk * CHUNK..((chunk + 1) * CHUNK).min(data.len()) {
                    data.features_into(p, &mut features);
                    let s = sigmoid(k * dot(&features, weights));
                    let error = data.target(p) - s;
                    loss += error * error;
                    // d/de_p of (t - σ(k e))²: -2 (t - σ) σ (1 - σ) k.
                    let coefficient = -2.0 * error * s * (1.0 - s) * k;
                    for &(i, m) in &features {
                        gradient[i as usize] += coefficient * f64::from(m);
                    }
                }
            }
            (loss, gradient)
        })
        .collect();
    let loss = lanes.iter().map(|(l, _)| l).sum::<f64>() / data.len().max(1) as f64;
    let mut total = vec![0.0; weights.len()];
    total.par_chunks_mut(CHUNK).enumerate().for_each(|(c, part)| {
        for (lane, _) in lanes.iter().enumerate() {
            let from = &lanes[lane].1[c * CHUNK..c * CHUNK + part.len()];
            part.iter_mut().zip(from).for_each(|(t, g)| *t += g);
        }
    });
    (loss, total)
}

/// The weights rounded to integers within their bounds.
fn rounded(weights: &[f64], bounds: &[Bounds]) -> Vec<i32> {
    weights.iter().zip(bounds).map(|(&w, b)| (w.round() as i32).clamp(b.min, b.max)).collect()
}

/// Fits weights to `train` from `start` with scale `k`, keeping the epoch
/// with the lowest validation loss; `progress` sees each epoch's log row.
pub fn fit<R: Rows>(
    train: &R,
    validation: &R,
    bounds: &[Bounds],
    start: &[i32],
    k: f64,
    options: &GradientOptions,
    mut progress: impl FnMut(&PassLog),
) -> GradientFit {
    assert_eq!(bounds.len(), start.len(), "one bound per weight");
    let mut weights: Vec<f64> = start.iter().map(|&w| f64::from(w)).collect();
    let (mut m, mut v) = (vec![0.0; weights.len()], vec![0.0; weights.len()]);
    let mut log = Vec::new();
    let mut previous = rounded(&weights, bounds);
    // The loss and gradient at the current weights: each epoch steps with
    // the gradient and reads the data once at the weights it reached.
    let (train_loss, mut gradient) = loss_and_gradient(train, &weights, k);
    let row = |pass: usize, train_loss: f64, weights: &[f64], changed: usize, seconds: f64| PassLog {
        pass,
        train_loss,
        validation_loss: mean_loss(validation, weights, k),
        changed,
        seconds,
    };
    log.push(row(0, train_loss, &weights, 0, 0.0));
    progress(&log[0]);
    let (mut best, mut best_epoch) = (previous.clone(), 0);
    let mut best_loss = log[0].validation_loss;
    let penalty = 2.0 * options.l2 * k * k;
    let anchor: Vec<f64> =
        if options.anchored { start.iter().map(|&w| f64::from(w)).collect() } else { vec![0.0; start.len()] };
    let mut rate = options.learning_rate;
    let mut epoch = 0;
    for stage in 0..=options.decays {
        if stage > 0 {
            // Afresh from the best weights, at a smaller rate.
            rate *= DECAY_FACTOR;
            weights = best.iter().map(|&w| f64::from(w)).collect();
            previous = best.clone();
            m.fill(0.0);
            v.fill(0.0);
            gradient = loss_and_gradient(train, &weights, k).1;
        }
        let stage_start = epoch;
        let mut steps = 0;
        while epoch < options.epochs {
            epoch += 1;
            steps += 1;
            let started = Instant::now();
            let (c1, c2) = (1.0 - BETA1.powi(steps), 1.0 - BETA2.powi(steps));
            for (i, g) in gradient.iter().enumerate() {
                let g = g + penalty * (weights[i] - anchor[i]);
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
                let step = rate * (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
                weights[i] = (weights[i] - step).clamp(f64::from(bounds[i].min), f64::from(bounds[i].max));
            }
            let now = rounded(&weights, bounds);
            let changed = now.iter().zip(&previous).filter(|(a, b)| a != b).count();
            previous = now;
            let train_loss;
            (train_loss, gradient) = loss_and_gradient(train, &weights, k);
            log.push(row(epoch, train_loss, &weights, changed, started.elapsed().as_secs_f64()));
            let row = &log[epoch];
            progress(row);
            if row.validation_loss < best_loss {
                (best, best_epoch, best_loss) = (previous.clone(), epoch, row.validation_loss);
            } else if epoch - best_epoch.max(stage_start) >= options.patience {
                break;
            }
        }
    }
    GradientFit { weights: best, best_epoch, log }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Dataset, Sample, mix};
    use engine_core::mix::SplitMix;
    use rand::RngExt;

    const WEIGHTS: usize = 40;
    const K: f64 = 0.01;

    fn synthetic(truth: &[i32], positions: usize, seed: u64) -> Dataset {
        crate::testdata::synthetic(truth, positions, 6, K, seed)
    }

    #[test]
    fn recovers_known_weights_from_zero_and_is_reproducible() {
        let mut rng = SplitMix(7);
        let truth: Vec<i32> = (0..WEIGHTS).map(|_| rng.random_range(-150..=150)).collect();
        let all = synthetic(&truth, 40_000, 1);
        let (train, validation) = all.split_by_game(|g| mix(g).is_multiple_of(5));
        let bounds = vec![Bounds { min: -1000, max: 1000, step: 1 }; WEIGHTS];
        let options =
            GradientOptions { learning_rate: 5.0, l2: 0.01, epochs: 300, patience: 300, decays: 0, anchored: false };
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
    fn a_smaller_rate_finds_what_an_overshooting_one_misses() {
        // Start near the truth with a rate far too large for it: Adam's first
        // steps (about the rate on every weight) overshoot and the rate stops
        // with nothing better than the start; the decayed restarts, from the
        // best weights, still find the gain.
        let mut rng = SplitMix(11);
        let truth: Vec<i32> = (0..WEIGHTS).map(|_| rng.random_range(-150..=150)).collect();
        let start: Vec<i32> = truth.iter().map(|t| t + rng.random_range(-20..=20)).collect();
        let all = synthetic(&truth, 40_000, 2);
        let (train, validation) = all.split_by_game(|g| mix(g).is_multiple_of(5));
        let bounds = vec![Bounds { min: -1000, max: 1000, step: 1 }; WEIGHTS];
        let fit_with = |decays| {
            let options =
                GradientOptions { learning_rate: 200.0, l2: 0.01, epochs: 200, patience: 5, decays, anchored: false };
            fit(&train, &validation, &bounds, &start, K, &options, |_| {})
        };
        let (flat, decayed) = (fit_with(0), fit_with(3));
        let best = |f: &GradientFit| f.log[f.best_epoch].validation_loss;
        let losses = |f: &GradientFit, n: usize| f.log[..n].iter().map(|r| r.validation_loss).collect::<Vec<_>>();
        assert_eq!(losses(&flat, flat.log.len()), losses(&decayed, flat.log.len()), "the first rate runs alike");
        assert_eq!(flat.best_epoch, 0, "the first rate overshoots: {:?}", losses(&flat, flat.log.len()));
        assert!(best(&decayed) < best(&flat), "{} vs {}", best(&decayed), best(&flat));
        let error = |w: &[i32]| w.iter().zip(&truth).map(|(&w, &t)| f64::from((w - t).abs())).sum::<f64>();
        assert!(error(&decayed.weights) < error(&start), "closer to the truth than the start");
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
        let options =
            GradientOptions { learning_rate: 5.0, l2: 5.0, epochs: 400, patience: 400, decays: 0, anchored: false };
        let result = fit(&data, &data, &bounds, &[0, 0], K, &options, |_| {});
        assert!(result.weights[0].abs() < 30, "{:?}", result.weights);
        // The common weight finds the 3:1 odds: sigmoid(K w) = 0.75.
        let fitted = sigmoid(K * f64::from(result.weights[1]));
        assert!((fitted - 0.75).abs() < 0.03, "{fitted}");
    }

    #[test]
    fn an_anchored_penalty_keeps_unseen_weights_at_their_start() {
        // Weight 2 appears in no position: the plain penalty pulls it
        // towards zero (by the epoch whose validation loss is best, far
        // from its start), the anchored one leaves it where it started; the data still
        // fits weight 1 (3:1 odds) either way.
        let mut data = Dataset::new();
        for p in 0..2000 {
            data.push(&Sample { game: p, features: vec![(1, 1)], target: if p % 4 == 0 { 0.0 } else { 1.0 } });
        }
        let bounds = vec![Bounds { min: -1000, max: 1000, step: 1 }; 3];
        let start = [0, 0, 300];
        let fit_with = |anchored| {
            let options =
                GradientOptions { learning_rate: 5.0, l2: 5.0, epochs: 400, patience: 400, decays: 0, anchored };
            fit(&data, &data, &bounds, &start, K, &options, |_| {}).weights
        };
        let (plain, anchored) = (fit_with(false), fit_with(true));
        assert!(plain[2].abs() < 150, "{plain:?}");
        assert_eq!(anchored[2], 300, "{anchored:?}");
        for w in [&plain, &anchored] {
            assert!((sigmoid(K * f64::from(w[1])) - 0.75).abs() < 0.03, "{w:?}");
        }
    }
}
