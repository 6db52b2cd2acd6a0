//! What a run reports while it runs, as typed events: the [`RunOutput`]
//! trait that the front end implements (the terminal one, with its progress
//! bar and tables, is `cli::output`), the data its events carry, and the
//! [`Scoreboard`] behind the round robin's "leader" status. Nothing here
//! prints; how an event looks is the implementation's choice, so a run can
//! go quietly (`struct Quiet; impl RunOutput for Quiet {}`), to a terminal,
//! or to a report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::config::TournamentConfig;
use super::manifest::SprtPlan;
use super::runner::RunEnd;
use arena_referee::GameRecord;
use arena_referee::GameRow;
use arena_stats::{Pentanomial, SprtStatus};

/// Receives the events of a tournament or SPRT run, in this order:
/// [`started`](RunOutput::started), when continuing a run
/// [`finished_earlier`](RunOutput::finished_earlier) for each game it had
/// finished and [`resumed`](RunOutput::resumed),
/// [`warning`](RunOutput::warning)s, [`playing`](RunOutput::playing), then
/// per game [`game_finished`](RunOutput::game_finished) (or
/// [`game_not_recorded`](RunOutput::game_not_recorded)),
/// [`bot_disabled`](RunOutput::bot_disabled) when the game disabled a bot,
/// [`sprt_pair`](RunOutput::sprt_pair) when the game completed an SPRT pair,
/// [`standings_due`](RunOutput::standings_due) every `rating_interval`
/// finished games (but the last), and [`progress`](RunOutput::progress); then
/// [`stopped_playing`](RunOutput::stopped_playing). How the run ended is not
/// an event: `run` returns it as data, and the front end then rates the
/// finished games (`report::rating::rate_run`) and shows the standings.
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
    fn playing(&mut self, _done: u64, _total: Option<u64>, _standing: &Standing) {}
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
    /// One more game counted; where the run stands now.
    fn progress(&mut self, _standing: &Standing) {}
    /// A game the run had finished before it was resumed (for a front end
    /// that keeps its own tally, e.g. for [`standings_due`](RunOutput::standings_due)).
    fn finished_earlier(&mut self, _row: &GameRow) {}
    /// `finished` games are finished in all (earlier ones included), a
    /// multiple of the config's `rating_interval`: time to show the
    /// standings so far (rated by the front end: this layer does not rate).
    fn standings_due(&mut self, _finished: u64) {}
    /// No more games will be played in this run.
    fn stopped_playing(&mut self) {}
}

/// How a run ended: what `run` returns, from which the front end chooses
/// its last words and the exit status.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub dir: PathBuf,
    pub end: RunEnd,
    /// Games finished in all, before and during this run.
    pub finished: u64,
    /// Games the run plans (`None`: open-ended, as an SPRT).
    pub total: Option<u64>,
    /// Games of this run that could not be run: (game id, why).
    pub failed: Vec<(u64, String)>,
}

/// A run's settings, as it starts.
#[derive(Debug, Clone, Copy)]
pub struct RunStarted<'a> {
    pub config: &'a TournamentConfig,
    pub dir: &'a Path,
    pub kind: RunKind<'a>,
}

/// What kind of run, with what only that kind has.
#[derive(Debug, Clone, Copy)]
pub enum RunKind<'a> {
    /// Every scheduled game, `games` in all.
    RoundRobin { games: u64 },
    /// Pairs between bot 0 (A) and bot 1 (B) until the test decides; the
    /// LLR bounds follow from the plan.
    Sprt {
        plan: &'a SprtPlan,
        lower: f64,
        upper: f64,
    },
}

/// A run continued from its directory.
#[derive(Debug, Clone, Copy)]
pub struct Resumed<'a> {
    /// What recovering the journal repaired, one sentence each.
    pub repairs: &'a [String],
    /// Games finished before this run.
    pub finished: u64,
    /// Games the run plans (`None`: open-ended, as an SPRT).
    pub total: Option<u64>,
    /// Where the run stands with those games.
    pub standing: &'a Standing,
}

/// Where a run stands: what a progress display shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// The round robin's leader (`None` before any game).
    RoundRobin {
        leader: Option<Leader>,
    },
    Sprt(SprtProgress),
}

/// The bot with the most points so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leader {
    pub name: String,
    /// Points times two (a draw is one).
    pub half_points: u64,
    pub games: u64,
}

/// The state of an SPRT after its completed pairs. More figures (an Elo
/// estimate, LOS) are more fields here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtProgress {
    pub status: SprtStatus,
    pub counts: Pentanomial,
}

/// Points per bot over finished games, for the "leader" status.
#[derive(Debug, Default, Clone)]
pub struct Scoreboard {
    /// Bot name -> (half-points, games).
    points: BTreeMap<String, (u64, u64)>,
}

impl Scoreboard {
    pub fn add(&mut self, row: &GameRow) {
        let white_score = row.result.white_score();
        let white_half = (white_score * 2.0).round() as u64;
        let w = self.points.entry(row.white.clone()).or_default();
        w.0 += white_half;
        w.1 += 1;
        let b = self.points.entry(row.black.clone()).or_default();
        b.0 += 2 - white_half;
        b.1 += 1;
    }

    /// The bot with the most points (the fewest games on a tie).
    pub fn leader(&self) -> Option<Leader> {
        let best = self.points.iter().max_by(|a, b| {
            (a.1 .0, std::cmp::Reverse(a.1 .1)).cmp(&(b.1 .0, std::cmp::Reverse(b.1 .1)))
        });
        best.map(|(name, &(half_points, games))| Leader {
            name: name.clone(),
            half_points,
            games,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(white: &str, black: &str, result: &str) -> GameRow {
        arena_referee::row::row_with_result(0, 0, white, black, result.parse().unwrap())
    }

    fn leader(name: &str, half_points: u64, games: u64) -> Option<Leader> {
        Some(Leader {
            name: name.into(),
            half_points,
            games,
        })
    }

    #[test]
    fn leader_has_most_points() {
        let mut board = Scoreboard::default();
        assert_eq!(board.leader(), None);
        board.add(&row("a", "b", "1-0"));
        board.add(&row("b", "c", "1/2-1/2"));
        board.add(&row("c", "a", "1-0"));
        board.add(&row("b", "a", "0-1"));
        // a: won twice, lost once; b: one draw; c: a draw and a win.
        assert_eq!(board.leader(), leader("a", 4, 3));
        board.add(&row("c", "b", "1-0"));
        // c: 2.5 of 3 beats a's 2 of 3.
        assert_eq!(board.leader(), leader("c", 5, 3));
    }

    #[test]
    fn a_tie_goes_to_the_bot_with_fewer_games() {
        let mut board = Scoreboard::default();
        board.add(&row("a", "b", "1-0"));
        board.add(&row("c", "b", "1-0"));
        board.add(&row("c", "b", "0-1"));
        // a and c have 1 point each; a in one game, c in two.
        assert_eq!(board.leader(), leader("a", 2, 1));
    }
}
