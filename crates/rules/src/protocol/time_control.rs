//! Time controls: the [`TimeControl`] a `new_game` announces, and its
//! command-line spelling (`per-move=MS`, or `BASE+INC` in seconds), which
//! tournament files, flags, records and `games.csv` all use.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How much thinking time a bot gets, announced in `new_game`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TimeControl {
    /// A fixed limit for every move; unused time is not carried over.
    PerMove { move_ms: u64 },
    /// A chess clock: `base_ms` for the whole game, plus `increment_ms` added
    /// after each of the bot's moves.
    Clock { base_ms: u64, increment_ms: u64 },
}

/// The longest time value accepted anywhere, in ms: a week (a time
/// control's values, the grace, a start-up limit). Longer is no real game,
/// and clock arithmetic stays far from overflow.
pub const MAX_TIME_MS: u64 = 7 * 24 * 3600 * 1000;

impl TimeControl {
    /// `Err` naming the value when one is more than [`MAX_TIME_MS`].
    pub fn check(&self) -> Result<(), String> {
        let values: &[(&str, u64)] = match self {
            TimeControl::PerMove { move_ms } => &[("move_ms", *move_ms)],
            TimeControl::Clock {
                base_ms,
                increment_ms,
            } => &[("base_ms", *base_ms), ("increment_ms", *increment_ms)],
        };
        for &(name, ms) in values {
            if ms > MAX_TIME_MS {
                return Err(format!(
                    "{name} too large: {ms} ms (at most {MAX_TIME_MS}, a week)"
                ));
            }
        }
        Ok(())
    }
}

/// A time control that cannot be read, with what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControlError(String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TimeControlError {}

/// Parses the command-line forms of a time control: `per-move=MS`
/// (milliseconds) or `BASE+INC` in seconds, e.g. `10+0.1` (a bare `BASE`
/// means no increment).
pub fn parse_time_control(s: &str) -> Result<TimeControl, TimeControlError> {
    let s = s.trim();
    let error = |what: String| TimeControlError(format!("time control {s:?}: {what}"));
    if let Some(ms) = s
        .strip_prefix("per-move=")
        .or_else(|| s.strip_prefix("per_move="))
    {
        let move_ms: u64 = ms
            .trim()
            .parse()
            .map_err(|e| error(format!("per-move limit must be whole milliseconds: {e}")))?;
        if move_ms == 0 {
            return Err(error("per-move limit must be positive".into()));
        }
        return Ok(TimeControl::PerMove { move_ms });
    }
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    let base_ms = seconds_to_ms(base).map_err(|e| {
        error(format!(
            "expected per-move=MS or BASE+INC in seconds (e.g. 10+0.1): {e}"
        ))
    })?;
    let increment_ms = seconds_to_ms(inc).map_err(|e| error(format!("bad increment: {e}")))?;
    if base_ms == 0 {
        return Err(error("base time must be positive".into()));
    }
    Ok(TimeControl::Clock {
        base_ms,
        increment_ms,
    })
}

fn seconds_to_ms(text: &str) -> Result<u64, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|e| format!("{text:?} is not a number of seconds: {e}"))?;
    if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
        return Err(format!("{text:?} is not a usable number of seconds"));
    }
    Ok((secs * 1000.0).round() as u64)
}

/// The command-line spelling of a time control (parses back to the same).
pub fn format_time_control(tc: &TimeControl) -> String {
    tc.to_string()
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerMove { move_ms } => write!(f, "per-move={move_ms}"),
            TimeControl::Clock {
                base_ms,
                increment_ms,
            } => write!(
                f,
                "{}+{}",
                *base_ms as f64 / 1000.0,
                *increment_ms as f64 / 1000.0
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_command_line_forms() {
        assert_eq!(
            parse_time_control("per-move=250").unwrap(),
            TimeControl::PerMove { move_ms: 250 }
        );
        assert_eq!(
            parse_time_control("10+0.1").unwrap(),
            TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!(
            parse_time_control(" 60 ").unwrap(),
            TimeControl::Clock {
                base_ms: 60_000,
                increment_ms: 0
            }
        );
        for bad in [
            "per-move=",
            "per-move=1.5",
            "per-move=0",
            "abc",
            "10+x",
            "-5+1",
            "0+1",
            "inf",
        ] {
            let err = parse_time_control(bad).unwrap_err();
            assert!(
                format!("{err:#}").contains("time control"),
                "{bad}: {err:#}"
            );
        }
    }

    #[test]
    fn command_line_spelling_round_trips() {
        for tc in [
            TimeControl::PerMove { move_ms: 300 },
            TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100,
            },
        ] {
            assert_eq!(parse_time_control(&format_time_control(&tc)).unwrap(), tc);
        }
    }
}
