//! Time controls and the game clock.
//!
//! Time is measured by the referee from the moment it has written a `turn`
//! line to the moment it has read the whole answer line (as PROTOCOL.md
//! tells bot authors), so it includes the pipe transfer of the answer. To keep scheduling noise on a busy machine from costing games, a
//! move is only a timeout when it takes longer than its limit plus a grace
//! margin ([`DEFAULT_GRACE`], 100 ms unless configured). The bot is told the
//! limit without the margin (`move_ms`), and the margin is not a bank: a
//! clock never goes below zero and the overrun is not carried over.

use std::time::Duration;

use arena_rules::games::Color;
use arena_rules::protocol::{ClockBasis, TurnClock};

/// Allowance beyond a move's limit before it counts as a timeout, in ms:
/// the one default of the `grace_ms` setting and of every game that is
/// given none.
pub const DEFAULT_GRACE_MS: u64 = 100;

/// [`DEFAULT_GRACE_MS`] as a duration.
pub const DEFAULT_GRACE: Duration = Duration::from_millis(DEFAULT_GRACE_MS);

pub use arena_rules::protocol::{format_time_control, parse_time_control, TimeControl};

/// A move that took longer than its limit plus the grace margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flagged {
    pub limit_ms: u64,
    pub used_ms: u64,
}

/// A move's limit as messages name it: `200 ms (+100 ms grace)` per move,
/// `200 ms, the time left on its clock (+100 ms grace)` on a clock (the
/// limit is then what was left). Both the limit and the grace are named: a
/// move over the limit but within the grace is played, one beyond both is a
/// timeout.
pub fn limit_text(limit_ms: u64, grace: Duration, on_clock: bool) -> String {
    let grace_ms = grace.as_millis();
    if on_clock {
        format!("{limit_ms} ms, the time left on its clock (+{grace_ms} ms grace)")
    } else {
        format!("{limit_ms} ms (+{grace_ms} ms grace)")
    }
}

/// Both sides' time during one game. Each side has its own time control
/// (the same for both unless a bot has time odds).
#[derive(Debug, Clone)]
pub struct Clock {
    /// Time control per side, indexed by [`Color::index`].
    tc: [TimeControl; 2],
    grace: Duration,
    /// What the times count (said in every `turn`).
    basis: ClockBasis,
    /// Remaining clock time per side in ms (unused for per-move).
    remaining_ms: [u64; 2],
}

impl Clock {
    /// Both sides under `tc`.
    pub fn new(tc: TimeControl, grace: Duration) -> Clock {
        Clock::per_side([tc, tc], grace)
    }

    /// White under `tc[0]`, black under `tc[1]`.
    pub fn per_side(tc: [TimeControl; 2], grace: Duration) -> Clock {
        let start = tc.map(|tc| match tc {
            TimeControl::PerMove { .. } => 0,
            TimeControl::Clock { base_ms, .. } => base_ms,
        });
        Clock {
            tc,
            grace,
            basis: ClockBasis::Wall,
            remaining_ms: start,
        }
    }

    /// The clock counting `basis` (wall time unless told).
    pub fn counting(mut self, basis: ClockBasis) -> Clock {
        self.basis = basis;
        self
    }

    pub fn basis(&self) -> ClockBasis {
        self.basis
    }

    /// `color`'s time control.
    pub fn time_control(&self, color: Color) -> TimeControl {
        self.tc[color.index()]
    }

    pub fn grace(&self) -> Duration {
        self.grace
    }

    /// The limit for `color`'s next move, as sent to the bot (`move_ms`).
    pub fn move_limit_ms(&self, color: Color) -> u64 {
        match self.tc[color.index()] {
            TimeControl::PerMove { move_ms } => move_ms,
            TimeControl::Clock { .. } => self.remaining_ms[color.index()],
        }
    }

    /// How long the referee waits for `color`'s answer: limit plus grace.
    pub fn wait_limit(&self, color: Color) -> Duration {
        Duration::from_millis(self.move_limit_ms(color)).saturating_add(self.grace)
    }

    /// Remaining clock time of `color`, `None` when `color` plays per move.
    pub fn remaining_ms(&self, color: Color) -> Option<u64> {
        match self.tc[color.index()] {
            TimeControl::PerMove { .. } => None,
            TimeControl::Clock { .. } => Some(self.remaining_ms[color.index()]),
        }
    }

    /// The `clock` of a `turn` message for `color` to move: each side's
    /// remaining time on its own clock, and `color`'s limit for this move.
    pub fn turn_clock(&self, color: Color) -> TurnClock {
        TurnClock {
            white_ms: self.remaining_ms(Color::White),
            black_ms: self.remaining_ms(Color::Black),
            move_ms: self.move_limit_ms(color),
            basis: self.basis,
        }
    }

    /// Books `used` against `color`. Over limit plus grace: [`Flagged`] (and a
    /// clock drops to zero). Otherwise a clock loses `used` (not below zero)
    /// and gains the increment.
    pub fn charge(&mut self, color: Color, used: Duration) -> Result<(), Flagged> {
        let used_ms = used.as_millis().min(u64::MAX as u128) as u64;
        let limit_ms = self.move_limit_ms(color);
        let tc = self.tc[color.index()];
        if used > self.wait_limit(color) {
            if let TimeControl::Clock { .. } = tc {
                self.remaining_ms[color.index()] = 0;
            }
            return Err(Flagged { limit_ms, used_ms });
        }
        if let TimeControl::Clock { increment_ms, .. } = tc {
            self.remaining_ms[color.index()] = self.remaining_ms[color.index()]
                .saturating_sub(used_ms)
                .saturating_add(increment_ms);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn per_move_limit_with_grace() {
        let mut clock = Clock::new(TimeControl::PerMove { move_ms: 100 }, ms(20));
        assert_eq!(clock.move_limit_ms(White), 100);
        assert_eq!(clock.wait_limit(Black), ms(120));
        assert_eq!(clock.remaining_ms(White), None);
        assert!(clock.charge(White, ms(120)).is_ok());
        assert_eq!(
            clock.charge(Black, ms(121)),
            Err(Flagged {
                limit_ms: 100,
                used_ms: 121
            })
        );
        assert_eq!(
            clock.turn_clock(White),
            TurnClock {
                white_ms: None,
                black_ms: None,
                move_ms: 100,
                basis: Default::default(),
            }
        );
    }

    #[test]
    fn clock_counts_down_adds_increment_and_flags() {
        let tc = TimeControl::Clock {
            base_ms: 1000,
            increment_ms: 50,
        };
        let mut clock = Clock::new(tc, ms(10));
        clock.charge(White, ms(300)).unwrap();
        assert_eq!(clock.remaining_ms(White), Some(750));
        assert_eq!(clock.remaining_ms(Black), Some(1000));
        assert_eq!(clock.move_limit_ms(White), 750);
        assert_eq!(
            clock.turn_clock(Black),
            TurnClock {
                white_ms: Some(750),
                black_ms: Some(1000),
                move_ms: 1000,
                basis: Default::default(),
            }
        );
        // Inside the grace: the clock stops at zero, then gets the increment.
        clock.charge(White, ms(755)).unwrap();
        assert_eq!(clock.remaining_ms(White), Some(50));
        assert_eq!(
            clock.charge(White, ms(61)),
            Err(Flagged {
                limit_ms: 50,
                used_ms: 61
            })
        );
        assert_eq!(clock.remaining_ms(White), Some(0));
    }

    #[test]
    fn each_side_runs_on_its_own_time_control() {
        // White: 5 s + 0.05 s; black: 200 ms per move.
        let white = TimeControl::Clock {
            base_ms: 5000,
            increment_ms: 50,
        };
        let black = TimeControl::PerMove { move_ms: 200 };
        let mut clock = Clock::per_side([white, black], ms(100));
        assert_eq!(clock.time_control(White), white);
        assert_eq!(clock.time_control(Black), black);
        // 5000 - 1200 + 50 = 3850 left for white.
        clock.charge(White, ms(1200)).unwrap();
        assert_eq!(
            clock.turn_clock(Black),
            TurnClock {
                white_ms: Some(3850),
                black_ms: None,
                move_ms: 200,
                basis: Default::default(),
            }
        );
        // Black's 250 ms is inside 200 + 100 grace; 301 ms is not.
        clock.charge(Black, ms(250)).unwrap();
        assert_eq!(
            clock.charge(Black, ms(301)),
            Err(Flagged {
                limit_ms: 200,
                used_ms: 301
            })
        );
        assert_eq!(clock.move_limit_ms(White), 3850);
        assert_eq!(clock.wait_limit(White), ms(3950));
    }

    #[test]
    fn a_huge_increment_saturates_instead_of_wrapping() {
        let tc = TimeControl::Clock {
            base_ms: 1000,
            increment_ms: u64::MAX - 10,
        };
        let mut clock = Clock::new(tc, ms(u64::MAX));
        clock.charge(White, ms(2)).unwrap();
        clock.charge(White, ms(2)).unwrap();
        assert_eq!(clock.remaining_ms(White), Some(u64::MAX));
        assert!(clock.wait_limit(White) >= ms(u64::MAX));
    }
}
