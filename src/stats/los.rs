//! Likelihood of superiority.

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

#[cfg(test)]
mod tests {
    use super::*;

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
