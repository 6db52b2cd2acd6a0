//! What a run reports through `RunOutput`, seen by a recording
//! implementation: the events of a small round robin (new, then resumed
//! when already complete), of an SPRT that reaches its pair limit (new,
//! then resumed with games missing) and of standings shown every
//! `rating_interval` games, and the exit status the command line chooses
//! from what the driver returns. The bots are `arena-instant-bot`, so the
//! runs take milliseconds.

use crate::common::INSTANT_BOT;
use std::path::Path;

use arena::referee::GameRecord;
use arena::referee::GameRow;
use arena::report::rating::rate_run;
use arena::stats::Tally;
use arena::tournament::config::Defaults;
use arena::tournament::driver::{self, Finished, Start};
use arena::tournament::format::verdict_as;
use arena::tournament::manifest::Plan;
use arena::tournament::progress::{Resumed, RunOutput, RunStarted, RunStatus, SprtProgress};
use arena::tournament::runner::RunEnd;
use arena::tournament::settings::defs::{GAMES_PER_PAIRING, OPENING_PLIES};
use arena::tournament::settings::{from_given, Command, Given};
use arena::tournament::sprt::{SprtPlan, SprtVerdict};
use arena::tournament::testing;
use arena::tournament::{Manifest, TournamentConfig};

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
    StandingsDue { finished: u64, games: u64 },
    Standings { games: Option<u64> },
    Files { count: usize },
}

#[derive(Default)]
struct Recorder(Vec<Event>);

impl RunOutput for Recorder {
    fn started(&mut self, run: &RunStarted) {
        // An SPRT's games are open-ended, whatever its pair limit.
        let sprt = run.format == "sprt";
        let games = run.total.filter(|_| !sprt);
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
    fn playing(&mut self, done: u64, total: Option<u64>, _status: &RunStatus) {
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
    fn progress(&mut self, _status: &RunStatus) {
        self.0.push(Event::Progress);
    }
    fn standings_due(&mut self, finished: u64, tally: &Tally) {
        self.0.push(Event::StandingsDue {
            finished,
            games: tally.games(),
        });
    }
    fn stopped_playing(&mut self) {
        self.0.push(Event::StoppedPlaying);
    }
}

impl Recorder {
    /// What the front end does once the driver returns: rate the run's
    /// tally (writing the rating files) and show the standings and the files.
    fn rate(&mut self, finished: &Finished) {
        let seeds = &finished.manifest.config.seeds;
        let rated = rate_run(&finished.run.dir, &finished.tally, seeds).unwrap();
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
        .with(&GAMES_PER_PAIRING, games.to_string())
        .with(&OPENING_PLIES, "2");
    let defaults = Defaults {
        seed: 5,
        out: out.to_path_buf(),
        current_dir: std::env::temp_dir(),
        ..testing::defaults()
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
    let start = Start::New(Box::new(Manifest::round_robin(config(&out, 4))));
    let finished = driver::run(start, &mut events).unwrap();
    events.rate(&finished);

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
    let outcome = &finished.run;
    assert_eq!(outcome.end, RunEnd::Complete);
    assert_eq!((outcome.finished, outcome.total), (4, Some(4)));
    assert!(outcome.failed.is_empty());
    assert_eq!(finished.tally.games(), 4);
    assert_eq!(arena::cli::tournament::exit_status(&finished), 0);

    // Resuming the finished run plays nothing and reports the same
    // standings (once the first run let go of the directory's lock).
    drop(finished);
    let mut events = Recorder::default();
    let start = Start::Resume {
        dir: out.clone(),
        given: Given::new(),
    };
    let finished = driver::run(start, &mut events).unwrap();
    events.rate(&finished);
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
    assert_eq!(finished.run.finished, 4);
    // The earlier games are in the tally.
    assert_eq!(finished.tally.games(), 4);
}

/// An SPRT of `pairs` pairs at most in `out`, between `a` and `b`.
fn sprt_start(out: &Path, max_pairs: u64) -> Start {
    let mut config = config(out, 2);
    config.games_per_pairing = 2;
    // So few pairs cannot reach an LLR bound of about 2.94.
    let plan = SprtPlan {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        max_pairs: Some(max_pairs),
        model: arena::stats::EloModel::Normalized,
    };
    Start::New(Box::new(Manifest::new(config, Plan::of(&plan))))
}

/// The events of SPRT pairs `pairs` played one game after another.
fn sprt_pairs(pairs: std::ops::Range<u64>) -> Vec<Event> {
    pairs
        .flat_map(|pair| {
            let mut events = games(2 * pair..2 * pair + 1);
            events.extend([
                Event::GameFinished { id: 2 * pair + 1 },
                Event::SprtPair {
                    pair,
                    pairs: pair + 1,
                },
                Event::Progress,
            ]);
            events
        })
        .collect()
}

#[test]
fn an_sprt_reports_each_pair_and_ends_undecided_at_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut events = Recorder::default();
    let finished = driver::run(sprt_start(&out, 2), &mut events).unwrap();
    events.rate(&finished);

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
    expected.extend(sprt_pairs(0..2));
    expected.extend([
        Event::StoppedPlaying,
        Event::Standings { games: Some(4) },
        Event::Files { count: FILES },
    ]);
    assert_eq!(events.0, expected);
    let Some(verdict) = verdict_as::<SprtVerdict>(finished.verdict.as_ref()) else {
        panic!("an SPRT's verdict: {:?}", finished.verdict)
    };
    assert_eq!(verdict.progress.status.pairs, 2);
    // The test's counts are the tally's.
    assert_eq!(
        verdict.progress.counts,
        finished.tally.pentanomial("a", "b")
    );
    assert_eq!(finished.run.end, RunEnd::Complete);
    assert_eq!(
        arena::cli::tournament::exit_status(&finished),
        arena::cli::sprt::EXIT_UNDECIDED
    );
}

/// An SPRT resumed with its last pair missing (as after a kill) plays
/// exactly that pair: the resumed pairs count on from the earlier ones,
/// and it ends as an SPRT, undecided at its limit.
#[test]
fn a_resumed_sprt_plays_its_missing_pair_and_ends_as_an_sprt() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    driver::run(sprt_start(&out, 3), &mut Recorder::default()).unwrap();
    // The last pair's games were never recorded.
    for (file, keep) in [("games.csv", 1 + 4), ("games.jsonl", 4)] {
        let path = out.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: String = text.lines().take(keep).map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, kept).unwrap();
    }
    let mut events = Recorder::default();
    let start = Start::Resume {
        dir: out.clone(),
        given: Given::new(),
    };
    let finished = driver::run(start, &mut events).unwrap();
    let mut expected = vec![
        Event::Started {
            sprt: true,
            games: None,
        },
        Event::Resumed {
            finished: 4,
            total: Some(6),
        },
        Event::Playing {
            done: 4,
            total: Some(6),
        },
    ];
    expected.extend(games(4..5));
    expected.extend([
        Event::GameFinished { id: 5 },
        Event::SprtPair { pair: 2, pairs: 3 },
        Event::Progress,
        Event::StoppedPlaying,
    ]);
    assert_eq!(events.0, expected);
    assert_eq!(finished.tally.games(), 6);
    assert_eq!(
        arena::cli::tournament::exit_status(&finished),
        arena::cli::sprt::EXIT_UNDECIDED
    );
}

/// With `rating_interval` 3, the standings are due after 3 and 6 games of
/// 8 (not after the last, which the final standings follow), each time
/// over every game finished so far.
#[test]
fn standings_are_due_every_rating_interval_but_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut config = config(&out, 8);
    config.rating_interval = 3;
    let mut events = Recorder::default();
    let start = Start::New(Box::new(Manifest::round_robin(config)));
    driver::run(start, &mut events).unwrap();
    let due: Vec<&Event> = events
        .0
        .iter()
        .filter(|e| matches!(e, Event::StandingsDue { .. }))
        .collect();
    assert_eq!(
        due,
        [
            &Event::StandingsDue {
                finished: 3,
                games: 3
            },
            &Event::StandingsDue {
                finished: 6,
                games: 6
            },
        ]
    );
    // Each right after its game, before its progress event.
    let at = events
        .0
        .iter()
        .position(|e| matches!(e, Event::StandingsDue { .. }))
        .unwrap();
    assert_eq!(events.0[at - 1], Event::GameFinished { id: 2 });
    assert_eq!(events.0[at + 1], Event::Progress);
}
