//! Which game pairs a league needs next, among its active versions (the
//! latest of each name not retired), from the league's games between them.
//!
//! First the seeding: each two active versions that have not yet played
//! one complete game pair (colours swapped) play one, so a new version
//! meets every other active one before anything else is played. Then the
//! adaptive format's rule ([`crate::adaptive::assess_tally`],
//! [`Assessment::next_round`]): the versions are fitted jointly, and the
//! pairs whose order is least certain (adjacent in the ranking, not yet
//! separated at the confidence, the widest interval first) play. Once the
//! order is certified, a league asked for more games refines it: every
//! adjacent pair, the widest interval first.
//!
//! Only the games between active versions count here (an old version's
//! games do not move where its successor stands), so a decision is a
//! function of those games alone.

use arena_referee::GameRow;
use arena_rules::games::Variant;
use arena_stats::adaptive::MIN_ROUND_PAIRS;
use arena_stats::{Assessment, Certifier, Tally};

use crate::adaptive::assess_tally;
use crate::schedule::pairings;
use crate::tally::AddRow;

/// Why a batch of pairs was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Versions that have not met yet.
    Seeding,
    /// The pairs whose order is not yet certain.
    Uncertain,
    /// The order is certified; these refine it.
    Refining,
}

impl Reason {
    /// A few words for the batch's line.
    pub fn words(self) -> &'static str {
        match self {
            Reason::Seeding => "versions that have not met",
            Reason::Uncertain => "the order least certain",
            Reason::Refining => "the order is certified; refining it",
        }
    }
}

/// The next pairs, as (first, second) indices of the active versions.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    pub pairs: Vec<(usize, usize)>,
    pub reason: Reason,
}

/// The active versions' games, counted.
#[derive(Clone)]
pub struct Need {
    names: Vec<String>,
    variants: Vec<&'static Variant>,
    certifier: Certifier,
    tally: Tally,
}

impl Need {
    /// No games yet between the versions `names` (`NAME@N`), played in
    /// `variants`, certified at `confidence`.
    pub fn new(
        names: Vec<String>,
        variants: Vec<&'static Variant>,
        confidence: f64,
    ) -> anyhow::Result<Need> {
        Ok(Need {
            tally: Tally::with_bots(&names)?,
            names,
            variants,
            certifier: Certifier::new(confidence),
        })
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn variants(&self) -> &[&'static Variant] {
        &self.variants
    }

    /// Counts a game when both its seats are active versions.
    pub fn add(&mut self, row: &GameRow) -> anyhow::Result<()> {
        let active = |name: &str| self.names.iter().any(|n| n == name);
        if active(&row.white) && active(&row.black) {
            self.tally
                .add_row(row)
                .map_err(|e| anyhow::anyhow!("game g{}: {e}", row.id))?;
        }
        Ok(())
    }

    /// Games counted (between active versions).
    pub fn games(&self) -> u64 {
        self.tally.games()
    }

    /// The pairs of versions without a complete game pair between them, in
    /// the round robin's order (consecutive pairs spread over the versions).
    pub fn unmet(&self) -> Vec<(usize, usize)> {
        pairings(self.names.len())
            .into_iter()
            .filter(|&(a, b)| {
                self.tally
                    .pentanomial(&self.names[a], &self.names[b])
                    .pairs()
                    == 0
            })
            .collect()
    }

    /// The ranking of the active versions so far (`None` before any game).
    pub fn assess(&self) -> anyhow::Result<Option<Assessment>> {
        assess_tally(&self.certifier, &self.tally, &self.names, &self.variants)
    }

    /// The next batch: the seeding while some versions have not met, else
    /// the least certain pairs, else (certified) the adjacent pairs.
    pub fn next(&self) -> anyhow::Result<Batch> {
        let unmet = self.unmet();
        if !unmet.is_empty() {
            return Ok(Batch {
                pairs: unmet,
                reason: Reason::Seeding,
            });
        }
        let Some(assessment) = self.assess()? else {
            // Cannot happen: every two versions have met. The seeding again.
            return Ok(Batch {
                pairs: pairings(self.names.len()),
                reason: Reason::Seeding,
            });
        };
        if !assessment.certified {
            return Ok(Batch {
                pairs: assessment.next_round(),
                reason: Reason::Uncertain,
            });
        }
        Ok(Batch {
            pairs: refining(&assessment),
            reason: Reason::Refining,
        })
    }
}

/// Every adjacent pair of a certified order, the widest interval first,
/// repeated up to [`MIN_ROUND_PAIRS`].
fn refining(assessment: &Assessment) -> Vec<(usize, usize)> {
    let mut checks: Vec<_> = assessment.adjacent.iter().collect();
    checks.sort_by(|a, b| b.sd.total_cmp(&a.sd));
    let pairs: Vec<(usize, usize)> = checks.iter().map(|c| (c.upper, c.lower)).collect();
    if pairs.is_empty() {
        return pairs;
    }
    let wanted = pairs.len().max(MIN_ROUND_PAIRS);
    pairs.iter().copied().cycle().take(wanted).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::row::row_with_result;
    use arena_rules::games::GameResult;

    fn need(names: &[&str]) -> Need {
        let variant = Variant::by_id("qango6").unwrap();
        Need::new(
            names.iter().map(|n| n.to_string()).collect(),
            vec![variant],
            0.95,
        )
        .unwrap()
    }

    /// A colour-swapped pair `pair` that `winner` wins twice.
    fn pair(need: &mut Need, pair: u64, a: &str, b: &str, winner: &str) {
        for (id, white, black) in [(2 * pair, a, b), (2 * pair + 1, b, a)] {
            let result = if white == winner {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
            let row = row_with_result(id, pair, white, black, result);
            need.add(&row).unwrap();
        }
    }

    #[test]
    fn a_new_version_meets_every_other_first() {
        let mut n = need(&["a@1", "b@1", "c@2"]);
        pair(&mut n, 0, "a@1", "b@1", "a@1");
        // An old version's games do not count.
        pair(&mut n, 1, "a@1", "c@1", "a@1");
        let batch = n.next().unwrap();
        assert_eq!(batch.reason, Reason::Seeding);
        let mut pairs: Vec<_> = batch
            .pairs
            .iter()
            .map(|&(x, y)| (x.min(y), x.max(y)))
            .collect();
        pairs.sort();
        assert_eq!(pairs, [(0, 2), (1, 2)]);
        assert_eq!(n.games(), 2);
    }

    #[test]
    fn after_the_seeding_the_uncertain_pairs_then_refining_once_certified() {
        let mut n = need(&["a@1", "b@1"]);
        pair(&mut n, 0, "a@1", "b@1", "a@1");
        let batch = n.next().unwrap();
        assert_eq!(batch.reason, Reason::Uncertain);
        assert_eq!(batch.pairs, vec![(0, 1); MIN_ROUND_PAIRS]);
        for p in 1..40 {
            pair(&mut n, p, "a@1", "b@1", "a@1");
        }
        assert!(n.assess().unwrap().unwrap().certified);
        let batch = n.next().unwrap();
        assert_eq!(batch.reason, Reason::Refining);
        assert_eq!(batch.pairs, vec![(0, 1); MIN_ROUND_PAIRS]);
    }
}
