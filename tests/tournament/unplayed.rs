//! Failures caught before the first game, and games that did not happen:
//! a bot that cannot start stops the run at the start check with its own
//! first line on stderr; one that fails only later quotes that line in its
//! games; a game neither bot played is kept in the journal but rated by
//! nobody; a field whose every bot is disabled stops with one line; a
//! failure that repeats is counted, not printed game after game; and in a
//! Swiss or a knockout such a game gives neither bot a point or a match.
//! (`tests/bots/starts_then_fails.py` starts well N times, then fails.)

use crate::common;

use std::path::Path;

use common::tournament::{
    bot_entry, csv_rows, jsonl_records, repo_path, run_arena, run_tournament, text,
    write_config_entries,
};
use common::INSTANT_BOT;

/// The first line `starts_then_fails.py` writes on stderr when it fails.
const FAILS: &str = "starts_then_fails: cannot start after 1 good starts";

/// A `[[bot]]` that starts well once (the start check), then fails every
/// start: its starts counted in `dir/NAME.starts`.
fn fails_after_check(dir: &Path, name: &str) -> String {
    let counter = dir.join(format!("{name}.starts")).display().to_string();
    let script = repo_path("tests/bots/starts_then_fails.py")
        .display()
        .to_string();
    bot_entry(name, &["python3".into(), script, counter, "1".into()], "")
}

fn instant(name: &str) -> String {
    bot_entry(name, &[INSTANT_BOT.to_string()], "")
}

#[test]
fn a_script_missing_behind_its_interpreter_stops_the_run_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let missing = dir.path().join("missing.pl").display().to_string();
    let me = format!("me=perl {missing}");
    let other = format!("other={INSTANT_BOT}");
    let args = [
        "tournament",
        "--bot",
        &me,
        "--bot",
        &other,
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ];
    let stopped = run_arena(&args);
    let all = text(&stopped);
    assert_eq!(stopped.status.code(), Some(2), "{all}");
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    let error = stderr
        .lines()
        .find(|l| l.starts_with("arena: error:"))
        .expect(&all);
    assert!(
        error.starts_with(&format!(
            "arena: error: bot \"me\" cannot start: Can't open perl script \"{missing}\": No such file or directory (its first line on stderr; arena: "
        )),
        "{all}"
    );
    assert!(
        error.contains(&format!("its command is `perl {missing}`")),
        "{all}"
    );
    assert!(error.contains("no game was played; its stderr: "), "{all}");
    assert_eq!(stderr.lines().count(), 1, "{all}");
    // Nothing of the run is left but the check's log: the same command
    // runs again once the script is there.
    for file in ["tournament.json", "games.csv", "games.jsonl"] {
        assert!(!out.join(file).exists(), "{file} left: {all}");
    }
    assert!(out.join("logs/start-check-me.log").is_file());
    let instant = repo_path("tests/bots/good_bot.py");
    std::fs::write(
        &missing,
        format!("exec 'python3', '{}';\n", instant.display()),
    )
    .unwrap();
    let fixed = run_arena(&args);
    assert_eq!(fixed.status.code(), Some(0), "{}", text(&fixed));
    assert_eq!(csv_rows(&out).len(), 2);
}

#[test]
fn a_bot_that_fails_to_start_later_quotes_its_first_stderr_line_in_each_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = write_config_entries(
        dir.path(),
        "games_per_pairing = 2\nconcurrency = 1\nseed = 1",
        &[fails_after_check(dir.path(), "later"), instant("good")],
    );
    let run = run_tournament(&config, &out);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    let records = jsonl_records(&out);
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r["reason"], "startup", "{r}");
        let message = r["message"].as_str().unwrap();
        // The crash quotes the last line; the first follows.
        assert!(
            message.contains("last stderr line: (this was start "),
            "{r}"
        );
        assert!(
            message.ends_with(&format!("; its first line on stderr: {FAILS}")),
            "{r}"
        );
    }
}

#[test]
fn a_field_that_fails_after_the_start_check_stops_with_one_line_and_rates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bots: Vec<String> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| fails_after_check(dir.path(), n))
        .collect();
    // 4 bots, 12 games; each is disabled after 2 failures in a row.
    let config = write_config_entries(
        dir.path(),
        "games_per_pairing = 2\nconcurrency = 2\nseed = 1\nstartup_failures = 2",
        &bots,
    );
    let run = run_tournament(&config, &out);
    let all = text(&run);
    assert_eq!(run.status.code(), Some(5), "{all}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("Stopped: every bot (4) failed to start 2 times in a row and is not started any more, so no game is left to play (bot \"")
            && last.contains(FAILS)
            && last.ends_with(&format!("fix them, then continue with: arena tournament --resume {}", out.display())),
        "{all}"
    );
    assert_eq!(stdout.matches("Stopped:").count(), 1, "{all}");
    assert!(
        stdout.contains("No game was played, so no standings."),
        "{all}"
    );
    assert!(!out.join("standings.csv").exists(), "{all}");
    let records = jsonl_records(&out);
    assert!(records.len() < 12, "{} games played: {all}", records.len());
    for r in &records {
        assert_eq!(r["played"], false, "{r}");
        assert_eq!(
            (r["result"].as_str(), r["reason"].as_str()),
            (Some("1/2-1/2"), Some("startup")),
            "{r}"
        );
        let message = r["message"].as_str().unwrap();
        assert!(message.starts_with("both failed: white ("), "{r}");
    }
    assert!(csv_rows(&out).iter().all(|row| !row.played));
}

/// Two good bots and two that fail every start after the check, never
/// disabled: their two games against each other did not happen, their
/// eight against the good ones are startup losses. By hand: each failing
/// bot has 4 games (4 losses), each good bot 6 (4 wins by startup, 2
/// against the other), and 2 games are counted apart.
#[test]
fn a_game_neither_bot_played_is_kept_but_rated_by_nobody_and_repeats_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = write_config_entries(
        dir.path(),
        "games_per_pairing = 2\nconcurrency = 2\nseed = 1\nstartup_failures = 0",
        &[
            instant("g1"),
            instant("g2"),
            fails_after_check(dir.path(), "f1"),
            fails_after_check(dir.path(), "f2"),
        ],
    );
    let run = run_tournament(&config, &out);
    let all = text(&run);
    assert_eq!(run.status.code(), Some(0), "{all}");
    let records = jsonl_records(&out);
    assert_eq!(records.len(), 12);
    let unplayed: Vec<_> = records.iter().filter(|r| r["played"] == false).collect();
    assert_eq!(unplayed.len(), 2, "{all}");
    for r in &unplayed {
        let pair = [r["white"].as_str().unwrap(), r["black"].as_str().unwrap()];
        assert!(pair == ["f1", "f2"] || pair == ["f2", "f1"], "{r}");
        let message = r["message"].as_str().unwrap();
        assert_eq!(message.matches(FAILS).count(), 2, "both reasons: {r}");
    }
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    let games_of = |bot: &str| -> (String, String, String) {
        let line = standings
            .lines()
            .find(|l| l.split(',').nth(2) == Some(bot))
            .expect(&standings);
        let cells: Vec<&str> = line.split(',').collect();
        (cells[3].into(), cells[4].into(), cells[6].into())
    };
    // (games, wins, losses)
    assert_eq!(
        games_of("f1"),
        ("4".into(), "0".into(), "4".into()),
        "{standings}"
    );
    assert_eq!(
        games_of("f2"),
        ("4".into(), "0".into(), "4".into()),
        "{standings}"
    );
    assert_eq!(games_of("g1").0, "6", "{standings}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("2 games did not happen (neither bot started; kept in games.jsonl with the reasons), so no rating counts them: f1 2, f2 2"),
        "{all}"
    );
    // `arena rate` counts them apart alike.
    let rated = run_arena(&["rate", out.to_str().unwrap()]);
    let rated_out = String::from_utf8_lossy(&rated.stdout);
    assert!(
        rated_out.contains("Rated 10 games from 1 file; 2 games did not happen"),
        "{}",
        text(&rated)
    );
    // Each failing bot's 6 failures: its first game shown, the rest
    // counted in one line each.
    let shown = stdout
        .lines()
        .filter(|l| l.contains(" startup (0 plies)"))
        .count();
    assert!(
        (1..=2).contains(&shown),
        "{shown} startup games shown:\n{all}"
    );
    for bot in ["f1", "f2"] {
        let line = format!("  bot \"{bot}\": 6 startup failures (\"{FAILS}\"), the first in g");
        assert_eq!(stdout.matches(&line).count(), 1, "{all}");
    }
}

/// The row of `bot` in the table whose title starts with `title` in
/// `stdout`, split at runs of two or more spaces.
fn table_row(stdout: &str, title: &str, bot: &str) -> Vec<String> {
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(title))
        .take_while(|l| !l.trim().is_empty())
        .collect();
    let line = table
        .iter()
        .find(|l| l.split("  ").any(|cell| cell.trim() == bot))
        .unwrap_or_else(|| panic!("no row of {bot} in {title:?}:\n{stdout}"));
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect()
}

/// A Swiss of two good bots and two that fail every start after the
/// check: round 1 pairs g1-f1 and g2-f2 (top half against bottom half),
/// the good bots win by `startup`; round 2 pairs the winners, and f1-f2,
/// whose two games neither bot played. By hand: f1 and f2 score 0 (a board
/// nobody played is no drawn board) with 0 game points, g1 and g2 score 1
/// from round 1 and the one of them that wins round 2 another.
#[test]
fn a_swiss_board_nobody_played_scores_nothing_for_either_bot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = write_config_entries(
        dir.path(),
        "format = \"swiss\"\nrounds = 2\ngames_per_pairing = 2\nconcurrency = 2\nseed = 1\nstartup_failures = 0",
        &[
            instant("g1"),
            instant("g2"),
            fails_after_check(dir.path(), "f1"),
            fails_after_check(dir.path(), "f2"),
        ],
    );
    let run = run_tournament(&config, &out);
    let all = text(&run);
    assert_eq!(run.status.code(), Some(0), "{all}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let unplayed = unplayed_pairs(&out);
    assert_eq!(unplayed, [["f1", "f2"], ["f2", "f1"]], "{all}");
    let title = "Swiss table after 2 rounds";
    // # Bot Score Buchholz Tied Game-points Byes
    for bot in ["f1", "f2"] {
        assert_eq!(
            table_row(&stdout, title, bot)[2..],
            ["0", "1.5", "0", "0", "0"],
            "{all}"
        );
    }
    for bot in ["g1", "g2"] {
        assert_eq!(table_row(&stdout, title, bot)[2], "1.5", "{all}");
    }
    assert_eq!(
        table_row(&stdout, "Swiss round 2", "f1")[2..],
        ["0 - 0 (none played: no points)", "f2"],
        "{all}"
    );
}

/// The (white, black) pairs of the games nobody played, sorted: records
/// are written as games end, and games run side by side end in any order.
fn unplayed_pairs(out: &Path) -> Vec<[String; 2]> {
    let mut pairs: Vec<[String; 2]> = jsonl_records(out)
        .iter()
        .filter(|r| r["played"] == false)
        .map(|r| ["white", "black"].map(|c| r[c].as_str().unwrap().to_string()))
        .collect();
    pairs.sort();
    pairs
}

/// A knockout of four places, seeds g1, f1, f2, g2 (f1 and f2 fail every
/// start after the check): round 1 is g1-g2 and f1-f2. Neither f1 nor f2
/// plays a game of their match, its tie-break pair either: nothing is
/// played, so it is a tie of 0 - 0 (not 2 - 2 of draws), and the higher
/// seed, f1, advances. The identical instant bots tie too (g1 by seed),
/// and g1 wins the final by f1's startup failures.
#[test]
fn a_knockout_match_nobody_played_is_a_tie_that_no_unplayed_game_decides() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = write_config_entries(
        dir.path(),
        "format = \"knockout\"\ntiebreak_pairs = 1\ngames_per_pairing = 2\nconcurrency = 2\nseed = 1\nstartup_failures = 0",
        &[
            instant("g1"),
            fails_after_check(dir.path(), "f1"),
            fails_after_check(dir.path(), "f2"),
            instant("g2"),
        ],
    );
    let run = run_tournament(&config, &out);
    let all = text(&run);
    assert_eq!(run.status.code(), Some(0), "{all}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    // The match's two games and its tie-break pair's.
    assert_eq!(unplayed_pairs(&out).len(), 4, "{all}");
    // Seed Bot Game-points Seed Bot Advances
    assert_eq!(
        table_row(&stdout, "Knockout round 1 of 2", "f1")[2..],
        [
            "0 - 0 (with 1 tie-break pair) (none played: no points)",
            "3",
            "f2",
            "f1 (tied: higher seed)"
        ],
        "{all}"
    );
    assert_eq!(
        table_row(&stdout, "Knockout round 2 of 2", "f1")[2..],
        ["2 - 0", "2", "f1", "g1"],
        "{all}"
    );
    assert!(stdout.contains("\nWinner: g1\n"), "{all}");
}
