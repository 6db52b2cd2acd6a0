//! What a run reports while it runs, as typed events: the [`RunOutput`]
//! trait that the front end implements (the terminal one, with its progress
//! bar and tables, is `cli::output`), and the data its events carry. Nothing
//! here prints; how an event looks is the implementation's choice, so a run
//! can go quietly (`struct Quiet; impl RunOutput for Quiet {}`), to a
//! terminal, or to a report.

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use super::breaker::AllDisabled;
use super::config::TournamentConfig;
use super::live::LiveGames;
use arena_referee::GameRecord;
use arena_referee::GameRow;
use arena_referee::RepeatedFailure;
pub use arena_stats::Leader;
use arena_stats::{points_text, Pentanomial, SprtStatus, Tally};

/// Receives the events of a run of any format, in this order: [`started`](RunOutput::started),
/// [`resumed`](RunOutput::resumed) when continuing a run,
/// [`warning`](RunOutput::warning)s, [`playing`](RunOutput::playing),
/// [`checking_starts`](RunOutput::checking_starts) when there is a game to
/// play, then
/// per game [`game_finished`](RunOutput::game_finished) (or
/// [`game_not_recorded`](RunOutput::game_not_recorded)),
/// [`bot_disabled`](RunOutput::bot_disabled) when the game disabled a bot,
/// [`sprt_pair`](RunOutput::sprt_pair) when the game completed an SPRT pair,
/// [`round_paired`](RunOutput::round_paired) when it completed a Swiss or
/// knockout round (or a stage of one) and the next is paired,
/// [`standings_due`](RunOutput::standings_due) every `rating_interval`
/// finished games (but the last), and [`progress`](RunOutput::progress);
/// on a first Ctrl-C [`finishing`](RunOutput::finishing) (the games in flight
/// still end as above), on a second one or SIGTERM
/// [`stopping_now`](RunOutput::stopping_now); then
/// [`stopped_playing`](RunOutput::stopped_playing). How the run ended is not
/// an event: the driver ([`super::driver::run`]) returns it as data with the
/// run's tally, and the front end then rates the tally
/// (`report::rating::rate_run`) and shows the standings.
///
/// Every method does nothing by default, so an implementation names only the
/// events it shows (a quiet one names none), and a new event is one more
/// method that the other implementations need not know about.
pub trait RunOutput {
    /// The run's settings and output directory.
    fn started(&mut self, _run: &RunStarted) {}
    /// A run continued from its directory: what recovery repaired and how
    /// far it had got.
    fn resumed(&mut self, _resumed: &Resumed) {}
    /// Something the user should know before games start (e.g. a bot
    /// program that cannot be found).
    fn warning(&mut self, _text: &str) {}
    /// Games are about to start, `done` of `total` (`None`: open-ended).
    fn playing(&mut self, _done: u64, _total: Option<u64>, _status: &RunStatus) {}
    /// Each of the run's `bots` is being started once before the first
    /// game ([`crate::start_check`]); the games follow.
    fn checking_starts(&mut self, _bots: usize) {}
    /// A game ended and is journaled. `record.message` is the referee's
    /// explanation when a bot failed.
    fn game_finished(&mut self, _row: &GameRow, _record: &GameRecord) {}
    /// A game the referee could not run (or whose task panicked); it is not
    /// recorded and `--resume` plays it again.
    fn game_not_recorded(&mut self, _game_id: u64, _why: &str) {}
    /// Bot `name` failed to start too many times in a row and is no longer
    /// started: its remaining games are lost at once (`why` says so).
    fn bot_disabled(&mut self, _name: &str, _why: &str) {}
    /// An SPRT pair is complete (`pair` is its index).
    fn sprt_pair(&mut self, _pair: u64, _progress: &SprtProgress) {}
    /// A Swiss or knockout round (or a knockout's tie-break pairs) is
    /// paired, after the game that completed the round before it. (The
    /// first round is in [`RunStarted`]'s lines.)
    fn round_paired(&mut self, _round: &PairedRound) {}
    /// One more game counted; where the run stands now.
    fn progress(&mut self, _status: &RunStatus) {}
    /// `finished` games are finished in all (earlier ones included), a
    /// multiple of the config's `rating_interval`: time to show the
    /// standings so far, rated by the front end from the run's `tally`
    /// (this layer does not rate).
    fn standings_due(&mut self, _finished: u64, _tally: &Tally) {}
    /// The first Ctrl-C (SIGINT): the `games` in flight finish (each then
    /// reported as usual), no other starts, and the run ends interrupted.
    /// Another Ctrl-C stops at once.
    fn finishing(&mut self, _games: usize) {}
    /// A second Ctrl-C, or SIGTERM: the run stops at once, and the
    /// `abandoned` games in flight are not recorded (`--resume` plays them).
    fn stopping_now(&mut self, _abandoned: usize) {}
    /// No more games will be played in this run.
    fn stopped_playing(&mut self) {}
    /// Where the runner publishes the games being played, move by move
    /// (the live page of `--serve`); `None`, the default, publishes nothing.
    fn live_games(&self) -> Option<Arc<LiveGames>> {
        None
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// The feed had no more games and every started game finished.
    Complete,
    /// The feed asked to stop.
    Stopped,
    /// SIGINT or SIGTERM (after the games in flight finished, or at once).
    Interrupted,
    /// The referee itself failed [`STOP_AFTER`](super::runner::STOP_AFTER) times in a row (out of
    /// descriptors, processes, memory or disk): fix that, then resume.
    RefereeFailing(RepeatedFailure),
    /// Every bot failed to start too many times in a row (the start-up
    /// circuit breaker disabled each): fix them, then resume.
    BotsDisabled(AllDisabled),
}

/// How a run ended: what `run` returns, from which the front end chooses
/// its last words and the exit status.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub dir: PathBuf,
    pub end: RunEnd,
    /// Games finished in all, before and during this run.
    pub finished: u64,
    /// Games the run plans (`None`: open-ended, as an SPRT without a pair
    /// limit).
    pub total: Option<u64>,
    /// Games of this run that could not be run: (game id, why).
    pub failed: Vec<(u64, String)>,
}

/// A run's settings, as it starts.
#[derive(Debug, Clone, Copy)]
pub struct RunStarted<'a> {
    pub config: &'a TournamentConfig,
    pub dir: &'a Path,
    /// The format's name ([`crate::manifest::Plan::kind`]).
    pub format: &'a str,
    /// Games the run plans (`None`: open-ended).
    pub total: Option<u64>,
    /// What the format says of the run as it starts: its settings and
    /// output directory (and a Swiss's or knockout's first round).
    pub lines: &'a [String],
}

/// A round as it is paired: its boards (bot names, the first the
/// higher-ranked or seeded one) and the bots with a bye.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairedRound {
    /// "Round 2 of 5", "Round 1, tie-break pair 1".
    pub title: String,
    pub boards: Vec<[String; 2]>,
    pub byes: Vec<String>,
}

/// A run continued from its directory.
#[derive(Debug, Clone, Copy)]
pub struct Resumed<'a> {
    /// What recovering the journal repaired, one sentence each.
    pub repairs: &'a [String],
    /// Games finished before this run.
    pub finished: u64,
    /// Games the run plans (`None`: open-ended, as an SPRT without a pair
    /// limit).
    pub total: Option<u64>,
    /// Where the run stands with those games.
    pub status: &'a RunStatus,
}

/// Where a run stands, in its format's words: what a progress display
/// shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunStatus {
    /// A few words for a progress bar (the leader; an SPRT's pairs and
    /// LLR); empty before there is anything to say.
    pub brief: String,
    /// What a resumed run says after the games already played (an SPRT's
    /// LLR and counts); `None`: the count says it all.
    pub resumed: Option<String>,
}

impl RunStatus {
    /// The status of a run whose standings say it all: the leader
    /// (`leader: NAME 7.5/10`), nothing before any game.
    pub fn leader(leader: Option<Leader>) -> RunStatus {
        let brief = leader.map_or(String::new(), |leader| {
            let points = points_text(leader.half_points);
            format!("leader: {} {points}/{}", leader.name, leader.games)
        });
        RunStatus {
            brief,
            resumed: None,
        }
    }
}

/// The state of an SPRT after its completed pairs. More figures (an Elo
/// estimate, LOS) are more fields here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtProgress {
    pub status: SprtStatus,
    pub counts: Pentanomial,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_shows_half_points() {
        let leader = |half_points, games| {
            RunStatus::leader(Some(Leader {
                name: "a".into(),
                half_points,
                games,
            }))
            .brief
        };
        assert_eq!(leader(4, 3), "leader: a 2/3");
        assert_eq!(leader(5, 3), "leader: a 2.5/3");
        assert_eq!(leader(1, 1), "leader: a 0.5/1");
        assert_eq!(RunStatus::leader(None).brief, "");
    }
}
