//! Joint Elo fit for 100 bots and 1,000,000 games: aggregation plus fit; and,
//! before the timings, the 95% interval coverage per bot over 10,000 simulated
//! round robins per field (tests/common/coverage.rs), with the prior only where
//! needed (the default) and with BayesElo's prior on every bot, for comparison.
//!
//! Run: `cargo bench --bench rating_fit`.

#[path = "../tests/common/coverage.rs"]
mod coverage;

use arena::stats::{fit_ratings, FitOptions, GameResult, PairCounts, PriorScope};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BOTS: usize = 100;
const GAMES: usize = 1_000_000;

/// Games under BayesElo's model with ratings spread over +/-400 Elo, a white
/// advantage of 30 and drawelo 150.
fn simulated_games() -> Vec<(usize, usize, GameResult)> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let ratings: Vec<f64> = (0..BOTS).map(|_| rng.gen_range(-400.0..400.0)).collect();
    let f = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
    (0..GAMES)
        .map(|_| {
            let white = rng.gen_range(0..BOTS);
            let mut black = rng.gen_range(0..BOTS - 1);
            if black >= white {
                black += 1;
            }
            let d = ratings[white] - ratings[black];
            let (p_white, p_black) = (f(d + 30.0 - 150.0), f(-d - 30.0 - 150.0));
            let r: f64 = rng.gen();
            let result = if r < p_white {
                GameResult::WhiteWins
            } else if r < p_white + p_black {
                GameResult::BlackWins
            } else {
                GameResult::Draw
            };
            (white, black, result)
        })
        .collect()
}

/// Prints coverage, bias and the share of fits resting on the prior, per bot.
fn report_coverage() {
    const REPLICATIONS: usize = 10_000;
    let all_bots = FitOptions {
        scope: PriorScope::AllBots,
        ..FitOptions::default()
    };
    for field in coverage::standard_fields() {
        for (label, options) in [
            ("prior where needed", FitOptions::default()),
            ("prior on all bots", all_bots.clone()),
        ] {
            let c = coverage::coverage(&field, REPLICATIONS, 99, &options);
            let pct = |v: &[f64]| {
                v.iter()
                    .map(|x| format!("{:.1}", 100.0 * x))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let elo = |v: &[f64]| {
                v.iter()
                    .map(|x| format!("{x:+.1}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            println!("{} ({label}, {REPLICATIONS} runs):", field.name);
            println!("  coverage %  {}", pct(&c.covered));
            println!("  bias Elo    {}", elo(&c.bias));
            println!("  on prior %  {}", pct(&c.on_prior));
        }
    }
}

fn rating_fit(c: &mut Criterion) {
    report_coverage();
    let games = simulated_games();
    let options = FitOptions::default();
    let mut group = c.benchmark_group("rating_fit");
    group.sample_size(20);
    group.bench_function("aggregate_and_fit_100_bots_1m_games", |b| {
        b.iter(|| {
            let counts = PairCounts::from_games(BOTS, black_box(&games).iter().copied());
            fit_ratings(&counts, &options).expect("fit")
        })
    });
    let counts = PairCounts::from_games(BOTS, games.iter().copied());
    group.bench_function("fit_only_100_bots_1m_games", |b| {
        b.iter(|| fit_ratings(black_box(&counts), &options).expect("fit"))
    });
    group.finish();
}

criterion_group!(benches, rating_fit);
criterion_main!(benches);
