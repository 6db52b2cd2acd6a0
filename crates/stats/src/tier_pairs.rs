//! The `tiers` goal's choice of pairs ([`tier_pairs`]): games go only where a
//! tier boundary can still be certified with the games left.
//!
//! # Hope
//! A pair not separated, `d` Elo apart by the fit with standard error `s`
//! (information `t = 1 / s^2` in nats^-2), is given the benefit of the doubt:
//! its gap is taken as `|d| + s`, and every game it plays adds the most a
//! game can tell about a difference, [`INFORMATION_PER_GAME`]. The pair needs
//! the information `T` at which that gap reaches its boundary, `(|d| + s) /
//! s(T) = z(T)` ([`games_to_separate`]: `(T - t) / INFORMATION_PER_GAME`
//! games). A pair is **hopeless** when that exceeds every game the run has
//! left: even played alone at its most favourable gap it would not be
//! separated. Bots of equal or nearly equal strength become hopeless as their
//! games show the gap is small; a truly distant pair that looks close by
//! chance keeps its hope while `s` is wide.
//!
//! # Candidate boundaries
//! A place (between two neighbours of the order) is a **candidate boundary**
//! when some pair across it is not separated yet and none of those is
//! hopeless: a boundary there can still be certified. A place crossed by a
//! hopeless pair cannot become a boundary within the games left, so the
//! games it would take go elsewhere. The round is: each bot that is not
//! separated from some bot across a candidate boundary plays the nearest such
//! bot on each side (the highest below it, the lowest above it), as `top:K`
//! does for its one boundary. No candidate boundary left: no round, and the
//! run stops with the tiers it has.
//!
//! The choice is made from the games so far; the tests that separate pairs
//! hold however the games are chosen and whenever the run stops
//! ([`crate::adaptive`]), so it leaves the error rate of the claim as it is.

use crate::adaptive::{mixture_z, Assessment, PairCheck};
use crate::certify::{PATIENCE, PATIENCE_PER_BOT};
use crate::logistic::NATS_PER_ELO;

/// The most one game tells about the difference of its two bots, in
/// nats^-2 (Fisher information): `p (1 - p) <= 1/4` without draws, at most
/// `2 f (1 - f)^2 <= 0.296` with draws in the fit's model (`f` the chance of a
/// win). Projections with it are optimistic, so a pair is dropped only when
/// even the best case does not separate it.
pub const INFORMATION_PER_GAME: f64 = 0.3;

impl PairCheck {
    /// The `z` this pair's fit test would ask at `information` (nats^-2).
    pub fn needed_at(&self, information: f64) -> f64 {
        if self.needed_wealth.is_finite() {
            // The sequential rule: its wealth bound is 1 / alpha.
            mixture_z(information, 1.0 / self.needed_wealth)
        } else {
            self.needed
        }
    }
}

/// The games `c` must play on its own before its fit test would separate it
/// if its gap were `|d| + s` (see the module docs); infinite when none would.
pub fn games_to_separate(c: &PairCheck) -> f64 {
    let gap = c.difference.abs() * NATS_PER_ELO;
    let now = 1.0 / (c.sd * NATS_PER_ELO).powi(2);
    if !(gap > 0.0 && now.is_finite()) {
        return f64::INFINITY;
    }
    // `T = (z(T) / gap)^2`; `z` changes slowly with `T`, so a few steps
    // from the information it has settle it.
    let mut target = now;
    for _ in 0..6 {
        target = (c.needed_at(target) / gap).powi(2).max(now);
    }
    ((target - now) / INFORMATION_PER_GAME).max(0.0)
}

/// The games the boundaries not yet certified may cost, after `games` of at
/// most `max_games` among `bots` bots: those left, but at most half the games
/// so far or [`PATIENCE_PER_BOT`] per bot, whichever is more (see the module
/// docs).
pub fn reach_budget(bots: usize, games: u64, max_games: u64) -> u64 {
    let patience = ((PATIENCE * games as f64) as u64).max(PATIENCE_PER_BOT * bots as u64);
    max_games.saturating_sub(games).min(patience)
}

/// The pairs of the next `tiers` round with a budget of `left` games (see
/// the module docs), in rank order of their upper bot.
pub fn tier_pairs(a: &Assessment, left: u64) -> Vec<&PairCheck> {
    let place = a.places();
    let span = |c: &PairCheck| {
        let (p, q) = (place[c.upper], place[c.lower]);
        (p.min(q), p.max(q))
    };
    let candidate = candidates(a, left);
    // Prefix counts of candidate places: whether a span holds one.
    let mut before = vec![0usize; candidate.len() + 1];
    for (k, &is) in candidate.iter().enumerate() {
        before[k + 1] = before[k] + usize::from(is);
    }
    let n = a.order.len();
    // Per bot: its nearest partner below and above across a candidate.
    let mut below: Vec<Option<(&PairCheck, usize)>> = vec![None; n];
    let mut above: Vec<Option<(&PairCheck, usize)>> = vec![None; n];
    for c in a.open_pairs() {
        let (p, q) = span(c);
        if before[q] == before[p] {
            continue;
        }
        let (top, bottom) = (a.order[p], a.order[q]);
        if below[top].is_none_or(|(_, at)| q < at) {
            below[top] = Some((c, q));
        }
        if above[bottom].is_none_or(|(_, at)| p > at) {
            above[bottom] = Some((c, p));
        }
    }
    let mut pairs: Vec<&PairCheck> = below
        .into_iter()
        .chain(above)
        .flatten()
        .map(|(c, _)| c)
        .collect();
    pairs.sort_by_key(|c| span(c));
    pairs.dedup_by_key(|c| span(c));
    pairs
}

/// Per place `k` (between `order[k]` and `order[k + 1]`): the games its
/// hardest pair not separated needs on its own ([`games_to_separate`]), or
/// `None` where every pair across it is separated (a boundary).
pub fn place_costs(a: &Assessment) -> Vec<Option<f64>> {
    let place = a.places();
    let mut costs = vec![None; a.order.len().saturating_sub(1)];
    for c in a.open_pairs() {
        let (p, q) = (place[c.upper], place[c.lower]);
        let games = games_to_separate(c);
        for cost in &mut costs[p.min(q)..p.max(q)] {
            *cost = Some(cost.map_or(games, |g: f64| g.max(games)));
        }
    }
    costs
}

/// Per place: whether it is a candidate boundary with `left` games left:
/// among the `m` cheapest places not yet boundaries, for the most `m`
/// whose `m`-th costs at most `left / m` (see the module docs).
pub fn candidates(a: &Assessment, left: u64) -> Vec<bool> {
    let costs = place_costs(a);
    let mut sorted: Vec<f64> = costs.iter().flatten().copied().collect();
    sorted.sort_by(f64::total_cmp);
    let reach = sorted
        .iter()
        .enumerate()
        .filter(|&(k, &cost)| cost * (k + 1) as f64 <= left as f64)
        .map(|(_, &cost)| cost)
        .last();
    costs
        .iter()
        .map(|c| matches!((c, reach), (Some(c), Some(r)) if *c <= r))
        .collect()
}
