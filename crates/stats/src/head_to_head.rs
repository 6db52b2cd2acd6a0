//! The score of one player against another and the Elo difference it implies,
//! with an interval that respects game pairs.
//!
//! As fastchess does for a match: Elo = `-400 log10(1/score - 1)` of the mean
//! score per game, and the 95% interval is the image of `score -/+ 1.96 sd`.
//! The standard error treats each game pair as one independent unit (its two
//! games are correlated through the shared opening) and each unpaired game as a
//! unit of its own:
//! `Var(mean) = sum_units (points_u - games_u * mean)^2 / games^2`.
//! With only pairs this is exactly fastchess's pentanomial variance per pair;
//! with only single games it is the usual trinomial variance.
//!
//! # When every unit scored the same
//! Then the observed spread is zero: 20 pairs all won, all draws, or a single
//! unit. The normal interval would have zero width (and at 0% or 100% both ends
//! at -/+ infinity), claiming certainty the data cannot give. In that case, and
//! only then, the interval is the Wilson score interval instead, the set of
//! expected scores `p` with `|score - p| <= 1.96 sqrt(p (1 - p) / n)`. It needs no
//! estimate of the spread: a unit's score per game lies in [0, 1], so its
//! variance is at most `p (1 - p)`, the Bernoulli variance, and the Wilson
//! interval is valid (if anything conservative) whatever the pentanomial
//! distribution is, including at 0% and 100%. `n` is the effective number of
//! independent units, `(sum games_u)^2 / sum games_u^2` (Kish): the number of
//! pairs when all units are pairs, the number of games when none is.
//!
//! So 20 pairs all won give a 95% interval `[400 log10(20 / 1.96^2), inf]` =
//! `[+286.6, inf]` Elo: a large but finite lower bound, while the point estimate
//! stays infinite (a 100% score). In this case the lower end is finite unless
//! the score is 0%, and the upper end finite unless it is 100%.
//!
//! The Wilson interval is also used when `score -/+ 1.96 sd` leaves [0, 1]: near
//! 0% and 100% the normal interval is too narrow, and would give 39 wins and a
//! draw a higher lower bound than 40 wins. Otherwise the interval is
//! fastchess's, unchanged.

use super::logistic::score_to_elo;
use super::pentanomial::Pentanomial;
use super::wdl::{Score, Wdl};
use super::Z95;

/// An independent unit of play: a game pair (2 games) or a lone game (1 game).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreUnit {
    pub points: f64,
    pub games: u32,
}

/// Mean score per game with its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreEstimate {
    pub games: u64,
    /// Mean points per game, 0..1.
    pub score: f64,
    /// Standard error of `score` from the spread of the units (fastchess's); zero
    /// when every unit scored the same, see [`ScoreEstimate::interval_method`].
    pub sd: f64,
    /// Effective number of independent units, `(sum games)^2 / sum games^2`:
    /// the pair count when all units are pairs.
    pub effective_units: f64,
    /// Whether every unit scored the same per game (always so for one unit).
    pub units_agree: bool,
}

/// How [`ScoreEstimate::elo_interval`] was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalMethod {
    /// `score -/+ 1.96 sd`, fastchess's normal interval.
    Normal,
    /// The Wilson score interval over the effective units, used when every unit
    /// scored the same (see the module docs).
    Wilson,
}

impl ScoreEstimate {
    /// `None` when the units hold no games.
    pub fn from_units(units: &[ScoreUnit]) -> Option<ScoreEstimate> {
        let weighted: Vec<(ScoreUnit, u64)> = units.iter().map(|&u| (u, 1)).collect();
        ScoreEstimate::from_unit_counts(&weighted)
    }

    /// From units given with how many times each occurs, e.g. the five
    /// pentanomial cells and the three lone-game results: the same estimate
    /// as listing every unit, without a list that grows with the games.
    /// `None` when the units hold no games.
    pub fn from_unit_counts(units: &[(ScoreUnit, u64)]) -> Option<ScoreEstimate> {
        let units: Vec<(ScoreUnit, f64)> = units
            .iter()
            .filter(|(u, count)| u.games > 0 && *count > 0)
            .map(|&(u, count)| (u, count as f64))
            .collect();
        let games: u64 = units
            .iter()
            .map(|(u, count)| u64::from(u.games) * *count as u64)
            .sum();
        if games == 0 {
            return None;
        }
        let n = games as f64;
        let score = units.iter().map(|(u, count)| u.points * count).sum::<f64>() / n;
        let sum_sq: f64 = units
            .iter()
            .map(|(u, count)| {
                let dev = u.points - f64::from(u.games) * score;
                dev * dev * count
            })
            .sum();
        let sum_games_sq: f64 = units
            .iter()
            .map(|(u, count)| f64::from(u.games).powi(2) * count)
            .sum();
        // Cross-multiplied so that equal per-game scores compare exactly (points
        // are half-integers, games small integers).
        let first = units[0].0;
        let units_agree = units
            .iter()
            .all(|(u, _)| u.points * f64::from(first.games) == first.points * f64::from(u.games));
        Some(ScoreEstimate {
            games,
            score,
            sd: if units_agree { 0.0 } else { sum_sq.sqrt() / n },
            effective_units: n * n / sum_games_sq,
            units_agree,
        })
    }

    /// From A's pentanomial counts and A's results in games without a
    /// partner.
    pub fn from_pentanomial(pairs: &Pentanomial, unpaired: Wdl) -> Option<ScoreEstimate> {
        let pair_units = pairs
            .by_score()
            .into_iter()
            .enumerate()
            .map(|(half, count)| {
                let unit = ScoreUnit {
                    points: half as f64 / 2.0,
                    games: 2,
                };
                (unit, count)
            });
        let lone_units = [Score::Loss, Score::Draw, Score::Win].map(|score| {
            let unit = ScoreUnit {
                points: score.points(),
                games: 1,
            };
            (unit, unpaired.count(score))
        });
        let units: Vec<(ScoreUnit, u64)> = pair_units.chain(lone_units).collect();
        ScoreEstimate::from_unit_counts(&units)
    }

    /// From A's scores in each pair of games.
    #[cfg(test)]
    fn from_pairs(pairs: &[(Score, Score)]) -> Option<ScoreEstimate> {
        let units: Vec<ScoreUnit> = pairs
            .iter()
            .map(|(a, b)| ScoreUnit {
                points: a.points() + b.points(),
                games: 2,
            })
            .collect();
        ScoreEstimate::from_units(&units)
    }

    /// The Elo difference the score implies (+/- infinity at 100%/0%).
    pub fn elo(&self) -> f64 {
        score_to_elo(self.score)
    }

    /// Which interval [`ScoreEstimate::elo_interval`] gives: Wilson when every
    /// unit scored the same (the spread says nothing) or when fastchess's
    /// interval would leave [0, 1] (it is too narrow near 0% and 100%, so a
    /// near-sweep would get a higher lower bound than a clean sweep);
    /// fastchess's otherwise.
    pub fn interval_method(&self) -> IntervalMethod {
        let leaves_unit_range =
            self.score - Z95 * self.sd <= 0.0 || self.score + Z95 * self.sd >= 1.0;
        if self.units_agree || leaves_unit_range {
            IntervalMethod::Wilson
        } else {
            IntervalMethod::Normal
        }
    }

    /// 95% interval of the expected score per game (see the module docs).
    pub fn score_interval(&self) -> (f64, f64) {
        match self.interval_method() {
            IntervalMethod::Normal => (
                (self.score - Z95 * self.sd).clamp(0.0, 1.0),
                (self.score + Z95 * self.sd).clamp(0.0, 1.0),
            ),
            IntervalMethod::Wilson => wilson_interval(self.score, self.effective_units, Z95),
        }
    }

    /// 95% interval of the Elo difference: the image of
    /// [`ScoreEstimate::score_interval`].
    pub fn elo_interval(&self) -> (f64, f64) {
        let (low, high) = self.score_interval();
        (score_to_elo(low), score_to_elo(high))
    }
}

/// Wilson score interval for a mean `p` of `n` independent observations in
/// [0, 1]: the `q` with `|p - q| <= z sqrt(q (1 - q) / n)`. The ends are exactly
/// 0 at `p = 0` and 1 at `p = 1`, so the Elo difference is infinite only on the
/// side the data cannot bound.
pub fn wilson_interval(p: f64, n: f64, z: f64) -> (f64, f64) {
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wdl::Score::*;

    #[test]
    fn pairs_use_the_pentanomial_variance() {
        // Pairs (A's points): LL, LD, DD, WD, WW, WW  -> per-pair means 0, .25, .5, .75, 1, 1.
        let pairs = [
            (Loss, Loss),
            (Loss, Draw),
            (Draw, Draw),
            (Win, Draw),
            (Win, Win),
            (Win, Win),
        ];
        let est = ScoreEstimate::from_pairs(&pairs).unwrap();
        let means = [0.0, 0.25, 0.5, 0.75, 1.0, 1.0];
        let mu: f64 = means.iter().sum::<f64>() / 6.0;
        let var: f64 = means.iter().map(|m| (m - mu) * (m - mu)).sum::<f64>() / 6.0;
        assert_eq!(est.games, 12);
        assert!((est.score - mu).abs() < 1e-12);
        // fastchess: sqrt(variance / pairs)
        assert!((est.sd - (var / 6.0).sqrt()).abs() < 1e-12);
        let (lo, hi) = est.elo_interval();
        assert!(lo < est.elo() && est.elo() < hi);
        let expected_lo = -400.0 * (1.0 / (mu - Z95 * est.sd) - 1.0).log10();
        assert!((lo - expected_lo).abs() < 1e-9);
    }

    #[test]
    fn single_games_use_the_trinomial_variance() {
        // 6 wins, 2 draws, 2 losses: mean 0.7, per-game variance
        // (6*.09 + 2*.04 + 2*.49)/10 = 0.16, so sd = sqrt(0.16/10) = 0.12649.
        let mut units = vec![];
        units.extend(std::iter::repeat_n(
            ScoreUnit {
                points: 1.0,
                games: 1,
            },
            6,
        ));
        units.extend(std::iter::repeat_n(
            ScoreUnit {
                points: 0.5,
                games: 1,
            },
            2,
        ));
        units.extend(std::iter::repeat_n(
            ScoreUnit {
                points: 0.0,
                games: 1,
            },
            2,
        ));
        let est = ScoreEstimate::from_units(&units).unwrap();
        assert!((est.score - 0.7).abs() < 1e-12);
        assert!((est.sd - 0.016f64.sqrt()).abs() < 1e-12);
        assert!(
            (est.elo() - 147.190_714_117_838).abs() < 1e-6,
            "{}",
            est.elo()
        );
    }

    fn units(points: f64, games: u32, count: usize) -> Vec<ScoreUnit> {
        vec![ScoreUnit { points, games }; count]
    }

    #[test]
    fn wilson_interval_matches_the_textbook_example() {
        // 8 successes in 10 trials: Wilson 95% interval [0.4902, 0.9433]
        // (Newcombe 1998, also Wikipedia's worked example).
        let (lo, hi) = wilson_interval(0.8, 10.0, Z95);
        assert!((lo - 0.490_162_471_5).abs() < 1e-9, "{lo}");
        assert!((hi - 0.943_317_848_5).abs() < 1e-9, "{hi}");
        // Exactly 0 and 1 at the boundary, so the unbounded side is exactly inf.
        assert_eq!(wilson_interval(1.0, 20.0, Z95).1, 1.0);
        assert_eq!(wilson_interval(0.0, 20.0, Z95).0, 0.0);
    }

    #[test]
    fn twenty_pairs_all_won_give_the_wilson_lower_bound() {
        // 20 WW pairs: n = 20 units, score 1. Wilson at p = 1: low = n / (n + z^2)
        // = 20 / (20 + 1.959964^2) = 20 / 23.841459 = 0.838875, high = 1.
        // Elo of low = -400 log10(1/low - 1) = -400 log10(z^2 / n)
        //            = 400 log10(20 / 3.841459) = 400 * 0.716534 = 286.6135.
        let est = ScoreEstimate::from_units(&units(2.0, 2, 20)).unwrap();
        assert_eq!(est.interval_method(), IntervalMethod::Wilson);
        assert_eq!(est.effective_units, 20.0);
        assert_eq!(est.elo(), f64::INFINITY);
        let (lo, hi) = est.score_interval();
        assert!((lo - 0.838_874_841_9).abs() < 1e-9, "{lo}");
        assert_eq!(hi, 1.0);
        let (lo, hi) = est.elo_interval();
        assert!((lo - 286.613_525_4).abs() < 1e-6, "{lo}");
        assert_eq!(hi, f64::INFINITY);
        // 0% is the mirror image.
        let lost = ScoreEstimate::from_units(&units(0.0, 2, 20)).unwrap();
        assert_eq!(lost.elo(), f64::NEG_INFINITY);
        let (lo, hi) = lost.elo_interval();
        assert_eq!(lo, f64::NEG_INFINITY);
        assert!((hi + 286.613_525_4).abs() < 1e-6, "{hi}");
    }

    #[test]
    fn all_draws_give_a_symmetric_wilson_interval() {
        // 10 DD pairs: n = 10, score 0.5. Wilson at p = 1/2 is
        // 0.5 -/+ z / (2 sqrt(n + z^2)) = 0.5 -/+ 1.959964 / (2 * 3.720411)
        // = 0.5 -/+ 0.263407, i.e. [0.236593, 0.763407];
        // Elo -/+ 400 log10(0.763407 / 0.236593) = -/+ 203.5016.
        let est = ScoreEstimate::from_units(&units(1.0, 2, 10)).unwrap();
        assert_eq!(est.elo(), 0.0);
        assert_eq!(est.sd, 0.0);
        let (lo, hi) = est.elo_interval();
        assert!((lo + 203.501_611_6).abs() < 1e-6, "{lo}");
        assert!((hi - 203.501_611_6).abs() < 1e-6, "{hi}");
        // Pairs that split (WL, LW) or draw both also score one point each: the
        // same interval, whatever mix of them.
        let pairs: Vec<_> = [(Win, Loss), (Loss, Win), (Draw, Draw)]
            .into_iter()
            .cycle()
            .take(10)
            .collect();
        let split = ScoreEstimate::from_pairs(&pairs).unwrap();
        assert_eq!(split.interval_method(), IntervalMethod::Wilson);
        assert_eq!(split.elo_interval(), (lo, hi));
    }

    #[test]
    fn lone_units_and_mixed_sizes_use_the_effective_count() {
        assert!(ScoreEstimate::from_units(&[]).is_none());
        assert!(ScoreEstimate::from_units(&units(1.0, 0, 3)).is_none());
        // One won game: n = 1, low = 1 / (1 + z^2): Elo 400 log10(1 / 3.841459)
        // = -233.7985. Wide, but finite: one game is some evidence.
        let one = ScoreEstimate::from_units(&units(1.0, 1, 1)).unwrap();
        let (lo, hi) = one.elo_interval();
        assert!((lo + 233.798_472_8).abs() < 1e-6, "{lo}");
        assert_eq!(hi, f64::INFINITY);
        // A single LD pair: finite on both sides now.
        let ld = ScoreEstimate::from_units(&units(0.5, 2, 1)).unwrap();
        let (lo, hi) = ld.elo_interval();
        assert!(lo.is_finite() && hi.is_finite() && lo < ld.elo() && ld.elo() < hi);
        // 3 WW pairs and 2 lone wins: 8 games, sum of squares 3*4 + 2 = 14, so
        // n = 64 / 14 = 4.5714 units; low Elo = 400 log10(4.5714 / 3.841459) = 30.2223.
        let mut mixed = units(2.0, 2, 3);
        mixed.extend(units(1.0, 1, 2));
        let est = ScoreEstimate::from_units(&mixed).unwrap();
        assert!((est.effective_units - 64.0 / 14.0).abs() < 1e-12);
        assert!((est.elo_interval().0 - 30.222_302_5).abs() < 1e-6);
    }

    #[test]
    fn a_near_sweep_uses_wilson_so_it_never_beats_a_clean_sweep() {
        // 19 WW pairs and one WD: score 0.9875, sd = sqrt(0.2375) / 40 = 0.0121835,
        // so score + 1.96 sd > 1 and fastchess's interval would be [569.2, inf],
        // above the clean sweep's 286.6. Wilson with p = 0.9875, n = 20:
        // [0.818626, 0.999277] -> [+261.80, +1256.30] Elo.
        let mut u = units(2.0, 2, 19);
        u.push(ScoreUnit {
            points: 1.5,
            games: 2,
        });
        let est = ScoreEstimate::from_units(&u).unwrap();
        assert!((est.sd - 0.2375f64.sqrt() / 40.0).abs() < 1e-15);
        assert_eq!(est.interval_method(), IntervalMethod::Wilson);
        let (lo, hi) = est.elo_interval();
        assert!((lo - 261.8038).abs() < 1e-3, "{lo}");
        assert!((hi - 1256.2979).abs() < 1e-3, "{hi}");
        let sweep = ScoreEstimate::from_units(&units(2.0, 2, 20)).unwrap();
        assert!(lo < sweep.elo_interval().0);
    }

    #[test]
    fn units_that_disagree_inside_the_range_keep_the_normal_interval() {
        // 12 WW, 4 WL, 4 LL pairs: score 0.7; deviations 12 * 0.6^2 + 4 * 0.4^2
        // + 4 * 1.4^2 = 12.8, sd = sqrt(12.8) / 40 = 0.0894427;
        // 0.7 -/+ 1.959964 sd = [0.524695, 0.875305] -> [+17.174, +338.523] Elo.
        let mut u = units(2.0, 2, 12);
        u.extend(units(1.0, 2, 4));
        u.extend(units(0.0, 2, 4));
        let est = ScoreEstimate::from_units(&u).unwrap();
        assert_eq!(est.interval_method(), IntervalMethod::Normal);
        let (lo, hi) = est.elo_interval();
        assert!((lo - 17.1742).abs() < 1e-3, "{lo}");
        assert!((hi - 338.5234).abs() < 1e-3, "{hi}");
    }
}
