//! The logistic Elo scale: conversions between Elo points, expected scores and the
//! natural-log units the fits work in.

/// One Elo point in natural-log (nat) units: a rating difference of `d` Elo gives
/// an expected score of `sigmoid(d * NATS_PER_ELO)`, i.e. `1 / (1 + 10^(-d/400))`.
pub const NATS_PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

/// The logistic function `1 / (1 + e^-x)`, accurate for large |x|.
pub fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln(sigmoid(x))` without overflow or cancellation.
pub fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Expected score of a player `elo` points stronger than the opponent.
pub fn elo_to_score(elo: f64) -> f64 {
    sigmoid(elo * NATS_PER_ELO)
}

/// The Elo difference that gives an expected score of `score` (0..1):
/// `-400 log10(1/score - 1)`. Returns +/- infinity for a score of 1 or 0, and NaN
/// outside [0, 1].
pub fn score_to_elo(score: f64) -> f64 {
    if !(0.0..=1.0).contains(&score) {
        return f64::NAN;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip_and_match_the_base_10_formula() {
        for elo in [-800.0, -200.0, -1.0, 0.0, 35.0, 400.0] {
            let s = elo_to_score(elo);
            let direct = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
            assert!((s - direct).abs() < 1e-15);
            assert!((score_to_elo(s) - elo).abs() < 1e-9);
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert!(score_to_elo(1.5).is_nan());
        // 3 : 1 is 190.85 Elo.
        assert!((score_to_elo(0.75) - 190.848_501_887_865).abs() < 1e-9);
    }

    #[test]
    fn ln_sigmoid_is_stable_in_the_tails() {
        assert!((ln_sigmoid(0.0) - 0.5f64.ln()).abs() < 1e-15);
        assert!((ln_sigmoid(-800.0) + 800.0).abs() < 1e-9);
        // The naive ln(1 / (1 + e^-40)) rounds to 0; the true value is -e^-40.
        assert!((ln_sigmoid(40.0) / -(-40f64).exp() - 1.0).abs() < 1e-12);
        assert!(sigmoid(-800.0) >= 0.0 && sigmoid(800.0) == 1.0);
        assert!((sigmoid(3.0) + sigmoid(-3.0) - 1.0).abs() < 1e-15);
    }
}
