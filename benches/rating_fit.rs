//! Joint Elo fit for 100 bots and 1,000,000 games: aggregation plus fit.
//!
//! Run: `cargo bench --bench rating_fit`.

use arena::stats::{fit_ratings, FitOptions, GameResult, PairCounts};
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

fn rating_fit(c: &mut Criterion) {
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
