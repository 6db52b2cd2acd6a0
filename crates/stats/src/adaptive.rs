//! The adaptive ranking: which game pairs to play next so that the order of
//! the joint Elo fit becomes certain, and when it is ("certified").
//!
//! # The certificate
//! After every round the games so far are fitted jointly ([`fit_pooled`],
//! the standings' fit, with its prior where needed) and the bots ordered by
//! rating. For each two bots `i` above `j` the difference `d = R_i - R_j`
//! has an estimate `d^` and, from the joint covariance, a standard error
//! `s`, so an information `t = 1 / s^2` (in nats^-2) and `z = d^ / s`. The
//! pair is **separated** when `z` crosses Robbins' normal-mixture boundary
//!
//! `z^2 >= (1 + rho / t) (2 ln(1 / alpha') + ln(1 + t / rho))`
//!
//! with `rho` = [`MIXTURE_INFORMATION`]. For a statistic that behaves as a
//! Brownian motion in information time (the score of the maximum-likelihood
//! fit does, asymptotically, also when the games are chosen from the data)
//! the chance that it *ever* crosses the boundary while the true difference
//! is 0 or of the other sign is at most `alpha'` (Ville's inequality on the
//! mixture martingale): the test may be repeated after every round, as
//! often as the run goes on, without inflating its error (a boundary that
//! holds at all times; Howard, Ramdas et al., "Time-uniform, nonparametric,
//! nonasymptotic confidence sequences", 2021).
//!
//! A pair is also separated by its own games (head to head): under "`i`
//! is not stronger than `j`" the expected score of `i` over a pair of
//! games with colours swapped is at most 1 of 2 points in the fit's model
//! (at equal strength it is exactly 1, whatever the white advantage and
//! draw rate), so the wealth of bets on `i`, `W = prod (1 + lambda (s - 1))`
//! over its pair scores `s`, averaged over the stakes [`BETS`], is a
//! nonnegative supermartingale and reaches `2 / alpha'` with chance at most
//! `alpha' / 2` (Ville's inequality), however long it runs. This test
//! needs no fit, so it also separates bots whose results are perfect (all
//! wins), where the fit's interval rests on its prior and never narrows.
//! Either test may separate a pair, each at `alpha' / 2`.
//!
//! The ranking is **certified** when every pair, not only every adjacent
//! one, is separated. If the certified order is wrong, some two bots
//! adjacent in the *true* order are inverted in it and certified so; those
//! `n - 1` pairs are fixed (they do not depend on the data), so with
//! `alpha' = (1 - confidence) / (n - 1)` (Bonferroni) the chance of ever
//! certifying a wrong order is at most `1 - confidence`. (Checking every
//! pair costs nothing: with the adjacent pairs separated the others almost
//! always are.) `crate::adaptive_sim` checks the error rate in simulations.
//!
//! # The games
//! A run begins with a seeding round ([`seeding`]): one game pair per
//! pairing of a sparse, connected schedule of `n (ceil(log2 n) - 1)`
//! pairings (each bot meets `2 (ceil(log2 n) - 1)` others), or the round
//! robin once when that has no more pairings (up to 5 bots). What follows
//! depends on the goal ([`crate::certify`]); for the whole order, each later round plays one game pair (colours swapped, one
//! opening) between the two bots of every adjacent pair that is not
//! separated, the pair with the widest interval first (what a game limit
//! cuts off is the least informative), taking turns until the round has
//! [`MIN_ROUND_PAIRS`] pairs; when every adjacent pair is separated but some
//! other pair is not, those pairs are played. A round is
//! decided from the games of the rounds before it, all finished, and from
//! nothing else, so the games of a run are a function of the seed and the
//! results. The run stops when the ranking is certified or at the game
//! limit.

use crate::elo::{fit_pooled, FitError, FitOptions, PairCounts, RatingFit};
use crate::logistic::NATS_PER_ELO;
use crate::pentanomial::Pentanomial;

/// The stakes of the head-to-head test: the share of its wealth a bet puts
/// on each pair (see the module docs); the test's wealth is their mean.
pub const BETS: [f64; 4] = [0.125, 0.25, 0.5, 0.75];

/// `rho` of the mixture boundary, in nats^-2: the information at which the
/// boundary is tightest relative to a fixed-sample test is a few times
/// this. 4 nats^-2 is the information about a difference from some 16
/// games between equal bots without draws, the scale at which bots of
/// a few hundred Elo apart are told apart.
pub const MIXTURE_INFORMATION: f64 = 4.0;

/// The fewest game pairs of a round after the seeding: fewer unseparated
/// pairs take turns until the round has this many. Keeps 8 games in flight
/// to the end (a round waits for the one before it) and costs at most 6
/// games beyond the certificate.
pub const MIN_ROUND_PAIRS: usize = 4;

/// How a pair's `z` is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// The method: the mixture boundary at `alpha' = (1 - confidence) / (n - 1)`.
    Sequential,
    /// One fixed-sample two-sided test at `confidence` per look, with no
    /// correction for the looks or the pairs: what the correction prevents,
    /// for the simulations only.
    Naive,
}

/// The rule that certifies a ranking at `confidence`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Certifier {
    /// In (0, 1): the certified order is wrong with at most `1 - confidence`.
    pub confidence: f64,
    pub boundary: Boundary,
}

/// Two bots, `upper` placed above `lower`, and whether they are separated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairCheck {
    pub upper: usize,
    pub lower: usize,
    /// `R_upper - R_lower` in Elo (>= 0) and its standard error.
    pub difference: f64,
    pub sd: f64,
    /// `difference / sd`, and what it must reach.
    pub z: f64,
    pub needed: f64,
    /// The head-to-head test's wealth (an e-value) from `upper`'s pair
    /// scores against `lower`, and what it must reach.
    pub wealth: f64,
    pub needed_wealth: f64,
    pub separated: bool,
}

/// Where a ranking stands after some games.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// Bot indices, best first (by rating, then index).
    pub order: Vec<usize>,
    /// Position `k`: `order[k]` against `order[k + 1]`.
    pub adjacent: Vec<PairCheck>,
    /// Pairs that are not adjacent and not separated (rare).
    pub others: Vec<PairCheck>,
    pub certified: bool,
}

impl Certifier {
    /// The method at `confidence`.
    pub fn new(confidence: f64) -> Certifier {
        Certifier {
            confidence,
            boundary: Boundary::Sequential,
        }
    }

    /// Each test's error `alpha' / 2` among `bots` bots.
    fn alpha(&self, bots: usize) -> f64 {
        (1.0 - self.confidence) / (bots.max(2) - 1) as f64 / 2.0
    }

    /// The `z` a difference with `information` (nats^-2) must reach among
    /// `bots` bots.
    pub fn needed_z(&self, information: f64, bots: usize) -> f64 {
        match self.boundary {
            Boundary::Sequential => mixture_z(information, self.alpha(bots)),
            Boundary::Naive => normal_quantile(0.5 + self.confidence / 2.0),
        }
    }

    /// The wealth the head-to-head test must reach among `bots` bots
    /// (infinite for the naive rule, which has no such test).
    pub fn needed_wealth(&self, bots: usize) -> f64 {
        match self.boundary {
            Boundary::Sequential => 1.0 / self.alpha(bots),
            Boundary::Naive => f64::INFINITY,
        }
    }

    /// Fits `groups` (one per variant, the same bots) and judges every
    /// pair; `head_to_head(i, j)` is `i`'s pair scores against `j`.
    pub fn assess(
        &self,
        groups: &[PairCounts],
        head_to_head: impl Fn(usize, usize) -> Pentanomial,
    ) -> Result<Assessment, FitError> {
        let fit = fit_pooled(groups, &FitOptions::default())?;
        Ok(self.judge(&fit, head_to_head))
    }

    /// Judges every pair of `fit`'s ranking.
    pub fn judge(
        &self,
        fit: &RatingFit,
        head_to_head: impl Fn(usize, usize) -> Pentanomial,
    ) -> Assessment {
        let n = fit.ratings().len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            fit.rating(b)
                .value
                .total_cmp(&fit.rating(a).value)
                .then(a.cmp(&b))
        });
        let check = |upper: usize, lower: usize| {
            let d = fit.difference(upper, lower);
            let information = 1.0 / (d.sd * NATS_PER_ELO).powi(2);
            let z = if d.sd > 0.0 { d.value / d.sd } else { 0.0 };
            let needed = self.needed_z(information, n);
            let wealth = bet_wealth(&head_to_head(upper, lower));
            let needed_wealth = self.needed_wealth(n);
            let by_fit = z.is_finite() && needed.is_finite() && z >= needed;
            PairCheck {
                upper,
                lower,
                difference: d.value,
                sd: d.sd,
                z,
                needed,
                wealth,
                needed_wealth,
                separated: by_fit || wealth >= needed_wealth,
            }
        };
        let adjacent: Vec<PairCheck> = order.windows(2).map(|w| check(w[0], w[1])).collect();
        let mut others = Vec::new();
        for (k, &upper) in order.iter().enumerate() {
            for &lower in order.iter().skip(k + 2) {
                let c = check(upper, lower);
                if !c.separated {
                    others.push(c);
                }
            }
        }
        let certified = others.is_empty() && adjacent.iter().all(|c| c.separated);
        Assessment {
            order,
            adjacent,
            others,
            certified,
        }
    }
}

impl Assessment {
    /// The adjacent pairs not separated, in rank order.
    pub fn unseparated(&self) -> impl Iterator<Item = &PairCheck> {
        self.adjacent.iter().filter(|c| !c.separated)
    }

    /// The next round's pairings, (upper, lower), widest interval first:
    /// every adjacent pair not separated, or else every other pair not
    /// separated, the list repeated up to [`MIN_ROUND_PAIRS`]; none once
    /// certified.
    pub fn next_round(&self) -> Vec<(usize, usize)> {
        let mut pairs: Vec<&PairCheck> = self.unseparated().collect();
        if pairs.is_empty() {
            pairs = self.others.iter().collect();
        }
        // Stable: equal widths keep rank order.
        pairs.sort_by(|a, b| b.sd.total_cmp(&a.sd));
        let mut round: Vec<(usize, usize)> = pairs.iter().map(|c| (c.upper, c.lower)).collect();
        let missing = if pairs.is_empty() {
            0
        } else {
            MIN_ROUND_PAIRS.saturating_sub(round.len())
        };
        for k in 0..missing {
            let c = pairs[k % pairs.len()];
            round.push((c.upper, c.lower));
        }
        round
    }
}

/// Every pairing once, `(i, j)` with `i < j`: a round robin's cycle.
pub fn round_robin(bots: usize) -> Vec<(usize, usize)> {
    (0..bots)
        .flat_map(|i| (i + 1..bots).map(move |j| (i, j)))
        .collect()
}

/// The strides of the sparse seeding among `bots` bots: the powers of two
/// `s` with `2 s < bots` (`ceil(log2 bots) - 1` of them from 3 bots on).
pub fn seeding_strides(bots: usize) -> Vec<usize> {
    (0..usize::BITS)
        .map(|k| 1usize << k)
        .take_while(|&s| 2 * s < bots)
        .collect()
}

/// The seeding round's pairings among `bots` bots, a function of `seed`:
/// the bots in a seeded random order around a circle, each paired with
/// the bots 1, 2, 4, ... places on ([`seeding_strides`]): `m` strides make
/// `bots * m` distinct pairings, each bot in `2 m`, and a connected graph
/// (the stride 1 is a ring) any two of whose bots are a few steps apart,
/// so the joint fit is defined and ties every rating to every other. When
/// the round robin has no more pairings (up to 5 bots) it is the round
/// robin instead.
pub fn seeding(bots: usize, seed: u64) -> Vec<(usize, usize)> {
    let strides = seeding_strides(bots);
    if bots * bots.saturating_sub(1) / 2 <= bots * strides.len() {
        return round_robin(bots);
    }
    let mut circle: Vec<usize> = (0..bots).collect();
    let mut rng = SplitMix(seed);
    for k in (1..bots).rev() {
        circle.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
    }
    // Per stride, the places whose block of `s` is even first: consecutive
    // pairings share no bot, so games at once spread over the field.
    let places = |s: usize| {
        let (even, odd): (Vec<usize>, Vec<usize>) =
            (0..bots).partition(|p| (p / s).is_multiple_of(2));
        even.into_iter().chain(odd)
    };
    strides
        .iter()
        .flat_map(|&s| places(s).map(move |p| (p, (p + s) % bots)))
        .map(|(p, q)| (circle[p], circle[q]))
        .collect()
}

/// SplitMix64: a small seeded generator (the seeding's order, simulated
/// results).
#[derive(Debug, Clone)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The `z` Robbins' normal-mixture boundary asks at `information` for a
/// crossing chance of at most `alpha` (see the module docs).
pub fn mixture_z(information: f64, alpha: f64) -> f64 {
    let rho = MIXTURE_INFORMATION;
    if information.is_nan() || information <= 0.0 {
        return f64::INFINITY;
    }
    let t = information;
    ((1.0 + rho / t) * (2.0 * (1.0 / alpha).ln() + (1.0 + t / rho).ln())).sqrt()
}

/// The head-to-head test's wealth after `pairs` (see the module docs):
/// the mean over [`BETS`] of `prod (1 + lambda (s - 1))`, `s` the pair
/// score in points (0 to 2). The product does not depend on the order of
/// the pairs, so counts suffice.
pub fn bet_wealth(pairs: &Pentanomial) -> f64 {
    let counts = pairs.by_score();
    let total: f64 = BETS
        .iter()
        .map(|&lambda| {
            let ln: f64 = counts
                .iter()
                .enumerate()
                .map(|(k, &n)| n as f64 * (1.0 + lambda * (k as f64 / 2.0 - 1.0)).ln())
                .sum();
            ln.exp()
        })
        .sum();
    total / BETS.len() as f64
}

/// The standard normal quantile at `p`.
fn normal_quantile(p: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::new(0.0, 1.0)
        .expect("the standard normal exists")
        .inverse_cdf(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameResult, Wdl};

    #[test]
    fn the_boundary_is_above_the_fixed_sample_test_and_grows_slowly() {
        let alpha = 0.01;
        // A fixed-sample two-sided test at 0.01 asks 2.58.
        for t in [1.0, 4.0, 16.0, 100.0, 10_000.0] {
            assert!(mixture_z(t, alpha) > 2.58, "{t}");
        }
        assert!(mixture_z(1e6, alpha) < 6.0);
        assert!(mixture_z(0.0, alpha).is_infinite());
        assert!(mixture_z(16.0, 0.001) > mixture_z(16.0, 0.01));
    }

    #[test]
    fn clearly_ordered_bots_are_certified_and_close_ones_are_not() {
        // 0 beats 1 beats 2, each 45 of 50 games (with a few draws), and 0
        // beats 2 always.
        let mut counts = PairCounts::new(3);
        for (a, b, wins) in [(0, 1, 45), (1, 2, 45), (0, 2, 50)] {
            counts.add_counts(
                a,
                b,
                Wdl {
                    wins: wins / 2,
                    draws: 1,
                    losses: 0,
                },
            );
            counts.add_counts(
                b,
                a,
                Wdl {
                    wins: 0,
                    draws: 1,
                    losses: wins / 2,
                },
            );
            counts.add_counts(
                a,
                b,
                Wdl {
                    wins: 0,
                    draws: 0,
                    losses: (50 - wins) / 2,
                },
            );
            counts.add_counts(
                b,
                a,
                Wdl {
                    wins: (50 - wins) / 2,
                    draws: 0,
                    losses: 0,
                },
            );
        }
        let a = Certifier::new(0.95).assess(&[counts], none).unwrap();
        assert_eq!(a.order, [0, 1, 2]);
        assert!(a.certified, "{a:?}");
        assert!(a.next_round().is_empty());

        // 2 games each: nothing is separated; every adjacent pair is next.
        let mut few = PairCounts::new(3);
        few.add(0, 1, GameResult::WhiteWins);
        few.add(1, 0, GameResult::BlackWins);
        few.add(1, 2, GameResult::WhiteWins);
        few.add(2, 1, GameResult::Draw);
        let a = Certifier::new(0.95).assess(&[few], none).unwrap();
        assert!(!a.certified);
        assert_eq!(a.unseparated().count(), 2);
        let next = a.next_round();
        // Both pairs, then again, up to the round's size.
        assert_eq!(next.len(), MIN_ROUND_PAIRS);
        assert_ne!(next[0], next[1]);
        assert_eq!(next[2..], next[..2]);
        for (upper, lower) in next {
            let k = a.order.iter().position(|&b| b == upper).unwrap();
            assert_eq!(a.order[k + 1], lower);
        }
    }

    fn none(_: usize, _: usize) -> Pentanomial {
        Pentanomial::default()
    }

    #[test]
    fn perfect_head_to_head_results_separate_a_pair_the_fit_cannot() {
        // 0 won all 24 games against 1: the fit's interval rests on the
        // prior and z stays short of the boundary; the bets do not.
        let mut counts = PairCounts::new(2);
        counts.add_counts(
            0,
            1,
            Wdl {
                wins: 12,
                draws: 0,
                losses: 0,
            },
        );
        counts.add_counts(
            1,
            0,
            Wdl {
                wins: 0,
                draws: 0,
                losses: 12,
            },
        );
        let c = Certifier::new(0.95);
        let wins = |i: usize, _: usize| Pentanomial {
            ww: if i == 0 { 12 } else { 0 },
            ll: if i == 1 { 12 } else { 0 },
            ..Pentanomial::default()
        };
        let without = c.assess(std::slice::from_ref(&counts), none).unwrap();
        assert!(!without.certified, "{without:?}");
        let with = c.assess(&[counts], wins).unwrap();
        assert!(with.certified, "{with:?}");
        // Even results make no wealth; all lost, none either.
        let even = Pentanomial {
            wl: 10,
            ..Pentanomial::default()
        };
        assert!((bet_wealth(&even) - 1.0).abs() < 1e-12);
        assert!(bet_wealth(&wins(1, 0)) < 1.0);
    }

    #[test]
    fn small_fields_seed_with_the_round_robin_and_big_ones_sparsely() {
        assert_eq!(seeding(3, 7), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(seeding(5, 7).len(), 10);
        // 20 bots: strides 1, 2, 4, 8 (16 is not below 10): 80 pairings.
        assert_eq!(seeding_strides(20), [1, 2, 4, 8]);
        let twenty = seeding(20, 7);
        assert_eq!(twenty.len(), 80);
        assert_eq!(twenty, seeding(20, 7), "a function of the seed");
        assert_ne!(twenty, seeding(20, 8));
        let mut distinct: Vec<(usize, usize)> =
            twenty.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 80);
        for bot in 0..20 {
            assert_eq!(
                twenty.iter().filter(|p| p.0 == bot || p.1 == bot).count(),
                8
            );
        }
    }

    #[test]
    fn five_hundred_bots_seed_with_4000_pairings_not_124750() {
        // ceil(log2 500) - 1 = 8 strides (1 to 128; 256 is not below 250),
        // 500 * 8 pairings; the round robin has 500 * 499 / 2.
        let pairs = seeding(500, 1);
        assert_eq!(pairs.len(), 4_000);
        assert_eq!(500 * 499 / 2, 124_750);
        // Connected: every bot is reached from bot 0.
        let mut reached = vec![false; 500];
        reached[0] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for &(a, b) in &pairs {
                if reached[a] != reached[b] {
                    reached[a] = true;
                    reached[b] = true;
                    grew = true;
                }
            }
        }
        assert!(reached.iter().all(|&r| r));
    }
}
