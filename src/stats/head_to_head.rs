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
//! Limits, shared with fastchess: a score of 0% or 100% gives an infinite Elo
//! difference, fewer than two units give an unbounded interval, and units that all
//! scored the same (e.g. only draws) give a zero-width one.

use super::logistic::score_to_elo;
use super::pentanomial::PairedGames;
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
    /// Standard error of `score`; infinite with fewer than two units.
    pub sd: f64,
}

impl ScoreEstimate {
    /// `None` when the units hold no games.
    pub fn from_units(units: &[ScoreUnit]) -> Option<ScoreEstimate> {
        let games: u64 = units.iter().map(|u| u64::from(u.games)).sum();
        if games == 0 {
            return None;
        }
        let n = games as f64;
        let score = units.iter().map(|u| u.points).sum::<f64>() / n;
        let sd = if units.len() < 2 {
            f64::INFINITY
        } else {
            let sum_sq: f64 = units
                .iter()
                .map(|u| {
                    let dev = u.points - f64::from(u.games) * score;
                    dev * dev
                })
                .sum();
            sum_sq.sqrt() / n
        };
        Some(ScoreEstimate { games, score, sd })
    }

    /// From A's pairs and unpaired games.
    pub fn from_paired(paired: &PairedGames) -> Option<ScoreEstimate> {
        let units: Vec<ScoreUnit> = paired
            .pairs
            .iter()
            .map(|(a, b)| ScoreUnit {
                points: a.points() + b.points(),
                games: 2,
            })
            .chain(paired.unpaired.iter().map(|s| ScoreUnit {
                points: s.points(),
                games: 1,
            }))
            .collect();
        ScoreEstimate::from_units(&units)
    }

    /// The Elo difference the score implies.
    pub fn elo(&self) -> f64 {
        score_to_elo(self.score)
    }

    /// 95% interval of the Elo difference.
    pub fn elo_interval(&self) -> (f64, f64) {
        let low = (self.score - Z95 * self.sd).clamp(0.0, 1.0);
        let high = (self.score + Z95 * self.sd).clamp(0.0, 1.0);
        (score_to_elo(low), score_to_elo(high))
    }
}

#[cfg(test)]
mod tests {
    use super::super::pentanomial::Score::*;
    use super::*;

    #[test]
    fn pairs_use_the_pentanomial_variance() {
        // Pairs (A's points): LL, LD, DD, WD, WW, WW  -> per-pair means 0, .25, .5, .75, 1, 1.
        let paired = PairedGames {
            pairs: vec![
                (Loss, Loss),
                (Loss, Draw),
                (Draw, Draw),
                (Win, Draw),
                (Win, Win),
                (Win, Win),
            ],
            unpaired: vec![],
        };
        let est = ScoreEstimate::from_paired(&paired).unwrap();
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

    #[test]
    fn degenerate_inputs_give_honest_infinities() {
        assert!(ScoreEstimate::from_units(&[]).is_none());
        let one = ScoreEstimate::from_units(&[ScoreUnit {
            points: 1.5,
            games: 2,
        }])
        .unwrap();
        assert_eq!(one.elo_interval(), (f64::NEG_INFINITY, f64::INFINITY));
        let wins = ScoreEstimate::from_units(
            &[ScoreUnit {
                points: 1.0,
                games: 1,
            }; 4],
        )
        .unwrap();
        assert_eq!(wins.elo(), f64::INFINITY);
    }
}
