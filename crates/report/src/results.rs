//! `games.csv` rows turned into what the statistics use: bot indices, results
//! and pair keys.

use std::collections::HashMap;

use arena_stats::{GameResult, PairCounts};

use arena_referee::GameRow;

/// A game between bot indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredGame {
    pub white: usize,
    pub black: usize,
    pub result: GameResult,
    /// Same value for the games of one colour-swapped pair: the `pair` column
    /// within one variant.
    pub pair_key: u64,
}

/// All games with bots numbered in order of first appearance.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoredGames {
    pub bots: Vec<String>,
    pub games: Vec<ScoredGame>,
}

/// A row the statistics cannot use. Rows read by
/// [`arena_tournament::games_reader::read_games_csv`] never have these problems.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InvalidGame {
    #[error("game {id}: bot {bot:?} cannot play itself")]
    SelfPlay { id: u64, bot: String },
    #[error("game {id}: bot {bot:?} is the {count}th different bot, more than the {max} arena can rate together (the Elo fit holds a bots x bots matrix)", count = max + 1)]
    TooManyBots { id: u64, bot: String, max: usize },
}

/// The result of a row the statistics can use: one between two different
/// bots. Shared by [`ScoredGames::from_rows`] and the streaming
/// [`super::rating_input`] so both reject the same rows with the same error.
pub(crate) fn checked_result(row: &GameRow) -> Result<GameResult, InvalidGame> {
    if row.white == row.black {
        return Err(InvalidGame::SelfPlay {
            id: row.id,
            bot: row.white.clone(),
        });
    }
    Ok(row.result)
}

/// The index of `name`, adding it to `bots` on first sight.
fn intern<'a>(index: &mut HashMap<&'a str, usize>, bots: &mut Vec<String>, name: &'a str) -> usize {
    *index.entry(name).or_insert_with(|| {
        bots.push(name.to_string());
        bots.len() - 1
    })
}

impl ScoredGames {
    pub fn from_rows(rows: &[GameRow]) -> Result<ScoredGames, InvalidGame> {
        let mut bot_index: HashMap<&str, usize> = HashMap::new();
        let mut bots = Vec::new();
        let mut pair_keys: HashMap<(&str, u64), u64> = HashMap::new();
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let result = checked_result(row)?;
            let white = intern(&mut bot_index, &mut bots, &row.white);
            let black = intern(&mut bot_index, &mut bots, &row.black);
            let next_key = pair_keys.len() as u64;
            let pair_key = *pair_keys
                .entry((row.variant.as_str(), row.pair))
                .or_insert(next_key);
            games.push(ScoredGame {
                white,
                black,
                result,
                pair_key,
            });
        }
        Ok(ScoredGames { bots, games })
    }

    pub fn pair_counts(&self) -> PairCounts {
        PairCounts::from_games(
            self.bots.len(),
            self.games.iter().map(|g| (g.white, g.black, g.result)),
        )
    }
}
