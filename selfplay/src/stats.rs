//! Match statistics as fastchess and fishtest define them: score, Elo with a
//! 95% interval, likelihood of superiority, pentanomial (pair) counts with
//! normalized Elo, and the sequential probability ratio test.
//!
//! Everything is from the point of view of the first player of a pairing.
//! - Score `s` = mean points per game (trinomial) or per pair, halved
//!   (pentanomial, pair scores 0, 1/4, 1/2, 3/4, 1).
//! - Elo = `-400 log10(1/s - 1)`; the interval maps `s ± 1.959964 σ/√n`
//!   through the same function and reports half its width.
//! - Normalized Elo = `(s - 1/2) / σ * 800 / ln 10`, with `σ` the standard
//!   deviation of one game's points (trinomial) or of one pair score times
//!   √2 (pentanomial).
//! - LOS = `Φ((W - L) / √(W + L))` for W/D/L, `Φ((s - 1/2) / (σ/√n))` for pairs.
//! - SPRT: the generalized SPRT on pair scores (logistic Elo bounds), with
//!   `LLR = n (s1 - s0)(2s - s0 - s1) / (2 σ²)`, stopping at
//!   `ln(β/(1-α))` (H0) or `ln((1-β)/α)` (H1), and never before
//!   [`SPRT_MIN_PAIRS`] pairs. Its `s` and `σ²` are taken from the pairs
//!   plus a prior of [`SPRT_PRIOR_PAIRS`] even pairs spread as four fair
//!   half-point coins would spread them (1:4:6:4:1), so a handful of pairs
//!   that all ended alike (all won, or all split) cannot collapse the
//!   variance and decide the test on no evidence.

use std::fmt;

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;
/// Pseudo-pairs of an even match added to the pairs before the SPRT's
/// score and variance: the LLR stays finite and modest while the pairs so
/// far all ended alike, and vanishes against hundreds of real pairs.
pub const SPRT_PRIOR_PAIRS: f64 = 2.0;
/// How the prior's pairs spread over the five pair scores: the binomial
/// 1:4:6:4:1 of four fair half points.
const SPRT_PRIOR_SHAPE: [f64; 5] = [1.0 / 16.0, 4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0];
/// Pairs an SPRT needs before it may stop: with fewer, the sample variance
/// (and so the LLR) says nothing.
pub const SPRT_MIN_PAIRS: u64 = 10;

/// Elo difference for an expected score `s` in (0, 1).
pub fn score_to_elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Below this |x| [`erf`] sums its Taylor series; above, a continued fraction.
const ERF_SERIES_LIMIT: f64 = 3.0;
/// Terms of the continued fraction of `erfc` (ample for x >= 3).
const ERFC_FRACTION_TERMS: u32 = 60;

/// The error function, to about 1e-12.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let value = if z < ERF_SERIES_LIMIT {
        // erf z = 2/sqrt(pi) * sum (-1)^n z^(2n+1) / (n! (2n+1))
        let (mut term, mut sum, mut n) = (z, z, 0.0);
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -z * z / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc z = exp(-z^2)/sqrt(pi) / (z + (1/2)/(z + 1/(z + (3/2)/(z + ...))))
        let mut k = z;
        for i in (1..=ERFC_FRACTION_TERMS).rev() {
            k = z + (i as f64 / 2.0) / k;
        }
        1.0 - (-z * z).exp() / std::f64::consts::PI.sqrt() / k
    };
    value.copysign(x)
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game worth `points` (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Mean points per game.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// Elo estimate from the game results, or `None` before the first game.
    pub fn elo(&self) -> Option<Estimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let s = self.score();
        let outcomes = [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)];
        let variance = outcomes.iter().map(|&(x, k)| k as f64 * (x - s) * (x - s)).sum::<f64>() / n as f64;
        let los = if self.wins + self.losses == 0 {
            0.5
        } else {
            phi((self.wins as f64 - self.losses as f64) / ((self.wins + self.losses) as f64).sqrt())
        };
        Some(Estimate::new(s, variance, variance, n, los))
    }
}

/// Pair counts: index `k` counts the pairs in which the player scored `k`
/// half points over its two games (0 = two losses, 4 = two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair worth `points` (0 to 2 in half points).
    pub fn add(&mut self, points: f64) {
        self.0[(points * 2.0).round().clamp(0.0, 4.0) as usize] += 1;
    }

    /// The counts with the SPRT's prior of even pairs added.
    fn with_prior(&self) -> [f64; 5] {
        std::array::from_fn(|k| self.0[k] as f64 + SPRT_PRIOR_PAIRS * SPRT_PRIOR_SHAPE[k])
    }

    /// Elo of the pairs with the SPRT's prior added: finite for any counts
    /// (a perfect score included), shrunk toward 0 by two pairs' weight.
    pub fn elo_with_prior(&self) -> f64 {
        let (_, s, _) = Self::moments(self.with_prior());
        score_to_elo(s)
    }

    fn moments(counts: [f64; 5]) -> (f64, f64, f64) {
        let n: f64 = counts.iter().sum();
        let s = counts.iter().enumerate().map(|(k, c)| c * k as f64 / 4.0).sum::<f64>() / n;
        let variance = counts.iter().enumerate().map(|(k, c)| c * (k as f64 / 4.0 - s).powi(2)).sum::<f64>() / n;
        (n, s, variance)
    }

    /// Elo estimate from the pairs, or `None` before the first pair.
    pub fn elo(&self) -> Option<Estimate> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let (_, s, variance) = Self::moments(self.0.map(|c| c as f64));
        let los = if variance == 0.0 { certain_los(s) } else { phi((s - 0.5) / (variance / n as f64).sqrt()) };
        // One pair score is the mean of two games: a game's variance is twice it.
        Some(Estimate::new(s, variance, 2.0 * variance, n, los))
    }
}

/// The LOS of a sample without spread (every pair alike): certain either
/// way unless the score is level.
fn certain_los(s: f64) -> f64 {
    if s > 0.5 {
        1.0
    } else if s < 0.5 {
        0.0
    } else {
        0.5
    }
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Score (0 to 1).
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Half width of the 95% interval, in Elo.
    pub error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half width of the 95% interval of the normalized Elo.
    pub nelo_error: f64,
    /// Likelihood of superiority (0 to 1).
    pub los: f64,
}

impl Estimate {
    /// From the score `s` of `n` observations of variance `variance`; the
    /// normalized Elo uses `game_variance`, the variance of one game's points.
    fn new(s: f64, variance: f64, game_variance: f64, n: u64, los: f64) -> Self {
        let half = Z95 * (variance / n as f64).sqrt();
        let (lo, hi) = (s - half, s + half);
        let nelo = |x: f64| {
            if game_variance == 0.0 { 0.0 } else { (x - 0.5) / game_variance.sqrt() * 800.0 / std::f64::consts::LN_10 }
        };
        Estimate {
            score: s,
            elo: score_to_elo(s),
            error: (score_to_elo(hi) - score_to_elo(lo)) / 2.0,
            nelo: nelo(s),
            nelo_error: (nelo(hi) - nelo(lo)) / 2.0,
            los,
        }
    }
}

/// `Elo +12.3 ± 4.5`, or `Elo +inf` / `Elo -inf` when one side scored
/// everything (the interval is then unbounded).
pub fn elo_text(elo: f64, error: f64) -> String {
    if elo.is_finite() && error.is_finite() {
        format!("Elo {elo:+.1} ± {error:.1}")
    } else if elo.is_finite() {
        format!("Elo {elo:+.1} ± inf")
    } else {
        format!("Elo {}inf", if elo > 0.0 { '+' } else { '-' })
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, LOS {:.1}%", elo_text(self.elo, self.error), 100.0 * self.los)
    }
}

/// An SPRT between Elo hypotheses `elo0` (H0) and `elo1` (H1).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the first player is at least `elo1` stronger.
    H1,
    /// H0 accepted: it is at most `elo0` stronger.
    H0,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Parses `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let v: Vec<f64> = text
            .split(',')
            .map(|x| x.trim().parse::<f64>().map_err(|_| format!("`{text}`: expected elo0,elo1[,alpha,beta]")))
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match v[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(format!("`{text}`: expected elo0,elo1[,alpha,beta]")),
        };
        if elo0 >= elo1 || !(0.0..0.5).contains(&alpha) || !(0.0..0.5).contains(&beta) || alpha == 0.0 || beta == 0.0 {
            return Err(format!("`{text}`: expected elo0 < elo1 and alpha, beta in (0, 0.5)"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Log-likelihood ratio bounds `(lower, upper)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the pairs so far.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (n, s, variance) = Pentanomial::moments(pairs.with_prior());
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
    }

    /// The verdict for the pairs so far (none before [`SPRT_MIN_PAIRS`]).
    pub fn verdict(&self, pairs: &Pentanomial) -> Verdict {
        if pairs.pairs() < SPRT_MIN_PAIRS {
            return Verdict::Continue;
        }
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    #[test]
    fn erf_matches_tables() {
        // Abramowitz & Stegun, table 7.1.
        close(erf(0.5), 0.520_499_877_8, 1e-10);
        close(erf(1.0), 0.842_700_792_9, 1e-10);
        close(erf(-2.0), -0.995_322_265_0, 1e-10);
        close(erf(3.5), 0.999_999_256_9, 1e-10);
        assert_eq!(erf(0.0), 0.0);
        close(phi(1.959_964), 0.975, 1e-6);
    }

    #[test]
    fn trinomial_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance
        // 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16, standard error 0.04,
        // interval 0.7 ± 0.0783986 -> Elo 218.2518 and 86.2250.
        let e = Wdl { wins: 60, draws: 20, losses: 20 }.elo().unwrap();
        close(e.score, 0.7, 1e-12);
        close(e.elo, 147.1906, 1e-3);
        close(e.error, (218.2518 - 86.2250) / 2.0, 1e-3);
        // nElo = 0.2 / 0.4 * 347.4355 = 173.7178.
        close(e.nelo, 173.7178, 1e-3);
        // LOS = Phi(40 / sqrt(80)) = Phi(4.4721).
        close(e.los, 0.999_996_13, 1e-7);
        let even = Wdl { wins: 10, draws: 5, losses: 10 }.elo().unwrap();
        close(even.elo, 0.0, 1e-12);
        close(even.los, 0.5, 1e-12);
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs [LL, LD, WL+DD, WD, WW] = [1, 2, 4, 2, 1]: s = 0.5.
        let flat = Pentanomial([1, 2, 4, 2, 1]).elo().unwrap();
        close(flat.elo, 0.0, 1e-12);
        close(flat.los, 0.5, 1e-12);
        // Every pair alike: no spread, so the LOS is the sign of the lead.
        assert_eq!(Pentanomial([0, 0, 0, 0, 5]).elo().unwrap().los, 1.0);
        assert_eq!(Pentanomial([5, 0, 0, 0, 0]).elo().unwrap().los, 0.0);
        assert_eq!(Pentanomial([0, 0, 5, 0, 0]).elo().unwrap().los, 0.5);
        // [0, 1, 2, 4, 3]: s = (0.25 + 1 + 3 + 3) / 10 = 0.725;
        // variance = (0.225 + 2*0.050625 + 4*0.000625 + 3*0.075625) / 10
        //          = 0.055625 (x - s: -0.475, -0.225, 0.025, 0.275);
        // standard error sqrt(0.0055625) = 0.0745822.
        let e = Pentanomial([0, 1, 2, 4, 3]).elo().unwrap();
        close(e.score, 0.725, 1e-12);
        close(e.elo, 168.4, 0.1);
        let (lo, hi) = (0.725 - Z95 * 0.074_582_2, 0.725 + Z95 * 0.074_582_2);
        close(e.error, (score_to_elo(hi) - score_to_elo(lo)) / 2.0, 1e-4);
        // nElo = 0.225 / sqrt(2 * 0.055625) * 347.4355 = 234.3726.
        close(e.nelo, 234.3726, 1e-3);
        // LOS = Phi(0.225 / 0.0745822) = Phi(3.01680) = 0.998723.
        close(e.los, 0.998_723, 2e-6);
    }

    #[test]
    fn sprt_by_hand() {
        let sprt = Sprt::parse("0,10").unwrap();
        let (lower, upper) = sprt.bounds();
        close(lower, (0.05f64 / 0.95).ln(), 1e-12);
        close(upper, (0.95f64 / 0.05).ln(), 1e-12);
        close(upper, 2.944_439, 1e-6);
        // 100 pairs of [10, 20, 40, 20, 10] plus the prior's two even pairs
        // [1/8, 1/2, 3/4, 1/2, 1/8]: n = 102, s = 0.5, variance
        // 2 (10.125 * 0.25 + 20.5 * 0.0625) / 102 = 7.625 / 102 = 0.0747549.
        // s0 = 0.5, s1 = 0.514387:
        // LLR = 102 * 0.014387 * (1 - 1.014387) / 0.1495098 = -0.141215.
        let pairs = Pentanomial([10, 20, 40, 20, 10]);
        close(sprt.llr(&pairs), -0.141_215, 1e-5);
        assert_eq!(sprt.verdict(&pairs), Verdict::Continue);
        assert_eq!(sprt.verdict(&Pentanomial([9, 0, 0, 0, 0])), Verdict::Continue, "too few pairs");
        assert_eq!(sprt.verdict(&Pentanomial([0, 0, 100, 150, 100])), Verdict::H1);
        assert_eq!(sprt.verdict(&Pentanomial([100, 150, 100, 0, 0])), Verdict::H0);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0,5,0.05").is_err());
        assert_eq!(Sprt::parse("-1,4,0.1,0.2").unwrap().beta, 0.2);
    }

    #[test]
    fn sprt_pairs_that_all_ended_alike_weigh_as_evidence_not_as_certainty() {
        // The loop's test, Elo 0 against 20: s1 = 0.528751, bounds ±2.944439.
        let sprt = Sprt::parse("0,20").unwrap();
        // Ten pairs all split: with the prior, n = 12, s = 0.5, variance
        // 2 (0.125 * 0.25 + 0.5 * 0.0625) / 12 = 0.0104167;
        // LLR = 12 * 0.028751 * (-0.028751) / 0.0208333 = -0.476119: far
        // from either bound (a variance of ~0 made it -66 and stopped).
        let split = |n| Pentanomial([0, 0, n, 0, 0]);
        close(sprt.llr(&split(10)), -0.476_119, 1e-5);
        assert_eq!(sprt.verdict(&split(10)), Verdict::Continue);
        // Forty pairs all split is evidence: n = 42, variance 0.125 / 42,
        // LLR = 42 * 0.028751 * (-0.028751) / (0.25 / 42) = -5.83245.
        close(sprt.llr(&split(40)), -5.832_454, 1e-5);
        assert_eq!(sprt.verdict(&split(40)), Verdict::H0);
        // Ten pairs all won (20-0): s = 11/12, variance 0.0451389, LLR
        // 12 * 0.028751 * (1.833333 - 1.028751) / 0.0902778 = 3.07480,
        // just past the bound (a collapsed variance made it 745).
        let won = |n| Pentanomial([0, 0, 0, 0, n]);
        close(sprt.llr(&won(10)), 3.074_804, 1e-5);
        assert_eq!(sprt.verdict(&won(10)), Verdict::H1);
        // The LLR grows with the evidence.
        for n in 1..200 {
            assert!(sprt.llr(&won(n)) < sprt.llr(&won(n + 1)), "{n} pairs");
        }
        // The prior's Elo is finite on a perfect score: s = 11/12 -> +416.56.
        close(won(10).elo_with_prior(), 416.557, 1e-3);
        assert!(won(10).elo().unwrap().elo.is_infinite());
    }
}
