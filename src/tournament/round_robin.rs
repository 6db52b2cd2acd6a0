//! A round-robin tournament from start (or resume) to standings.

use std::collections::{BTreeSet, VecDeque};
use std::path::PathBuf;

use anyhow::bail;

use super::config::TournamentConfig;
use super::manifest::{Manifest, Plan};
use super::progress::{Progress, Scoreboard};
use super::runner::{Flow, GameFeed, RunEnd};
use super::schedule::{round_robin, ScheduledGame};
use super::session::Session;
use crate::referee::format_time_control;
use crate::report::games_csv::GameRow;

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

/// The scheduled games not played yet, in schedule order.
pub struct RoundRobinFeed {
    pending: VecDeque<ScheduledGame>,
    board: Scoreboard,
}

impl RoundRobinFeed {
    pub fn new(schedule: &[ScheduledGame], finished: &[GameRow]) -> RoundRobinFeed {
        let done: BTreeSet<u64> = finished.iter().map(|r| r.id).collect();
        let mut board = Scoreboard::default();
        for row in finished {
            board.add(row);
        }
        RoundRobinFeed {
            pending: schedule
                .iter()
                .filter(|g| !done.contains(&g.id))
                .cloned()
                .collect(),
            board,
        }
    }

    pub fn remaining(&self) -> usize {
        self.pending.len()
    }
}

impl GameFeed for RoundRobinFeed {
    fn next_game(&mut self) -> anyhow::Result<Option<ScheduledGame>> {
        Ok(self.pending.pop_front())
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
            let schedule = round_robin(
                config.variant(),
                config.bots.len(),
                config.games_per_pairing,
                config.opening_plies,
                config.seed,
            )?;
            Session::create(Manifest::new(config, Plan::RoundRobin { schedule }))?
        }
        Start::Resume { dir, concurrency } => {
            let mut session = Session::resume(&dir)?;
            if let Some(n) = concurrency {
                session.manifest.config.concurrency = n.max(1);
            }
            session
        }
    };
    let Plan::RoundRobin { schedule } = session.manifest.plan.clone() else {
        bail!(
            "{} holds an SPRT run, not a round-robin tournament; resume it with arena sprt --resume",
            session.dir.display()
        );
    };
    let config = &session.manifest.config;
    println!(
        "Round robin: {} bots, {}, {} games ({} per pairing), {} (+{} ms grace), {} at a time, seed {}, openings of {} plies",
        config.bots.len(),
        config.variant,
        schedule.len(),
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
    if !session.finished.is_empty() {
        println!(
            "resume: {} of {} games already played",
            session.finished.len(),
            schedule.len()
        );
    }

    let mut feed = RoundRobinFeed::new(&schedule, &session.finished);
    let progress = Progress::new(
        (schedule.len() - feed.remaining()) as u64,
        Some(schedule.len() as u64),
        show_progress,
    );
    progress.set_status(feed.status());
    let summary = session.play(&mut feed, &progress);
    progress.finish();
    let summary = summary?;

    let mut rows = session.finished.clone();
    rows.extend(summary.played.iter().cloned());
    session.write_standings(&rows)?;

    let dir = session.dir.display();
    match summary.end {
        RunEnd::Interrupted => {
            println!(
                "\nInterrupted: {} of {} games played. Continue with: arena tournament --resume {dir}",
                rows.len(),
                schedule.len()
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
