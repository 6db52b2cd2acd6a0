//! How long the engine may think about one move.
//!
//! The referee's `move_ms` is a hard limit (exceeding it loses the game), so
//! the engine plans to use only a fraction of it, and under a real clock only
//! a fraction of what is left, so that it never runs short later in the game.

use std::time::Duration;

/// Share of the hard per-move limit the engine plans to use.
const HARD_LIMIT_DIVISOR: u64 = 4;
/// Under a clock: plan as if this many more moves had to be made.
const EXPECTED_MOVES_LEFT: u64 = 20;
/// Kept back for process scheduling, pipe latency and writing the answer.
const SAFETY_MS: u64 = 5;

/// The thinking time for one move.
///
/// - `move_ms`: the hard limit the referee sent with this turn.
/// - `own_remaining_ms`: the engine's remaining clock time, `None` under a
///   per-move time control.
/// - `increment_ms`: added to the clock after each move (0 if none).
/// - `movetime_cap_ms`: the `--movetime` strength setting, if any.
pub fn think_time(
    move_ms: u64,
    own_remaining_ms: Option<u64>,
    increment_ms: u64,
    movetime_cap_ms: Option<u64>,
) -> Duration {
    let mut ms = move_ms / HARD_LIMIT_DIVISOR;
    if let Some(remaining) = own_remaining_ms {
        ms = ms.min(remaining / EXPECTED_MOVES_LEFT + increment_ms * 3 / 4);
    }
    if let Some(cap) = movetime_cap_ms {
        ms = ms.min(cap);
    }
    Duration::from_millis(ms.saturating_sub(SAFETY_MS).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_move_uses_a_quarter_of_the_hard_limit() {
        assert_eq!(think_time(1000, None, 0, None), Duration::from_millis(245));
    }

    #[test]
    fn movetime_caps_the_budget() {
        assert_eq!(
            think_time(1000, None, 0, Some(100)),
            Duration::from_millis(95)
        );
        // The cap never raises the budget above the referee's limit.
        assert_eq!(
            think_time(200, None, 0, Some(100)),
            Duration::from_millis(45)
        );
    }

    #[test]
    fn clock_budget_is_a_share_of_the_remaining_time_plus_increment() {
        // 60 s left, 1 s increment: 3000 + 750 ms, but the hard limit of 8 s / 4 caps at 2000.
        assert_eq!(
            think_time(8000, Some(60_000), 1000, None),
            Duration::from_millis(1995)
        );
        // 2 s left, no increment: 100 ms.
        assert_eq!(
            think_time(2000, Some(2000), 0, None),
            Duration::from_millis(95)
        );
    }

    #[test]
    fn tiny_limits_still_give_a_positive_budget() {
        assert_eq!(think_time(3, Some(3), 0, None), Duration::from_millis(1));
    }
}
