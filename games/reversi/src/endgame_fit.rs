//! The selective solve's error model, fitted to measured scores (`analyze
//! --fit-endgame`): how far Reversi's exact endgame score lands from the
//! shallow search that predicts it, which sets the solver's ProbCut
//! parameters (`endgame.probcut_*` of [`super::ReversiParams`]).

use engine_core::search::probcut::{mean_and_sd, sigma_line};

/// How far the exact score lands from the selective solve's prediction
/// (`endgame::shallow_value`, put in discs by the fitted line) at one
/// number of empties.
#[derive(Clone, Debug, PartialEq)]
pub struct EmptiesError {
    /// Empty cells of the positions.
    pub empties: u32,
    /// Positions measured.
    pub positions: usize,
    /// Mean of exact minus predicted, in discs.
    pub mean: f64,
    /// Standard deviation of exact minus predicted, in discs.
    pub sd: f64,
}

/// The selective solve's error model fitted to measured scores: the line
/// `exact ~ endgame.probcut_scale x shallow + endgame.probcut_offset`
/// (discs; the evaluation is in discs only up to a scale), the residual
/// per number of empties, and the line `endgame.probcut_sigma +
/// endgame.probcut_sigma_per_empty x empties` through its standard
/// deviations.
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameFit {
    /// `endgame.probcut_scale`.
    pub scale: f64,
    /// `endgame.probcut_offset`, in discs.
    pub offset: f64,
    /// The residuals, by empties (those with two positions or more).
    pub by_empties: Vec<EmptiesError>,
    /// `endgame.probcut_sigma`, in discs.
    pub sigma: f64,
    /// `endgame.probcut_sigma_per_empty`, in discs per empty cell.
    pub sigma_per_empty: f64,
}

impl EndgameFit {
    /// Fits the model to `(empties, exact score, shallow score)` of each
    /// position (scores in discs); `None` when the shallow scores do not
    /// vary or no number of empties has two positions.
    pub fn from_scores(scores: &[(u32, f64, f64)]) -> Option<EndgameFit> {
        let n = scores.len() as f64;
        let (x_mean, y_mean) =
            (scores.iter().map(|s| s.2).sum::<f64>() / n, scores.iter().map(|s| s.1).sum::<f64>() / n);
        let spread: f64 = scores.iter().map(|s| (s.2 - x_mean).powi(2)).sum();
        if spread.is_nan() || spread <= 0.0 {
            return None;
        }
        let scale = scores.iter().map(|s| (s.2 - x_mean) * (s.1 - y_mean)).sum::<f64>() / spread;
        let offset = y_mean - scale * x_mean;
        let mut by: std::collections::BTreeMap<u32, Vec<f64>> = std::collections::BTreeMap::new();
        for &(empties, exact, shallow) in scores {
            by.entry(empties).or_default().push(exact - (scale * shallow + offset));
        }
        let by_empties: Vec<EmptiesError> = by
            .into_iter()
            .filter(|(_, e)| e.len() >= 2)
            .map(|(empties, e)| {
                let (mean, sd) = mean_and_sd(&e);
                EmptiesError { empties, positions: e.len(), mean, sd }
            })
            .collect();
        if by_empties.is_empty() {
            return None;
        }
        let (sigma, sigma_per_empty) = sigma_line(
            &by_empties.iter().map(|e| (f64::from(e.empties), e.sd, e.positions as f64)).collect::<Vec<_>>(),
        );
        Some(EndgameFit { scale, offset, by_empties, sigma, sigma_per_empty })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::search::probcut::MIN_SIGMA;

    #[test]
    fn the_endgame_fit_scales_the_prediction_and_measures_each_count_of_empties() {
        // Exact = 2 x shallow + 1, then residuals 1 and -1 at 10 empties
        // (sd 1) and 3 and -3 at 14 (sd 3); one position at 20 empties says
        // nothing about a spread.
        let scores = [
            (10, 2.0 * 5.0 + 1.0 + 1.0, 5.0),
            (10, 2.0 * 5.0 + 1.0 - 1.0, 5.0),
            (14, 2.0 * -3.0 + 1.0 + 3.0, -3.0),
            (14, 2.0 * -3.0 + 1.0 - 3.0, -3.0),
            (20, 1.0, 0.0),
        ];
        let fit = EndgameFit::from_scores(&scores).unwrap();
        assert!((fit.scale - 2.0).abs() < 1e-12 && (fit.offset - 1.0).abs() < 1e-12, "{fit:?}");
        let counts: Vec<(u32, usize)> = fit.by_empties.iter().map(|e| (e.empties, e.positions)).collect();
        assert_eq!(counts, [(10, 2), (14, 2)]);
        assert!((fit.by_empties[1].sd - 3.0).abs() < 1e-12);
        // The line through (10, 1) and (14, 3): slope 0.5, intercept -4,
        // raised to the registry's minimum.
        assert!((fit.sigma_per_empty - 0.5).abs() < 1e-12 && fit.sigma == MIN_SIGMA, "{fit:?}");
        assert_eq!(EndgameFit::from_scores(&[(10, 1.0, 2.0), (11, 2.0, 2.0)]), None);
        assert_eq!(EndgameFit::from_scores(&[(10, 1.0, 2.0), (11, 2.0, 3.0)]), None);
    }
}
