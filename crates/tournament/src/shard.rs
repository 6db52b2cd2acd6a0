//! Sharding: one tournament split into N independent runs (`--shard K/N`).
//!
//! A shard is a filter on game pairs over the one schedule that the
//! settings and seed define: pair `p` (games `2p` and `2p + 1`) belongs to
//! shard `p mod N + 1`. Pairs are never split, so each shard's pentanomial
//! counts are whole, and dealing pairs out in turn gives every shard a mix
//! of all pairings (no shard gets all of one slow bot's games). A shard
//! with no pairs (N larger than the number of pairs) is valid and empty.
//!
//! Whether runs belong to the same tournament is their identity
//! ([`TournamentConfig::identity`](crate::TournamentConfig::identity)).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Shard `index` of `count` (1-based: `1 <= index <= count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole tournament as one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether game pair `pair` is this shard's.
    pub fn contains_pair(&self, pair: u64) -> bool {
        pair % self.count == self.index - 1
    }

    pub fn contains_game(&self, id: u64) -> bool {
        self.contains_pair(id / 2)
    }

    /// The smallest id `>= id` of this shard's games (past the end of the
    /// schedule when none is left).
    pub fn next_game(&self, id: u64) -> u64 {
        if self.contains_game(id) {
            return id;
        }
        let pair = id / 2;
        let offset = (self.index - 1 + self.count - pair % self.count) % self.count;
        (pair + offset).saturating_mul(2)
    }

    /// Number of this shard's games with ids below `end`.
    pub fn games_of(&self, end: u64) -> u64 {
        let pairs = end / 2;
        let first = self.index - 1;
        let whole = if pairs <= first {
            0
        } else {
            2 * ((pairs - first - 1) / self.count + 1)
        };
        whole + u64::from(end % 2 == 1 && self.contains_pair(pairs))
    }

    /// The largest id `< end` of this shard's games, if any.
    pub fn prev_game(&self, end: u64) -> Option<u64> {
        let last = end.checked_sub(1)?;
        if self.contains_game(last) {
            return Some(last);
        }
        let pair = last / 2;
        let back = (pair + self.count - (self.index - 1) % self.count) % self.count;
        pair.checked_sub(back).map(|p| 2 * p + 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with `1 <= K <= N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = || format!("expected K/N with 1 <= K <= N (e.g. 2/4), got {text:?}");
        let (k, n) = text.trim().split_once('/').ok_or_else(usage)?;
        let index: u64 = k.trim().parse().map_err(|_| usage())?;
        let count: u64 = n.trim().parse().map_err(|_| usage())?;
        if index == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_k_of_n_and_rejects_the_rest() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(" 1 / 1 ".parse(), Ok(Shard::WHOLE));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/4", "", "1/4/2"] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("1 <= K <= N"), "{bad}: {err}");
        }
        assert_eq!(Shard { index: 3, count: 7 }.to_string(), "3/7");
    }

    #[test]
    fn next_game_and_counts_agree_with_membership() {
        for count in 1..=7 {
            for index in 1..=count {
                let shard = Shard { index, count };
                for total in 0..=40 {
                    let members: Vec<u64> =
                        (0..total).filter(|&id| shard.contains_game(id)).collect();
                    assert_eq!(
                        shard.games_of(total),
                        members.len() as u64,
                        "{shard} of {total}"
                    );
                    let mut walked = Vec::new();
                    let mut id = shard.next_game(0);
                    while id < total {
                        walked.push(id);
                        id = shard.next_game(id + 1);
                    }
                    assert_eq!(walked, members, "{shard} of {total}");
                    assert_eq!(
                        shard.prev_game(total),
                        members.last().copied(),
                        "{shard} below {total}"
                    );
                }
            }
        }
    }

    #[test]
    fn pair_p_belongs_to_shard_p_mod_n_plus_1() {
        // The documented rule, from outside the code: with 3 shards, pairs
        // 0, 3, 6 are shard 1's; pairs 1, 4 shard 2's; pairs 2, 5 shard 3's.
        let shard = |index| Shard { index, count: 3 };
        assert!([0, 3, 6].iter().all(|&p| shard(1).contains_pair(p)));
        assert!([1, 4].iter().all(|&p| shard(2).contains_pair(p)));
        assert!([2, 5].iter().all(|&p| shard(3).contains_pair(p)));
        assert!(shard(1).contains_game(13) && !shard(1).contains_game(14));
    }
}
