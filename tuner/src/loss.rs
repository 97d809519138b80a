//! The Texel loss: mean squared error between a position's target and
//! `sigmoid(K * eval)`, summed in fixed-order chunks so that the result is
//! bit-for-bit the same whatever the number of threads.

use crate::dataset::Rows;
use rayon::prelude::*;

/// Positions per chunk of a parallel sum. Fixed: the chunking decides the
/// order of floating-point additions, hence the exact result.
pub const CHUNK: usize = 4096;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Sums `term(i)` for `i` in `0..n` in fixed chunks, in parallel, then adds
/// the chunk sums in order: reproducible to the last bit.
pub fn ordered_sum(n: usize, term: impl Fn(usize) -> f64 + Sync) -> f64 {
    let chunks = n.div_ceil(CHUNK);
    let partial: Vec<f64> =
        (0..chunks).into_par_iter().map(|c| (c * CHUNK..((c + 1) * CHUNK).min(n)).map(&term).sum::<f64>()).collect();
    partial.iter().sum()
}

/// Mean squared error of `sigmoid(k * evals[p])` against the targets.
pub fn mse<R: Rows + ?Sized>(data: &R, evals: &[i64], k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let total = ordered_sum(data.len(), |p| {
        let e = data.target(p) - sigmoid(k * evals[p] as f64);
        e * e
    });
    total / data.len() as f64
}

/// Smallest and largest `log10 K` the fit considers.
const LOG_K_RANGE: (f64, f64) = (-6.0, 1.0);
/// Golden-section iterations: the bracket shrinks to 0.618^60 of its width.
const FIT_ITERATIONS: usize = 60;

/// The scaling constant K that minimises the loss for fixed evaluations
/// (golden-section search on log K; the loss is unimodal in K in practice).
pub fn fit_k<R: Rows + ?Sized>(data: &R, evals: &[i64]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let loss = |log_k: f64| mse(data, evals, 10f64.powf(log_k));
    let (mut lo, mut hi) = LOG_K_RANGE;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (loss(a), loss(b));
    for _ in 0..FIT_ITERATIONS {
        if fa <= fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = loss(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = loss(b);
        }
    }
    10f64.powf((lo + hi) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Dataset, Sample};

    #[test]
    fn ordered_sum_is_exact_and_chunk_independent_of_threads() {
        let n = 3 * CHUNK + 17;
        let term = |i: usize| 1.0 / (1.0 + i as f64);
        let serial: f64 =
            (0..n.div_ceil(CHUNK)).map(|c| (c * CHUNK..((c + 1) * CHUNK).min(n)).map(term).sum::<f64>()).sum();
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| ordered_sum(n, term));
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| ordered_sum(n, term));
        assert_eq!(one.to_bits(), serial.to_bits());
        assert_eq!(two.to_bits(), serial.to_bits());
    }

    #[test]
    fn fit_k_recovers_the_scale_of_clean_data() {
        // Targets are exactly sigmoid(K * eval) for K = 0.004: the fit finds it.
        let k_true = 0.004;
        let mut data = Dataset::new();
        let mut evals = Vec::new();
        for e in (-1000..=1000).step_by(10) {
            data.push(&Sample { game: 0, features: vec![], target: sigmoid(k_true * e as f64) });
            evals.push(e as i64);
        }
        let k = fit_k(&data, &evals);
        assert!((k / k_true - 1.0).abs() < 1e-3, "fitted {k}");
        assert!(mse(&data, &evals, k) < 1e-9);
    }
}
