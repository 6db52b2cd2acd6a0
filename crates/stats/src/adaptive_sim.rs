//! Simulated runs with known ratings, no processes: the adaptive ranking
//! ([`crate::adaptive`], the same decisions a run makes) and, for
//! comparison, round robins played cycle by cycle until the same
//! certificate holds. Games follow the fit's own model (BayesElo's, see
//! [`crate::elo`]) with the field's ratings, white advantage and draw elo.
//! The unit tests check the error rate; `benches/adaptive.rs` counts games.

use std::collections::BTreeMap;

use crate::adaptive::{seeding, Assessment, Certifier};
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
    pub certified: bool,
    /// Certified, and the order is not the true one.
    pub wrong: bool,
    /// The final fit's order, best first.
    pub order: Vec<usize>,
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

/// SplitMix64: a small seeded generator, enough for simulated results.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One simulated game's result.
fn game(field: &Field, white: usize, black: usize, rng: &mut Rng) -> GameResult {
    let d = field.ratings[white] - field.ratings[black];
    let p_white = elo_to_score(d + field.white_advantage - field.draw_elo);
    let p_black = elo_to_score(-d - field.white_advantage - field.draw_elo);
    let r = rng.next();
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
    rng: &mut Rng,
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

    fn outcome(&self, games: u64, a: Assessment) -> Outcome {
        Outcome {
            games,
            certified: a.certified,
            wrong: a.certified && a.order != self.true_order(),
            order: a.order,
        }
    }

    /// One adaptive run, as `format = "adaptive"` plays it: the seeding
    /// round, then each round decided from the games before it, until
    /// certified or `max_games`.
    pub fn adaptive(
        &self,
        certifier: &Certifier,
        max_games: u64,
        seed: u64,
    ) -> Result<Outcome, FitError> {
        let mut rng = Rng(seed);
        let mut played = Games::new(self.ratings.len());
        let mut round = seeding(self.ratings.len());
        let mut games = 0;
        loop {
            games += play(self, &round, &mut played, max_games - games, &mut rng);
            let a = played.assess(certifier)?;
            if a.certified || games + 2 > max_games {
                return Ok(self.outcome(games, a));
            }
            round = a.next_round();
        }
    }

    /// One round robin, one game pair per pairing per cycle, judged by the
    /// same certificate after each full cycle, until certified or
    /// `max_games` (only whole cycles).
    pub fn round_robin(
        &self,
        certifier: &Certifier,
        max_games: u64,
        seed: u64,
    ) -> Result<Outcome, FitError> {
        let mut rng = Rng(seed);
        let mut played = Games::new(self.ratings.len());
        let cycle = seeding(self.ratings.len());
        let cycle_games = 2 * cycle.len() as u64;
        let mut games = 0;
        loop {
            games += play(self, &cycle, &mut played, u64::MAX, &mut rng);
            let a = played.assess(certifier)?;
            if a.certified || games + cycle_games > max_games {
                return Ok(self.outcome(games, a));
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
        let mut summary = Summary::default();
        for run in 0..runs {
            summary.add(&self.adaptive(certifier, max_games, seed.wrapping_add(run))?);
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
}
