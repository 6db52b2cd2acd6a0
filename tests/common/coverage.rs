//! Interval coverage of the joint Elo fit on simulated round robins, shared by
//! `tests/report/stats_elo.rs` (few replications) and `benches/rating_fit.rs` (many).
#![allow(dead_code)]

use arena::stats::{fit_ratings, FitOptions, GameResult, PairCounts};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A field of bots with known ratings playing a round robin under BayesElo's
/// model: every pair plays `games_per_pair` games, half with each colour.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: &'static str,
    pub ratings: Vec<f64>,
    pub games_per_pair: usize,
    pub adv: f64,
    pub draw_elo: f64,
}

/// `bots` ratings evenly spaced over `[-half_width, +half_width]`.
pub fn spread(bots: usize, half_width: f64) -> Vec<f64> {
    (0..bots)
        .map(|i| -half_width + 2.0 * half_width * i as f64 / (bots - 1) as f64)
        .collect()
}

/// The three fields of issue 12: wide (-900 ... +900, 100 games a pair),
/// narrow with only 10 games a pair, and all equal.
pub fn standard_fields() -> Vec<Field> {
    vec![
        Field {
            name: "wide -900..+900, 100 games a pair",
            ratings: spread(7, 900.0),
            games_per_pair: 100,
            adv: 30.0,
            draw_elo: 150.0,
        },
        Field {
            name: "narrow -150..+150, 10 games a pair",
            ratings: spread(7, 150.0),
            games_per_pair: 10,
            adv: 30.0,
            draw_elo: 150.0,
        },
        Field {
            name: "wide -900..+900, 10 games a pair",
            ratings: spread(7, 900.0),
            games_per_pair: 10,
            adv: 30.0,
            draw_elo: 150.0,
        },
        Field {
            name: "all equal, 20 games a pair",
            ratings: vec![0.0; 7],
            games_per_pair: 20,
            adv: 30.0,
            draw_elo: 150.0,
        },
    ]
}

/// What the replications measured, per bot.
#[derive(Debug, Clone)]
pub struct Coverage {
    /// Share of replications whose 95% interval held the true (centred) rating.
    pub covered: Vec<f64>,
    /// Mean of estimate minus truth.
    pub bias: Vec<f64>,
    /// Share of replications in which the bot's rating rested on the prior.
    pub on_prior: Vec<f64>,
}

fn one_tournament(rng: &mut ChaCha8Rng, field: &Field) -> PairCounts {
    let n = field.ratings.len();
    let mut counts = PairCounts::new(n);
    for a in 0..n {
        for b in a + 1..n {
            for g in 0..field.games_per_pair {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                let diff = field.ratings[white] - field.ratings[black];
                let result = play(rng, diff, field.adv, field.draw_elo);
                counts.add(white, black, result);
            }
        }
    }
    counts
}

/// One game under BayesElo's model: white `elo_diff` stronger before the
/// colour advantage `adv`; `draw_elo` sets the draw rate.
pub fn play(rng: &mut impl Rng, elo_diff: f64, adv: f64, draw_elo: f64) -> GameResult {
    let f = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
    let p_white = f(elo_diff + adv - draw_elo);
    let p_black = f(-elo_diff - adv - draw_elo);
    let r: f64 = rng.gen();
    if r < p_white {
        GameResult::WhiteWins
    } else if r < p_white + p_black {
        GameResult::BlackWins
    } else {
        GameResult::Draw
    }
}

/// Fits `replications` simulated tournaments of `field` with `options`.
pub fn coverage(field: &Field, replications: usize, seed: u64, options: &FitOptions) -> Coverage {
    let n = field.ratings.len();
    let mean = field.ratings.iter().sum::<f64>() / n as f64;
    let truth: Vec<f64> = field.ratings.iter().map(|r| r - mean).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut covered, mut bias, mut on_prior) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    for _ in 0..replications {
        let counts = one_tournament(&mut rng, field);
        let fit = fit_ratings(&counts, options).expect("the default fit always succeeds");
        for bot in 0..n {
            let est = fit.rating(bot);
            covered[bot] += f64::from(est.low() <= truth[bot] && truth[bot] <= est.high());
            bias[bot] += est.value - truth[bot];
            on_prior[bot] += f64::from(fit.rests_on_prior(bot));
        }
    }
    let per = |v: Vec<f64>| v.into_iter().map(|x| x / replications as f64).collect();
    Coverage {
        covered: per(covered),
        bias: per(bias),
        on_prior: per(on_prior),
    }
}
