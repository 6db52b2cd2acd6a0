//! One row of `games.csv`: the flat, plot-friendly record of a finished game.
//!
//! The tournament appends one row per finished game; `arena rate` and the
//! statistics read them back. The column order is the public format.

use serde::{Deserialize, Serialize};

/// A game result as seen from white: `1-0`, `0-1` or `1/2-1/2`.
pub const WHITE_WINS: &str = "1-0";
pub const BLACK_WINS: &str = "0-1";
pub const DRAW: &str = "1/2-1/2";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Game number in the schedule, 0-based, unique within a tournament.
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
    pub result: String,
    /// Why the game ended: a win pattern (`group`, `square`, `line`), `full`,
    /// `no_moves`, or a failure (`timeout`, `illegal_move`, `crash`, ...).
    pub reason: String,
    pub plies: u32,
    pub white_time_ms: u64,
    pub black_time_ms: u64,
}

impl GameRow {
    /// A `qango6` game between `white` and `black` with `result`, ended by a
    /// `group` after 20 plies, no opening and no clock time: the columns the
    /// statistics and standings read are the arguments, the rest are plausible
    /// fillers. For tests and examples that need rows without playing games.
    pub fn with_result(id: u64, pair: u64, white: &str, black: &str, result: &str) -> GameRow {
        GameRow {
            id,
            round: 0,
            pair,
            variant: "qango6".into(),
            white: white.into(),
            black: black.into(),
            opening: String::new(),
            result: result.into(),
            reason: "group".into(),
            plies: 20,
            white_time_ms: 0,
            black_time_ms: 0,
        }
    }

    /// White's score: 1, 0.5 or 0. `None` for an unknown result string.
    pub fn white_score(&self) -> Option<f64> {
        match self.result.as_str() {
            WHITE_WINS => Some(1.0),
            BLACK_WINS => Some(0.0),
            DRAW => Some(0.5),
            _ => None,
        }
    }
}
