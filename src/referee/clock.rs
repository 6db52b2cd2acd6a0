//! Time controls and the game clock.
//!
//! Time is measured by the referee from just before it writes a `turn` line
//! to the moment it has read the answer line, so it includes the pipe round
//! trip. To keep scheduling noise on a busy machine from costing games, a
//! move is only a timeout when it takes longer than its limit plus a grace
//! margin ([`DEFAULT_GRACE`], 100 ms unless configured). The bot is told the
//! limit without the margin (`move_ms`), and the margin is not a bank: a
//! clock never goes below zero and the overrun is not carried over.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

/// Allowance beyond a move's limit before it counts as a timeout.
pub const DEFAULT_GRACE: Duration = Duration::from_millis(100);

/// How much time bots get, as sent in `new_game.time_control`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// A fixed limit for every move.
    PerMove { move_ms: u64 },
    /// A clock per side: `base_ms` at the start, `increment_ms` added after
    /// each move made in time (Fischer increment).
    Clock { base_ms: u64, increment_ms: u64 },
}

impl TimeControl {
    pub fn per_move(move_ms: u64) -> TimeControl {
        TimeControl::PerMove { move_ms }
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("time control serializes")
    }
}

/// Parses the command-line forms: `per-move=MS` (milliseconds) or
/// `BASE+INC` in seconds, e.g. `10+0.1` (a bare `BASE` means no increment).
impl FromStr for TimeControl {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<TimeControl> {
        let s = s.trim();
        if let Some(ms) = s
            .strip_prefix("per-move=")
            .or_else(|| s.strip_prefix("per_move="))
        {
            let move_ms: u64 = ms.trim().parse().with_context(|| {
                format!("time control {s:?}: per-move limit must be whole milliseconds")
            })?;
            if move_ms == 0 {
                bail!("time control {s:?}: per-move limit must be positive");
            }
            return Ok(TimeControl::PerMove { move_ms });
        }
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let base_ms = seconds_to_ms(base).with_context(|| {
            format!("time control {s:?}: expected per-move=MS or BASE+INC in seconds (e.g. 10+0.1)")
        })?;
        let increment_ms =
            seconds_to_ms(inc).with_context(|| format!("time control {s:?}: bad increment"))?;
        if base_ms == 0 {
            bail!("time control {s:?}: base time must be positive");
        }
        Ok(TimeControl::Clock {
            base_ms,
            increment_ms,
        })
    }
}

fn seconds_to_ms(text: &str) -> anyhow::Result<u64> {
    let secs: f64 = text
        .trim()
        .parse()
        .with_context(|| format!("{text:?} is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
        bail!("{text:?} is not a usable number of seconds");
    }
    Ok((secs * 1000.0).round() as u64)
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerMove { move_ms } => write!(f, "per-move={move_ms}"),
            TimeControl::Clock {
                base_ms,
                increment_ms,
            } => {
                write!(
                    f,
                    "{}+{}",
                    *base_ms as f64 / 1000.0,
                    *increment_ms as f64 / 1000.0
                )
            }
        }
    }
}

/// A move that took longer than its limit plus the grace margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flagged {
    pub limit_ms: u64,
    pub used_ms: u64,
}

/// Both sides' time during one game. Sides are indexed 0 (white), 1 (black).
#[derive(Debug, Clone)]
pub struct Clock {
    tc: TimeControl,
    grace: Duration,
    /// Remaining clock time per side in ms (unused for per-move).
    remaining_ms: [u64; 2],
}

impl Clock {
    pub fn new(tc: TimeControl, grace: Duration) -> Clock {
        let start = match tc {
            TimeControl::PerMove { .. } => 0,
            TimeControl::Clock { base_ms, .. } => base_ms,
        };
        Clock {
            tc,
            grace,
            remaining_ms: [start, start],
        }
    }

    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    pub fn grace(&self) -> Duration {
        self.grace
    }

    /// The limit for `side`'s next move, as sent to the bot (`move_ms`).
    pub fn move_limit_ms(&self, side: usize) -> u64 {
        match self.tc {
            TimeControl::PerMove { move_ms } => move_ms,
            TimeControl::Clock { .. } => self.remaining_ms[side],
        }
    }

    /// How long the referee waits for `side`'s answer: limit plus grace.
    pub fn wait_limit(&self, side: usize) -> Duration {
        Duration::from_millis(self.move_limit_ms(side)) + self.grace
    }

    /// Remaining clock time of `side`, `None` for per-move controls.
    pub fn remaining_ms(&self, side: usize) -> Option<u64> {
        match self.tc {
            TimeControl::PerMove { .. } => None,
            TimeControl::Clock { .. } => Some(self.remaining_ms[side]),
        }
    }

    /// The `clock` object of a `turn` message for `side` to move.
    pub fn turn_json(&self, side: usize) -> serde_json::Value {
        serde_json::json!({
            "white_ms": self.remaining_ms(0),
            "black_ms": self.remaining_ms(1),
            "move_ms": self.move_limit_ms(side),
        })
    }

    /// Books `used` against `side`. Over limit plus grace: [`Flagged`] (and a
    /// clock drops to zero). Otherwise a clock loses `used` (not below zero)
    /// and gains the increment.
    pub fn charge(&mut self, side: usize, used: Duration) -> Result<(), Flagged> {
        let used_ms = used.as_millis().min(u64::MAX as u128) as u64;
        let limit_ms = self.move_limit_ms(side);
        if used > Duration::from_millis(limit_ms) + self.grace {
            if let TimeControl::Clock { .. } = self.tc {
                self.remaining_ms[side] = 0;
            }
            return Err(Flagged { limit_ms, used_ms });
        }
        if let TimeControl::Clock { increment_ms, .. } = self.tc {
            self.remaining_ms[side] =
                self.remaining_ms[side].saturating_sub(used_ms) + increment_ms;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_command_line_forms() {
        assert_eq!(
            "per-move=250".parse::<TimeControl>().unwrap(),
            TimeControl::per_move(250)
        );
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap(),
            TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!(
            " 60 ".parse::<TimeControl>().unwrap(),
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
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(
                format!("{err:#}").contains("time control"),
                "{bad}: {err:#}"
            );
        }
    }

    #[test]
    fn display_round_trips() {
        for tc in [
            TimeControl::per_move(300),
            TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100,
            },
        ] {
            assert_eq!(tc.to_string().parse::<TimeControl>().unwrap(), tc);
        }
    }

    #[test]
    fn json_matches_the_protocol() {
        assert_eq!(
            TimeControl::per_move(1000).to_json(),
            serde_json::json!({"type": "per_move", "move_ms": 1000})
        );
        let tc = TimeControl::Clock {
            base_ms: 60000,
            increment_ms: 1000,
        };
        assert_eq!(
            tc.to_json(),
            serde_json::json!({"type": "clock", "base_ms": 60000, "increment_ms": 1000})
        );
        assert_eq!(
            serde_json::from_value::<TimeControl>(tc.to_json()).unwrap(),
            tc
        );
    }

    #[test]
    fn per_move_limit_with_grace() {
        let mut clock = Clock::new(TimeControl::per_move(100), ms(20));
        assert_eq!(clock.move_limit_ms(0), 100);
        assert_eq!(clock.wait_limit(1), ms(120));
        assert_eq!(clock.remaining_ms(0), None);
        assert!(clock.charge(0, ms(120)).is_ok());
        assert_eq!(
            clock.charge(1, ms(121)),
            Err(Flagged {
                limit_ms: 100,
                used_ms: 121
            })
        );
        assert_eq!(
            clock.turn_json(0),
            serde_json::json!({"white_ms": null, "black_ms": null, "move_ms": 100})
        );
    }

    #[test]
    fn clock_counts_down_adds_increment_and_flags() {
        let mut clock = Clock::new(
            TimeControl::Clock {
                base_ms: 1000,
                increment_ms: 50,
            },
            ms(10),
        );
        clock.charge(0, ms(300)).unwrap();
        assert_eq!(clock.remaining_ms(0), Some(750));
        assert_eq!(clock.remaining_ms(1), Some(1000));
        assert_eq!(clock.move_limit_ms(0), 750);
        assert_eq!(
            clock.turn_json(1),
            serde_json::json!({"white_ms": 750, "black_ms": 1000, "move_ms": 1000})
        );
        // Inside the grace: the clock stops at zero, then gets the increment.
        clock.charge(0, ms(755)).unwrap();
        assert_eq!(clock.remaining_ms(0), Some(50));
        assert_eq!(
            clock.charge(0, ms(61)),
            Err(Flagged {
                limit_ms: 50,
                used_ms: 61
            })
        );
        assert_eq!(clock.remaining_ms(0), Some(0));
    }
}
