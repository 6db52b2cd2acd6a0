//! The round robin (or a gauntlet, the same schedule over fewer pairings)
//! as a [`Format`] of the driver: every game of the schedule (of this run's
//! shard), in schedule order, each computed when it is due.

use super::driver::{Format, RunState, Verdict};
use super::manifest::Manifest;
use super::progress::{RunKind, RunOutput, Standing};
use super::runner::Flow;
use super::schedule::{RoundRobinSchedule, ScheduledGame};
use super::shard::Shard;
use arena_referee::GameRow;

/// The scheduled games not played yet (of this run's shard), in schedule
/// order; which are finished is the driver's to know.
#[derive(Clone)]
pub struct RoundRobin {
    schedule: RoundRobinSchedule,
    shard: Shard,
    next_id: u64,
}

impl RoundRobin {
    /// Every game of `schedule`.
    pub fn new(schedule: RoundRobinSchedule) -> RoundRobin {
        RoundRobin {
            schedule,
            shard: Shard::WHOLE,
            next_id: 0,
        }
    }

    /// The round robin (or gauntlet) `manifest` plans, of its shard. Fails
    /// when an opening length no game allows makes its first games
    /// impossible (here, not mid-run).
    pub fn of(manifest: &Manifest) -> anyhow::Result<RoundRobin> {
        let schedule = super::manifest::round_robin_schedule(&manifest.config);
        for id in schedule.first_games() {
            schedule.game(id)?;
        }
        Ok(RoundRobin::new(schedule).with_shard(manifest.shard()))
    }

    /// Plays only `shard`'s games of the schedule.
    pub fn with_shard(mut self, shard: Shard) -> RoundRobin {
        self.shard = shard;
        self
    }

    /// Games this run plays: its shard's part of the schedule.
    pub fn games(&self) -> u64 {
        self.shard.games_of(self.schedule.len())
    }
}

impl Format for RoundRobin {
    fn kind(&self) -> RunKind<'_> {
        RunKind::RoundRobin {
            games: self.games(),
        }
    }

    fn total(&self) -> Option<u64> {
        Some(self.games())
    }

    fn next_game(&mut self, run: &RunState) -> anyhow::Result<Option<ScheduledGame>> {
        loop {
            let id = self.shard.next_game(self.next_id);
            if id >= self.schedule.len() {
                break;
            }
            self.next_id = id + 1;
            if !run.done.contains(id) {
                return self.schedule.game(id);
            }
        }
        Ok(None)
    }

    fn finished(&mut self, _row: &GameRow, _run: &RunState, _output: &mut dyn RunOutput) -> Flow {
        Flow::Continue
    }

    fn standing(&self, run: &RunState) -> Standing {
        Standing::RoundRobin {
            leader: run.tally.leader(),
        }
    }

    fn verdict(&self, _run: &RunState) -> Verdict {
        Verdict::Standings
    }
}
