//! A format added outside arena, as docs/CONTRIBUTING.md ("Adding a
//! format") says one is added: its module ([`first_to`]: the plan, the
//! games, when to stop, what it says) and one registry line
//! (`Formats::builtin().with(first_to::FORMAT)`). It plays real games
//! through the driver (two instant bots, each game from its own opening),
//! journals and resumes them like any run, and its verdict is what the
//! recorded games say.

use std::path::Path;

use arena::games::GameResult;
use arena::referee::GameRow;
use arena::tournament::config::Defaults;
use arena::tournament::driver::{self, Start};
use arena::tournament::format::verdict_as;
use arena::tournament::games_reader::visit_games_csv;
use arena::tournament::progress::RunOutput;
use arena::tournament::registry::Formats;
use arena::tournament::settings::defs::OPENING_PLIES;
use arena::tournament::settings::{from_given, Command, Given};
use arena::tournament::{Manifest, Plan};

const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");

/// The format: games between bot 0 and bot 1, colours alternating, each
/// from its own seeded opening, until one of them has won `wins` games (a
/// draw counts for neither) or `max_games` are played.
mod first_to {
    use std::any::Any;
    use std::path::Path;

    use serde::{Deserialize, Serialize};

    use arena::games::{GameResult, Variant};
    use arena::referee::GameRow;
    use arena::tournament::config::TournamentConfig;
    use arena::tournament::format::{resume_hint, Format, FormatRow, RunState, Verdict};
    use arena::tournament::manifest::{FormatPlan, Manifest};
    use arena::tournament::openings::Openings;
    use arena::tournament::progress::{RunOutcome, RunOutput};
    use arena::tournament::runner::Flow;
    use arena::tournament::schedule::ScheduledGame;
    use arena::tournament::text::{run_settings, Said};

    /// Its line in the registry.
    pub const FORMAT: FormatRow = FormatRow {
        kind: FirstToPlan::KIND,
        // No setting chooses it: its test writes its plan.
        plan: |_, _| Ok(None),
        open: |manifest| Ok(Box::new(FirstTo::new(manifest, manifest.plan.read()?)?)),
    };

    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
    pub struct FirstToPlan {
        pub wins: u32,
        pub max_games: u64,
    }

    impl FormatPlan for FirstToPlan {
        const KIND: &'static str = "first_to";
    }

    pub struct FirstTo {
        plan: FirstToPlan,
        names: [String; 2],
        variant: &'static Variant,
        openings: Openings,
        next: u64,
        /// Each bot's wins in the games recorded so far.
        wins: [u32; 2],
    }

    /// Who won, and each bot's wins.
    #[derive(Debug, Clone, PartialEq)]
    pub struct FirstToVerdict {
        pub winner: Option<String>,
        pub wins: [u32; 2],
    }

    impl FirstTo {
        fn new(manifest: &Manifest, plan: FirstToPlan) -> anyhow::Result<FirstTo> {
            let config = &manifest.config;
            let [a, b] = config.bots.as_slice() else {
                anyhow::bail!("first_to is between two bots");
            };
            Ok(FirstTo {
                plan,
                names: [a.name.clone(), b.name.clone()],
                variant: config.variant(),
                openings: config.pair_openings(),
                next: 0,
                wins: [0, 0],
            })
        }

        fn winner(&self) -> Option<usize> {
            self.wins.iter().position(|&w| w >= self.plan.wins)
        }

        fn count(&mut self, row: &GameRow) {
            let white = usize::from(row.white != self.names[0]);
            match row.result {
                GameResult::WhiteWins => self.wins[white] += 1,
                GameResult::BlackWins => self.wins[1 - white] += 1,
                GameResult::Draw => {}
            }
        }
    }

    impl Format for FirstTo {
        fn started(&self, config: &TournamentConfig, dir: &Path) -> Vec<String> {
            vec![
                format!(
                    "First to {} wins: {} vs {}, {}",
                    self.plan.wins,
                    self.names[0],
                    self.names[1],
                    run_settings(config, true)
                ),
                format!("Output: {}", dir.display()),
            ]
        }

        fn total(&self) -> Option<u64> {
            Some(self.plan.max_games)
        }

        fn recorded(&mut self, row: &GameRow) -> anyhow::Result<()> {
            self.count(row);
            Ok(())
        }

        fn next_game(&mut self, run: &RunState) -> anyhow::Result<Option<ScheduledGame>> {
            while self.winner().is_none() && self.next < self.plan.max_games {
                let id = self.next;
                self.next += 1;
                if run.done.contains(id) {
                    continue;
                }
                let white = (id % 2) as usize;
                return Ok(Some(ScheduledGame {
                    id,
                    variant_id: self.variant.id,
                    round: 0,
                    pair: id / 2,
                    white,
                    black: 1 - white,
                    opening: self.openings.for_pair(self.variant, id)?,
                }));
            }
            Ok(None)
        }

        fn finished(&mut self, row: &GameRow, _run: &RunState, _out: &mut dyn RunOutput) -> Flow {
            self.count(row);
            match self.winner() {
                Some(_) => Flow::Stop,
                None => Flow::Continue,
            }
        }

        fn verdict(&self, _run: &RunState) -> Box<dyn Verdict> {
            Box::new(FirstToVerdict {
                winner: self.winner().map(|w| self.names[w].clone()),
                wins: self.wins,
            })
        }

        fn describe(&self, _config: &TournamentConfig, _dir: &Path) -> String {
            format!("first to {} wins", self.plan.wins)
        }
    }

    impl Verdict for FirstToVerdict {
        fn summary(&self, run: &RunOutcome) -> Vec<Said> {
            let line = match &self.winner {
                Some(w) => format!("{w} won first"),
                None => "Nobody won enough games.".to_string(),
            };
            std::iter::once(Said::Line(line))
                .chain(resume_hint(run))
                .collect()
        }

        fn as_any(&self) -> &dyn Any {
            self
        }
    }
}

use first_to::{FirstToPlan, FirstToVerdict};

struct Quiet;
impl RunOutput for Quiet {}

fn manifest(out: &Path, plan: FirstToPlan) -> Manifest {
    let given = Given::new()
        .with_bot(format!("a={INSTANT_BOT}"))
        .with_bot(format!("b={INSTANT_BOT}"))
        .with(&OPENING_PLIES, "3");
    let defaults = Defaults {
        concurrency: 1,
        seed: 11,
        out: out.to_path_buf(),
        current_dir: std::env::temp_dir(),
    };
    let config = from_given(Command::Tournament, &given, &defaults, Vec::new())
        .unwrap()
        .config;
    Manifest::new(config, Plan::of(&plan))
}

fn rows(out: &Path) -> Vec<GameRow> {
    let mut rows = Vec::new();
    visit_games_csv(&out.join("games.csv"), |row| {
        rows.push(row);
        Ok(())
    })
    .unwrap();
    rows
}

/// Each bot's wins after each game of `rows`, in id order, and the game
/// after which one first had `wins`.
fn first_to(rows: &[GameRow], wins: u32) -> ([u32; 2], Option<(u64, &'static str)>) {
    let mut count = [0, 0];
    for row in rows {
        let white = usize::from(row.white != "a");
        match row.result {
            GameResult::WhiteWins => count[white] += 1,
            GameResult::BlackWins => count[1 - white] += 1,
            GameResult::Draw => {}
        }
        if let Some(w) = count.iter().position(|&c| c >= wins) {
            return (count, Some((row.id, ["a", "b"][w])));
        }
    }
    (count, None)
}

#[test]
fn a_format_added_by_a_test_plays_real_games_and_gives_its_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let plan = FirstToPlan {
        wins: 3,
        max_games: 40,
    };
    let formats = Formats::builtin().with(first_to::FORMAT);
    let start = Start::New(Box::new(manifest(&out, plan)));
    let finished = driver::run_with(start, &formats, &mut Quiet).unwrap();

    // The games: ids 0, 1, ... in order, colours alternating, each its own
    // opening, and none after one bot had three wins.
    let rows = rows(&out);
    assert!(!rows.is_empty());
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row.id, k as u64);
        let white = if k % 2 == 0 { "a" } else { "b" };
        assert_eq!(row.white, white, "{row:?}");
        assert_eq!(row.opening.split(' ').count(), 3, "{row:?}");
    }
    let (count, first) = first_to(&rows, 3);
    let (last, winner) = first.expect("one of two bots wins three of 40 games");
    assert_eq!(
        last,
        rows.last().unwrap().id,
        "the run stops at the deciding game"
    );
    let verdict = verdict_as::<FirstToVerdict>(finished.verdict.as_ref()).unwrap();
    assert_eq!(verdict.winner.as_deref(), Some(winner));
    assert_eq!(verdict.wins, count);
    assert_eq!(finished.tally.games(), rows.len() as u64);

    // tournament.json holds the plan by the format's name.
    let json = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    assert!(
        json.contains("\"kind\": \"first_to\",\n    \"wins\": 3,\n    \"max_games\": 40"),
        "{json}"
    );
    drop(finished);

    // Resumed with the format known: nothing left to play, the same verdict.
    let resume = || Start::Resume {
        dir: out.clone(),
        given: Given::new(),
    };
    let again = driver::run_with(resume(), &formats, &mut Quiet).unwrap();
    assert_eq!(again.run.finished, rows.len() as u64);
    let verdict = verdict_as::<FirstToVerdict>(again.verdict.as_ref()).unwrap();
    assert_eq!(verdict.winner.as_deref(), Some(winner));
    drop(again);

    // arena's own registry does not know it, and says so.
    let error = driver::run(resume(), &mut Quiet).unwrap_err();
    let text = format!("{error:#}");
    assert!(
        text.contains("format \"first_to\", which this arena does not know"),
        "{text}"
    );
}
