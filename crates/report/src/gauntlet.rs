//! A gauntlet's view of its results: each seed's score and Elo difference
//! against each opponent and against all of them pooled, from the seed's
//! side. The ratings stay the joint fit over all games (the standings);
//! these are the head-to-head figures of `pairwise.csv`
//! ([`super::pairwise::match_row`]), which is what a person comparing a new
//! version with old ones reads first.
//!
//! The pool row treats the seed's opponents as one: its pairs are all the
//! seed's colour-swapped pairs, so its interval is the one of the seed's
//! whole match (fastchess's "Elo against the field" of a gauntlet).

use std::fmt::Write;

use super::pairwise::{match_row, PairwiseRow};
use super::standings::elo_text;
use arena_stats::{MatchCounts, TallyCounts, Wdl};

/// The name of the pooled opponents in a [`SeedResult`]'s last row.
pub const POOL: &str = "(all)";

/// One seed's results, from its side (`bot_a` is the seed).
#[derive(Debug, Clone, PartialEq)]
pub struct SeedResult {
    pub seed: String,
    /// Against each opponent it met, in standings order.
    pub opponents: Vec<PairwiseRow>,
    /// Against every opponent pooled (`bot_b` is [`POOL`]).
    pub pool: PairwiseRow,
}

/// The results of each seed (by name; a seed without games is left out),
/// opponents in the order `order` (bot indices, best first).
pub fn seed_results(rated: &TallyCounts, seeds: &[String], order: &[usize]) -> Vec<SeedResult> {
    seeds
        .iter()
        .filter_map(|seed| {
            let s = rated.bots.iter().position(|b| b == seed)?;
            seed_result(rated, s, order)
        })
        .collect()
}

fn seed_result(rated: &TallyCounts, s: usize, order: &[usize]) -> Option<SeedResult> {
    let mut opponents = Vec::new();
    let mut pooled = MatchCounts::default();
    let mut pooled_wdl = Wdl::default();
    for &b in order.iter().filter(|&&b| b != s) {
        let m = if s < b {
            rated.matches.get(&(s, b)).copied()
        } else {
            rated.matches.get(&(b, s)).map(MatchCounts::reversed)
        };
        let Some(m) = m else { continue };
        let wdl = rated.counts.head_to_head(s, b);
        opponents.push(match_row(&rated.bots[s], &rated.bots[b], wdl, &m));
        pooled += m;
        pooled_wdl += wdl;
    }
    if opponents.is_empty() {
        return None;
    }
    let pool = match_row(&rated.bots[s], POOL, pooled_wdl, &pooled);
    Some(SeedResult {
        seed: rated.bots[s].clone(),
        opponents,
        pool,
    })
}

/// The terminal table of one seed: a line per opponent, then the pool.
///
/// ```text
/// Gauntlet of new (Elo difference from its games alone, 95% interval):
///   opponent   games   W-D-L     score   Elo diff
///   old1          20   10-5-5    62.5%   +89 [+12, +170]
///   (all)         40   ...
/// ```
pub fn render_seed(result: &SeedResult) -> String {
    let width = result
        .opponents
        .iter()
        .map(|row| row.bot_b.chars().count())
        .chain([POOL.len(), "opponent".len()])
        .max()
        .unwrap_or(8);
    let mut out = format!(
        "Gauntlet of {} (Elo difference from its games alone, 95% interval):\n",
        result.seed
    );
    let _ = writeln!(
        out,
        "  {:<width$}  {:>5}  {:>11}  {:>6}  Elo diff",
        "opponent", "games", "W-D-L", "score"
    );
    for row in result.opponents.iter().chain([&result.pool]) {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>5}  {:>11}  {:>5.1}%  {} [{}, {}]",
            row.bot_b,
            row.games,
            format!("{}-{}-{}", row.wins, row.draws, row.losses),
            row.score_pct,
            elo_text(row.elo_diff),
            elo_text(row.elo_low),
            elo_text(row.elo_high),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::row::row_with_result;
    use arena_stats::Tally;
    use arena_tournament::tally::AddRow;

    /// Seed `new` against `old1` and `old2`, two pairs each (games 2p and
    /// 2p + 1 share pair p, colours swapped), counted by hand:
    /// - vs old1: pair 0 new wins both (WW), pair 1 new wins one and loses
    ///   one (WL): 3 wins, 0 draws, 1 loss; 75%.
    /// - vs old2: pair 2 two draws (DD), pair 3 new loses both (LL):
    ///   0 wins, 2 draws, 2 losses; 25%.
    /// - pooled: 3-2-3 over 8 games, 50%; pairs WW, WL, DD, LL.
    #[test]
    fn seed_rows_count_from_the_seeds_side() {
        let games = [
            (0, 0, "new", "old1", "1-0"),
            (1, 0, "old1", "new", "0-1"),
            (2, 1, "new", "old1", "1-0"),
            (3, 1, "old1", "new", "1-0"),
            (4, 2, "old2", "new", "1/2-1/2"),
            (5, 2, "new", "old2", "1/2-1/2"),
            (6, 3, "old2", "new", "1-0"),
            (7, 3, "new", "old2", "0-1"),
        ];
        let mut tally = Tally::new();
        for (id, pair, white, black, result) in games {
            tally
                .add_row(&row_with_result(
                    id,
                    pair,
                    white,
                    black,
                    result.parse().unwrap(),
                ))
                .unwrap();
        }
        let rated = tally.counts();
        let index = |name: &str| rated.bots.iter().position(|b| b == name).unwrap();
        let order = [index("new"), index("old1"), index("old2")];
        let results = seed_results(&rated, &["new".to_string()], &order);
        assert_eq!(results.len(), 1);
        let new = &results[0];
        fn summary(row: &PairwiseRow) -> (&str, &str, [u64; 3], f64, [u64; 5]) {
            (
                row.bot_a.as_str(),
                row.bot_b.as_str(),
                [row.wins, row.draws, row.losses],
                row.score_pct,
                [
                    row.penta_ll,
                    row.penta_ld,
                    row.penta_dd_wl,
                    row.penta_wd,
                    row.penta_ww,
                ],
            )
        }
        assert_eq!(
            summary(&new.opponents[0]),
            ("new", "old1", [3, 0, 1], 75.0, [0, 0, 1, 0, 1])
        );
        assert_eq!(
            summary(&new.opponents[1]),
            ("new", "old2", [0, 2, 2], 25.0, [1, 0, 1, 0, 0])
        );
        assert_eq!(
            summary(&new.pool),
            ("new", POOL, [3, 2, 3], 50.0, [1, 0, 2, 0, 1])
        );
        // 50% is no difference, and the interval is symmetric around it.
        assert!(new.pool.elo_diff.abs() < 1e-9);
        assert!((new.pool.elo_low + new.pool.elo_high).abs() < 1e-6);
        assert!(new.opponents[0].elo_diff > 0.0 && new.opponents[1].elo_diff < 0.0);
        let table = render_seed(new);
        assert!(table.contains("Gauntlet of new"), "{table}");
        assert!(
            table.contains("old1          4        3-0-1   75.0%  +"),
            "{table}"
        );
        assert!(
            table.contains("(all)         8        3-2-3   50.0%  0 ["),
            "{table}"
        );
        // A name that is no bot, or a bot without games, gives no rows.
        assert!(seed_results(&rated, &["nobody".to_string()], &order).is_empty());
    }
}
