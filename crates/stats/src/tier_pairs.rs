//! The `tiers` goal's choice of pairs ([`tier_pairs`]): games go only where a
//! tier boundary can still be certified with the games left.
//!
//! # Cost
//! A pair not separated, `d` Elo apart by the fit with standard error `s`
//! (information `t = 1 / s^2` in nats^-2), needs the information `T` at
//! which its gap reaches its boundary: `g sqrt(T) = z(T)`, with the gap `g`
//! taken as it looks, `|d|`, or `s` while the interval is wider than that
//! (a pair that looks close only by chance, its interval wide, is given
//! one standard error). Each game adds at most [`INFORMATION_PER_GAME`], so
//! it needs `(T - t) / INFORMATION_PER_GAME` games on its own
//! ([`games_to_separate`]). Bots of about equal strength cost more with
//! every game they play: while `s > |d|` they need `z^2 - 1` times the
//! information they have, and once their games show they are close, what
//! their gap asks (10 Elo: some 20,000 games among 20 bots at 0.95). A
//! place between two neighbours of the order costs what its hardest pair
//! not separated across it costs ([`place_costs`]).
//!
//! # Boundaries in reach
//! The run may spend a budget `B` on boundaries it has not certified
//! ([`crate::certify::reach_budget`]: the games left, but at most half the games so far or
//! 100 per bot, whichever is more, as `top:K`'s settling rule). The places
//! not yet boundaries, cheapest first: the `m` cheapest are **in reach**
//! (candidate boundaries, [`candidates`]) for the largest `m` whose `m`-th
//! costs at most `B / m`, its share. The round: each bot that is not
//! separated from some bot across a boundary in reach plays the nearest such
//! bot on each side (the highest below it, the lowest above it), as `top:K`
//! does for its one boundary. None in reach: no round, and the run stops
//! with the tiers it has. The choice is made again after every round.
//!
//! The choice is made from the games so far; the tests that separate pairs
//! hold however the games are chosen and whenever the run stops
//! ([`crate::adaptive`]), so it leaves the error rate of the claim as it is.

use crate::adaptive::{mixture_z, Assessment, PairCheck};
use crate::logistic::NATS_PER_ELO;

/// The most one game tells about the difference of its two bots, in
/// nats^-2 (Fisher information): `p (1 - p) <= 1/4` without draws, at most
/// `2 f (1 - f)^2 <= 0.296` with draws in the fit's model (`f` the chance of a
/// win). A projection with it credits every game with the most a game can
/// tell.
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
/// if its gap were `max(|d|, s)` (see the module docs); infinite when none
/// would.
pub fn games_to_separate(c: &PairCheck) -> f64 {
    // The gap as it looks, or one standard error while the interval is wider.
    let gap = c.difference.abs().max(c.sd) * NATS_PER_ELO;
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
        .next_back();
    costs
        .iter()
        .map(|c| matches!((c, reach), (Some(c), Some(r)) if *c <= r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certify::reach_budget;

    /// `upper` above `lower`, `difference` Elo apart with standard error
    /// `sd`, not separated; the sequential rule at alpha 0.01.
    fn open(upper: usize, lower: usize, difference: f64, sd: f64) -> PairCheck {
        PairCheck {
            upper,
            lower,
            difference,
            sd,
            z: difference / sd,
            needed: mixture_z(1.0 / (sd * NATS_PER_ELO).powi(2), 0.01),
            wealth: 1.0,
            needed_wealth: 100.0,
            separated: false,
        }
    }

    /// Order 0 > 1 > 2 > 3: 0-1 and 2-3 are 5 and 8 Elo apart with narrow
    /// intervals (many games: hopeless with a few thousand more), 1-2 150
    /// Elo apart with an interval of 40.
    fn assessment() -> Assessment {
        Assessment {
            order: vec![0, 1, 2, 3],
            adjacent: vec![
                open(0, 1, 5.0, 4.0),
                open(1, 2, 150.0, 40.0),
                open(2, 3, 8.0, 6.0),
            ],
            others: Vec::new(),
            certified: false,
        }
    }

    #[test]
    fn a_pair_close_by_its_games_needs_more_games_than_a_distant_one() {
        let a = assessment();
        let [close, far, closer] = [0, 1, 2].map(|k| games_to_separate(&a.adjacent[k]));
        // 150 Elo with an interval of 40: z 3.75, about what it needs.
        assert!(far < 100.0, "{far}");
        // 5 Elo: (z / gap)^2 nats^-2 at 0.3 a game, tens of thousands.
        assert!(close > 20_000.0 && closer < close, "{close} {closer}");
        // Bots of equal strength: their gap is taken as one standard
        // error, and they cost more the more they have played.
        let tied = |sd: f64| games_to_separate(&open(0, 1, 0.0, sd));
        assert!(tied(30.0) > 1_000.0 && tied(10.0) > 5.0 * tied(30.0));
        assert!(tied(0.0).is_infinite());
    }

    #[test]
    fn games_go_to_the_boundaries_in_reach_and_none_when_none_is() {
        let a = assessment();
        // A few thousand games: only the place between 1 and 2.
        assert_eq!(candidates(&a, 3_000), [false, true, false]);
        let pairs: Vec<(usize, usize)> = tier_pairs(&a, 3_000)
            .iter()
            .map(|c| (c.upper, c.lower))
            .collect();
        assert_eq!(pairs, [(1, 2)]);
        // Enough for every place, each within its share.
        assert_eq!(candidates(&a, 10_000_000), [true, true, true]);
        assert_eq!(tier_pairs(&a, 10_000_000).len(), 3);
        // Too few even for the cheapest: no round.
        let mut far = a.clone();
        far.adjacent[1] = open(1, 2, 150.0, 400.0);
        assert!(tier_pairs(&far, 10).is_empty());
    }

    #[test]
    fn the_budget_is_the_games_left_but_at_most_half_those_played_or_100_a_bot() {
        // 20 bots: at least 2,000; after 6,000 games, 3,000.
        assert_eq!(reach_budget(20, 160, 8_000), 2_000);
        assert_eq!(reach_budget(20, 6_000, 20_000), 3_000);
        assert_eq!(reach_budget(20, 7_000, 8_000), 1_000);
        assert_eq!(reach_budget(20, 9_000, 8_000), 0);
    }
}
