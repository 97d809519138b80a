//! Texel local search: each weight in turn is tried one step up and one step
//! down and kept where the training loss falls; step sizes grow after a
//! success and shrink after a failure; passes repeat until validation loss
//! stops improving.
//!
//! A trial touches only the positions that use the weight (through the
//! inverted index) and sums their loss change in fixed-order chunks, so a
//! run is reproducible to the bit and a resumed run equals an uninterrupted one.

use crate::dataset::{Dataset, Inverted, Rows};
use crate::loss::{mse, ordered_sum, sigmoid};
use serde::{Deserialize, Serialize};

/// Limits of one weight, from the engine's weight registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounds {
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// The registry's step: the smallest step tried.
    pub step: i32,
}

/// How far a step may grow above the registry's step.
const MAX_STEP_FACTOR: i32 = 16;

/// One row of the tuning log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassLog {
    /// Pass number, from 1 (pass 0 is the starting point).
    pub pass: usize,
    /// Training loss after the pass.
    pub train_loss: f64,
    /// Validation loss after the pass.
    pub validation_loss: f64,
    /// Weights changed in the pass.
    pub changed: usize,
    /// Wall-clock seconds the pass took.
    pub seconds: f64,
}

/// Everything a tuning run needs to continue: saved after every pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// The fitted scaling constant.
    pub k: f64,
    /// Current weights.
    pub weights: Vec<i32>,
    /// Current step of each weight.
    pub steps: Vec<i32>,
    /// Weights with the lowest validation loss so far (the output).
    pub best_weights: Vec<i32>,
    /// That validation loss.
    pub best_validation: f64,
    /// Passes since the validation loss last improved.
    pub stale_passes: usize,
    /// True once the run has stopped (converged or validation stalled).
    pub finished: bool,
    /// One row per pass, pass 0 first.
    pub log: Vec<PassLog>,
}

/// A local search over a training and a validation set.
pub struct LocalSearch<'a> {
    train: &'a Dataset,
    validation: &'a Dataset,
    bounds: &'a [Bounds],
    inverted: Inverted,
    evals: Vec<i64>,
    /// The run's state; also what a checkpoint stores.
    pub state: TuneState,
}

impl<'a> LocalSearch<'a> {
    /// A fresh search from `weights`, with the scale `k` given or (when
    /// `None`) fitted on the training set with the starting weights.
    pub fn start(
        train: &'a Dataset,
        validation: &'a Dataset,
        bounds: &'a [Bounds],
        weights: Vec<i32>,
        k: Option<f64>,
    ) -> Self {
        assert_eq!(bounds.len(), weights.len(), "one bound per weight");
        let evals = train.evaluate_all(&weights);
        let k = k.unwrap_or_else(|| crate::loss::fit_k(train, &evals));
        let validation_loss = mse(validation, &validation.evaluate_all(&weights), k);
        let state = TuneState {
            k,
            steps: bounds.iter().map(|b| b.step.max(1)).collect(),
            best_weights: weights.clone(),
            weights,
            best_validation: validation_loss,
            stale_passes: 0,
            finished: false,
            log: vec![PassLog {
                pass: 0,
                train_loss: mse(train, &evals, k),
                validation_loss,
                changed: 0,
                seconds: 0.0,
            }],
        };
        Self::resume(train, validation, bounds, state)
    }

    /// Continues from a saved state.
    pub fn resume(train: &'a Dataset, validation: &'a Dataset, bounds: &'a [Bounds], state: TuneState) -> Self {
        let evals = train.evaluate_all(&state.weights);
        let inverted = train.inverted(state.weights.len());
        LocalSearch { train, validation, bounds, inverted, evals, state }
    }

    /// Change of the total training loss (sum, not mean) if weight `w` moved
    /// by `delta`.
    fn loss_change(&self, w: usize, delta: i32) -> f64 {
        let users = self.inverted.users(w);
        let k = self.state.k;
        ordered_sum(users.len(), |u| {
            let (p, m) = users[u];
            let p = p as usize;
            let t = self.train.target(p);
            let e = self.evals[p];
            let before = t - sigmoid(k * e as f64);
            let after = t - sigmoid(k * (e + i64::from(delta) * i64::from(m)) as f64);
            after * after - before * before
        })
    }

    fn apply(&mut self, w: usize, delta: i32) {
        self.state.weights[w] += delta;
        for &(p, m) in self.inverted.users(w) {
            self.evals[p as usize] += i64::from(delta) * i64::from(m);
        }
    }

    /// One pass over every weight; `progress` is called after each weight.
    /// Returns the pass's log row and updates the stop state (`patience`
    /// passes without validation improvement, or a pass without change).
    pub fn pass(&mut self, patience: usize, mut progress: impl FnMut(usize)) -> PassLog {
        let started = std::time::Instant::now();
        let mut changed = 0;
        for w in 0..self.state.weights.len() {
            if !self.inverted.users(w).is_empty() {
                let step = self.state.steps[w];
                let bounds = self.bounds[w];
                let current = self.state.weights[w];
                let mut improved = false;
                for direction in [1, -1] {
                    let delta = (current + direction * step).clamp(bounds.min, bounds.max) - current;
                    if delta != 0 && self.loss_change(w, delta) < 0.0 {
                        self.apply(w, delta);
                        improved = true;
                        break;
                    }
                }
                let base = bounds.step.max(1);
                self.state.steps[w] =
                    if improved { (step * 2).min(base * MAX_STEP_FACTOR) } else { (step / 2).max(base) };
                changed += usize::from(improved);
            }
            progress(w);
        }
        let validation_loss = mse(self.validation, &self.validation.evaluate_all(&self.state.weights), self.state.k);
        let row = PassLog {
            pass: self.state.log.len(),
            train_loss: mse(self.train, &self.evals, self.state.k),
            validation_loss,
            changed,
            seconds: started.elapsed().as_secs_f64(),
        };
        if validation_loss < self.state.best_validation {
            self.state.best_validation = validation_loss;
            self.state.best_weights = self.state.weights.clone();
            self.state.stale_passes = 0;
        } else {
            self.state.stale_passes += 1;
        }
        self.state.finished = changed == 0 || self.state.stale_passes >= patience;
        self.state.log.push(row.clone());
        row
    }
}
