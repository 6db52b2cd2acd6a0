//! Game pairs and their pentanomial counts.
//!
//! Tournaments play each opening twice with colours swapped. The two games of
//! such a pair are correlated (a lopsided opening favours whoever has the good
//! side in both games), so statistics treat the pair, not the game, as the
//! independent unit: its total score for one player is 0, 0.5, 1, 1.5 or 2
//! points, counted as LL, LD, DD or WL, WD, WW (fastchess's pentanomial).

use std::collections::HashMap;

/// One game's result from the point of view of the player of interest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    Loss,
    Draw,
    Win,
}

impl Score {
    /// 0, 1 or 2 half-points.
    pub fn half_points(self) -> u8 {
        match self {
            Score::Loss => 0,
            Score::Draw => 1,
            Score::Win => 2,
        }
    }

    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// The same game seen by the opponent.
    pub fn reversed(self) -> Score {
        match self {
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Loss,
        }
    }
}

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

/// A game between two fixed players A and B, as [`pair_up`] needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairableGame {
    /// Games with the same key may form a pair (the `pair` column, plus anything
    /// that tells tournaments apart when files are merged).
    pub key: u64,
    /// Whether A had the first move (white) in this game.
    pub a_first: bool,
    /// A's result.
    pub score: Score,
}

/// Games split into colour-swapped pairs and games left without a partner.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairedGames {
    /// A's results in the two games of each pair (A-white game first).
    pub pairs: Vec<(Score, Score)>,
    /// A's results in games that have no colour-swapped partner with their key.
    pub unpaired: Vec<Score>,
}

impl PairedGames {
    pub fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        for &(a, b) in &self.pairs {
            p.add(a, b);
        }
        p
    }
}

/// Matches games between A and B into pairs: within each key, the k-th game with
/// A as white is paired with the k-th game with A as black, in input order. That
/// is exact for one tournament (two games per key) and still sound when merged
/// files reuse pair ids. Games without a partner end up in `unpaired`.
pub fn pair_up(games: impl IntoIterator<Item = PairableGame>) -> PairedGames {
    // Per key: A's scores as white and as black, in order.
    let mut by_key: HashMap<u64, (Vec<Score>, Vec<Score>)> = HashMap::new();
    let mut key_order = Vec::new();
    for game in games {
        let entry = by_key.entry(game.key).or_insert_with(|| {
            key_order.push(game.key);
            (Vec::new(), Vec::new())
        });
        if game.a_first {
            entry.0.push(game.score);
        } else {
            entry.1.push(game.score);
        }
    }
    let mut out = PairedGames::default();
    for key in key_order {
        let (as_white, as_black) = &by_key[&key];
        let matched = as_white.len().min(as_black.len());
        for k in 0..matched {
            out.pairs.push((as_white[k], as_black[k]));
        }
        out.unpaired.extend_from_slice(&as_white[matched..]);
        out.unpaired.extend_from_slice(&as_black[matched..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Score::*;
    use super::*;

    fn game(key: u64, a_first: bool, score: Score) -> PairableGame {
        PairableGame {
            key,
            a_first,
            score,
        }
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
    }

    #[test]
    fn pairs_games_sharing_a_key_with_swapped_colours() {
        let paired = pair_up([
            game(0, true, Win),
            game(1, true, Draw),
            game(0, false, Draw),
            game(2, true, Loss), // partner missing
            game(3, true, Win),  // same colour twice: no pair
            game(3, true, Loss),
            game(1, false, Loss),
        ]);
        assert_eq!(paired.pairs, vec![(Win, Draw), (Draw, Loss)]);
        assert_eq!(paired.unpaired, vec![Loss, Win, Loss]);
        let p = paired.pentanomial();
        assert_eq!((p.wd, p.ld, p.pairs()), (1, 1, 2));
    }

    #[test]
    fn merged_files_reusing_pair_ids_still_pair_in_order() {
        let paired = pair_up([
            game(0, true, Win),
            game(0, false, Win),
            game(0, true, Loss),
            game(0, false, Loss),
        ]);
        assert_eq!(paired.pairs, vec![(Win, Win), (Loss, Loss)]);
        assert!(paired.unpaired.is_empty());
    }
}
