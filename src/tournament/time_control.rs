//! Time controls as people type them (`per-move=200`, `10+0.1`).
//!
//! TODO(merge referee): the referee owns this parser (`referee::parse_time_control`);
//! this copy exists only until that branch lands and is then replaced by a re-export.

use anyhow::{bail, Context};

use crate::protocol::TimeControl;

/// Parses `per-move=MS` (milliseconds) or `BASE+INC` in seconds (`10+0.1`;
/// a bare `BASE` means no increment).
pub fn parse_time_control(s: &str) -> anyhow::Result<TimeControl> {
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
