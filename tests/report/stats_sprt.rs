//! The SPRT against fastchess's own test expectations for both Elo models, and
//! on simulated matches under both: a bot clearly stronger than elo1 gets H1
//! accepted, one clearly weaker than elo0 gets H0 accepted, and the error rates
//! stay near alpha and beta.

use crate::common;

use arena::stats::{
    EloModel, GameResult, Pentanomial, Score, SequentialSprt, Sprt, SprtConfig, SprtDecision,
};
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

/// Runs logistic SPRTs [0, 20] until each decides; returns (H0 accepted, H1
/// accepted, mean pairs).
fn run_tests(true_elo: f64, runs: usize, seed: u64) -> (usize, usize, f64) {
    let sprt = Sprt::new(SprtConfig {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    })
    .unwrap();
    run_sprts(sprt, true_elo, runs, seed)
}

/// Runs `sprt` until it decides, `runs` times, with A `true_elo` (logistic)
/// stronger; returns (H0 accepted, H1 accepted, mean pairs).
fn run_sprts(sprt: Sprt, true_elo: f64, runs: usize, seed: u64) -> (usize, usize, f64) {
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

/// Counts in arena's order LL, LD, DD+WL, WD, WW.
fn penta([ll, ld, even, wd, ww]: [u64; 5]) -> Pentanomial {
    Pentanomial {
        ll,
        ld,
        dd: even,
        wl: 0,
        wd,
        ww,
    }
}

fn sprt(model: EloModel, elo0: f64, elo1: f64) -> Sprt {
    Sprt::new(SprtConfig {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
    })
    .unwrap()
}

/// fastchess's own test expectations for its pentanomial LLR (its tests check
/// them to 1%), from outside this code.
#[test]
fn pentanomial_llr_agrees_with_fastchess_expectations_for_both_models() {
    use EloModel::{Logistic, Normalized};
    let cases = [
        (Normalized, 0.0, 2.0, [365, 16618, 36229, 16974, 390], 2.25),
        (Normalized, -1.75, 0.25, [127, 4883, 10712, 5150, 104], 3.01),
        (Normalized, 0.0, 5.0, [0, 0, 0, 0, 5550], 111.82),
        (Logistic, 0.5, 2.5, [223, 9863, 21279, 10037, 246], -3.07),
        (Logistic, 0.0, 2.0, [871, 26175, 55983, 26678, 821], -4.98),
    ];
    for (model, elo0, elo1, counts, expected) in cases {
        let llr = sprt(model, elo0, elo1).llr(&penta(counts));
        println!("{model} [{elo0}, {elo1}] {counts:?}: LLR {llr:.4} (fastchess {expected})");
        assert!(
            (llr / expected - 1.0).abs() < 0.01,
            "{model} [{elo0}, {elo1}] {counts:?}: {llr} vs {expected}"
        );
    }
}

/// The same bounds mean different tests: on one set of pairs the two models
/// give different LLRs, so bounds copied from fastchess must use its model.
#[test]
fn the_two_models_are_different_tests() {
    let counts = penta([365, 16618, 36229, 16974, 390]);
    let normalized = sprt(EloModel::Normalized, 0.0, 2.0).llr(&counts);
    let logistic = sprt(EloModel::Logistic, 0.0, 2.0).llr(&counts);
    assert!(
        (normalized - logistic).abs() > 1.0,
        "{normalized} {logistic}"
    );
}

/// Error rates under the normalized model, bounds [0, 40] nElo. Near equal
/// strength logistic Elo is about `2 sqrt(2 var_pair)` times nElo, under 1 with
/// these draws (drawelo 150, common::play), so 40 nElo is less than 40 Elo: a
/// bot 60 Elo stronger passes, one 20 Elo weaker fails, and at elo0 the false
/// H1 rate stays near alpha.
#[test]
fn normalized_model_error_rates_in_simulation() {
    let test = sprt(EloModel::Normalized, 0.0, 40.0);
    let (h0, h1, pairs) = run_sprts(test, 60.0, 40, 21);
    println!("normalized, true +60 Elo: H0 {h0}, H1 {h1}, mean pairs {pairs:.0}");
    assert!(h1 >= 38, "H1 accepted only {h1} of 40 times");
    let (h0, h1, pairs) = run_sprts(test, -20.0, 40, 22);
    println!("normalized, true -20 Elo: H0 {h0}, H1 {h1}, mean pairs {pairs:.0}");
    assert!(h0 >= 38, "H0 accepted only {h0} of 40 times");
    let (h0, h1, _) = run_sprts(test, 0.0, 100, 23);
    println!("normalized, true 0: H0 {h0}, H1 {h1}");
    assert!(h1 <= 12, "false H1 {h1} of 100");
}

/// The running estimate in each model's unit, and the LOS from the pairs.
#[test]
fn status_carries_the_estimate_on_the_tests_scale() {
    let counts = penta([30, 120, 300, 150, 40]);
    let logistic = sprt(EloModel::Logistic, 0.0, 10.0).status(&counts);
    let normalized = sprt(EloModel::Normalized, 0.0, 10.0).status(&counts);
    let (l, n) = (logistic.estimate.unwrap(), normalized.estimate.unwrap());
    // Mean pair score (30*0 + 120*0.25 + 300*0.5 + 150*0.75 + 40*1) / 640
    // = 332.5 / 640 = 0.51953125: +13.58 logistic Elo.
    assert!((l.elo - 13.58).abs() < 0.01, "{l:?}");
    // Pair-score variance sum n_i (a_i - 0.51953125)^2 / 640 = 0.0533295, so
    // nElo = 0.01953125 / sqrt(2 * 0.0533295) * 800 / ln 10 = 20.78.
    assert!((n.elo - 20.78).abs() < 0.01, "{n:?}");
    assert!(l.low < l.elo && l.elo < l.high && n.low < n.elo && n.elo < n.high);
    assert_eq!(l.los, n.los);
    assert!(l.los > 0.95 && l.los < 1.0, "{l:?}");
    assert_eq!(normalized.model, EloModel::Normalized);
    // A clean sweep: logistic Elo is infinite but its interval keeps a finite
    // lower end (Wilson over the pairs, as in pairwise.csv: 5 pairs all won
    // give 400 log10(5 / 1.96^2) = +45.8).
    let swept = sprt(EloModel::Logistic, 0.0, 10.0)
        .status(&penta([0, 0, 0, 0, 5]))
        .estimate
        .unwrap();
    assert_eq!(
        (swept.elo, swept.high, swept.los),
        (f64::INFINITY, f64::INFINITY, 1.0)
    );
    assert!((swept.low - 45.8).abs() < 0.1, "{swept:?}");
}
