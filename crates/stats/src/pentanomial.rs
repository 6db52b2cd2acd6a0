//! Game pairs and their pentanomial counts.
//!
//! Tournaments play each opening twice with colours swapped. The two games of
//! such a pair are correlated (a lopsided opening favours whoever has the good
//! side in both games), so statistics treat the pair, not the game, as the
//! independent unit: its total score for one player is 0, 0.5, 1, 1.5 or 2
//! points, counted as LL, LD, DD or WL, WD, WW (fastchess's pentanomial).
//!
//! [`PairMatcher`] forms the pairs as games arrive, in any order; it is the
//! one pairing of arena, kept by the tally ([`crate::Tally`]), which every
//! reader of pairs reads.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

use crate::wdl::Score;

/// Counts of game pairs by outcome, from one player's side. DD and WL are kept
/// apart (both are worth one point) because they say different things about
/// draws, but statistics use their sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub ll: u64,
    pub ld: u64,
    pub dd: u64,
    pub wl: u64,
    pub wd: u64,
    pub ww: u64,
}

impl Pentanomial {
    /// Records a pair; the order of the two games does not matter.
    pub fn add(&mut self, first: Score, second: Score) {
        use Score::*;
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// DD + WL: the pairs worth exactly one point.
    pub fn dd_wl(&self) -> u64 {
        self.dd + self.wl
    }

    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.dd + self.wl + self.wd + self.ww
    }

    /// Counts in score order `[LL, LD, DD+WL, WD, WW]` (pair scores 0, 0.5, 1, 1.5, 2).
    pub fn by_score(&self) -> [u64; 5] {
        [self.ll, self.ld, self.dd_wl(), self.wd, self.ww]
    }

    /// The same pairs seen by the opponent.
    pub fn reversed(&self) -> Pentanomial {
        Pentanomial {
            ll: self.ww,
            ld: self.wd,
            dd: self.dd,
            wl: self.wl,
            wd: self.ld,
            ww: self.ll,
        }
    }
}

impl std::ops::AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        self.ll += other.ll;
        self.ld += other.ld;
        self.dd += other.dd;
        self.wl += other.wl;
        self.wd += other.wd;
        self.ww += other.ww;
    }
}

/// Colour-swapped game pairs formed as the games arrive: the one pairing of
/// arena, kept by [`crate::Tally`] (so crate-private: whoever needs pairs
/// reads a tally).
///
/// Games of two players A and B are grouped by a key (what may form a pair:
/// the pair id, and whatever else tells pairs apart, such as the two bots,
/// the variant, or the file). Within one key, the k-th game with A as white
/// is paired with the k-th game with A as black, in arrival order. That is
/// exact for one tournament (two games per key, in either order) and still
/// sound when merged files reuse pair ids. Only games whose partner has not
/// arrived yet are kept.
#[derive(Debug, Clone)]
pub(crate) struct PairMatcher<K> {
    /// Per key: A's scores in games waiting for their partner, all of one
    /// colour (a game of the other colour would have completed a pair).
    waiting: HashMap<K, Waiting>,
}

#[derive(Debug, Clone)]
struct Waiting {
    a_white: bool,
    scores: VecDeque<Score>,
}

impl<K> Default for PairMatcher<K> {
    fn default() -> Self {
        PairMatcher {
            waiting: HashMap::new(),
        }
    }
}

impl<K: Eq + Hash> PairMatcher<K> {
    /// Adds A's `score` in a game of `key` in which A had the first move
    /// (white) or not. Returns A's scores in both games of the pair (the
    /// partner's first) when this game completed one.
    pub fn add(&mut self, key: K, a_white: bool, score: Score) -> Option<(Score, Score)> {
        match self.waiting.entry(key) {
            Entry::Occupied(mut waiting) if waiting.get().a_white != a_white => {
                let scores = &mut waiting.get_mut().scores;
                let partner = scores.pop_front().expect("waiting games are kept");
                if scores.is_empty() {
                    waiting.remove();
                }
                Some((partner, score))
            }
            Entry::Occupied(mut waiting) => {
                waiting.get_mut().scores.push_back(score);
                None
            }
            Entry::Vacant(slot) => {
                slot.insert(Waiting {
                    a_white,
                    scores: VecDeque::from([score]),
                });
                None
            }
        }
    }

    /// The games still waiting for their partner: each one's key and A's
    /// score, in no particular order.
    pub fn waiting(&self) -> impl Iterator<Item = (&K, Score)> + '_ {
        self.waiting
            .iter()
            .flat_map(|(key, w)| w.scores.iter().map(move |&score| (key, score)))
    }
}

#[cfg(test)]
mod tests {
    use super::Score::*;
    use super::*;

    /// Completed pairs, and the games left waiting: (key, A's half points).
    type Paired = (Vec<(Score, Score)>, Vec<(u64, u8)>);

    /// Feeds `games` (key, A white, A's score) and returns the completed
    /// pairs in the order they completed, and the games left waiting (sorted).
    fn pair_up(games: &[(u64, bool, Score)]) -> Paired {
        let mut matcher = PairMatcher::default();
        let pairs = games
            .iter()
            .filter_map(|&(key, a_white, score)| matcher.add(key, a_white, score))
            .collect();
        let mut waiting: Vec<(u64, u8)> = matcher
            .waiting()
            .map(|(&key, score)| (key, score.half_points()))
            .collect();
        waiting.sort();
        (pairs, waiting)
    }

    #[test]
    fn counts_each_pair_kind() {
        let mut p = Pentanomial::default();
        for (a, b) in [
            (Loss, Loss),
            (Draw, Loss),
            (Loss, Draw),
            (Draw, Draw),
            (Win, Loss),
            (Loss, Win),
            (Draw, Win),
            (Win, Win),
            (Win, Win),
        ] {
            p.add(a, b);
        }
        assert_eq!(
            p,
            Pentanomial {
                ll: 1,
                ld: 2,
                dd: 1,
                wl: 2,
                wd: 1,
                ww: 2
            }
        );
        assert_eq!(p.by_score(), [1, 2, 3, 1, 2]);
        assert_eq!(p.pairs(), 9);
        assert_eq!(p.reversed().by_score(), [2, 1, 3, 2, 1]);
        let mut twice = p;
        twice += p;
        assert_eq!((twice.ld, twice.pairs()), (4, 18));
    }

    #[test]
    fn pairs_games_sharing_a_key_with_swapped_colours() {
        let (pairs, waiting) = pair_up(&[
            (0, true, Win),
            (1, true, Draw),
            (0, false, Draw),
            (2, true, Loss), // partner missing
            (3, true, Win),  // same colour twice: no pair
            (3, true, Loss),
            (1, false, Loss),
        ]);
        // Each pair as it completed, the waiting partner's score first.
        assert_eq!(pairs, vec![(Win, Draw), (Draw, Loss)]);
        assert_eq!(waiting, vec![(2, 0), (3, 0), (3, 2)]);
        let mut p = Pentanomial::default();
        for (a, b) in pairs {
            p.add(a, b);
        }
        assert_eq!((p.wd, p.ld, p.pairs()), (1, 1, 2));
    }

    #[test]
    fn merged_files_reusing_pair_ids_still_pair_in_order() {
        let (pairs, waiting) = pair_up(&[
            (0, true, Win),
            (0, false, Win),
            (0, true, Loss),
            (0, false, Loss),
        ]);
        assert_eq!(pairs, vec![(Win, Win), (Loss, Loss)]);
        assert!(waiting.is_empty());
        // Two games of one colour wait, and pair with the next two of the
        // other in the order they came.
        let (pairs, waiting) = pair_up(&[
            (0, true, Win),
            (0, true, Draw),
            (0, false, Loss),
            (0, false, Win),
        ]);
        assert_eq!(pairs, vec![(Win, Loss), (Draw, Win)]);
        assert!(waiting.is_empty());
    }
}
