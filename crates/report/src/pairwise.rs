//! Head-to-head results for every pair of bots that met: `pairwise.csv`.
//!
//! Columns: `variant,bot_a,bot_b,games,wins,draws,losses,score_pct,elo_diff,elo_low,
//! elo_high,los,penta_ll,penta_ld,penta_dd_wl,penta_wd,penta_ww`, all from
//! `bot_a`'s side; `bot_a` is the better-ranked bot of the two and rows follow the
//! standings order. One block of rows per fit, `variant` naming it (a
//! variant, or `all`: see [`super::rating`]).
//!
//! - `elo_diff` and its 95% interval come from these games alone (fastchess's
//!   match Elo: see [`arena_stats::head_to_head`]), with game pairs as the
//!   independent units. `elo_diff` is `inf`/`-inf` at a 100%/0% score. When every
//!   pair (and lone game) scored the same, e.g. all won or all drawn, the interval
//!   is the Wilson score interval over the pairs, so 20 pairs all won give
//!   `elo_low` = +286.6 and `elo_high` = `inf`; Wilson is also used where
//!   fastchess's `score -/+ 1.96 sd` would leave 0..100%; otherwise the interval
//!   is fastchess's.
//! - `los`: likelihood that `bot_a` is stronger (0..1). Where the two played
//!   game pairs it comes from the pairs, as fastchess computes it:
//!   `Phi((score - 1/2) / sd)` with the same pair-based `sd` as the interval
//!   (lone games of the pair count as units of their own). Without any pair
//!   it comes from wins and losses, `1/2 + erf((W - L) / sqrt(2 (W + L))) / 2`
//!   as cutechess prints it (see [`arena_stats::los`]).
//! - `penta_*`: colour-swapped game pairs (same `pair` id and variant) by `bot_a`'s
//!   total: LL 0, LD 0.5, DD+WL 1, WD 1.5, WW 2 points. Games without a partner
//!   count in `games` but in no pentanomial cell.

use serde::Serialize;

use arena_stats::{likelihood_of_superiority, pair_likelihood_of_superiority, ScoreEstimate};

use super::standings::rounded;
use arena_stats::{MatchCounts, TallyCounts};

/// The header of `pairwise.csv`, in the field order of [`PairwiseRow`].
pub const PAIRWISE_COLUMNS: [&str; 17] = [
    "variant",
    "bot_a",
    "bot_b",
    "games",
    "wins",
    "draws",
    "losses",
    "score_pct",
    "elo_diff",
    "elo_low",
    "elo_high",
    "los",
    "penta_ll",
    "penta_ld",
    "penta_dd_wl",
    "penta_wd",
    "penta_ww",
];

/// One line of `pairwise.csv`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairwiseRow {
    pub bot_a: String,
    pub bot_b: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    #[serde(serialize_with = "rounded::dp2")]
    pub score_pct: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo_diff: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo_low: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo_high: f64,
    #[serde(serialize_with = "rounded::dp4")]
    pub los: f64,
    pub penta_ll: u64,
    pub penta_ld: u64,
    pub penta_dd_wl: u64,
    pub penta_wd: u64,
    pub penta_ww: u64,
}

/// Head-to-head rows for every pair of bots that played, `order` giving the bot
/// indices best first (e.g. [`super::standings::Standings::order`]).
pub fn pairwise_rows(rated: &TallyCounts, order: &[usize]) -> Vec<PairwiseRow> {
    let mut rank = vec![usize::MAX; rated.bots.len()];
    for (r, &bot) in order.iter().enumerate() {
        rank[bot] = r;
    }
    // Each row from the better-ranked bot's side.
    let mut rows: Vec<(usize, usize, MatchCounts)> = rated
        .matches
        .iter()
        .map(|(&(low, high), &m)| {
            if (rank[low], low) <= (rank[high], high) {
                (low, high, m)
            } else {
                (high, low, m.reversed())
            }
        })
        .collect();
    rows.sort_by_key(|&(a, b, _)| (rank[a], a, rank[b], b));
    rows.into_iter()
        .map(|(a, b, m)| head_to_head(rated, a, b, &m))
        .collect()
}

/// The row of `a` against `b`, `m` from `a`'s side.
fn head_to_head(rated: &TallyCounts, a: usize, b: usize, m: &MatchCounts) -> PairwiseRow {
    let as_white = rated.counts.get(a, b).map(|c| c as u64);
    let as_black = rated.counts.get(b, a).map(|c| c as u64);
    let wins = as_white[0] + as_black[2];
    let draws = as_white[1] + as_black[1];
    let losses = as_white[2] + as_black[0];
    match_row(&rated.bots[a], &rated.bots[b], [wins, draws, losses], m)
}

/// The row of `a` against `b` (a bot, or several pooled, as a gauntlet's
/// seed against all its opponents) from `a`'s wins, draws and losses and
/// its pairs `m`, which must hold at least one game.
pub fn match_row(
    a: &str,
    b: &str,
    [wins, draws, losses]: [u64; 3],
    m: &MatchCounts,
) -> PairwiseRow {
    let penta = m.pentanomial;
    let estimate = ScoreEstimate::from_pentanomial(&penta, m.unpaired)
        .expect("a pair of bots in the map played a game");
    let (low, high) = estimate.elo_interval();
    PairwiseRow {
        bot_a: a.to_string(),
        bot_b: b.to_string(),
        games: wins + draws + losses,
        wins,
        draws,
        losses,
        score_pct: 100.0 * estimate.score,
        elo_diff: estimate.elo(),
        elo_low: low,
        elo_high: high,
        los: if penta.pairs() > 0 {
            pair_likelihood_of_superiority(&estimate)
        } else {
            likelihood_of_superiority(wins, losses)
        },
        penta_ll: penta.ll,
        penta_ld: penta.ld,
        penta_dd_wl: penta.dd_wl(),
        penta_wd: penta.wd,
        penta_ww: penta.ww,
    }
}
