//! One row of `games.csv`: the flat, plot-friendly record of a finished game,
//! and the journal line a tournament appends as each game ends.
//!
//! It lives next to [`super::GameRecord`] (which makes it) so that the
//! tournament writes and the report reads rows without either depending on
//! the other. The column order is the public format.

use serde::{Deserialize, Serialize};

use crate::games::GameResult;
use crate::protocol::Reason;

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
    pub result: GameResult,
    /// Why the game ended: a win pattern (`group`, `square`, `line`), `full`,
    /// `no_moves`, or a failure (`timeout`, `illegal_move`, `crash`, ...).
    pub reason: Reason,
    pub plies: u32,
    pub white_time_ms: u64,
    pub black_time_ms: u64,
    /// When the game ended, UTC, RFC 3339 to the second
    /// (`2026-12-01T00:23:28Z`). Empty in rows of files written before the
    /// column existed (a resume pads those rows, see
    /// `tournament::journal`), so readers accept files without it.
    #[serde(default)]
    pub ended_utc: String,
    /// Each side's time control in the command-line spelling (`per-move=200`,
    /// `5+0.05`): they differ when a bot has time odds. Empty in rows of
    /// files written before the columns existed (padded like `ended_utc`).
    #[serde(default)]
    pub white_tc: String,
    #[serde(default)]
    pub black_tc: String,
}

/// `time` as RFC 3339 UTC to the second, `1970-01-01T00:00:00Z` for the
/// epoch (and for times before it, which a clock set that wrong gives).
pub fn utc_rfc3339(time: std::time::SystemTime) -> String {
    let [year, month, day, hour, minute, second] = utc_fields(time);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
}

/// `[year, month, day, hour, minute, second]` of `time` in UTC (the epoch for
/// times before it): the one calendar computation of the crate.
pub fn utc_fields(time: std::time::SystemTime) -> [u64; 6] {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, of_day) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days, on days since 1970-01-01.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    [
        year,
        month,
        day,
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
    ]
}

/// A `qango6` game between `white` and `black` with `result`, ended by a
/// `group` after 20 plies, no opening and no clock time: the columns the
/// statistics and standings read are the arguments, the rest are plausible
/// fillers. For unit tests that need rows without playing games.
#[cfg(test)]
pub(crate) fn row_with_result(
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
        reason: crate::games::RuleReason::Group.into(),
        plies: 20,
        white_time_ms: 0,
        black_time_ms: 0,
        ended_utc: String::new(),
        white_tc: String::new(),
        black_tc: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::utc_rfc3339;
    use std::time::{Duration, UNIX_EPOCH};

    /// Expected strings from Python's `datetime.fromtimestamp(t, timezone.utc)`.
    #[test]
    fn utc_times_are_rfc3339() {
        let at = |secs| utc_rfc3339(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_764_547_408), "2025-12-01T00:03:28Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
    }
}
