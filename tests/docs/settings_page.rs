//! What a user reads about the settings comes from their definitions: the
//! reference page `docs/SETTINGS.md` is the generated one, every flag's
//! `--help` line shows its definition's default, and a run that sets
//! nothing gets exactly those defaults.
//!
//! After changing a definition: `ARENA_WRITE_DOCS=1 cargo test --test docs
//! settings_page` rewrites the page.

use crate::common;

use arena::tournament::config::Defaults;
use arena::tournament::settings::defs::{
    ADJUDICATE, ADJUDICATE_MS, CLOCK, ELO0, ELO1, RATING_INTERVAL, SUSPEND_IDLE, VARIANT, WALL_CAP,
};
use arena::tournament::settings::from_given;
use arena::tournament::settings::page::{reference_page, PAGE};
use arena::tournament::settings::{Command, Default, Given, Kind, Value, SETTINGS};
use arena::tournament::testing;
use common::arena;

#[test]
fn the_reference_page_is_the_generated_one() {
    common::assert_page_is_current(
        PAGE,
        &reference_page(),
        "settings_page",
        "the settings' definitions",
    );
}

/// The `--help` line of `--flag` in `arena COMMAND --help`, with the
/// lines clap wraps it onto joined.
fn help_line(command: &str, flag: &str) -> String {
    let out = arena()
        .args([command, "--help"])
        .env("COLUMNS", "1000")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    // COLUMNS is wide enough for clap to give each option one line.
    help.lines()
        .find(|line| {
            let option = line.trim_start();
            // `-j, --concurrency <N>`: the long name after the short one.
            let option = match option.as_bytes() {
                [b'-', _, b',', b' ', ..] => &option[4..],
                _ => option,
            };
            option.starts_with(&format!("--{flag} ")) && line.starts_with("  ")
        })
        .unwrap_or_else(|| panic!("arena {command} --help has no --{flag}:\n{help}"))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_help_line_shows_its_definitions_default() {
    for (command, name) in [
        (Command::Tournament, "tournament"),
        (Command::Sprt, "sprt"),
        (Command::Play, "play"),
        (Command::Serve, "serve"),
    ] {
        for s in SETTINGS.iter().filter(|s| s.commands.contains(&command)) {
            let Some(flag) = s.flag else { continue };
            let line = help_line(name, flag);
            let default = match (command, s.sprt_default) {
                (Command::Sprt, Some(sprt)) => sprt.into(),
                _ => s.default.text(),
            };
            let required = command == Command::Sprt && [&ELO0, &ELO1].contains(s);
            if s.kind == Kind::Switch {
                assert!(!line.contains("[default:"), "{name} --{flag}: {line}");
            } else if required {
                assert!(line.ends_with("[required]"), "{name} --{flag}: {line}");
            } else {
                assert!(
                    line.ends_with(&format!("[default: {default}]")),
                    "{name} --{flag}: {line}"
                );
            }
        }
    }
}

/// A run that gives no setting gets each definition's default, read by
/// the setting's own kind: the help and the page cannot promise one
/// default while the run uses another.
#[test]
fn a_run_that_sets_nothing_gets_the_definitions_defaults() {
    let defaults = Defaults {
        concurrency: 3,
        seed: 7,
        ..testing::defaults()
    };
    let given = Given::new().with_bot("a=./a").with_bot("b=./b");
    let run = from_given(Command::Tournament, &given, &defaults, Vec::new()).unwrap();
    let saved = serde_json::to_value(&run.config).unwrap();
    let mut compared = 0;
    for s in SETTINGS.iter().filter(|s| s.stored) {
        let text = match s.default {
            Default::Value(_) | Default::Whole(_) => s.default.text(),
            Default::Machine(..) | Default::Unset(_) => continue,
        };
        // The budget is recorded with adjudication only (off by default).
        if *s == &ADJUDICATE_MS && run.config.adjudicate.is_none() {
            continue;
        }
        let expected = match s.kind.read_text(&text).unwrap() {
            Value::Whole(n) => serde_json::json!(n),
            Value::TimeControl(tc) => serde_json::to_value(tc).unwrap(),
            Value::List(ids) if *s == &VARIANT => serde_json::json!(ids[0]),
            Value::Word(word) => serde_json::json!(word),
            Value::Switch(on) => serde_json::json!(on),
            other => panic!("{}: add a comparison for {other:?}", s.key),
        };
        // tournament.json leaves some settings out at their defaults (so
        // that older runs keep their identity): the run's own value then.
        let left_out = [
            (
                &RATING_INTERVAL,
                serde_json::json!(run.config.rating_interval),
            ),
            (&CLOCK, serde_json::json!(run.config.clock.as_str())),
            (&WALL_CAP, serde_json::json!(run.config.wall_cap)),
            (&SUSPEND_IDLE, serde_json::json!(run.config.suspend_idle)),
            (&ADJUDICATE, serde_json::json!("off")),
        ];
        let found = saved.get(s.key).cloned().unwrap_or_else(|| {
            let own = left_out.iter().find(|(setting, _)| setting == s);
            own.map(|(_, value)| value.clone())
                .unwrap_or_else(|| panic!("{} is not in tournament.json", s.key))
        });
        assert_eq!(found, expected, "{}", s.key);
        compared += 1;
    }
    assert!(compared >= 8, "{compared}");
}

/// `arena tournament --help` shows the default of `--games` (it once did
/// not, while the README promised it).
#[test]
fn tournament_help_shows_the_games_default() {
    let line = help_line("tournament", "games");
    assert!(line.ends_with("[default: 2]"), "{line}");
    let line = help_line("sprt", "tc");
    assert!(line.contains("[default: "), "{line}");
}
