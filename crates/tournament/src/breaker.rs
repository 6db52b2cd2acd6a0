//! The start-up circuit breaker: a bot that failed to start K times in a
//! row is not started again in this run.
//!
//! A bot that never starts would otherwise cost its startup limit (plus the
//! referee's diagnosis) in every one of its games. Only start-up failures
//! recorded as the bot's (`startup` with the bot as the loser, or both bots
//! failing to start) count; a failure of the machine is not recorded as a
//! game at all (the runner reports it as not recorded), so it never counts.
//! Any game the bot started in resets its count. The state lives for one
//! run: `--resume` gives a disabled bot K fresh tries (it may have been
//! fixed in between), while its games already recorded stay as they are.

use super::repeats::cause_of;
use arena_referee::GameRecord;
use arena_rules::games::Color;
use arena_rules::protocol::{FailureReason, Reason};

#[derive(Debug, Clone, Default)]
struct BotState {
    /// Start-up failures since the bot last started.
    consecutive: u32,
    /// Why the bot is no longer started, once it is disabled.
    disabled: Option<String>,
    /// Its last start-up failure: its name and cause.
    last: Option<String>,
}

/// The bots an [`AllDisabled`] quotes.
const NAMED: usize = 3;

/// Every bot of a run disabled: nothing is left to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllDisabled {
    pub bots: usize,
    /// The failures in a row that disabled each.
    pub limit: u32,
    /// The last start-up failures of the first few bots ("bot \"x\": ...").
    pub last: Vec<String>,
}

impl AllDisabled {
    /// `every bot (3) failed to start 3 times in a row and is not started
    /// any more (bot "a": ...; bot "b": ...)`.
    pub fn line(&self) -> String {
        let more = self.bots.saturating_sub(self.last.len());
        let more = if more > 0 {
            format!("; and {more} more")
        } else {
            String::new()
        };
        format!(
            "every bot ({}) failed to start {} times in a row and is not started any more, so no game is left to play ({}{more})",
            self.bots,
            self.limit,
            self.last.join("; ")
        )
    }
}

/// Start-up failures in a row per bot (by index in the config's bot list).
#[derive(Debug, Clone)]
pub struct Breaker {
    /// Failures in a row that disable a bot; 0 never disables.
    limit: u32,
    bots: Vec<BotState>,
}

impl Breaker {
    pub fn new(limit: u32, bots: usize) -> Breaker {
        Breaker {
            limit,
            bots: vec![BotState::default(); bots],
        }
    }

    /// Why bot `index` is not started any more, if it is disabled.
    pub fn disabled(&self, index: usize) -> Option<&str> {
        self.bots.get(index)?.disabled.as_deref()
    }

    /// When every bot is disabled: why, in one line (the first few bots'
    /// last failures); `None` while some bot is still started.
    pub fn all_disabled(&self) -> Option<AllDisabled> {
        if self.bots.is_empty() || self.bots.iter().any(|b| b.disabled.is_none()) {
            return None;
        }
        Some(AllDisabled {
            bots: self.bots.len(),
            limit: self.limit,
            last: self
                .bots
                .iter()
                .filter_map(|b| b.last.clone())
                .take(NAMED)
                .collect(),
        })
    }

    /// Counts a finished game between bots `white` and `black` (indices);
    /// returns the bots this game disabled, with why.
    pub fn observe(
        &mut self,
        white: usize,
        black: usize,
        record: &GameRecord,
    ) -> Vec<(usize, String)> {
        let mut newly = Vec::new();
        for (index, color) in [(white, Color::White), (black, Color::Black)] {
            let failed = failed_to_start(record, color);
            let limit = self.limit;
            let Some(state) = self.bots.get_mut(index) else {
                continue;
            };
            if state.disabled.is_some() {
                continue;
            }
            if !failed {
                state.consecutive = 0;
                continue;
            }
            state.consecutive += 1;
            state.last = Some(start_failure(record, color));
            if limit > 0 && state.consecutive >= limit {
                let why = format!(
                    "disabled after {limit} start-up failures in a row (the last, game {}: {})",
                    record.game_id,
                    record.failure_message(color)
                );
                state.disabled = Some(why.clone());
                newly.push((index, why));
            }
        }
        newly
    }
}

/// `bot "x": ...`: the cause of `color`'s failure to start in `record`
/// (its first line on stderr, when the message quotes it).
fn start_failure(record: &GameRecord, color: Color) -> String {
    let name = match color {
        Color::White => &record.white,
        Color::Black => &record.black,
    };
    let (_, cause) = cause_of(record.failure_message(color));
    format!("bot {name:?}: {cause}")
}

/// Whether `color`'s bot failed to start in this game.
fn failed_to_start(record: &GameRecord, color: Color) -> bool {
    record.reason == Reason::Failure(FailureReason::Startup) && record.winner != Some(color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::record::record_with_result;
    use arena_rules::games::GameResult;

    /// A game neither of `a` and `b` started.
    fn both_failed(id: u64) -> GameRecord {
        let mut record = record_with_result(id, id / 2, "a", "b", GameResult::Draw);
        record.reason = Reason::Failure(FailureReason::Startup);
        record.played = false;
        record.message = "both failed: white (a): never answered hello; its first line on stderr: no a; black (b): process ended: exit code 2; last stderr line: no b".into();
        record
    }

    #[test]
    fn every_bot_disabled_is_said_once_with_their_causes() {
        let mut breaker = Breaker::new(2, 2);
        assert!(breaker.observe(0, 1, &both_failed(0)).is_empty());
        assert_eq!(breaker.all_disabled(), None);
        let disabled = breaker.observe(0, 1, &both_failed(1));
        assert_eq!(disabled.len(), 2);
        assert_eq!(
            disabled[0].1,
            "disabled after 2 start-up failures in a row (the last, game g1: never answered hello; its first line on stderr: no a)"
        );
        let all = breaker.all_disabled().unwrap();
        assert_eq!(
            all.line(),
            "every bot (2) failed to start 2 times in a row and is not started any more, so no game is left to play (bot \"a\": no a; bot \"b\": no b)"
        );
        // Never disabling: never all disabled.
        let mut never = Breaker::new(0, 2);
        for id in 0..5 {
            never.observe(0, 1, &both_failed(id));
        }
        assert_eq!(never.all_disabled(), None);
    }
}
