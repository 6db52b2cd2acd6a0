//! `format = "adaptive"` through the real binary: bots of a known order of
//! strength (tests/bots/fails_after.py: the one that plays legally longer
//! wins) are certified in that order and the run stops before its limit;
//! `max_games` is honoured; a run SIGKILLed mid-way and resumed plays the
//! games an uninterrupted run plays; the settings refuse what an
//! adaptive ranking cannot take, naming the field; and a 100-bot run that
//! certifies nothing ends in a few short lines.

use crate::common;

use std::path::Path;

use common::tournament::*;

/// Three bots, listed out of their order of strength (strong, middle,
/// weak by how long they play legally).
fn config(dir: &Path, settings: &str) -> std::path::PathBuf {
    write_config(
        dir,
        &format!("format = \"adaptive\"\nopening_plies = 2\nseed = 5\n{settings}"),
        &[
            TestBot::new("weak", "tests/bots/fails_after.py", &["0"]),
            TestBot::new("strong", "tests/bots/fails_after.py", &["-1"]),
            TestBot::new("middle", "tests/bots/fails_after.py", &["3"]),
        ],
    )
}

/// certificate.csv's rows as (certified, upper, lower, separated).
fn certificate(out: &Path) -> Vec<(bool, String, String, bool)> {
    let mut reader = csv::Reader::from_path(out.join("certificate.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                &r[col("certified")] == "true",
                r[col("upper")].to_string(),
                r[col("lower")].to_string(),
                &r[col("separated")] == "true",
            )
        })
        .collect()
}

/// What decides the next games, per game in id order: who played whom,
/// from which opening, with which result (a bot's failure under load may
/// change how a game was lost, not what it decides).
fn decided(out: &Path) -> Vec<(u64, u64, String, String, String, String)> {
    let mut rows: Vec<_> = csv_rows(out)
        .into_iter()
        .map(|r| {
            (
                r.id,
                r.round,
                r.white,
                r.black,
                r.opening,
                r.result.to_string(),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn clearly_different_bots_are_certified_in_their_true_order_and_the_run_stops() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = run_tournament(
        &config(dir.path(), "max_games = 400\nconcurrency = 4"),
        &out,
    );
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(stdout.contains("Adaptive ranking: 3 bots"), "{stdout}");
    assert!(
        stdout.contains("Ranking certified at 95% confidence after"),
        "{stdout}"
    );
    let rows = certificate(&out);
    let adjacent: Vec<(&str, &str)> = rows
        .iter()
        .take(2)
        .map(|(_, u, l, _)| (u.as_str(), l.as_str()))
        .collect();
    assert_eq!(adjacent, [("strong", "middle"), ("middle", "weak")]);
    assert!(rows.iter().all(|(c, _, _, s)| *c && *s), "{rows:?}");
    // It stopped when certified, far below the limit, on whole pairs.
    let games = csv_rows(&out).len();
    assert!(games < 400 && games.is_multiple_of(2), "{games} games");
    // standings.csv is as every reader knows it; the report says it too.
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    assert!(
        standings.starts_with("variant,rank,bot,games,"),
        "{standings}"
    );
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("Ranking certified at 95% confidence"));
    // The format refuses games_per_pairing: the settings say what it plays.
    assert!(
        report.contains(
            "<tr><th>games per pairing</th><td>game pairs, as many as the order needs</td></tr>"
        ),
        "the settings' games per pairing"
    );
}

#[test]
fn the_run_stops_at_max_games_and_says_what_is_not_separated() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = run_tournament(&config(dir.path(), "max_games = 12\nconcurrency = 3"), &out);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    // 3 seeding pairs, then 3 of the next round's 4: exactly the limit.
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().any(|r| r.round == 1) && rows.iter().all(|r| r.round <= 1));
    assert!(
        stdout.contains("Ranking not certified at 95% confidence after 12 games: "),
        "{stdout}"
    );
    assert!(certificate(&out).iter().all(|(c, _, _, _)| !c));
}

#[test]
fn a_run_killed_and_resumed_plays_the_games_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let settings = "max_games = 20\nconcurrency = 2";
    let whole = dir.path().join("whole");
    let output = run_tournament(&config(dir.path(), settings), &whole);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));

    let killed = dir.path().join("killed");
    kill_after_rows(&config(dir.path(), settings), &killed, dir.path(), 7);
    let before: Vec<_> = csv_rows(&killed);
    let output = resume_tournament(&killed);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_consistent(&killed);
    // Nothing finished before the kill was played again, and the games are
    // those the uninterrupted run chose from the same results.
    let after = csv_rows(&killed);
    for row in &before {
        assert_eq!(after.iter().filter(|r| r.id == row.id).count(), 1);
    }
    assert_eq!(decided(&killed), decided(&whole));
    assert_eq!(certificate(&killed), certificate(&whole));
}

#[test]
fn settings_an_adaptive_ranking_cannot_take_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (settings, expected) in [
        (
            "",
            "field `max_games`: an adaptive ranking needs `max_games`",
        ),
        (
            "max_games = 10\ngames_per_pairing = 4",
            "field `games_per_pairing`",
        ),
        (
            "max_games = 10\nconfidence = 1.5",
            "confidence must be between 0 and 1",
        ),
        (
            "max_games = 10\ncertify = \"top:0\"",
            "field `certify`: top:0 certifies nothing",
        ),
        (
            "max_games = 10\ncertify = \"top:3\"",
            "field `certify`: top:3 needs K from 1 to 2",
        ),
        (
            "max_games = 10\ncertify = \"top:x\"",
            "field `certify`: expected \"order\", \"top:K\"",
        ),
    ] {
        let output = run_tournament(&config(dir.path(), settings), &out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_ne!(output.status.code(), Some(0));
        assert!(stderr.contains(expected), "{settings}: {stderr}");
        assert!(!out.exists(), "{settings}: nothing is written");
    }
    let round_robin = write_config(
        dir.path(),
        "max_games = 10",
        &[
            TestBot::new("a", "tests/bots/good_bot.py", &[]),
            TestBot::new("b", "tests/bots/good_bot.py", &[]),
        ],
    );
    let output = run_tournament(&round_robin, &out);
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("is a setting of an adaptive ranking (format = \"adaptive\")"));
}

/// 100 instant bots (all of one strength: nothing is separated) with a
/// budget of a third of the sparse seeding: the end of the run is the
/// standings, the files and one bounded sentence, said once; the
/// crosstable is one line.
#[test]
fn a_hundred_bot_run_that_certifies_nothing_ends_in_a_few_short_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let names: Vec<String> = (0..100).map(|k| format!("bot{k:03}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // 100 bots: strides 1 to 32 (64 is not below 50), 600 seeding pairs,
    // of which the limit plays 200.
    let config = write_instant_config(
        dir.path(),
        "format = \"adaptive\"\nmax_games = 400\nopening_plies = 4\nseed = 3\nconcurrency = 2",
        &names,
    );
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(csv_rows(&out).len(), 400);
    assert!(csv_rows(&out).iter().all(|r| r.round == 0));
    // The end: after the list of files, at most 3 lines, none long.
    let end = &stdout[stdout.rfind("/certificate.csv\n").expect("the files") + 17..];
    let lines: Vec<&str> = end.lines().filter(|l| !l.is_empty()).collect();
    assert!(lines.len() <= 3, "{end}");
    assert!(end.len() < 600, "{} bytes: {end}", end.len());
    // The certificate's sentence is the last line (a busy machine's note on
    // CPU waits may come before it).
    let last = lines.last().expect("the certificate's sentence");
    assert!(
        last.starts_with("Ranking not certified at 95% confidence after 400 games: ")
            && last.contains(" of 99 adjacent pairs not separated; the closest: ")
            && last.ends_with("; all in certificate.csv."),
        "{end}"
    );
    assert_eq!(stdout.matches("Ranking not certified").count(), 1);
    // No line of the whole output is long: the crosstable is one line.
    let longest = stdout.lines().map(str::len).max().unwrap();
    assert!(longest < 300, "a line of {longest} bytes");
    assert!(stdout.contains("The crosstable of 100 bots is in crosstable.csv"));
    assert_eq!(certificate(&out).iter().filter(|r| r.3).count(), 0);
}
