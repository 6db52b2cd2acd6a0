//! What an adaptive ranking certifies ([`Goal`]: the whole order, the top
//! `K`, or tiers), the tiers a set of pair checks certifies, each goal's
//! choice of pairs and its stopping rule ([`Watch`]).
//!
//! # Tiers: the one claim behind every goal
//! From an [`Assessment`] (the fit's order and every pair's check) the
//! **tiers** are the finest partition of the order into consecutive blocks
//! such that every two bots in different blocks are separated: a boundary
//! lies after place `k` exactly when every pair across it (one bot at place
//! `k` or above, the other below) is separated. Every goal claims such a
//! weak order: the whole order (every tier one bot), the top `K` (a
//! boundary after place `K`, and the tiers within the top), or the tiers as
//! they are. Its error is that of the order's certificate: if two bots in
//! different tiers are in the wrong order, walk the true order from the
//! truly stronger one down to the other; the tier number goes from higher
//! to lower along the walk, so some two bots *adjacent in the true order*
//! are in tiers the wrong way round, hence separated the wrong way. Those
//! `n - 1` pairs are fixed by the truth, so with each test at
//! `alpha' = (1 - confidence) / (n - 1)` the chance that any goal's claim
//! is ever wrong is at most `1 - confidence`, at every round, however the
//! run goes on (the tests hold uniformly in time, [`crate::adaptive`]).
//!
//! # Games and stopping
//! - `order`: [`Assessment::next_round`] until certified.
//! - `top:K`: only pairs that can move the top: each bot on one side of the
//!   boundary after place `K` that is not separated from some bot on the
//!   other side plays the nearest such bot (the lowest of the top for a bot
//!   below, the highest below for a bot of the top), and the top's pairs
//!   not separated. The set is certified when the boundary is; the
//!   run then goes on for the order within the top until it is certified
//!   or its tiers have [settled](Watch).
//! - `tiers`: only where a boundary is still in reach with the games the
//!   run may spend ([`crate::tier_pairs`]): pairs that could not be
//!   separated within them (bots of about equal strength) get no games, and
//!   each bot not separated from some bot across a boundary in reach plays
//!   the nearest such bot on each side; the run stops when no boundary is in
//!   reach or every tier is one bot.
//!
//! `top:K`'s tiers have **settled** when they have not changed while the games grew by
//! half ([`PATIENCE`]) and by at least 100 per bot they hold
//! ([`PATIENCE_PER_BOT`], the `K` bots of the top): tiers
//! of `n` bots that last changed at game `g` have settled at game
//! `g + max(g / 2, 100 n)`. Bots of equal strength are never separated, so without
//! this rule a run with a tie would always spend its whole `max_games`. The
//! same two constants bound what `tiers` spends on the boundaries not yet
//! certified: half the games so far, or 100 per bot of the field.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::adaptive::{Assessment, PairCheck, MIN_ROUND_PAIRS};
use crate::tier_pairs::tier_pairs;

/// What a run certifies (`certify`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Goal {
    /// The whole order.
    #[default]
    Order,
    /// The set of the `K` best bots, and their order where separable.
    Top(usize),
    /// Tiers: blocks of bots whose order between blocks is certified.
    Tiers,
}

/// The share by which the games must grow with the tiers unchanged before
/// they have settled (see the module docs).
pub const PATIENCE: f64 = 0.5;

/// And at least this many games per bot of the tiers with them
/// unchanged: early on, before a boundary had the games to show, half the
/// seeding is too little.
pub const PATIENCE_PER_BOT: u64 = 100;

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::Order => write!(f, "order"),
            Goal::Top(k) => write!(f, "top:{k}"),
            Goal::Tiers => write!(f, "tiers"),
        }
    }
}

impl FromStr for Goal {
    type Err = String;

    fn from_str(text: &str) -> Result<Goal, String> {
        let expected = "expected \"order\", \"top:K\" (K a whole number, 1 or more) or \"tiers\"";
        match text.trim() {
            "order" => Ok(Goal::Order),
            "tiers" => Ok(Goal::Tiers),
            other => match other
                .strip_prefix("top:")
                .map(|k| k.trim().parse::<usize>())
            {
                Some(Ok(0)) => {
                    Err("top:0 certifies nothing; give K of 1 or more, e.g. \"top:3\"".into())
                }
                Some(Ok(k)) => Ok(Goal::Top(k)),
                _ => Err(format!("{expected}, got {text:?}")),
            },
        }
    }
}

impl Serialize for Goal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Goal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Goal, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Goal {
    /// The goal among `bots` bots, or why not (`top:K` needs `K` below the
    /// field).
    pub fn check(&self, bots: usize) -> Result<(), String> {
        match *self {
            Goal::Top(k) if k == 0 || k >= bots => Err(format!(
                "top:{k} needs K from 1 to {} (fewer than the {bots} bots: top:{bots} would be the whole field)",
                bots.saturating_sub(1)
            )),
            _ => Ok(()),
        }
    }

    /// The tiers the run watches to see whether they settled: all of them,
    /// or for `top:K` those of the top once its set is certified (none
    /// before).
    pub fn watched(&self, a: &Assessment) -> Vec<Vec<usize>> {
        match *self {
            Goal::Top(k) if a.boundary_after(k) => {
                let tiers = a.tiers();
                let mut seen = 0;
                tiers
                    .into_iter()
                    .take_while(|t| {
                        seen += t.len();
                        seen <= k
                    })
                    .collect()
            }
            Goal::Top(_) => Vec::new(),
            _ => a.tiers(),
        }
    }

    /// The goal is reached in full: the order certified, the top `K` set
    /// and its order certified, every tier one bot.
    pub fn complete(&self, a: &Assessment) -> bool {
        match *self {
            Goal::Top(k) => a.boundaries().iter().take(k).all(|&b| b),
            _ => a.certified,
        }
    }

    /// What the goal certifies so far: the order, the top `K` set, or (the
    /// tiers being always certified) true.
    pub fn certified(&self, a: &Assessment) -> bool {
        match *self {
            Goal::Order => a.certified,
            Goal::Top(k) => a.boundary_after(k),
            Goal::Tiers => true,
        }
    }

    /// What the goal claims, as tiers best first (every bot in one): the
    /// certified order, the top `K` set's tiers then the rest, or the tiers;
    /// empty while it claims nothing (the order or the set not certified).
    pub fn claim(&self, a: &Assessment) -> Vec<Vec<usize>> {
        match *self {
            Goal::Order if a.certified => a.tiers(),
            Goal::Top(k) if a.boundary_after(k) => {
                let mut tiers = self.watched(a);
                tiers.push(a.order[k..].to_vec());
                tiers
            }
            Goal::Tiers => a.tiers(),
            _ => Vec::new(),
        }
    }

    /// Whether the run stops after `games` games with assessment `a`; `watch`
    /// follows the tiers from round to round.
    pub fn stop(&self, a: &Assessment, games: u64, watch: &mut Watch) -> bool {
        let watched = self.watched(a);
        let bots = watched.iter().map(Vec::len).sum();
        let settled = watch.observe(watched, games, bots);
        match self {
            Goal::Order => a.certified,
            Goal::Top(k) => self.complete(a) || (a.boundary_after(*k) && settled),
            // Its rounds end when no boundary is in reach (`tier_pairs`).
            Goal::Tiers => a.certified,
        }
    }

    /// The next round's pairings after `games` games of at most `max_games`,
    /// (upper, lower), widest interval first, repeated up to
    /// [`MIN_ROUND_PAIRS`]; none when the goal has nothing left to play for.
    pub fn next_round(&self, a: &Assessment, games: u64, max_games: u64) -> Vec<(usize, usize)> {
        let pairs = match *self {
            Goal::Order => return a.next_round(),
            Goal::Top(k) => top_pairs(a, k),
            Goal::Tiers => tier_pairs(a, reach_budget(a.order.len(), games, max_games)),
        };
        fill_round(pairs)
    }
}

/// The tiers from round to round, to tell when they settled.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Watch {
    tiers: Option<Vec<Vec<usize>>>,
    /// Games when they last changed.
    since: u64,
}

impl Watch {
    /// Notes the tiers of `bots` bots after `games`; whether they
    /// have settled (unchanged while the games grew by [`PATIENCE`] of those
    /// at their last change, and by [`PATIENCE_PER_BOT`] per bot).
    pub fn observe(&mut self, tiers: Vec<Vec<usize>>, games: u64, bots: usize) -> bool {
        let mut sorted = tiers;
        for tier in &mut sorted {
            tier.sort_unstable();
        }
        if self.tiers.as_ref() != Some(&sorted) {
            self.tiers = Some(sorted);
            self.since = games;
            return false;
        }
        let wait = (PATIENCE * self.since as f64).max((PATIENCE_PER_BOT * bots as u64) as f64);
        games > self.since && (games - self.since) as f64 >= wait
    }
}

impl Assessment {
    /// Places of bots: `place[bot]`, 0 = best.
    pub(crate) fn places(&self) -> Vec<usize> {
        let mut place = vec![0; self.order.len()];
        for (k, &bot) in self.order.iter().enumerate() {
            place[bot] = k;
        }
        place
    }

    /// Every pair not separated, adjacent or not.
    pub fn open_pairs(&self) -> impl Iterator<Item = &PairCheck> {
        self.unseparated().chain(&self.others)
    }

    /// Per place `k` (0 to n - 2): whether a tier boundary lies between
    /// `order[k]` and `order[k + 1]` (every pair across it separated).
    pub fn boundaries(&self) -> Vec<bool> {
        let n = self.order.len();
        let place = self.places();
        let mut spans = vec![0i64; n + 1];
        for c in self.open_pairs() {
            let (p, q) = (
                place[c.upper].min(place[c.lower]),
                place[c.upper].max(place[c.lower]),
            );
            spans[p] += 1;
            spans[q] -= 1;
        }
        let mut open = 0;
        (0..n.saturating_sub(1))
            .map(|k| {
                open += spans[k];
                open == 0
            })
            .collect()
    }

    /// Whether the best `k` bots (1 <= k < n) are certified as a set: a
    /// boundary after place `k`.
    pub fn boundary_after(&self, k: usize) -> bool {
        k >= 1 && self.boundaries().get(k - 1).copied().unwrap_or(false)
    }

    /// The certified tiers, best first, each in rank order (see the module
    /// docs).
    pub fn tiers(&self) -> Vec<Vec<usize>> {
        let mut tiers = Vec::new();
        let mut current = Vec::new();
        let boundaries = self.boundaries();
        for (k, &bot) in self.order.iter().enumerate() {
            current.push(bot);
            if boundaries.get(k).copied().unwrap_or(true) {
                tiers.push(std::mem::take(&mut current));
            }
        }
        tiers
    }
}

/// The pairs that can move the top `k` (see the module docs).
fn top_pairs(a: &Assessment, k: usize) -> Vec<&PairCheck> {
    let place = a.places();
    // The nearest partner across the boundary of each bot not separated
    // from the other side: for a bot below, the lowest bot of the top; for
    // a bot of the top, the highest bot below.
    let n = a.order.len();
    let mut nearest: Vec<Option<&PairCheck>> = vec![None; n];
    for c in a.open_pairs() {
        let (up, low) = (place[c.upper], place[c.lower]);
        if !(up < k && low >= k) {
            continue;
        }
        let better_for_lower = nearest[c.lower].is_none_or(|b| place[b.upper] < up);
        if better_for_lower {
            nearest[c.lower] = Some(c);
        }
        let better_for_upper = nearest[c.upper].is_none_or(|b| place[b.lower] > low);
        if better_for_upper {
            nearest[c.upper] = Some(c);
        }
    }
    let mut pairs: Vec<&PairCheck> = nearest.into_iter().flatten().collect();
    // Within the top: its pairs not separated (the adjacent ones, and any
    // other that keeps a boundary out of the top).
    pairs.extend(
        a.open_pairs()
            .filter(|c| place[c.lower] < k && place[c.upper] < k),
    );
    pairs
}

/// The games the boundaries not yet certified may cost, after `games` of at
/// most `max_games` among `bots` bots: those left, but at most half the games
/// so far or [`PATIENCE_PER_BOT`] per bot, whichever is more (see the module
/// docs).
pub fn reach_budget(bots: usize, games: u64, max_games: u64) -> u64 {
    let patience = ((PATIENCE * games as f64) as u64).max(PATIENCE_PER_BOT * bots as u64);
    max_games.saturating_sub(games).min(patience)
}

/// `pairs` without repeats, widest interval first (then rank order), the
/// list repeated up to [`MIN_ROUND_PAIRS`].
fn fill_round(mut pairs: Vec<&PairCheck>) -> Vec<(usize, usize)> {
    let mut seen = std::collections::BTreeSet::new();
    pairs.retain(|c| seen.insert((c.upper, c.lower)));
    pairs.sort_by(|a, b| b.sd.total_cmp(&a.sd));
    let mut round: Vec<(usize, usize)> = pairs.iter().map(|c| (c.upper, c.lower)).collect();
    if !round.is_empty() {
        for k in 0..MIN_ROUND_PAIRS.saturating_sub(round.len()) {
            round.push(round[k % pairs.len()]);
        }
    }
    round
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(upper: usize, lower: usize, separated: bool, sd: f64) -> PairCheck {
        PairCheck {
            upper,
            lower,
            difference: 100.0,
            sd,
            z: 1.0,
            needed: 4.0,
            wealth: 1.0,
            needed_wealth: 100.0,
            separated,
        }
    }

    /// Order 0 > 1 > 2 > 3 > 4; not separated: 0-1 (adjacent) and 2-4 (not).
    fn assessment() -> Assessment {
        Assessment {
            order: vec![0, 1, 2, 3, 4],
            adjacent: vec![
                check(0, 1, false, 50.0),
                check(1, 2, true, 40.0),
                check(2, 3, true, 30.0),
                check(3, 4, true, 20.0),
            ],
            others: vec![check(2, 4, false, 60.0)],
            certified: false,
        }
    }

    #[test]
    fn tiers_split_where_every_pair_across_is_separated() {
        let a = assessment();
        assert_eq!(a.boundaries(), [false, true, false, false]);
        assert_eq!(a.tiers(), vec![vec![0, 1], vec![2, 3, 4]]);
        assert!(a.boundary_after(2) && !a.boundary_after(1) && !a.boundary_after(3));
        assert!(Goal::Top(2).certified(&a) && !Goal::Top(2).complete(&a));
        assert_eq!(Goal::Top(2).watched(&a), vec![vec![0, 1]]);
        assert!(Goal::Top(3).watched(&a).is_empty());
    }

    #[test]
    fn each_goal_plays_the_pairs_that_matter_to_it() {
        let a = assessment();
        // top:2: the set is certified; only the order within it is open.
        assert_eq!(Goal::Top(2).next_round(&a, 1_000, 10_000), [(0, 1); 4]);
        // top:3: 2-4 crosses the boundary after place 3; 0-1 is inside.
        assert_eq!(
            Goal::Top(3).next_round(&a, 1_000, 10_000),
            [(2, 4), (0, 1), (2, 4), (0, 1)]
        );
        // tiers: 0-1 (adjacent, open), and 2-4, which keeps boundaries
        // after places 3 and 4 (adjacent pairs separated) away.
        assert_eq!(
            Goal::Tiers.next_round(&a, 1_000, 10_000),
            [(2, 4), (0, 1), (2, 4), (0, 1)]
        );
    }

    #[test]
    fn goals_read_and_refuse_as_documented() {
        assert_eq!("top:3".parse::<Goal>(), Ok(Goal::Top(3)));
        assert_eq!("tiers".parse::<Goal>(), Ok(Goal::Tiers));
        assert_eq!("order".parse::<Goal>(), Ok(Goal::Order));
        assert!("top:0".parse::<Goal>().unwrap_err().contains("top:0"));
        assert!("top:x".parse::<Goal>().unwrap_err().contains("\"top:x\""));
        assert!(Goal::Top(5).check(5).unwrap_err().contains("from 1 to 4"));
        assert!(Goal::Top(4).check(5).is_ok());
        assert_eq!(Goal::Top(7).to_string(), "top:7");
    }

    #[test]
    fn tiers_settle_when_unchanged_while_the_games_grow_by_half() {
        let mut w = Watch::default();
        // 2 bots: at least 200 games unchanged, and half those before.
        assert!(!w.observe(vec![vec![1, 0]], 100, 2));
        assert!(!w.observe(vec![vec![0, 1]], 290, 2));
        assert!(w.observe(vec![vec![0, 1]], 300, 2));
        assert!(!w.observe(vec![vec![0], vec![1]], 600, 2));
        assert!(!w.observe(vec![vec![0], vec![1]], 890, 2));
        assert!(w.observe(vec![vec![0], vec![1]], 900, 2));
    }
}
