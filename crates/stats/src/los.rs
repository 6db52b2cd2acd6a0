//! Likelihood of superiority: the probability, under a flat prior and the
//! normal approximation, that a player's expected score exceeds 1/2.
//!
//! Two estimates, for two kinds of data:
//! - from game pairs (same opening, colours swapped), as fastchess computes it
//!   from the pentanomial: `Phi((score - 1/2) / sd)` with `sd` the standard
//!   error of the mean score from the spread of the pair scores, which counts
//!   draws and the correlation of a pair's two games
//!   ([`pair_likelihood_of_superiority`]);
//! - from wins and losses alone, ignoring draws, as cutechess and Ordo print it
//!   ([`likelihood_of_superiority`]), for games that were not played in pairs.

use super::head_to_head::ScoreEstimate;

/// Probability that the player with `wins` against `losses` is the stronger one,
/// ignoring draws: `0.5 + 0.5 erf((W - L) / sqrt(2 (W + L)))`, the normal
/// approximation cutechess and Ordo print. 0.5 when no game was decisive.
pub fn likelihood_of_superiority(wins: u64, losses: u64) -> f64 {
    let decisive = (wins + losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    let z = (wins as f64 - losses as f64) / (2.0 * decisive).sqrt();
    0.5 + 0.5 * statrs::function::erf::erf(z)
}

/// `Phi((score - 1/2) / sd)` of the mean score per game of A's units (pairs,
/// and lone games if any). Without any spread (every unit scored the same) it
/// is 1 above 50%, 0 below and 1/2 at 50%.
pub fn pair_likelihood_of_superiority(estimate: &ScoreEstimate) -> f64 {
    let excess = estimate.score - 0.5;
    if estimate.sd > 0.0 {
        0.5 + 0.5 * statrs::function::erf::erf(excess / (std::f64::consts::SQRT_2 * estimate.sd))
    } else if excess == 0.0 {
        0.5
    } else if excess > 0.0 {
        1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Pentanomial, Wdl};

    /// Pentanomial LL 1, LD 2, DD 5, WD 4, WW 3 (15 pairs): mean pair score
    /// 9/15 = 0.6, variance of the pair score (1 * 0.36 + 2 * 0.1225 +
    /// 5 * 0.01 + 4 * 0.0225 + 3 * 0.16) / 15 = 0.0816667, so the mean's sd is
    /// sqrt(0.0816667 / 15) = 0.0737865 and LOS = Phi(0.1 / 0.0737865) =
    /// Phi(1.355262) = 0.912333.
    #[test]
    fn pair_los_matches_a_hand_computation() {
        let pairs = Pentanomial {
            ll: 1,
            ld: 2,
            dd: 5,
            wl: 0,
            wd: 4,
            ww: 3,
        };
        let e = ScoreEstimate::from_pentanomial(&pairs, Wdl::default()).unwrap();
        let los = pair_likelihood_of_superiority(&e);
        assert!((los - 0.912_333).abs() < 1e-6, "{los}");
        let swept = Pentanomial {
            ww: 4,
            ..Pentanomial::default()
        };
        let e = ScoreEstimate::from_pentanomial(&swept, Wdl::default()).unwrap();
        assert_eq!(pair_likelihood_of_superiority(&e), 1.0);
    }

    #[test]
    fn matches_hand_computed_values() {
        assert_eq!(likelihood_of_superiority(0, 0), 0.5);
        assert!((likelihood_of_superiority(5, 5) - 0.5).abs() < 1e-15);
        // W=10, L=0: erf(10/sqrt(20)) = erf(2.2360680) = 0.998434597...
        let los = likelihood_of_superiority(10, 0);
        assert!(
            (los - (0.5 + 0.5 * 0.998_434_597_741_68)).abs() < 1e-9,
            "{los}"
        );
        // W=60, L=40: z = 20/sqrt(200) = 1.41421356, erf = 0.954499736...
        let los = likelihood_of_superiority(60, 40);
        assert!((los - 0.977_249_868_051_821).abs() < 1e-9, "{los}");
        // Symmetry.
        let a = likelihood_of_superiority(17, 9);
        let b = likelihood_of_superiority(9, 17);
        assert!((a + b - 1.0).abs() < 1e-12);
    }
}
