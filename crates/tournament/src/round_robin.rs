//! A round-robin tournament (or a gauntlet, the same schedule over fewer
//! pairings) from start (or resume) to standings.

use std::path::PathBuf;

use anyhow::bail;

use super::config::TournamentConfig;
use super::game_set::GameSet;
use super::manifest::{round_robin_schedule, Manifest};
use super::progress::{Resumed, RunKind, RunOutcome, RunOutput, RunStarted, Scoreboard, Standing};
use super::runner::{Flow, GameFeed};
use super::schedule::{RoundRobinSchedule, ScheduledGame};
use super::session::Session;
use super::settings::Given;
use super::shard::Shard;
use arena_referee::GameRow;

/// How to begin.
#[derive(Debug)]
pub enum Start {
    New(TournamentConfig),
    /// Continue the run in `dir`, with the settings that may change on
    /// resume (`concurrency`, `rating_interval`) as given again.
    Resume {
        dir: PathBuf,
        given: Given,
    },
}

/// The scheduled games not played yet (of this run's shard), in schedule
/// order, each computed when it is due; finished games are one bit each.
pub struct RoundRobinFeed {
    schedule: RoundRobinSchedule,
    shard: Shard,
    next_id: u64,
    done: GameSet,
    board: Scoreboard,
    /// Games finished in all, before and during this run.
    finished: u64,
    /// `standings_due` every this many finished games (0: never).
    rating_interval: u64,
}

impl RoundRobinFeed {
    pub fn new(schedule: RoundRobinSchedule) -> RoundRobinFeed {
        RoundRobinFeed {
            schedule,
            shard: Shard::WHOLE,
            next_id: 0,
            done: GameSet::new(),
            board: Scoreboard::default(),
            finished: 0,
            rating_interval: 0,
        }
    }

    /// Asks the output for the standings every `n` finished games (0: never).
    pub fn with_rating_interval(mut self, n: u64) -> RoundRobinFeed {
        self.rating_interval = n;
        self
    }

    /// Plays only `shard`'s games of the schedule.
    pub fn with_shard(mut self, shard: Shard) -> RoundRobinFeed {
        self.shard = shard;
        self
    }

    /// Games this run plays: its shard's part of the schedule.
    pub fn total(&self) -> u64 {
        self.shard.games_of(self.schedule.len())
    }

    /// Counts a game finished before this run: it is not played again.
    pub fn add_finished(&mut self, row: &GameRow) {
        if self.done.insert(row.id) {
            self.board.add(row);
            self.finished += 1;
        }
    }

    /// Scheduled games not finished yet.
    pub fn remaining(&self) -> u64 {
        let total = self.total();
        total - self.done.len().min(total)
    }
}

impl GameFeed for RoundRobinFeed {
    fn next_game(&mut self) -> anyhow::Result<Option<ScheduledGame>> {
        loop {
            let id = self.shard.next_game(self.next_id);
            if id >= self.schedule.len() {
                break;
            }
            self.next_id = id + 1;
            if !self.done.contains(id) {
                return self.schedule.game(id);
            }
        }
        Ok(None)
    }

    fn finished(&mut self, row: &GameRow, output: &mut dyn RunOutput) -> Flow {
        self.board.add(row);
        self.finished += 1;
        // Not after the last game: the final standings follow.
        let last = self.finished >= self.total();
        if self.rating_interval > 0 && self.finished.is_multiple_of(self.rating_interval) && !last {
            output.standings_due(self.finished);
        }
        Flow::Continue
    }

    fn status(&self) -> Standing {
        Standing::RoundRobin {
            leader: self.board.leader(),
        }
    }
}

/// Runs (or resumes) a round-robin tournament, reporting to `output`, and
/// returns how it ended. Not every scheduled game is recorded when the run
/// was interrupted or some game could not be run (resume to replay it).
pub fn run(start: Start, output: &mut dyn RunOutput) -> anyhow::Result<RunOutcome> {
    let resuming = matches!(start, Start::Resume { .. });
    let mut session = match start {
        Start::New(config) => {
            // An opening length no game allows fails here, not mid-run.
            let schedule = round_robin_schedule(&config);
            for id in schedule.first_games() {
                schedule.game(id)?;
            }
            Session::create(Manifest::round_robin(config))?
        }
        Start::Resume { dir, given } => {
            let mut session = Session::resume(&dir)?;
            session.manifest.config.resume_with(&given)?;
            session
        }
    };
    let Some(schedule) = session.manifest.schedule() else {
        bail!(
            "{} holds an SPRT run, not a round-robin tournament; resume it with arena sprt --resume",
            session.dir.display()
        );
    };
    let mut feed = RoundRobinFeed::new(schedule)
        .with_shard(session.manifest.shard())
        .with_rating_interval(session.manifest.config.rating_interval);
    let total = feed.total();
    output.started(&RunStarted {
        config: &session.manifest.config,
        dir: &session.dir,
        kind: RunKind::RoundRobin { games: total },
    });

    session.visit_finished(|row| {
        feed.add_finished(&row);
        output.finished_earlier(&row);
        Ok(())
    })?;
    if resuming {
        output.resumed(&Resumed {
            repairs: &session.repairs,
            finished: session.finished,
            total: Some(total),
            standing: &feed.status(),
        });
    }
    output.playing(total - feed.remaining(), Some(total), &feed.status());
    let summary = session.play(&mut feed, output);
    output.stopped_playing();
    let summary = summary?;

    Ok(RunOutcome {
        dir: session.dir.clone(),
        end: summary.end,
        finished: session.finished + summary.played,
        total: Some(total),
        failed: summary.failed,
    })
}
