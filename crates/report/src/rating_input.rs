//! Games aggregated one at a time into what the ratings need, so that rating
//! a tournament (or `arena rate` over many files) takes memory that grows
//! with the number of bots, not with the number of games.
//!
//! Kept per game: nothing. Kept per bot: the games it lost by each failure
//! reason. Kept per ordered (white, black) pair of bots: the
//! counts of white wins, draws and black wins (the Elo fit and the standings
//! need no more). Kept per unordered pair of bots: its pentanomial counts.
//! Kept until its partner arrives: a game of a colour-swapped pair (the
//! partner usually ends moments later, so this stays small).
//!
//! Kept per variant: the same aggregates over that variant's games alone
//! ([`RatingInput::split`]), and the per-pair counts of its games over all
//! bots (for the pooled fit, [`RatedGames::variant_counts`]).
//!
//! Pairing follows [`arena_stats::pair_up`] exactly: within one pair key
//! (variant and `pair` column) and one pair of bots, the k-th game with A as
//! white is paired with the k-th game with A as black, in input order.

use std::collections::{BTreeMap, HashMap, VecDeque};

use arena_stats::{GameResult, PairCounts, Pentanomial, Score, MAX_BOTS};

use super::comparison::{failing_side, LostBy};
use super::results::{checked_result, InvalidGame};
use arena_referee::GameRow;

/// A's games of one pair key still waiting for their colour-swapped partner;
/// they all have the same colour (a game of the other colour would have
/// completed a pair).
#[derive(Debug, Clone)]
struct Waiting {
    a_white: bool,
    scores: VecDeque<Score>,
}

/// The head-to-head of bots A < B (by index), from A's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchCounts {
    pub pentanomial: Pentanomial,
    /// A's results in games whose partner never arrived: `[losses, draws, wins]`.
    pub unpaired: [u64; 3],
}

impl MatchCounts {
    /// The same games from B's side.
    pub fn reversed(&self) -> MatchCounts {
        MatchCounts {
            pentanomial: self.pentanomial.reversed(),
            unpaired: [self.unpaired[2], self.unpaired[1], self.unpaired[0]],
        }
    }
}

/// Games added one by one; see the module docs.
#[derive(Debug, Default, Clone)]
pub struct RatingInput {
    bots: Vec<String>,
    bot_index: HashMap<String, usize>,
    variants: HashMap<String, u32>,
    /// Variant ids by index, in order of first appearance.
    variant_ids: Vec<String>,
    /// (variant, white, black) -> `[white wins, draws, black wins]`.
    results: BTreeMap<(u32, usize, usize), [u64; 3]>,
    /// Per variant (by index): its games alone, as if no other variant had
    /// been added (their own bot numbering). Kept only by the input games
    /// are added to, not by these, and only from the second variant on
    /// (until then the input itself is the first variant's games alone).
    by_variant: Vec<RatingInput>,
    /// (A, B) with A < B -> A's pentanomial counts.
    matches: BTreeMap<(usize, usize), Pentanomial>,
    /// (A, B, variant, pair) -> games waiting for their partner.
    waiting: HashMap<(usize, usize, u32, u64), Waiting>,
    /// Per bot: games lost by each failure reason.
    lost_by: Vec<LostBy>,
    games: u64,
}

/// Everything aggregated, once the last game is in.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedGames {
    /// Bot names in order of first appearance; indices below refer to them.
    pub bots: Vec<String>,
    /// All games, whatever their variant.
    pub counts: PairCounts,
    /// Per variant, in order of first appearance: its id and its games.
    pub variant_counts: Vec<(String, PairCounts)>,
    /// Per (A, B) with A < B, from A's side.
    pub matches: BTreeMap<(usize, usize), MatchCounts>,
    /// Per bot: games lost by each failure reason.
    pub lost_by: Vec<LostBy>,
    pub games: u64,
}

impl RatingInput {
    pub fn new() -> RatingInput {
        RatingInput::default()
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The index of bot `name`, new ones numbered in order of appearance;
    /// refuses a bot beyond [`MAX_BOTS`].
    fn bot(&mut self, name: &str, id: u64) -> Result<usize, InvalidGame> {
        if let Some(&i) = self.bot_index.get(name) {
            return Ok(i);
        }
        if self.bots.len() >= MAX_BOTS {
            return Err(InvalidGame::TooManyBots {
                id,
                bot: name.to_string(),
                max: MAX_BOTS,
            });
        }
        self.bots.push(name.to_string());
        self.lost_by.push(LostBy::default());
        self.bot_index.insert(name.to_string(), self.bots.len() - 1);
        Ok(self.bots.len() - 1)
    }

    fn variant(&mut self, id: &str) -> u32 {
        if let Some(&v) = self.variants.get(id) {
            return v;
        }
        let next = self.variants.len() as u32;
        self.variants.insert(id.to_string(), next);
        self.variant_ids.push(id.to_string());
        next
    }

    /// Number of variants among the games added.
    pub fn variant_count(&self) -> usize {
        self.variant_ids.len()
    }

    /// Adds one game. Fails on a row with a bot playing itself (rows from
    /// [`arena_tournament::games_reader`] never have one).
    pub fn add(&mut self, row: &GameRow) -> Result<(), InvalidGame> {
        let second_variant = self.by_variant.is_empty()
            && self.variant_ids.len() == 1
            && !self.variants.contains_key(&row.variant);
        if second_variant {
            // Every game so far was of the first variant.
            self.by_variant.push(self.clone());
        }
        self.add_here(row)?;
        if self.by_variant.is_empty() {
            return Ok(());
        }
        let variant = self.variants[&row.variant] as usize;
        if variant == self.by_variant.len() {
            self.by_variant.push(RatingInput::new());
        }
        // The same checks passed above, so this cannot fail.
        self.by_variant[variant].add_here(row)
    }

    /// Each variant's games alone, in order of first appearance, each as if
    /// only its games had been added (what `arena rate --variant` rates).
    pub fn split(&mut self) -> Vec<(String, RatingInput)> {
        let inputs = match std::mem::take(&mut self.by_variant) {
            none if none.is_empty() => vec![self.clone()],
            inputs => inputs,
        };
        self.variant_ids.iter().cloned().zip(inputs).collect()
    }

    /// [`RatingInput::add`] without the per-variant copy.
    fn add_here(&mut self, row: &GameRow) -> Result<(), InvalidGame> {
        let result = checked_result(row)?;
        let white = self.bot(&row.white, row.id)?;
        let black = self.bot(&row.black, row.id)?;
        let variant = self.variant(&row.variant);
        self.games += 1;
        let slot = match result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        };
        self.results.entry((variant, white, black)).or_default()[slot] += 1;
        if let Some((white_failed, reason)) = failing_side(result, row.reason) {
            self.lost_by[if white_failed { white } else { black }].add(reason);
        }

        let white_score = match result {
            GameResult::WhiteWins => Score::Win,
            GameResult::Draw => Score::Draw,
            GameResult::BlackWins => Score::Loss,
        };
        let (a, b, a_white, a_score) = if white < black {
            (white, black, true, white_score)
        } else {
            (black, white, false, white_score.reversed())
        };
        let penta = self.matches.entry((a, b)).or_default();
        let key = (a, b, variant, row.pair);
        match self.waiting.get_mut(&key) {
            Some(waiting) if waiting.a_white != a_white => {
                let partner = waiting.scores.pop_front().expect("waiting games are kept");
                penta.add(partner, a_score);
                if waiting.scores.is_empty() {
                    self.waiting.remove(&key);
                }
            }
            Some(waiting) => waiting.scores.push_back(a_score),
            None => {
                self.waiting.insert(
                    key,
                    Waiting {
                        a_white,
                        scores: VecDeque::from([a_score]),
                    },
                );
            }
        }
        Ok(())
    }

    /// The aggregates; games still waiting for a partner count as unpaired.
    pub fn finish(self) -> RatedGames {
        let mut counts = PairCounts::new(self.bots.len());
        let mut variant_counts: Vec<(String, PairCounts)> = self
            .variant_ids
            .iter()
            .map(|id| (id.clone(), PairCounts::new(self.bots.len())))
            .collect();
        for (&(variant, white, black), &c) in &self.results {
            counts.add_counts(white, black, c);
            variant_counts[variant as usize]
                .1
                .add_counts(white, black, c);
        }
        let mut matches: BTreeMap<(usize, usize), MatchCounts> = self
            .matches
            .into_iter()
            .map(|(pair, pentanomial)| {
                let counts = MatchCounts {
                    pentanomial,
                    unpaired: [0; 3],
                };
                (pair, counts)
            })
            .collect();
        for ((a, b, _, _), waiting) in self.waiting {
            let m = matches.entry((a, b)).or_default();
            for score in waiting.scores {
                m.unpaired[score.half_points() as usize] += 1;
            }
        }
        RatedGames {
            bots: self.bots,
            counts,
            variant_counts,
            matches,
            lost_by: self.lost_by,
            games: self.games,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::ScoredGames;
    use arena_referee::row::row_with_result;
    use arena_stats::{pair_up, PairableGame};

    /// The streamed pentanomials equal `pair_up` over the whole list, for a
    /// jumble of complete pairs, repeated pair ids and lone games.
    #[test]
    fn streaming_pairs_match_pair_up() {
        let results = [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ];
        let names = ["a", "b", "c"];
        let mut rows = Vec::new();
        for i in 0..200u64 {
            let w = names[(i * 7 % 3) as usize];
            let b = names[((i * 7 % 3) + 1 + i % 2) as usize % 3];
            rows.push(row_with_result(
                i,
                i * 13 % 17,
                w,
                b,
                results[(i * 5 % 3) as usize],
            ));
        }
        let mut input = RatingInput::new();
        for r in &rows {
            input.add(r).unwrap();
        }
        let rated = input.finish();
        let scored = ScoredGames::from_rows(&rows).unwrap();
        assert_eq!(rated.bots, scored.bots);
        assert_eq!(rated.counts, scored.pair_counts());
        assert_eq!(rated.games, 200);
        for (&(a, b), m) in &rated.matches {
            let paired = pair_up(
                scored
                    .games
                    .iter()
                    .filter(|g| (g.white, g.black) == (a, b) || (g.white, g.black) == (b, a))
                    .map(|g| {
                        let white = match g.result {
                            GameResult::WhiteWins => Score::Win,
                            GameResult::Draw => Score::Draw,
                            GameResult::BlackWins => Score::Loss,
                        };
                        PairableGame {
                            key: g.pair_key,
                            a_first: g.white == a,
                            score: if g.white == a {
                                white
                            } else {
                                white.reversed()
                            },
                        }
                    }),
            );
            assert_eq!(m.pentanomial, paired.pentanomial(), "{a}-{b}");
            let mut unpaired = [0; 3];
            for s in paired.unpaired {
                unpaired[s.half_points() as usize] += 1;
            }
            assert_eq!(m.unpaired, unpaired, "{a}-{b}");
        }
    }

    #[test]
    fn bad_rows_name_the_game() {
        let mut input = RatingInput::new();
        let err = input
            .add(&row_with_result(5, 0, "a", "a", GameResult::WhiteWins))
            .unwrap_err();
        assert!(err.to_string().contains("game 5"), "{err}");
        assert!(err.to_string().contains("itself"), "{err}");
        assert_eq!(input.games(), 0);
    }
}
