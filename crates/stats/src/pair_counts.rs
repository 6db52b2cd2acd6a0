//! [`PairCounts`]: game results per ordered (white, black) pair of bot
//! indices, the input of the joint fit and of the prior's checks, with the
//! views the report reads (one colour, head to head, per bot).

use crate::wdl::{Colours, Score, Wdl};
use arena_rules::games::GameResult;

/// Game results aggregated per ordered (white, black) pair of bot indices.
#[derive(Debug, Clone, PartialEq)]
pub struct PairCounts {
    bots: usize,
    /// `[white wins, draws, black wins]` at `white * bots + black`.
    pub(crate) cells: Vec<[f64; 3]>,
}

impl PairCounts {
    /// No games yet between `bots` bots (indices `0..bots`).
    pub fn new(bots: usize) -> PairCounts {
        PairCounts {
            bots,
            cells: vec![[0.0; 3]; bots * bots],
        }
    }

    /// Aggregates `(white, black, result)` games. Panics on an index >= `bots`,
    /// which is a bug in the caller, not bad input.
    pub fn from_games(
        bots: usize,
        games: impl IntoIterator<Item = (usize, usize, GameResult)>,
    ) -> PairCounts {
        let mut counts = PairCounts::new(bots);
        for (white, black, result) in games {
            counts.add(white, black, result);
        }
        counts
    }

    pub fn add(&mut self, white: usize, black: usize, result: GameResult) {
        self.add_counts(white, black, Wdl::of(Score::of_white(result)));
    }

    /// Adds games of `white` against `black`, `counts` from white's side.
    /// Panics on an index >= `bots`, like [`PairCounts::add`].
    pub fn add_counts(&mut self, white: usize, black: usize, counts: Wdl) {
        assert!(
            white < self.bots && black < self.bots,
            "bot index out of range"
        );
        let cell = &mut self.cells[white * self.bots + black];
        for (slot, count) in cell
            .iter_mut()
            .zip([counts.wins, counts.draws, counts.losses])
        {
            *slot += count as f64;
        }
    }

    /// The results of `white` in the games it played as white against
    /// `black`.
    pub fn wdl(&self, white: usize, black: usize) -> Wdl {
        let [wins, draws, losses] = self.get(white, black).map(|c| c as u64);
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// The results of `a` against `b`, both colours, from `a`'s side.
    pub fn head_to_head(&self, a: usize, b: usize) -> Wdl {
        self.wdl(a, b) + self.wdl(b, a).flipped()
    }

    /// Each bot's results (by index) split by its colour.
    pub fn by_bot(&self) -> Vec<Colours> {
        let mut bots = vec![Colours::default(); self.bots];
        for white in 0..self.bots {
            for black in 0..self.bots {
                let wdl = self.wdl(white, black);
                bots[white].white += wdl;
                bots[black].black += wdl.flipped();
            }
        }
        bots
    }

    pub fn bots(&self) -> usize {
        self.bots
    }

    /// `[white wins, draws, black wins]` of the games `white` played against `black`.
    pub fn get(&self, white: usize, black: usize) -> [f64; 3] {
        self.cells[white * self.bots + black]
    }

    pub fn total_games(&self) -> f64 {
        self.cells.iter().map(|c| c[0] + c[1] + c[2]).sum()
    }
}
