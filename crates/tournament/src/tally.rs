//! A `games.csv` row counted by the run's tally ([`arena_stats::Tally`]):
//! the one conversion of a [`GameRow`] into the plain game the statistics
//! layer counts (which knows no rows).

use arena_referee::GameRow;
use arena_stats::{InvalidGame, TalliedGame, Tally};

/// The game `row` records, as the tally counts it.
pub fn tallied(row: &GameRow) -> TalliedGame<'_> {
    TalliedGame {
        id: row.id,
        variant: &row.variant,
        pair: row.pair,
        white: &row.white,
        black: &row.black,
        result: row.result,
        failure: row.reason.failure(),
        played: row.played,
    }
}

/// Counting `games.csv` rows.
pub trait AddRow {
    /// Counts the game of `row` (see [`Tally::add`] for what it refuses).
    fn add_row(&mut self, row: &GameRow) -> Result<(), InvalidGame>;
}

impl AddRow for Tally {
    fn add_row(&mut self, row: &GameRow) -> Result<(), InvalidGame> {
        self.add(&tallied(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::row::row_with_result;
    use arena_rules::games::GameResult;
    use arena_rules::protocol::{FailureReason, Reason};

    #[test]
    fn a_row_is_counted_with_its_failure() {
        let mut row = row_with_result(3, 1, "a", "b", GameResult::BlackWins);
        row.reason = Reason::Failure(FailureReason::Timeout);
        let game = tallied(&row);
        assert_eq!(
            (game.id, game.pair, game.white, game.black),
            (3, 1, "a", "b")
        );
        assert_eq!(game.failure, Some(FailureReason::Timeout));
        let mut tally = Tally::new();
        tally.add_row(&row).unwrap();
        assert_eq!(tally.counts().lost_by[0].get(FailureReason::Timeout), 1);
    }
}
