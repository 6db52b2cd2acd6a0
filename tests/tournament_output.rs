//! What a run reports through `RunOutput`, seen by a recording
//! implementation: the events of a small round robin (new, then resumed
//! when already complete) and of an SPRT that reaches its pair limit, and
//! the exit status the command line chooses from what the run returns.
//! The bots are `arena-instant-bot`, so the runs take milliseconds.

use std::path::Path;

use arena::referee::GameRecord;
use arena::referee::GameRow;
use arena::report::rating::rate_run;
use arena::tournament::config::{from_given, Defaults};
use arena::tournament::manifest::SprtPlan;
use arena::tournament::progress::{
    Resumed, RunKind, RunOutput, RunStarted, SprtProgress, Standing,
};
use arena::tournament::runner::RunEnd;
use arena::tournament::settings::{Command, Given};
use arena::tournament::{round_robin, sprt, TournamentConfig};

const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");

/// One event, with what a test checks of it.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    Started { sprt: bool, games: Option<u64> },
    Resumed { finished: u64, total: Option<u64> },
    Warning,
    Playing { done: u64, total: Option<u64> },
    GameFinished { id: u64 },
    NotRecorded { id: u64 },
    SprtPair { pair: u64, pairs: u64 },
    Progress,
    StoppedPlaying,
    Standings { games: Option<u64> },
    Files { count: usize },
}

#[derive(Default)]
struct Recorder(Vec<Event>);

impl RunOutput for Recorder {
    fn started(&mut self, run: &RunStarted) {
        let (sprt, games) = match run.kind {
            RunKind::RoundRobin { games } => (false, Some(games)),
            RunKind::Sprt { .. } => (true, None),
        };
        self.0.push(Event::Started { sprt, games });
    }
    fn resumed(&mut self, resumed: &Resumed) {
        self.0.push(Event::Resumed {
            finished: resumed.finished,
            total: resumed.total,
        });
    }
    fn warning(&mut self, _text: &str) {
        self.0.push(Event::Warning);
    }
    fn playing(&mut self, done: u64, total: Option<u64>, _standing: &Standing) {
        self.0.push(Event::Playing { done, total });
    }
    fn game_finished(&mut self, row: &GameRow, _record: &GameRecord) {
        self.0.push(Event::GameFinished { id: row.id });
    }
    fn game_not_recorded(&mut self, game_id: u64, _why: &str) {
        self.0.push(Event::NotRecorded { id: game_id });
    }
    fn sprt_pair(&mut self, pair: u64, progress: &SprtProgress) {
        self.0.push(Event::SprtPair {
            pair,
            pairs: progress.status.pairs,
        });
    }
    fn progress(&mut self, _standing: &Standing) {
        self.0.push(Event::Progress);
    }
    fn stopped_playing(&mut self) {
        self.0.push(Event::StoppedPlaying);
    }
}

impl Recorder {
    /// What the front end does once `run` returns: rate the finished games
    /// (writing the rating files) and show the standings and the files.
    fn rate(&mut self, dir: &Path) {
        let rated = rate_run(dir).unwrap();
        let games = rated
            .report
            .as_ref()
            .and_then(|r| r.overall())
            .map(|r| r.standings.games);
        self.0.push(Event::Standings { games });
        self.0.push(Event::Files {
            count: rated.files.len(),
        });
    }
}

/// Two instant bots, one game at a time (so events come in game order).
fn config(out: &Path, games: u32) -> TournamentConfig {
    let given = Given::new()
        .with_bot(format!("a={INSTANT_BOT}"))
        .with_bot(format!("b={INSTANT_BOT}"))
        .with("games_per_pairing", games.to_string())
        .with("opening_plies", "2");
    let defaults = Defaults {
        concurrency: 1,
        seed: 5,
        out: out.to_path_buf(),
        current_dir: std::env::temp_dir(),
    };
    from_given(Command::Tournament, &given, &defaults, Vec::new())
        .unwrap()
        .config
}

/// The events of playing games `ids` one after another.
fn games(ids: std::ops::Range<u64>) -> Vec<Event> {
    ids.flat_map(|id| [Event::GameFinished { id }, Event::Progress])
        .collect()
}

/// games.csv, games.jsonl, tournament.json, logs/, the four rating files and report.html.
const FILES: usize = 9;

#[test]
fn a_round_robin_reports_each_game_then_the_standings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut events = Recorder::default();
    let start = round_robin::Start::New(config(&out, 4));
    let outcome = round_robin::run(start, &mut events).unwrap();
    events.rate(&outcome.dir);

    let mut expected = vec![
        Event::Started {
            sprt: false,
            games: Some(4),
        },
        Event::Playing {
            done: 0,
            total: Some(4),
        },
    ];
    expected.extend(games(0..4));
    expected.extend([
        Event::StoppedPlaying,
        Event::Standings { games: Some(4) },
        Event::Files { count: FILES },
    ]);
    assert_eq!(events.0, expected);
    assert_eq!(outcome.end, RunEnd::Complete);
    assert_eq!((outcome.finished, outcome.total), (4, Some(4)));
    assert!(outcome.failed.is_empty());
    assert_eq!(arena::cli::tournament::exit_status(&outcome), 0);

    // Resuming the finished run plays nothing and reports the same standings.
    let mut events = Recorder::default();
    let start = round_robin::Start::Resume {
        dir: out.clone(),
        given: Given::new(),
    };
    let outcome = round_robin::run(start, &mut events).unwrap();
    events.rate(&outcome.dir);
    assert_eq!(
        events.0,
        [
            Event::Started {
                sprt: false,
                games: Some(4)
            },
            Event::Resumed {
                finished: 4,
                total: Some(4)
            },
            Event::Playing {
                done: 4,
                total: Some(4)
            },
            Event::StoppedPlaying,
            Event::Standings { games: Some(4) },
            Event::Files { count: FILES },
        ]
    );
    assert_eq!(outcome.finished, 4);
}

#[test]
fn an_sprt_reports_each_pair_and_ends_undecided_at_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut config = config(&out, 2);
    config.games_per_pairing = 2;
    // Two pairs cannot reach an LLR bound of about 2.94.
    let plan = SprtPlan {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        max_pairs: Some(2),
        model: arena::stats::EloModel::Normalized,
    };
    let mut events = Recorder::default();
    let outcome = sprt::run(sprt::Start::New(Box::new(config), plan), &mut events).unwrap();
    events.rate(&outcome.run.dir);

    let mut expected = vec![
        Event::Started {
            sprt: true,
            games: None,
        },
        Event::Playing {
            done: 0,
            total: Some(4),
        },
    ];
    for pair in 0..2 {
        expected.extend(games(2 * pair..2 * pair + 1));
        expected.extend([
            Event::GameFinished { id: 2 * pair + 1 },
            Event::SprtPair {
                pair,
                pairs: pair + 1,
            },
            Event::Progress,
        ]);
    }
    expected.extend([
        Event::StoppedPlaying,
        Event::Standings { games: Some(4) },
        Event::Files { count: FILES },
    ]);
    assert_eq!(events.0, expected);
    assert_eq!(outcome.progress.status.pairs, 2);
    assert_eq!(outcome.run.end, RunEnd::Complete);
    assert_eq!(
        arena::cli::sprt::exit_status(&outcome),
        arena::cli::sprt::EXIT_UNDECIDED
    );
}
