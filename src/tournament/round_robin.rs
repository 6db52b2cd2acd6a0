//! A round-robin tournament from start (or resume) to standings.

use std::path::PathBuf;

use anyhow::bail;

use super::config::TournamentConfig;
use super::game_set::GameSet;
use super::manifest::{round_robin_schedule, Manifest};
use super::progress::{Progress, Scoreboard};
use super::runner::{Flow, GameFeed, RunEnd};
use super::schedule::{RoundRobinSchedule, ScheduledGame};
use super::session::Session;
use crate::referee::format_time_control;
use crate::referee::GameRow;

/// Exit status after Ctrl-C / SIGTERM, as shells report a SIGINT death.
pub const EXIT_INTERRUPTED: i32 = 130;

/// How to begin.
#[derive(Debug)]
pub enum Start {
    New(TournamentConfig),
    /// Continue the run in `dir`, optionally with another concurrency.
    Resume {
        dir: PathBuf,
        concurrency: Option<usize>,
    },
}

/// The scheduled games not played yet, in schedule order, each computed
/// when it is due; finished games are one bit each.
pub struct RoundRobinFeed {
    schedule: RoundRobinSchedule,
    next_id: u64,
    done: GameSet,
    board: Scoreboard,
}

impl RoundRobinFeed {
    pub fn new(schedule: RoundRobinSchedule) -> RoundRobinFeed {
        RoundRobinFeed {
            schedule,
            next_id: 0,
            done: GameSet::new(),
            board: Scoreboard::default(),
        }
    }

    /// Counts a game finished before this run: it is not played again.
    pub fn add_finished(&mut self, row: &GameRow) {
        if self.done.insert(row.id) {
            self.board.add(row);
        }
    }

    /// Scheduled games not finished yet.
    pub fn remaining(&self) -> u64 {
        let done_in_schedule = self.done.len().min(self.schedule.len());
        self.schedule.len() - done_in_schedule
    }
}

impl GameFeed for RoundRobinFeed {
    fn next_game(&mut self) -> anyhow::Result<Option<ScheduledGame>> {
        while self.next_id < self.schedule.len() {
            let id = self.next_id;
            self.next_id += 1;
            if !self.done.contains(id) {
                return self.schedule.game(id);
            }
        }
        Ok(None)
    }

    fn finished(&mut self, row: &GameRow) -> (Flow, Vec<String>) {
        self.board.add(row);
        (Flow::Continue, Vec::new())
    }

    fn status(&self) -> String {
        self.board.leader()
    }
}

/// Runs (or resumes) a round-robin tournament; returns the exit status:
/// 0 when every scheduled game is recorded, 1 when some game could not be
/// run (resume to replay it), 130 when interrupted.
pub fn run(start: Start, show_progress: bool) -> anyhow::Result<i32> {
    let mut session = match start {
        Start::New(config) => {
            // An opening length no game allows fails here, not mid-run.
            let schedule = round_robin_schedule(&config);
            schedule.game(0)?;
            Session::create(Manifest::round_robin(config))?
        }
        Start::Resume { dir, concurrency } => {
            let mut session = Session::resume(&dir)?;
            if let Some(n) = concurrency {
                session.manifest.config.concurrency = n.max(1);
            }
            session
        }
    };
    let Some(schedule) = session.manifest.schedule() else {
        bail!(
            "{} holds an SPRT run, not a round-robin tournament; resume it with arena sprt --resume",
            session.dir.display()
        );
    };
    let total = schedule.len();
    let config = &session.manifest.config;
    println!(
        "Round robin: {} bots, {}, {} games ({} per pairing), {} (+{} ms grace), {} at a time, seed {}, openings of {} plies",
        config.bots.len(),
        config.variant,
        total,
        config.games_per_pairing,
        format_time_control(&config.time_control),
        config.grace_ms,
        config.concurrency,
        config.seed,
        config.opening_plies,
    );
    println!("Output: {}", session.dir.display());
    for repair in &session.repairs {
        println!("resume: {repair}");
    }
    if session.finished > 0 {
        println!(
            "resume: {} of {} games already played",
            session.finished, total
        );
    }

    let mut feed = RoundRobinFeed::new(schedule);
    session.visit_finished(|row| {
        feed.add_finished(&row);
        Ok(())
    })?;
    let progress = Progress::new(total - feed.remaining(), Some(total), show_progress);
    progress.set_status(feed.status());
    let summary = session.play(&mut feed, &progress);
    progress.finish();
    let summary = summary?;

    session.write_standings()?;
    let finished = session.finished + summary.played;

    let dir = session.dir.display();
    match summary.end {
        RunEnd::Interrupted => {
            println!(
                "\nInterrupted: {} of {} games played. Continue with: arena tournament --resume {dir}",
                finished, total
            );
            Ok(EXIT_INTERRUPTED)
        }
        _ if !summary.failed.is_empty() => {
            println!(
                "\n{} games could not be run (see above); play them with: arena tournament --resume {dir}",
                summary.failed.len()
            );
            Ok(1)
        }
        _ => Ok(0),
    }
}
