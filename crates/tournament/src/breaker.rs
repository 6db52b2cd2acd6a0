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

use arena_referee::GameRecord;
use arena_rules::games::Color;
use arena_rules::protocol::{FailureReason, Reason};

#[derive(Debug, Clone, Default)]
struct BotState {
    /// Start-up failures since the bot last started.
    consecutive: u32,
    /// Why the bot is no longer started, once it is disabled.
    disabled: Option<String>,
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
            if limit > 0 && state.consecutive >= limit {
                let why = format!(
                    "disabled after {limit} start-up failures in a row (the last, game {}: {})",
                    record.game_id, record.message
                );
                state.disabled = Some(why.clone());
                newly.push((index, why));
            }
        }
        newly
    }
}

/// Whether `color`'s bot failed to start in this game.
fn failed_to_start(record: &GameRecord, color: Color) -> bool {
    record.reason == Reason::Failure(FailureReason::Startup) && record.winner != Some(color)
}
