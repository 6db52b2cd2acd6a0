//! Sequential probability ratio test over game pairs, as fastchess runs it.
//!
//! Hypotheses: H0 "A is `elo0` stronger than B" against H1 "A is `elo1`
//! stronger", in one of two Elo scales ([`EloModel`]):
//! - **normalized** (nElo, the default, as in fastchess and fishtest): the
//!   expected score's distance from 1/2 in units of the spread of the pair
//!   scores, `nElo = (mu - 1/2) / (sqrt(2) sigma_pair) * 800 / ln 10`, where
//!   `sigma_pair` is the standard deviation of a pair's mean score per game.
//!   It measures how many games a difference takes to detect, whatever the
//!   draw rate, so the same bounds mean the same test effort in every game.
//! - **logistic** (the usual Elo): the expected score is `1 / (1 + 10^(-elo/400))`.
//!
//! Data: pentanomial counts of game pairs from A's side. The log-likelihood
//! ratio is the generalised SPRT of Michel Van den Bergh ("Comments on
//! Normalized Elo"): for each hypothesis the pair-score distribution closest to
//! the observed one (maximum likelihood) among those that satisfy it, then
//! `LLR = sum_i n_i ln(p1_i / p0_i)`. For the logistic model the constraint is
//! the mean (his proposition 1.1, a one-parameter tilt); for the normalized
//! model it is `(mu - 1/2) / sigma = t`, solved by his fixed-point iteration
//! (section 4.1), each step again a one-parameter tilt. Empty pentanomial cells
//! count as 0.001 pairs, as in fastchess, so a lopsided start cannot produce
//! infinite ratios.
//!
//! Wald's bounds: accept H0 when `LLR <= ln(beta / (1 - alpha))`, accept H1 when
//! `LLR >= ln((1 - beta) / alpha)` (about -2.94 and +2.94 at alpha = beta = 0.05).
//!
//! fastchess finds the tilt parameters with ITP to a tolerance of 1e-3 (1e-7
//! for nElo); here they are solved to machine precision, so LLRs agree with
//! fastchess's to about 3 significant digits.
//!
//! The running estimate ([`SprtEstimate`]) is fastchess's: the mean pair score
//! with its normal 95% interval from the pentanomial variance, shown on the
//! test's scale, and the likelihood of superiority from the same pairs.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::logistic::elo_to_score;
use super::los::pair_likelihood_of_superiority;
use super::pentanomial::Pentanomial;
use super::wdl::{Score, Wdl};
use super::{ScoreEstimate, Z95};

/// The Elo scale of the SPRT bounds and estimate (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Normalized Elo (nElo), fastchess's and fishtest's default.
    #[default]
    Normalized,
    /// Logistic Elo: expected score `1 / (1 + 10^(-elo/400))`.
    Logistic,
}

impl EloModel {
    /// The name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        }
    }

    /// The unit's short name: `nElo` or `Elo`.
    pub fn unit(self) -> &'static str {
        match self {
            EloModel::Normalized => "nElo",
            EloModel::Logistic => "Elo",
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EloModel {
    type Err = String;

    fn from_str(s: &str) -> Result<EloModel, String> {
        match s {
            "normalized" => Ok(EloModel::Normalized),
            "logistic" => Ok(EloModel::Logistic),
            other => Err(format!(
                "unknown Elo model {other:?} (expected normalized or logistic)"
            )),
        }
    }
}

/// The largest normalized bound accepted. Beyond about 231 nElo the
/// constraint cannot be linearised around the uniform distribution (see
/// [`closest_with_normalized_mean`]); 200 nElo is already a near-certain win
/// for the stronger side, far beyond any test worth running.
const MAX_NORMALIZED_ELO: f64 = 200.0;

/// The largest logistic bound accepted: the expected score must lie
/// strictly inside 0..1 for the test's tilt to exist, and beyond a few
/// thousand Elo it rounds to 1 (1000 Elo is already a 99.7% score).
const MAX_LOGISTIC_ELO: f64 = 1000.0;

/// `800 / ln 10`: converts a score slope to Elo near 50%.
const ELO_PER_SLOPE: f64 = 800.0 / std::f64::consts::LN_10;

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
    /// The scale of `elo0` and `elo1`.
    pub model: EloModel,
}

impl Default for SprtConfig {
    fn default() -> Self {
        SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
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
    /// The scale of the bounds and of `estimate`.
    pub model: EloModel,
    /// The running estimate; `None` before the first pair.
    pub estimate: Option<SprtEstimate>,
}

/// A's strength so far, as fastchess prints it during a test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtEstimate {
    /// Elo difference on the test's scale ([`SprtStatus::model`]); infinite
    /// when every pair scored the same one-sided result.
    pub elo: f64,
    /// 95% interval of `elo`: the image of the normal interval of the mean
    /// pair score (`score -/+ 1.96 sd / sqrt(pairs)`); for logistic Elo the
    /// Wilson interval where that one says nothing (every pair scored the
    /// same) or leaves 0..100%, as in `pairwise.csv`.
    pub low: f64,
    pub high: f64,
    /// Likelihood of superiority from the pairs (see [`crate::los`]).
    pub los: f64,
}

impl SprtEstimate {
    /// The estimate from A's pentanomial counts on `model`'s scale; `None`
    /// without pairs.
    pub fn from_pairs(pairs: &Pentanomial, model: EloModel) -> Option<SprtEstimate> {
        let estimate = ScoreEstimate::from_pentanomial(pairs, Wdl::default())?;
        let (score, sd) = (estimate.score, estimate.sd);
        let (elo, low, high) = match model {
            // The pairwise table's interval: the normal one, or Wilson's
            // where every pair scored the same (see head_to_head).
            EloModel::Logistic => {
                let (low, high) = estimate.elo_interval();
                (estimate.elo(), low, high)
            }
            // sd^2 * pairs is the variance of one pair's mean score.
            EloModel::Normalized => {
                let sigma_pair = sd * (pairs.pairs() as f64).sqrt();
                let nelo = |s: f64| normalized_elo(s - 0.5, sigma_pair);
                (nelo(score), nelo(score - Z95 * sd), nelo(score + Z95 * sd))
            }
        };
        Some(SprtEstimate {
            elo,
            low,
            high,
            los: pair_likelihood_of_superiority(&estimate),
        })
    }
}

/// `excess / (sqrt(2) sigma_pair)` in nElo; with no spread at all the sign of
/// the excess decides (infinite, or 0 when even).
fn normalized_elo(excess: f64, sigma_pair: f64) -> f64 {
    if sigma_pair > 0.0 {
        excess / (std::f64::consts::SQRT_2 * sigma_pair) * ELO_PER_SLOPE
    } else if excess == 0.0 {
        0.0
    } else {
        excess.signum() * f64::INFINITY
    }
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
            model: _,
        } = config;
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(SprtConfigError(format!(
                "elo0 ({elo0}) must be less than elo1 ({elo1})"
            )));
        }
        if config.model == EloModel::Normalized
            && (elo0.abs() > MAX_NORMALIZED_ELO || elo1.abs() > MAX_NORMALIZED_ELO)
        {
            return Err(SprtConfigError(format!(
                "normalized Elo bounds must lie within -/+{MAX_NORMALIZED_ELO} nElo, got \
                 [{elo0}, {elo1}] (use --model logistic for large differences)"
            )));
        }
        if config.model == EloModel::Logistic
            && (elo0.abs() > MAX_LOGISTIC_ELO || elo1.abs() > MAX_LOGISTIC_ELO)
        {
            return Err(SprtConfigError(format!(
                "logistic Elo bounds must lie within -/+{MAX_LOGISTIC_ELO} Elo, got [{elo0}, {elo1}]"
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
        match self.config.model {
            EloModel::Logistic => llr_logistic(&counts, &PAIR_SCORES, self.score0, self.score1),
            EloModel::Normalized => {
                // t = (mu - 1/2) / sigma_pair = sqrt(2) nElo / (800 / ln 10).
                let t = |nelo: f64| std::f64::consts::SQRT_2 * nelo / ELO_PER_SLOPE;
                llr_normalized(
                    &counts,
                    &PAIR_SCORES,
                    t(self.config.elo0),
                    t(self.config.elo1),
                )
            }
        }
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
            model: self.config.model,
            estimate: SprtEstimate::from_pairs(pairs, self.config.model),
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
    generalised_llr(counts, scores, |observed| {
        let p0 = closest_with_mean(observed, scores, s0);
        let p1 = closest_with_mean(observed, scores, s1);
        (p0, p1)
    })
}

/// Generalised LLR for the normalized model: of "`(mu - 1/2) / sigma = t1`"
/// against "`= t0`", for outcomes worth `scores[i]` observed `counts[i]` times
/// (all > 0), `mu` and `sigma` the mean and standard deviation of the score.
pub fn llr_normalized(counts: &[f64], scores: &[f64], t0: f64, t1: f64) -> f64 {
    generalised_llr(counts, scores, |observed| {
        let p0 = closest_with_normalized_mean(observed, scores, t0);
        let p1 = closest_with_normalized_mean(observed, scores, t1);
        (p0, p1)
    })
}

/// `sum_i counts_i ln(p1_i / p0_i)` with `(p0, p1)` the two hypotheses'
/// closest distributions to the observed frequencies, from `closest`.
fn generalised_llr(
    counts: &[f64],
    scores: &[f64],
    closest: impl FnOnce(&[f64]) -> (Vec<f64>, Vec<f64>),
) -> f64 {
    assert_eq!(counts.len(), scores.len());
    let total: f64 = counts.iter().sum();
    let observed: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let (p0, p1) = closest(&observed);
    (0..counts.len())
        .map(|i| counts[i] * (p1[i].ln() - p0[i].ln()))
        .sum()
}

/// The distribution on `scores` with mean `s` that maximises the likelihood of
/// the observed frequencies: the tilt of `observed` by `phi_i = a_i - s`.
fn closest_with_mean(observed: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let lowest = scores.iter().cloned().fold(f64::INFINITY, f64::min);
    let highest = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    assert!(
        lowest < s && s < highest,
        "target score outside the outcome range"
    );
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    tilt(observed, &phi).expect("a mean strictly inside the outcome range is reachable")
}

/// The distribution on `scores` with `(mu - 1/2) / sigma = t` closest to
/// `observed` (maximum likelihood), by Van den Bergh's fixed point: at the
/// optimum `p` is the tilt of `observed` by the linearised constraint
/// `phi_i = a_i - 1/2 - (t sigma / 2) (1 + ((a_i - mu) / sigma)^2)`, with `mu`
/// and `sigma` those of `p` itself. Starts from the observed distribution
/// (Van den Bergh starts from the uniform one; the fixed point is the same,
/// and the observed one is usually much closer) and iterates until `p` stops
/// changing. Where the linearised constraint cannot be met from the current
/// `p` (a very concentrated `p`), it moves `p` halfway to the uniform
/// distribution, from which any `|t|` allowed by [`Sprt::new`] can be met.
fn closest_with_normalized_mean(observed: &[f64], scores: &[f64], t: f64) -> Vec<f64> {
    let uniform = 1.0 / scores.len() as f64;
    let mut p = observed.to_vec();
    for _ in 0..10_000 {
        let mu: f64 = p.iter().zip(scores).map(|(pi, a)| pi * a).sum();
        let var: f64 = p
            .iter()
            .zip(scores)
            .map(|(pi, a)| pi * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| {
                let z = (a - mu) / sigma;
                a - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
            })
            .collect();
        let Some(next) = tilt(observed, &phi) else {
            p.iter_mut().for_each(|pi| *pi = 0.5 * (*pi + uniform));
            continue;
        };
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-11 {
            break;
        }
    }
    p
}

/// `p_i = obs_i / (1 + theta phi_i)` with theta solving
/// `sum_i obs_i phi_i / (1 + theta phi_i) = 0`: the distribution closest to
/// `observed` with `sum_i p_i phi_i = 0`. `None` unless `phi` takes both signs
/// (then no distribution meets the constraint).
fn tilt(observed: &[f64], phi: &[f64]) -> Option<Vec<f64>> {
    let lowest = phi.iter().cloned().fold(f64::INFINITY, f64::min);
    let highest = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < 0.0 && 0.0 < highest) {
        return None;
    }
    let constraint = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(phi)
            .map(|(o, f)| o * f / (1.0 + theta * f))
            .sum()
    };
    // All denominators stay positive on (-1/highest, -1/lowest), where the
    // constraint decreases from +inf to -inf: bisect.
    let mut lo = -1.0 / highest;
    let mut hi = -1.0 / lowest;
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
    Some(
        observed
            .iter()
            .zip(phi)
            .map(|(o, f)| o / (1.0 + theta * f))
            .collect(),
    )
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
            model: EloModel::Logistic,
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
            model: EloModel::Normalized,
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

    /// Lopsided or concentrated pair counts and large (allowed) normalized
    /// bounds give finite LLRs of the right sign, never a panic.
    #[test]
    fn normalized_llr_is_finite_on_extreme_counts() {
        for (elo0, elo1) in [
            (0.0, 5.0),
            (-200.0, 200.0),
            (150.0, 200.0),
            (-200.0, -150.0),
        ] {
            let s = Sprt::new(SprtConfig {
                elo0,
                elo1,
                model: EloModel::Normalized,
                ..SprtConfig::default()
            })
            .unwrap();
            for counts in [
                [0, 0, 0, 40, 0],
                [0, 0, 0, 0, 1],
                [9, 0, 0, 0, 0],
                [0, 3, 0, 3, 0],
            ] {
                let llr = s.llr(&penta(counts));
                assert!(llr.is_finite(), "[{elo0}, {elo1}] {counts:?}: {llr}");
            }
        }
        let err = Sprt::new(SprtConfig {
            elo0: 0.0,
            elo1: 250.0,
            ..SprtConfig::default()
        })
        .unwrap_err();
        assert!(err.to_string().contains("logistic"), "{err}");
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
                model: EloModel::Normalized,
            });
            assert!(err.is_err(), "{elo0} {elo1} {alpha} {beta}");
        }
    }
}
