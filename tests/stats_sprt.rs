//! SPRT on simulated matches: a bot clearly stronger than elo1 gets H1 accepted,
//! one clearly weaker than elo0 gets H0 accepted, and the error rates stay near
//! alpha and beta.

mod common;

use arena::stats::{GameResult, Score, SequentialSprt, Sprt, SprtConfig, SprtDecision};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A's score in a game where A is `elo` stronger and has colour `a_white`.
fn game(rng: &mut ChaCha8Rng, elo: f64, a_white: bool) -> Score {
    let (diff, a_wins) = if a_white {
        (elo, GameResult::WhiteWins)
    } else {
        (-elo, GameResult::BlackWins)
    };
    match common::play(rng, diff, 30.0, 150.0) {
        GameResult::Draw => Score::Draw,
        r if r == a_wins => Score::Win,
        _ => Score::Loss,
    }
}

/// Runs SPRTs until each decides; returns (H0 accepted, H1 accepted, mean pairs).
fn run_tests(true_elo: f64, runs: usize, seed: u64) -> (usize, usize, f64) {
    let sprt = Sprt::new(SprtConfig {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
    })
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut h0, mut h1, mut pairs) = (0, 0, 0u64);
    for _ in 0..runs {
        let mut test = SequentialSprt::new(sprt);
        loop {
            let first = game(&mut rng, true_elo, true);
            let second = game(&mut rng, true_elo, false);
            let status = test.record_pair(first, second);
            match status.decision {
                SprtDecision::Continue => assert!(status.pairs < 100_000, "never decided"),
                SprtDecision::AcceptH0 => {
                    h0 += 1;
                    pairs += status.pairs;
                    break;
                }
                SprtDecision::AcceptH1 => {
                    h1 += 1;
                    pairs += status.pairs;
                    break;
                }
            }
        }
    }
    (h0, h1, pairs as f64 / runs as f64)
}

#[test]
fn accepts_h1_when_clearly_stronger_than_elo1() {
    let (h0, h1, mean_pairs) = run_tests(50.0, 40, 11);
    println!("true +50: H0 {h0}, H1 {h1}, mean pairs {mean_pairs:.0}");
    assert!(h1 >= 39, "H1 accepted only {h1} of 40 times");
}

#[test]
fn accepts_h0_when_clearly_weaker_than_elo0() {
    let (h0, h1, mean_pairs) = run_tests(-30.0, 40, 12);
    println!("true -30: H0 {h0}, H1 {h1}, mean pairs {mean_pairs:.0}");
    assert!(h0 >= 39, "H0 accepted only {h0} of 40 times");
}

#[test]
fn error_rate_at_elo0_is_about_alpha() {
    // At exactly elo0 the test should wrongly accept H1 about 5% of the time.
    let (h0, h1, _) = run_tests(0.0, 100, 13);
    println!("true 0: H0 {h0}, H1 {h1}");
    assert!(h1 <= 12, "false H1 {h1} of 100");
}
