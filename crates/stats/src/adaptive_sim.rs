//! Simulated runs with known ratings, no processes: the adaptive ranking
//! ([`crate::adaptive`], the same decisions a run makes, for each
//! [`Goal`] of [`crate::certify`]) and, for comparison, round robins played
//! cycle by cycle until a certificate as fine holds. Games follow the fit's own model (BayesElo's, see
//! [`crate::elo`]) with the field's ratings, white advantage and draw elo.
//! The unit tests check the error rate; `benches/adaptive.rs` counts games.

use std::collections::BTreeMap;

use crate::adaptive::{round_robin, seeding, Assessment, Certifier, SplitMix};
use crate::certify::{Goal, Watch};
use crate::elo::{FitError, PairCounts};
use crate::logistic::elo_to_score;
use crate::pentanomial::Pentanomial;
use crate::wdl::Score;
use arena_rules::games::{Color, GameResult};

/// The games so far: per ordered pair, and each pair of bots' pair scores
/// from the lower index's side.
struct Games {
    counts: PairCounts,
    pairs: BTreeMap<(usize, usize), Pentanomial>,
}

impl Games {
    fn new(bots: usize) -> Games {
        Games {
            counts: PairCounts::new(bots),
            pairs: BTreeMap::new(),
        }
    }

    fn assess(&self, certifier: &Certifier) -> Result<Assessment, FitError> {
        certifier.assess(std::slice::from_ref(&self.counts), |i, j| {
            let p = self
                .pairs
                .get(&(i.min(j), i.max(j)))
                .copied()
                .unwrap_or_default();
            if i < j {
                p
            } else {
                p.reversed()
            }
        })
    }
}

/// The true strengths of a simulated field.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Elo of each bot; distinct, so that there is one true order.
    pub ratings: Vec<f64>,
    pub white_advantage: f64,
    pub draw_elo: f64,
}

/// How one simulated run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub games: u64,
    /// What the goal certifies was certified ([`Goal::certified`]).
    pub certified: bool,
    /// The claim ([`Goal::claim`]) puts two bots in tiers the wrong way
    /// round: for the order, a wrong certified order.
    pub wrong: bool,
    /// The final fit's order, best first.
    pub order: Vec<usize>,
    /// The claim's tiers, best first (empty: nothing claimed).
    pub claim: Vec<Vec<usize>>,
}

/// Many runs of one field.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    pub runs: u64,
    pub certified: u64,
    pub wrong: u64,
    /// Games over all runs.
    pub games: u64,
}

impl Summary {
    fn add(&mut self, outcome: &Outcome) {
        self.runs += 1;
        self.certified += u64::from(outcome.certified);
        self.wrong += u64::from(outcome.wrong);
        self.games += outcome.games;
    }

    /// Share of runs that certified a wrong order.
    pub fn error_rate(&self) -> f64 {
        self.wrong as f64 / self.runs.max(1) as f64
    }

    pub fn mean_games(&self) -> f64 {
        self.games as f64 / self.runs.max(1) as f64
    }
}

/// One simulated game's result.
fn game(field: &Field, white: usize, black: usize, rng: &mut SplitMix) -> GameResult {
    let d = field.ratings[white] - field.ratings[black];
    let p_white = elo_to_score(d + field.white_advantage - field.draw_elo);
    let p_black = elo_to_score(-d - field.white_advantage - field.draw_elo);
    let r = rng.next_f64();
    if r < p_white {
        GameResult::WhiteWins
    } else if r < p_white + p_black {
        GameResult::BlackWins
    } else {
        GameResult::Draw
    }
}

/// Plays `pairings` as game pairs (each bot white once) while `max_games`
/// allows; returns the games played.
fn play(
    field: &Field,
    pairings: &[(usize, usize)],
    played: &mut Games,
    budget: u64,
    rng: &mut SplitMix,
) -> u64 {
    let mut games = 0;
    for &(a, b) in pairings {
        if games + 2 > budget {
            break;
        }
        let first = game(field, a, b, rng);
        let second = game(field, b, a, rng);
        played.counts.add(a, b, first);
        played.counts.add(b, a, second);
        // From the lower index's side: white in the first game if a is.
        let low_first = if a < b { Color::White } else { Color::Black };
        played.pairs.entry((a.min(b), a.max(b))).or_default().add(
            Score::of(first, low_first),
            Score::of(second, low_first.opponent()),
        );
        games += 2;
    }
    games
}

impl Field {
    /// Bot indices by true rating, best first.
    pub fn true_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        order.sort_by(|&a, &b| self.ratings[b].total_cmp(&self.ratings[a]));
        order
    }

    fn outcome(&self, goal: Goal, games: u64, a: Assessment) -> Outcome {
        let claim = goal.claim(&a);
        Outcome {
            games,
            certified: goal.certified(&a),
            wrong: self.inverted(&claim),
            order: a.order,
            claim,
        }
    }

    /// Whether some bot of a tier of `claim` is truly stronger than some
    /// bot of a tier above it.
    pub fn inverted(&self, claim: &[Vec<usize>]) -> bool {
        let mut weakest_above = f64::INFINITY;
        for tier in claim {
            let r = |&b: &usize| self.ratings[b];
            if tier.iter().map(r).any(|x| x > weakest_above) {
                return true;
            }
            weakest_above = tier.iter().map(r).fold(weakest_above, f64::min);
        }
        false
    }

    /// One adaptive run certifying the whole order.
    pub fn adaptive(
        &self,
        certifier: &Certifier,
        max_games: u64,
        seed: u64,
    ) -> Result<Outcome, FitError> {
        self.adaptive_goal(certifier, Goal::Order, max_games, seed)
    }

    /// One adaptive run, as `format = "adaptive"` plays it with `certify =
    /// goal`: the seeding round, then each round decided from the games
    /// before it, until the goal stops it ([`Goal::stop`]) or `max_games`.
    pub fn adaptive_goal(
        &self,
        certifier: &Certifier,
        goal: Goal,
        max_games: u64,
        seed: u64,
    ) -> Result<Outcome, FitError> {
        let mut rng = SplitMix(seed);
        let mut played = Games::new(self.ratings.len());
        let mut round = seeding(self.ratings.len(), seed);
        let mut watch = Watch::default();
        let mut games = 0;
        loop {
            games += play(self, &round, &mut played, max_games - games, &mut rng);
            let a = played.assess(certifier)?;
            if goal.stop(&a, games, &mut watch) || games + 2 > max_games {
                return Ok(self.outcome(goal, games, a));
            }
            round = goal.next_round(&a, games, max_games);
            if round.is_empty() {
                return Ok(self.outcome(goal, games, a));
            }
        }
    }

    /// One round robin certifying the whole order, as
    /// [`Field::round_robin_goal`] with the order's full claim.
    pub fn round_robin(
        &self,
        certifier: &Certifier,
        max_games: u64,
        seed: u64,
    ) -> Result<Outcome, FitError> {
        let n = self.ratings.len();
        self.round_robin_goal(certifier, Goal::Order, n, max_games, seed)
    }

    /// One round robin, one game pair per pairing per cycle, judged by the
    /// same certificate after each full cycle until `goal` claims at least
    /// `tiers` tiers (as fine as an adaptive run's claim), or `max_games`
    /// (only whole cycles).
    pub fn round_robin_goal(
        &self,
        certifier: &Certifier,
        goal: Goal,
        tiers: usize,
        max_games: u64,
        seed: u64,
    ) -> Result<Outcome, FitError> {
        let mut rng = SplitMix(seed);
        let mut played = Games::new(self.ratings.len());
        let cycle = round_robin(self.ratings.len());
        let cycle_games = 2 * cycle.len() as u64;
        let mut games = 0;
        loop {
            games += play(self, &cycle, &mut played, u64::MAX, &mut rng);
            let a = played.assess(certifier)?;
            if goal.claim(&a).len() >= tiers || games + cycle_games > max_games {
                return Ok(self.outcome(goal, games, a));
            }
        }
    }

    /// `runs` adaptive runs (seeds `seed`, `seed + 1`, ...).
    pub fn adaptive_runs(
        &self,
        certifier: &Certifier,
        max_games: u64,
        runs: u64,
        seed: u64,
    ) -> Result<Summary, FitError> {
        self.adaptive_goal_runs(certifier, Goal::Order, max_games, runs, seed)
    }

    /// `runs` adaptive runs with `certify = goal`.
    pub fn adaptive_goal_runs(
        &self,
        certifier: &Certifier,
        goal: Goal,
        max_games: u64,
        runs: u64,
        seed: u64,
    ) -> Result<Summary, FitError> {
        let mut summary = Summary::default();
        for run in 0..runs {
            let seed = seed.wrapping_add(run);
            summary.add(&self.adaptive_goal(certifier, goal, max_games, seed)?);
        }
        Ok(summary)
    }

    /// `runs` round robins, like [`Field::adaptive_runs`].
    pub fn round_robin_runs(
        &self,
        certifier: &Certifier,
        max_games: u64,
        runs: u64,
        seed: u64,
    ) -> Result<Summary, FitError> {
        let mut summary = Summary::default();
        for run in 0..runs {
            summary.add(&self.round_robin(certifier, max_games, seed.wrapping_add(run))?);
        }
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adaptive::Boundary;

    /// Two bots 1 Elo apart (a coin flip which is "better") and one far
    /// above: the field where certifying a wrong order is easiest.
    fn close_field() -> Field {
        Field {
            ratings: vec![0.0, 1.0, 200.0],
            white_advantage: 30.0,
            draw_elo: 100.0,
        }
    }

    /// The error-rate bound allows `1 - confidence` plus three binomial
    /// standard errors of the runs.
    fn allowed(confidence: f64, runs: u64) -> f64 {
        let p = 1.0 - confidence;
        p + 3.0 * (p * (1.0 - p) / runs as f64).sqrt()
    }

    #[test]
    fn certified_rankings_are_wrong_no_more_often_than_the_confidence_allows() {
        let runs = 200;
        let c = Certifier::new(0.95);
        let close = close_field().adaptive_runs(&c, 400, runs, 1).unwrap();
        assert!(
            close.error_rate() <= allowed(0.95, runs),
            "{close:?}: {} > {}",
            close.error_rate(),
            allowed(0.95, runs)
        );
        // Clearly different bots: nearly every run certifies, in the true order.
        let clear = Field {
            ratings: vec![0.0, 150.0, 300.0, 450.0],
            white_advantage: 30.0,
            draw_elo: 100.0,
        };
        let clear = clear.adaptive_runs(&c, 600, runs, 1).unwrap();
        assert!(clear.error_rate() <= allowed(0.95, runs), "{clear:?}");
        assert!(clear.certified >= runs * 9 / 10, "{clear:?}");
    }

    /// The same check catches a method without the corrections: one fixed
    /// 95% test per look, on the same field and runs, certifies the coin
    /// flip far too often.
    #[test]
    fn testing_naively_after_every_round_breaks_the_bound() {
        let runs = 200;
        let naive = Certifier {
            confidence: 0.95,
            boundary: Boundary::Naive,
        };
        let summary = close_field().adaptive_runs(&naive, 400, runs, 1).unwrap();
        assert!(summary.error_rate() > allowed(0.95, runs), "{summary:?}");
    }

    #[test]
    fn runs_honour_the_game_limit_and_are_deterministic_in_the_seed() {
        let c = Certifier::new(0.95);
        let a = close_field().adaptive(&c, 101, 7).unwrap();
        assert!(a.games <= 101 && a.games.is_multiple_of(2), "{a:?}");
        assert_eq!(a, close_field().adaptive(&c, 101, 7).unwrap());
        // Clearly different bots are certified in the true order.
        let clear = Field {
            ratings: vec![0.0, 300.0, 600.0],
            white_advantage: 0.0,
            draw_elo: 50.0,
        };
        let o = clear.adaptive(&c, 10_000, 3).unwrap();
        assert!(o.certified && !o.wrong, "{o:?}");
        assert_eq!(o.order, [2, 1, 0]);
    }

    /// A field whose bots 3 and 4 are 1 Elo apart on the boundary of the
    /// top 2: which of them is in the top 2 is a coin flip.
    fn close_boundary() -> Field {
        Field {
            ratings: vec![0.0, 150.0, 300.0, 450.0, 451.0, 650.0],
            white_advantage: 30.0,
            draw_elo: 100.0,
        }
    }

    #[test]
    fn top_k_sets_are_wrong_no_more_often_than_the_confidence_allows() {
        let runs = 150;
        let c = Certifier::new(0.95);
        let close = close_boundary()
            .adaptive_goal_runs(&c, Goal::Top(2), 300, runs, 1)
            .unwrap();
        assert!(close.error_rate() <= allowed(0.95, runs), "{close:?}");
        // One Elo apart, the set is rarely certified at all.
        assert!(close.certified < runs / 2, "{close:?}");
    }

    #[test]
    fn top_k_certifies_the_true_top_of_a_clear_field_with_fewer_games_than_the_order() {
        let c = Certifier::new(0.95);
        // 12 bots 100 Elo apart: the best are 11, 10, 9.
        let field = Field {
            ratings: (0..12).map(|k| 100.0 * k as f64).collect(),
            white_advantage: 30.0,
            draw_elo: 100.0,
        };
        let (mut top_games, mut order_games) = (0, 0);
        for seed in 1..=6 {
            let top = field.adaptive_goal(&c, Goal::Top(3), 20_000, seed).unwrap();
            assert!(top.certified && !top.wrong, "{top:?}");
            let mut set = top.order[..3].to_vec();
            set.sort_unstable();
            assert_eq!(set, [9, 10, 11]);
            top_games += top.games;
            order_games += field.adaptive(&c, 20_000, seed).unwrap().games;
        }
        assert!(
            4 * top_games < 3 * order_games,
            "{top_games} vs {order_games}"
        );
    }

    #[test]
    fn tiers_put_no_two_bots_the_wrong_way_round_beyond_the_error_rate() {
        // Three groups of three bots 5 Elo apart, the groups 250 Elo apart.
        let field = Field {
            ratings: vec![0.0, 5.0, 10.0, 250.0, 255.0, 260.0, 500.0, 505.0, 510.0],
            white_advantage: 30.0,
            draw_elo: 100.0,
        };
        let c = Certifier::new(0.9);
        let runs = 40;
        let mut found = 0;
        let mut summary = Summary::default();
        for seed in 0..runs {
            let o = field.adaptive_goal(&c, Goal::Tiers, 3_000, seed).unwrap();
            let mut claim: Vec<Vec<usize>> = o.claim.clone();
            for tier in &mut claim {
                tier.sort_unstable();
            }
            found += u64::from(claim == [vec![6, 7, 8], vec![3, 4, 5], vec![0, 1, 2]]);
            summary.add(&o);
        }
        assert!(summary.error_rate() <= allowed(0.9, runs), "{summary:?}");
        assert!(
            found >= runs * 3 / 4,
            "{found} of {runs} found the three groups"
        );
    }

    /// Four groups of five bots 10 Elo apart, the groups 150 Elo apart (the
    /// worst of a group 110 Elo above the best of the next): bot `k` is in
    /// group `k / 5`, group 3 the best.
    fn four_groups() -> Field {
        Field {
            ratings: (0..20)
                .map(|k| 150.0 * (k / 5) as f64 + 10.0 * (k % 5) as f64)
                .collect(),
            white_advantage: 30.0,
            draw_elo: 100.0,
        }
    }

    /// How many of the boundaries between groups of `size` (bot `k` in
    /// group `k / size`) `claim` has: places where the bots of its tiers
    /// above are exactly the best groups.
    fn group_boundaries(claim: &[Vec<usize>], size: usize, bots: usize) -> usize {
        let mut above: Vec<usize> = Vec::new();
        let mut found = 0;
        for tier in claim.iter().take(claim.len().saturating_sub(1)) {
            above.extend(tier);
            above.sort_unstable();
            let groups = above.len() / size;
            let best: Vec<usize> = (bots - groups * size..bots).collect();
            found += usize::from(above.len().is_multiple_of(size) && above == best);
        }
        found
    }

    #[test]
    fn tiers_find_the_groups_of_a_grouped_field_where_a_round_robin_cannot() {
        // Within 3,600 games a round robin of the 20 bots plays 9 cycles
        // (3,420 games); in those it has not found the three boundaries
        // (it needs 10 to 18 cycles); tiers spends its games across the
        // boundaries, not on the pairs 10 Elo apart that no budget separates.
        let field = four_groups();
        let c = Certifier::new(0.95);
        let (runs, budget) = (16, 3_600);
        let (mut tiers_found, mut round_robin_found) = (0, 0);
        let mut summary = Summary::default();
        for seed in 1..=runs {
            let o = field.adaptive_goal(&c, Goal::Tiers, budget, seed).unwrap();
            tiers_found += u64::from(group_boundaries(&o.claim, 5, 20) == 3);
            summary.add(&o);
            let r = field
                .round_robin_goal(&c, Goal::Tiers, 4, budget, seed)
                .unwrap();
            assert!(r.games <= budget && !r.wrong, "{r:?}");
            round_robin_found += u64::from(group_boundaries(&r.claim, 5, 20) == 3);
        }
        assert!(summary.error_rate() <= allowed(0.95, runs), "{summary:?}");
        assert!(
            tiers_found >= runs * 3 / 4,
            "tiers found the 3 boundaries in {tiers_found} of {runs} runs"
        );
        assert!(
            round_robin_found <= runs / 4,
            "the round robin found them in {round_robin_found} of {runs} runs"
        );
    }

    #[test]
    fn boundaries_between_groups_are_counted_where_the_tiers_above_are_whole_groups() {
        let claim = |tiers: &[&[usize]]| tiers.iter().map(|t| t.to_vec()).collect::<Vec<_>>();
        // 6 bots in groups of 2: {4, 5} > {2, 3} > {0, 1}.
        assert_eq!(
            group_boundaries(&claim(&[&[5, 4], &[3, 2], &[1, 0]]), 2, 6),
            2
        );
        assert_eq!(
            group_boundaries(&claim(&[&[5], &[4, 3, 2], &[1, 0]]), 2, 6),
            1
        );
        assert_eq!(group_boundaries(&claim(&[&[5, 4, 3, 2, 1, 0]]), 2, 6), 0);
        assert_eq!(group_boundaries(&claim(&[]), 2, 6), 0);
    }

    #[test]
    fn a_claim_is_wrong_when_a_stronger_bot_sits_in_a_lower_tier() {
        let f = close_field();
        assert!(!f.inverted(&[vec![2], vec![0, 1]]));
        assert!(f.inverted(&[vec![2], vec![0], vec![1]]));
        assert!(!f.inverted(&[]));
    }
}
