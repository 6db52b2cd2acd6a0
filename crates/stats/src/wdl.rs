//! A result from one side: one game's [`Score`], and [`Wdl`], the wins,
//! draws and losses of many games. Every count of results in arena (the
//! tally, the fits' inputs, the standings, the crosstable, the formats'
//! points) is made of these, so a result is turned into points in one place
//! and a count is turned to the other side's view in one place.
//!
//! [`Colours`] splits one bot's results by the colour it had.

use std::ops::{Add, AddAssign};

use arena_rules::games::{Color, GameResult};

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

    /// The score of the player of `side` in a game that ended `result`.
    pub fn of(result: GameResult, side: Color) -> Score {
        let white = Score::of_white(result);
        match side {
            Color::White => white,
            Color::Black => white.reversed(),
        }
    }

    /// White's score in a game that ended `result`.
    pub fn of_white(result: GameResult) -> Score {
        match result {
            GameResult::WhiteWins => Score::Win,
            GameResult::Draw => Score::Draw,
            GameResult::BlackWins => Score::Loss,
        }
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

/// Wins, draws and losses of one side (a bot, a colour, a bot against
/// another) over some games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    /// One game scored `score`.
    pub fn of(score: Score) -> Wdl {
        let mut wdl = Wdl::default();
        wdl.record(score);
        wdl
    }

    /// Counts one more game scored `score`.
    pub fn record(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }

    /// How many games were scored `score`.
    pub fn count(&self, score: Score) -> u64 {
        match score {
            Score::Win => self.wins,
            Score::Draw => self.draws,
            Score::Loss => self.losses,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points times two (a draw is one), to stay exact.
    pub fn half_points(&self) -> u64 {
        2 * self.wins + self.draws
    }

    pub fn points(&self) -> f64 {
        self.half_points() as f64 / 2.0
    }

    /// The share of the points scored, 0 to 1; `None` without a game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.half_points() as f64 / 2.0 / games as f64)
    }

    /// The same games seen by the other side: wins and losses swapped.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The points as the tables show them: `2.5` or `3`.
    pub fn points_text(&self) -> String {
        points_text(self.half_points())
    }
}

/// Half points as the tables show points: `3`, `2.5`.
pub fn points_text(half_points: impl Into<u64>) -> String {
    let half = half_points.into();
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}

impl AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

impl Add for Wdl {
    type Output = Wdl;

    fn add(mut self, other: Wdl) -> Wdl {
        self += other;
        self
    }
}

impl std::iter::Sum for Wdl {
    fn sum<I: Iterator<Item = Wdl>>(games: I) -> Wdl {
        games.fold(Wdl::default(), Add::add)
    }
}

/// One bot's results split by the colour it had.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Colours {
    pub white: Wdl,
    pub black: Wdl,
}

impl Colours {
    /// Both colours together.
    pub fn total(&self) -> Wdl {
        self.white + self.black
    }

    /// The results with `side`.
    pub fn side(&self, side: Color) -> Wdl {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Counts one more game, played with `side`, scored `score`.
    pub fn record(&mut self, side: Color, score: Score) {
        match side {
            Color::White => self.white.record(score),
            Color::Black => self.black.record(score),
        }
    }
}

impl AddAssign for Colours {
    fn add_assign(&mut self, other: Colours) {
        self.white += other.white;
        self.black += other.black;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_scores_each_side() {
        use GameResult::*;
        assert_eq!(Score::of(WhiteWins, Color::White), Score::Win);
        assert_eq!(Score::of(WhiteWins, Color::Black), Score::Loss);
        assert_eq!(Score::of(Draw, Color::Black), Score::Draw);
        assert_eq!(Score::of(BlackWins, Color::Black), Score::Win);
        assert_eq!(Score::of(BlackWins, Color::White), Score::Loss);
    }

    /// Five games by hand: W W D L D, so 2 wins, 2 draws, 1 loss: 6 half
    /// points (3 points) of 5 games, a score of 0.6.
    #[test]
    fn counts_and_points_of_five_games() {
        let mut wdl = Wdl::default();
        for s in [
            Score::Win,
            Score::Win,
            Score::Draw,
            Score::Loss,
            Score::Draw,
        ] {
            wdl.record(s);
        }
        let expected = Wdl {
            wins: 2,
            draws: 2,
            losses: 1,
        };
        assert_eq!(wdl, expected);
        assert_eq!(wdl.games(), 5);
        assert_eq!(wdl.half_points(), 6);
        assert_eq!(wdl.points(), 3.0);
        assert_eq!(wdl.score(), Some(0.6));
        assert_eq!(wdl.points_text(), "3");
        assert_eq!(wdl.count(Score::Draw), 2);
        // The opponent: 1 win, 2 draws, 2 losses, 4 half points.
        let other = wdl.flipped();
        assert_eq!((other.wins, other.draws, other.losses), (1, 2, 2));
        assert_eq!(other.half_points(), 4);
        assert_eq!(other.flipped(), wdl);
        assert_eq!(Wdl::default().score(), None);
    }

    #[test]
    fn sums_add_each_count() {
        let a = Wdl {
            wins: 1,
            draws: 0,
            losses: 3,
        };
        let b = Wdl::of(Score::Draw);
        // 1 win, 1 draw, 3 losses: 3 half points, 1.5 points.
        assert_eq!(
            a + b,
            Wdl {
                wins: 1,
                draws: 1,
                losses: 3
            }
        );
        assert_eq!((a + b).points_text(), "1.5");
        assert_eq!([a, b, b].into_iter().sum::<Wdl>().draws, 2);
        assert_eq!(points_text(7u32), "3.5");
        assert_eq!(points_text(0u64), "0");
    }

    #[test]
    fn colours_split_and_join() {
        let mut c = Colours::default();
        c.record(Color::White, Score::Win);
        c.record(Color::White, Score::Draw);
        c.record(Color::Black, Score::Loss);
        // White: 1-1-0 (3 half points of 2), black 0-0-1; together 1-1-1.
        assert_eq!(c.side(Color::White).half_points(), 3);
        assert_eq!(c.side(Color::Black).losses, 1);
        assert_eq!(
            c.total(),
            Wdl {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
    }
}
