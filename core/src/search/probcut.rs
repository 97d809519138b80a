//! Multi-ProbCut: the midgame search's selectivity.
//!
//! Before searching a null-window node `depth` plies deep, a search of the
//! same node `shallow` plies deep predicts its value: when the shallow value
//! lies beyond the window by more than `mpc.confidence` standard deviations
//! of the shallow-to-deep error, the node is cut without the deep search.
//! The error's standard deviation is a line in the depth gap
//! (`mpc.sigma` + `mpc.sigma_per_ply` x (depth - shallow), in points of final score: discs in Reversi),
//! measured per game (book: engine/selectivity.md). The search turns it off with
//! `mpc.confidence=0`, and never uses it for the exact endgame.
//!
//! [`ProbCut::new`] turns the parameters into a table of shallow depths and
//! margins (score units) per depth once per search, so the node loop reads
//! two integers.

use super::params::SearchParams;
use crate::eval::SCORE_PER_POINT;

/// The shallow depth and margin of each depth, from the parameters.
#[derive(Clone, Debug)]
pub struct ProbCut {
    /// Per depth: the shallow search's depth and the margin; `None` where
    /// the node is searched in full.
    table: Vec<Option<(u32, i32)>>,
}

impl ProbCut {
    /// The table for `p` up to `max_depth` (empty when `mpc.confidence`
    /// is 0).
    pub fn new(p: &SearchParams, max_depth: u32) -> Self {
        let table = (0..=max_depth)
            .map(|depth| {
                let on = p.mpc_confidence > 0.0 && f64::from(depth) >= p.mpc_min_depth;
                on.then(|| {
                    let shallow = shallow_depth(depth, p.mpc_depth_ratio);
                    let sigma = p.mpc_sigma + p.mpc_sigma_per_ply * f64::from(depth - shallow);
                    let margin = (p.mpc_confidence * sigma * f64::from(SCORE_PER_POINT)).round() as i32;
                    (shallow, margin.max(1))
                })
            })
            .collect();
        ProbCut { table }
    }

    /// The shallow depth and margin for a node `depth` plies deep, if it
    /// is probed.
    #[inline(always)]
    pub fn at(&self, depth: u32) -> Option<(u32, i32)> {
        self.table.get(depth as usize).copied().flatten()
    }
}

/// The shallow depth for `depth`: about `ratio` of it, of the same parity
/// (odd and even depths err in opposite directions), at least one ply less
/// than `depth` and at least its parity's smallest depth.
pub const fn shallow_depth(depth: u32, ratio: f64) -> u32 {
    let cut = (depth as f64 * (1.0 - ratio) / 2.0 + 0.5) as u32;
    let cut = if cut == 0 { 1 } else { cut };
    let min = 1 + (depth + 1) % 2;
    if depth < min + 2 * cut { if depth > min { min } else { depth } } else { depth - 2 * cut }
}

/// How far deep searches land from shallow ones at one depth gap.
#[derive(Clone, Debug, PartialEq)]
pub struct GapError {
    /// Deep depth minus shallow depth (even: same parity).
    pub gap: u32,
    /// (position, shallow, deep) triples measured.
    pub pairs: usize,
    /// Mean of deep minus shallow, in points.
    pub mean: f64,
    /// Standard deviation of deep minus shallow, in points.
    pub sd: f64,
}

/// ProbCut's error model fitted to measured root scores: the errors per
/// gap and the line `mpc.sigma + mpc.sigma_per_ply x gap` through their
/// standard deviations.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCutFit {
    /// The measured errors, by gap.
    pub gaps: Vec<GapError>,
    /// `mpc.sigma`, in points.
    pub sigma: f64,
    /// `mpc.sigma_per_ply`, in points per ply of gap.
    pub sigma_per_ply: f64,
}

/// The smallest `mpc.sigma` the registry accepts.
pub const MIN_SIGMA: f64 = 0.01;

impl ProbCutFit {
    /// Fits the model to `scores[p][d - 1]`, the root score in points of
    /// position `p` searched full width to depth `d` (from a cleared
    /// table), over every pair of depths of the same parity: the standard
    /// deviation per gap, then a least-squares line through them weighted
    /// by their pairs (slope at least 0, intercept at least the registry's
    /// minimum). `None` when no position has three depths.
    pub fn from_scores(scores: &[Vec<f64>]) -> Option<ProbCutFit> {
        let mut by_gap: std::collections::BTreeMap<u32, Vec<f64>> = std::collections::BTreeMap::new();
        for depths in scores {
            for (s, shallow) in depths.iter().enumerate() {
                for (d, deep) in depths.iter().enumerate().skip(s + 2).step_by(2) {
                    by_gap.entry((d - s) as u32).or_default().push(deep - shallow);
                }
            }
        }
        let gaps: Vec<GapError> = by_gap
            .into_iter()
            .map(|(gap, errors)| {
                let (mean, sd) = mean_and_sd(&errors);
                GapError { gap, pairs: errors.len(), mean, sd }
            })
            .collect();
        if gaps.is_empty() {
            return None;
        }
        let (sigma, sigma_per_ply) =
            sigma_line(&gaps.iter().map(|g| (f64::from(g.gap), g.sd, g.pairs as f64)).collect::<Vec<_>>());
        Some(ProbCutFit { gaps, sigma, sigma_per_ply })
    }
}

/// The mean and the (population) standard deviation of `errors` (not
/// empty).
pub fn mean_and_sd(errors: &[f64]) -> (f64, f64) {
    let n = errors.len() as f64;
    let mean = errors.iter().sum::<f64>() / n;
    (mean, (errors.iter().map(|e| (e - mean) * (e - mean)).sum::<f64>() / n).sqrt())
}

/// The least-squares line `sigma + slope x` through points `(x, sd,
/// weight)`, each weighted by its weight, with the slope at least 0 and the
/// intercept at least the registry's minimum: `(sigma, slope)`.
pub fn sigma_line(points: &[(f64, f64, f64)]) -> (f64, f64) {
    let weight: f64 = points.iter().map(|p| p.2).sum();
    let mean_of = |f: &dyn Fn(f64, f64) -> f64| points.iter().map(|&(x, y, w)| w * f(x, y)).sum::<f64>() / weight;
    let (x_mean, y_mean) = (mean_of(&|x, _| x), mean_of(&|_, y| y));
    let spread = mean_of(&|x, _| (x - x_mean).powi(2));
    let slope = if spread > 0.0 { (mean_of(&|x, y| (x - x_mean) * (y - y_mean)) / spread).max(0.0) } else { 0.0 };
    ((y_mean - slope * x_mean).max(MIN_SIGMA), slope)
}

/// The confidence (standard deviations) at which a cut is right `percent`
/// of the time, two-sided as engines quote their selectivity (87%: about
/// 1.5); `None` outside 0 < percent < 100.
pub fn confidence_for(percent: f64) -> Option<f64> {
    if !(percent > 0.0 && percent < 100.0) {
        return None;
    }
    let target = percent / 100.0;
    // P(|Z| < t) = erf(t / sqrt 2) grows with t: bisect.
    let (mut lo, mut hi) = (0.0f64, MAX_CONFIDENCE);
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if erf(mid / std::f64::consts::SQRT_2) < target { lo = mid } else { hi = mid }
    }
    Some(0.5 * (lo + hi))
}

/// The largest confidence [`confidence_for`] returns.
const MAX_CONFIDENCE: f64 = 8.0;
/// Bisection steps of [`confidence_for`] (8 / 2^60: far below f64 noise).
const BISECTIONS: usize = 60;

/// The error function, to about 1e-7 (Abramowitz and Stegun 7.1.26).
fn erf(x: f64) -> f64 {
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] = [0.254_829_592, -0.284_496_736, 1.421_413_741, -1.453_152_027, 1.061_405_429];
    let t = 1.0 / (1.0 + P * x.abs());
    let poly = A.iter().rev().fold(0.0, |acc, a| acc * t + a) * t;
    (1.0 - poly * (-x * x).exp()).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_measures_each_gap_and_draws_the_line_through_them() {
        // Depths 1-5 of a position and of its mirror image: gap-2 errors
        // 2, sqrt 7, 1 and their negatives (sd 2), gap-4 errors 3 and -3
        // (sd 3): the line through (2, 2) and (4, 3).
        let one = vec![0.0, 0.0, 2.0, 7f64.sqrt(), 3.0];
        let mirror: Vec<f64> = one.iter().map(|s| -s).collect();
        let fit = ProbCutFit::from_scores(&[one, mirror]).unwrap();
        let gaps: Vec<(u32, usize)> = fit.gaps.iter().map(|g| (g.gap, g.pairs)).collect();
        assert_eq!(gaps, [(2, 6), (4, 2)]);
        assert!(fit.gaps.iter().all(|g| g.mean.abs() < 1e-12));
        assert!((fit.gaps[0].sd - 2.0).abs() < 1e-12 && (fit.gaps[1].sd - 3.0).abs() < 1e-12);
        assert!((fit.sigma - 1.0).abs() < 1e-12 && (fit.sigma_per_ply - 0.5).abs() < 1e-12, "{fit:?}");
        // Errors that shrink with the gap get a flat line at their mean.
        let shrinking = ProbCutFit::from_scores(&[vec![0.0, 0.0, 4.0, 0.0, 1.0], vec![0.0, 0.0, -4.0, 0.0, -1.0]]);
        assert_eq!(shrinking.as_ref().map(|f| f.sigma_per_ply), Some(0.0));
        assert_eq!(ProbCutFit::from_scores(&[vec![1.0, 2.0]]), None);
    }

    #[test]
    fn selectivity_percentages_are_two_sided_normal_quantiles() {
        // Standard normal table: P(|Z| < 1) = 68.27%, P(|Z| < 1.96) = 95%,
        // P(|Z| < 2.576) = 99%.
        for (percent, t) in [(68.27, 1.0), (95.0, 1.96), (99.0, 2.576)] {
            let got = confidence_for(percent).unwrap();
            assert!((got - t).abs() < 2e-3, "{percent}%: {got}");
        }
        for bad in [0.0, 100.0, -5.0, f64::NAN] {
            assert_eq!(confidence_for(bad), None);
        }
    }

    #[test]
    fn shallow_depths_keep_the_parity_and_are_shallower() {
        for depth in 3..=40 {
            for ratio in [0.0, 0.25, 0.5, 0.75, 0.9] {
                let s = shallow_depth(depth, ratio);
                assert_eq!(s % 2, depth % 2, "{depth} {ratio}");
                assert!(s < depth && s >= 1, "{depth} {ratio}: {s}");
            }
        }
        assert_eq!(shallow_depth(8, 0.5), 4);
        assert_eq!(shallow_depth(5, 0.5), 3);
    }

    #[test]
    fn confidence_zero_turns_it_off_and_margins_grow_with_the_gap() {
        const MAX_DEPTH: u32 = 64;
        let off = ProbCut::new(&SearchParams { mpc_confidence: 0.0, ..SearchParams::DEFAULT }, MAX_DEPTH);
        assert!((0..=MAX_DEPTH).all(|d| off.at(d).is_none()));
        let p = SearchParams {
            mpc_confidence: 1.5,
            mpc_min_depth: 4.0,
            mpc_depth_ratio: 0.5,
            mpc_sigma: 2.0,
            mpc_sigma_per_ply: 0.6,
            ..SearchParams::DEFAULT
        };
        let on = ProbCut::new(&p, MAX_DEPTH);
        assert!(on.at(3).is_none());
        let (s4, m4) = on.at(4).unwrap();
        let (s12, m12) = on.at(12).unwrap();
        assert_eq!((s4, s12), (2, 6));
        // 1.5 x (2 + 0.6 x 2) points and 1.5 x (2 + 0.6 x 6) points, in
        // hundredths of a disc.
        assert_eq!((m4, m12), (480, 840));
        assert!(on.at(MAX_DEPTH + 1).is_none());
    }
}
