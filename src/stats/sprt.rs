//! Sequential probability ratio test over game pairs, as fastchess runs it.
//!
//! Hypotheses: H0 "A is `elo0` stronger than B" against H1 "A is `elo1` stronger",
//! in logistic Elo. Data: pentanomial counts of game pairs from A's side. The
//! log-likelihood ratio is the generalised SPRT of Michel Van den Bergh ("Comments
//! on Normalized Elo", proposition 1.1): for each hypothesis the pair-score
//! distribution with expected score `f(elo)` that is closest to the observed one
//! (maximum likelihood under the mean constraint), then
//! `LLR = sum_i n_i ln(p1_i / p0_i)`. Empty pentanomial cells count as 0.001
//! pairs, as in fastchess, so a lopsided start cannot produce infinite ratios.
//!
//! Wald's bounds: accept H0 when `LLR <= ln(beta / (1 - alpha))`, accept H1 when
//! `LLR >= ln((1 - beta) / alpha)` (about -2.94 and +2.94 at alpha = beta = 0.05).
//!
//! fastchess finds the Lagrange multiplier with ITP to a tolerance of 1e-3; here it
//! is solved to machine precision, so LLRs agree to about 3 significant digits.

use std::fmt;

use super::logistic::elo_to_score;
use super::pentanomial::{Pentanomial, Score};

/// Test settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtConfig {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1; must exceed `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Default for SprtConfig {
    fn default() -> Self {
        SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// A rejected [`SprtConfig`].
#[derive(Debug, Clone, PartialEq)]
pub struct SprtConfigError(pub String);

impl fmt::Display for SprtConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid SPRT settings: {}", self.0)
    }
}

impl std::error::Error for SprtConfigError {}

/// What the test concludes so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
    Continue,
}

/// The test's state after some pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
    pub pairs: u64,
}

/// A validated test: bounds and the hypotheses' expected scores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    config: SprtConfig,
    lower: f64,
    upper: f64,
    score0: f64,
    score1: f64,
}

/// Pair scores per game for `[LL, LD, DD+WL, WD, WW]`.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What an empty pentanomial cell counts as (fastchess's regularisation).
const EMPTY_CELL: f64 = 1e-3;

impl Sprt {
    pub fn new(config: SprtConfig) -> Result<Sprt, SprtConfigError> {
        let SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
        } = config;
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(SprtConfigError(format!(
                "elo0 ({elo0}) must be less than elo1 ({elo1})"
            )));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(SprtConfigError(format!(
                    "{name} must be between 0 and 1, got {v}"
                )));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtConfigError(format!(
                "alpha + beta must be less than 1, got {}",
                alpha + beta
            )));
        }
        Ok(Sprt {
            config,
            lower: (beta / (1.0 - alpha)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
            score0: elo_to_score(elo0),
            score1: elo_to_score(elo1),
        })
    }

    pub fn config(&self) -> SprtConfig {
        self.config
    }

    /// `ln(beta / (1 - alpha))`: accept H0 at or below.
    pub fn lower_bound(&self) -> f64 {
        self.lower
    }

    /// `ln((1 - beta) / alpha)`: accept H1 at or above.
    pub fn upper_bound(&self) -> f64 {
        self.upper
    }

    /// The log-likelihood ratio of H1 against H0 for these pairs (0 for none).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs
            .by_score()
            .map(|c| if c == 0 { EMPTY_CELL } else { c as f64 });
        llr_logistic(&counts, &PAIR_SCORES, self.score0, self.score1)
    }

    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper {
            SprtDecision::AcceptH1
        } else if llr <= self.lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    pub fn status(&self, pairs: &Pentanomial) -> SprtStatus {
        let llr = self.llr(pairs);
        SprtStatus {
            llr,
            lower: self.lower,
            upper: self.upper,
            decision: self.decide(llr),
            pairs: pairs.pairs(),
        }
    }
}

/// An SPRT fed one game pair at a time.
#[derive(Debug, Clone)]
pub struct SequentialSprt {
    sprt: Sprt,
    counts: Pentanomial,
}

impl SequentialSprt {
    pub fn new(sprt: Sprt) -> SequentialSprt {
        SequentialSprt {
            sprt,
            counts: Pentanomial::default(),
        }
    }

    /// Adds one pair (A's result in each game) and returns the updated status.
    /// The caller stops playing once the decision is not `Continue`.
    pub fn record_pair(&mut self, first: Score, second: Score) -> SprtStatus {
        self.counts.add(first, second);
        self.status()
    }

    pub fn status(&self) -> SprtStatus {
        self.sprt.status(&self.counts)
    }

    pub fn counts(&self) -> Pentanomial {
        self.counts
    }

    pub fn sprt(&self) -> &Sprt {
        &self.sprt
    }
}

/// Generalised LLR for outcomes worth `scores[i]` (ascending) observed
/// `counts[i]` times (all > 0), of "expected score s1" against "expected score
/// s0". Both `s` must lie strictly between the smallest and largest score.
pub fn llr_logistic(counts: &[f64], scores: &[f64], s0: f64, s1: f64) -> f64 {
    assert_eq!(counts.len(), scores.len());
    let total: f64 = counts.iter().sum();
    let observed: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let p0 = closest_with_mean(&observed, scores, s0);
    let p1 = closest_with_mean(&observed, scores, s1);
    (0..counts.len())
        .map(|i| counts[i] * (p1[i].ln() - p0[i].ln()))
        .sum()
}

/// The distribution on `scores` with mean `s` that maximises the likelihood of
/// the observed frequencies: `p_i = obs_i / (1 + theta (a_i - s))` where theta
/// solves `sum_i obs_i (a_i - s) / (1 + theta (a_i - s)) = 0`.
fn closest_with_mean(observed: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let lowest = scores.iter().cloned().fold(f64::INFINITY, f64::min);
    let highest = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    assert!(
        lowest < s && s < highest,
        "target score outside the outcome range"
    );
    let constraint = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(scores)
            .map(|(o, a)| o * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    // All denominators stay positive on (-1/(highest - s), 1/(s - lowest)), where
    // the constraint decreases from +inf to -inf: bisect.
    let mut lo = -1.0 / (highest - s);
    let mut hi = 1.0 / (s - lowest);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if constraint(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    observed
        .iter()
        .zip(scores)
        .map(|(o, a)| o / (1.0 + theta * (a - s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn penta(by_score: [u64; 5]) -> Pentanomial {
        Pentanomial {
            ll: by_score[0],
            ld: by_score[1],
            dd: by_score[2],
            wl: 0,
            wd: by_score[3],
            ww: by_score[4],
        }
    }

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(SprtConfig {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        })
        .unwrap()
    }

    #[test]
    fn bounds_are_walds() {
        let s = sprt(0.0, 10.0);
        assert!((s.lower_bound() + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((s.upper_bound() - 2.944_438_979_166_44).abs() < 1e-12);
        let s = Sprt::new(SprtConfig {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
        })
        .unwrap();
        assert!((s.lower_bound() - (0.1f64 / 0.95).ln()).abs() < 1e-15);
        assert!((s.upper_bound() - (0.9f64 / 0.05).ln()).abs() < 1e-15);
    }

    #[test]
    fn llr_matches_an_independent_high_precision_computation() {
        // Reference values: a separate 50-digit Decimal bisection of the same
        // constrained maximum-likelihood problem (Python, during development).
        let cases = [
            ([30, 120, 300, 150, 40], 0.0, 10.0, 2.117_888_077_046_343),
            ([30, 120, 300, 150, 40], -5.0, 5.0, 3.336_296_177_613_94),
            ([0, 3, 10, 4, 2], 0.0, 5.0, 0.208_924_170_880_770_5),
            ([50, 100, 250, 100, 50], 0.0, 10.0, -0.833_918_484_465_034),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = sprt(elo0, elo1).llr(&penta(counts));
            assert!(
                (llr - expected).abs() < 1e-9,
                "{counts:?}: {llr} vs {expected}"
            );
        }
    }

    #[test]
    fn llr_is_close_to_fastchess_earlier_variance_ratio_formula() {
        // fastchess <= 0.9 used 0.5 N ln(var0 / var1), a good approximation for
        // small Elo bounds; the two must agree to within 1%.
        let counts = [30u64, 120, 300, 150, 40];
        let n: f64 = counts.iter().sum::<u64>() as f64;
        let var = |s: f64| -> f64 {
            counts
                .iter()
                .zip(PAIR_SCORES)
                .map(|(&c, a)| c as f64 / n * (a - s) * (a - s))
                .sum()
        };
        let approx = 0.5 * n * (var(elo_to_score(0.0)) / var(elo_to_score(10.0))).ln();
        let exact = sprt(0.0, 10.0).llr(&penta(counts));
        assert!((exact / approx - 1.0).abs() < 0.01, "{exact} vs {approx}");
    }

    #[test]
    fn two_outcome_case_has_the_binomial_closed_form() {
        // With outcomes 0 and 1 only, the distribution with mean s is (1-s, s), so
        // LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)).
        let (w, l) = (70.0, 50.0);
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(20.0));
        let expected = w * (s1 / s0).ln() + l * ((1.0 - s1) / (1.0 - s0)).ln();
        let llr = llr_logistic(&[l, w], &[0.0, 1.0], s0, s1);
        assert!((llr - expected).abs() < 1e-9, "{llr} vs {expected}");
    }

    #[test]
    fn incremental_updates_agree_with_batch_counts_and_decide() {
        let s = sprt(0.0, 10.0);
        let mut seq = SequentialSprt::new(s);
        assert_eq!(seq.status().llr, 0.0);
        assert_eq!(seq.status().decision, SprtDecision::Continue);
        let mut status = seq.status();
        let mut pairs = 0;
        // A wins every pair 2-0: H1 must be accepted after a few dozen pairs.
        while status.decision == SprtDecision::Continue {
            status = seq.record_pair(Score::Win, Score::Win);
            pairs += 1;
            assert!(pairs < 1000);
        }
        assert_eq!(status.decision, SprtDecision::AcceptH1);
        assert_eq!(status.pairs, pairs);
        assert!(status.llr >= s.upper_bound());
        assert_eq!(status.llr, s.llr(&seq.counts()));
        // The mirror image accepts H0.
        let mut seq = SequentialSprt::new(s);
        let mut status = seq.status();
        while status.decision == SprtDecision::Continue {
            status = seq.record_pair(Score::Loss, Score::Draw);
        }
        assert_eq!(status.decision, SprtDecision::AcceptH0);
        assert!(status.llr <= s.lower_bound());
    }

    #[test]
    fn rejects_bad_settings() {
        let bad = [
            (5.0, 0.0, 0.05, 0.05),
            (0.0, 0.0, 0.05, 0.05),
            (0.0, 5.0, 0.0, 0.05),
            (0.0, 5.0, 0.05, 1.0),
            (0.0, 5.0, 0.6, 0.5),
            (f64::NAN, 5.0, 0.05, 0.05),
        ];
        for (elo0, elo1, alpha, beta) in bad {
            let err = Sprt::new(SprtConfig {
                elo0,
                elo1,
                alpha,
                beta,
            });
            assert!(err.is_err(), "{elo0} {elo1} {alpha} {beta}");
        }
    }
}
