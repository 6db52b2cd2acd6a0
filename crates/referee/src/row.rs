//! One row of `games.csv`: the flat, plot-friendly account of a finished
//! game, derived from its [`super::GameRecord`] (the journal line) by
//! [`super::GameRecord::to_games_row`], as each game ends and whenever
//! `games.csv` is rebuilt from the journal.
//!
//! It lives next to the record (which makes it) so that the tournament
//! writes and the report reads rows without either depending on the other.
//! The column order is the public format.

use serde::{Deserialize, Serialize};

use arena_rules::games::GameResult;
use arena_rules::protocol::Reason;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Game number in the schedule, 0-based, unique within a tournament:
    /// the column `game_id`, spelled `gN` ([`crate::game_id`]); files of
    /// older versions, with a column `id` holding the bare number, are read
    /// too.
    #[serde(rename = "game_id", alias = "id", with = "crate::game_id::spelled")]
    pub id: u64,
    /// Round-robin cycle the game belongs to, 0-based.
    pub round: u64,
    /// Game-pair id: the two games of a pair share an opening and swap colours.
    pub pair: u64,
    pub variant: String,
    pub white: String,
    pub black: String,
    /// Opening moves forced before the bots play, space separated (may be empty).
    pub opening: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// Why the game ended: a win pattern (`group`, `square`, `line`), `full`,
    /// `no_moves`, or a failure (`timeout`, `illegal_move`, `crash`, ...).
    pub reason: Reason,
    pub plies: u32,
    pub white_time_ms: u64,
    pub black_time_ms: u64,
    /// When the game ended, UTC, RFC 3339 to the second
    /// (`2026-12-01T00:23:28Z`). Empty for a record written before arena
    /// recorded it, and absent from files written before the column existed
    /// (a resume rebuilds those from the journal, see `tournament::journal`),
    /// so readers accept files without it.
    #[serde(default)]
    pub ended_utc: String,
    /// Each side's time control in the command-line spelling (`per-move=200`,
    /// `5+0.05`): they differ when a bot has time odds. Absent from files
    /// written before the columns existed (rebuilt like `ended_utc`).
    #[serde(default)]
    pub white_tc: String,
    #[serde(default)]
    pub black_tc: String,
    /// `false` for a game neither bot played (both failed to start): kept
    /// with its reasons, rated by nobody (see the record's `played`).
    /// Absent from files written before the column existed (`true`).
    #[serde(default = "played_default")]
    pub played: bool,
}

fn played_default() -> bool {
    true
}

/// A `qango6` game between `white` and `black` with `result`, ended by a
/// `group` after 20 plies, no opening and no clock time: the columns the
/// statistics and standings read are the arguments, the rest are plausible
/// fillers. For unit tests that need rows without playing games (of this
/// crate, and of the crates above with the `testing` feature).
#[cfg(any(test, feature = "testing"))]
pub fn row_with_result(
    id: u64,
    pair: u64,
    white: &str,
    black: &str,
    result: GameResult,
) -> GameRow {
    GameRow {
        id,
        round: 0,
        pair,
        variant: "qango6".into(),
        white: white.into(),
        black: black.into(),
        opening: String::new(),
        result,
        reason: arena_rules::games::RuleReason::Group.into(),
        plies: 20,
        white_time_ms: 0,
        black_time_ms: 0,
        ended_utc: String::new(),
        white_tc: String::new(),
        black_tc: String::new(),
        played: true,
    }
}
