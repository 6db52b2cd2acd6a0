//! Shared helpers for the statistics tests: simulated games under BayesElo's model.
#![allow(dead_code)]

use arena::stats::GameResult;
use rand::Rng;

/// `1 / (1 + 10^(-x/400))`.
pub fn f(x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-x / 400.0))
}

/// One game: white `elo_diff` stronger (before the colour advantage).
pub fn play(rng: &mut impl Rng, elo_diff: f64, adv: f64, draw_elo: f64) -> GameResult {
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
