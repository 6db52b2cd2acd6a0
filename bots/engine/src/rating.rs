//! Match statistics for the strength harness: score, Elo difference with a
//! 95% interval, and the likelihood of superiority.
//!
//! The interval is the Wilson score interval on the match score (draws count
//! half), mapped to Elo. Unlike the plain normal interval it stays finite and
//! meaningful when one side wins every game, which is the expected case
//! against a weak baseline.

/// Wins, draws and losses from one player's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0..=1 (a draw is half a point).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// Elo difference implied by the score (infinite at 0% or 100%).
    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }

    /// 95% interval for the Elo difference (Wilson interval of the score).
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let p = self.score();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // At 0% or 100% one end is exactly 0 or 1; rounding must not turn
        // it into a huge finite Elo.
        let snap = |x: f64| {
            if x < 1e-12 {
                0.0
            } else if x > 1.0 - 1e-12 {
                1.0
            } else {
                x
            }
        };
        (
            elo_of_score(snap(centre - half)),
            elo_of_score(snap(centre + half)),
        )
    }

    /// Likelihood of superiority: P(this player is stronger), from the
    /// decisive games only (the usual engine-testing formula).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt())
    }

    /// One line: `W 97 D 2 L 1 (98.0%), Elo +677 [+480, +1079] 95%, LOS 100.00%`.
    pub fn summary(&self) -> String {
        let (low, high) = self.elo_interval();
        format!(
            "W {} D {} L {} ({:.1}%), Elo {} [{}, {}] 95%, LOS {:.2}%",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score(),
            elo_text(self.elo()),
            elo_text(low),
            elo_text(high),
            100.0 * self.los()
        )
    }
}

/// The Elo difference at which the expected score is `score`.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if elo.abs() < 0.5 {
        "+0".to_string()
    } else {
        format!("{elo:+.0}")
    }
}

/// Standard normal CDF via erf (Abramowitz & Stegun 7.1.26, error < 1.5e-7).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert!(t.elo().abs() < 1e-9);
        let (low, high) = t.elo_interval();
        assert!(low < -100.0 && high > 100.0 && (low + high).abs() < 1e-6);
        assert!((t.los() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn known_scores_map_to_known_elo() {
        // 75% is about +191 Elo; 90% about +382.
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.1);
        assert!((elo_of_score(0.9) - 381.7).abs() < 0.1);
    }

    #[test]
    fn perfect_score_has_a_finite_lower_bound() {
        let t = Tally {
            wins: 100,
            draws: 0,
            losses: 0,
        };
        let (low, high) = t.elo_interval();
        assert!(high.is_infinite());
        // Wilson lower bound for 100/100 is 0.963 -> about +565 Elo.
        assert!((low - 565.0).abs() < 5.0, "lower bound {low}");
        assert!(t.los() > 0.9999);
    }

    #[test]
    fn normal_cdf_matches_tables() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_3).abs() < 1e-6);
    }
}
