//! The test kit of runs and rows, for this crate's unit tests and (with the
//! `testing` feature, a dev-dependency only) for the crates and tests
//! above: one set of fixed [`Defaults`], the run and manifest `arena
//! tournament` makes of flags alone, the `games.csv` row of a scheduled
//! game, and a format played to its end without bots ([`play_to_end`]).
//! Tests build these here, not by hand.

use arena_referee::GameRow;
use arena_rules::games::{GameResult, RuleReason};

use crate::config::Defaults;
use crate::driver::{Format, RunState};
use crate::progress::RunOutput;
use crate::runner::Flow;
use crate::schedule::ScheduledGame;
use crate::settings::{from_given, Command, Given, RunSettings};
use crate::Manifest;

/// What the machine and the moment would give, fixed: one game at a time,
/// seed 3, output `o`, bots run from `/`. A test that needs other values
/// changes those fields (`Defaults { seed: 7, ..defaults() }`).
pub fn defaults() -> Defaults {
    Defaults {
        concurrency: 1,
        seed: 3,
        out: "o".into(),
        current_dir: "/".into(),
    }
}

/// The run `arena tournament` makes of the flags `given` alone, on
/// [`defaults`]; the bots' programs are not looked at.
pub fn run_of(given: &Given) -> RunSettings {
    from_given(Command::Tournament, given, &defaults(), Vec::new()).expect("the flags make a run")
}

/// The manifest of [`run_of`] `given`: the settings and the format's plan.
pub fn manifest_of(given: &Given) -> Manifest {
    run_of(given).manifest()
}

/// The row of `game` (its place, variant and opening) between `names` (by
/// the game's bot indices), ended by `result` with a group after 9 plies.
pub fn row_of(game: &ScheduledGame, names: &[String], result: GameResult) -> GameRow {
    GameRow {
        id: game.id,
        round: game.round,
        pair: game.pair,
        variant: game.variant_id.into(),
        white: names[game.white].clone(),
        black: names[game.black].clone(),
        opening: game.opening.join(" "),
        result,
        reason: RuleReason::Group.into(),
        plies: 9,
        white_time_ms: 0,
        black_time_ms: 0,
        ended_utc: String::new(),
        white_tc: String::new(),
        black_tc: String::new(),
        played: true,
    }
}

/// The result of `game` when the bot of lower index always wins.
pub fn lower_index_wins(game: &ScheduledGame) -> GameResult {
    if game.white < game.black {
        GameResult::WhiteWins
    } else {
        GameResult::BlackWins
    }
}

/// Plays `format` to its end on `run` without bots, as the driver would
/// with every game at once: all the games it offers now start, then they
/// finish in order, each ended by `result` and counted in `run`, until it
/// offers none or says stop (the games of that batch not yet finished are
/// abandoned). `names` are the run's bots; the format's events go to
/// `output`. Returns every game started, in order.
pub fn play_to_end(
    format: &mut dyn Format,
    names: &[String],
    run: &mut RunState,
    output: &mut dyn RunOutput,
    result: impl Fn(&ScheduledGame) -> GameResult,
) -> Vec<ScheduledGame> {
    let mut all = Vec::new();
    loop {
        let batch: Vec<ScheduledGame> =
            std::iter::from_fn(|| format.next_game(run).expect("a next game")).collect();
        if batch.is_empty() {
            return all;
        }
        all.extend(batch.iter().cloned());
        for game in &batch {
            let row = row_of(game, names, result(game));
            assert!(
                run.add(&row).expect("a valid row"),
                "game {} twice",
                game.id
            );
            if format.finished(&row, run, output) == Flow::Stop {
                return all;
            }
        }
    }
}
