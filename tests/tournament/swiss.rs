//! `format = "swiss"` end to end: an odd field over two variants with time
//! odds (byes, no repeats, round 1 paired by config order, the round in
//! games.csv, the table and the rounds on the terminal and in report.html),
//! a run SIGKILLed mid-round and resumed that plays exactly the games of
//! an uninterrupted run, and the settings a Swiss refuses. The pairing
//! itself (score groups, rematches, byes, tie-breaks) is tested on
//! hand-made score tables in crates/tournament/src/swiss_tests.rs.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::tournament::*;
use common::unique_tag;

/// The bots of each round's boards, from games.csv: round -> set of pairs.
fn boards_by_round(out: &std::path::Path) -> BTreeMap<u64, BTreeSet<(String, String)>> {
    let mut rounds: BTreeMap<u64, BTreeSet<(String, String)>> = BTreeMap::new();
    for row in csv_rows(out) {
        let pair = if row.white < row.black {
            (row.white, row.black)
        } else {
            (row.black, row.white)
        };
        rounds.entry(row.round).or_default().insert(pair);
    }
    rounds
}

#[test]
fn an_odd_field_plays_every_round_with_one_bye_and_no_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut config = write_instant_config(
        dir.path(),
        "format = \"swiss\"\nrounds = 4\nvariants = [\"qango6\", \"qango7\"]\nseed = 3\nopening_plies = 2\nconcurrency = 2",
        &["a", "b", "c", "d", "e"],
    );
    // Time odds for e.
    let with_odds = std::fs::read_to_string(&config).unwrap() + "time_control = \"per-move=500\"\n";
    config = dir.path().join("odds.toml");
    std::fs::write(&config, with_odds).unwrap();
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);

    let rows = csv_rows(&out);
    // 4 rounds of 2 boards, each 2 games in each of 2 variants.
    assert_eq!(rows.len(), 4 * 2 * 4, "{stdout}");
    assert_consistent(&out);
    let rounds = boards_by_round(&out);
    assert_eq!(rounds.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    // Round 1 by config order: 1-3, 2-4, the bye to the fifth.
    let first: Vec<(String, String)> = rounds[&1].iter().cloned().collect();
    assert_eq!(
        first,
        [("a".into(), "c".into()), ("b".into(), "d".into())],
        "{stdout}"
    );
    let mut met = BTreeSet::new();
    let mut byes = Vec::new();
    for (round, boards) in &rounds {
        assert_eq!(boards.len(), 2, "round {round}");
        let playing: BTreeSet<&String> = boards.iter().flat_map(|(x, y)| [x, y]).collect();
        assert_eq!(playing.len(), 4, "round {round}: a bot plays twice");
        let bye = ["a", "b", "c", "d", "e"]
            .into_iter()
            .find(|b| !playing.contains(&b.to_string()))
            .unwrap();
        byes.push(bye);
        for pair in boards {
            assert!(met.insert(pair.clone()), "{pair:?} met twice");
        }
    }
    let distinct: BTreeSet<_> = byes.iter().collect();
    assert_eq!(distinct.len(), 4, "a second bye: {byes:?}");
    assert_eq!(byes[0], "e");
    // Each board's games: both variants, colours swapped within pairs.
    for row in rows.iter().filter(|r| r.white == "e" || r.black == "e") {
        let e_white = row.white == "e";
        assert_eq!(row.white_tc == "per-move=500", e_white, "{row:?}");
    }
    let variants: BTreeSet<&str> = rows.iter().map(|r| r.variant.as_str()).collect();
    assert_eq!(variants, BTreeSet::from(["qango6", "qango7"]));

    assert!(
        stdout.contains("Round 1 of 4: a - c, b - d; bye: e"),
        "{stdout}"
    );
    for r in 2..=4 {
        assert!(stdout.contains(&format!("Round {r} of 4: ")), "{stdout}");
    }
    assert!(stdout.contains("Swiss table after 4 rounds"), "{stdout}");
    assert!(stdout.contains("bye (1 point)"), "{stdout}");
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("Swiss table after 4 rounds"), "report.html");
    assert!(page.contains("Swiss round 4"), "report.html");
}

#[test]
fn a_swiss_killed_mid_round_resumes_to_the_games_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let tag = unique_tag("swiss-sigkill");
    let settings = "format = \"swiss\"\nrounds = 3\nseed = 11\nopening_plies = 2\nconcurrency = 2\ntime_control = \"per-move=2000\"";
    let names = ["a", "b", "c", "d", "e"];
    let bots: Vec<TestBot> = names
        .iter()
        .map(|&n| TestBot::tagged(n, "tests/bots/paced_bot.py", &["10"], &tag))
        .collect();
    let config = write_config(dir.path(), settings, &bots);
    let killed = dir.path().join("killed");
    // Round 1 has 4 games: the kill comes in round 2.
    kill_after_rows(&config, &killed, dir.path(), 5);
    let before = csv_rows(&killed).len();
    assert!(before < 12, "finished before the kill; slow the bots down");
    wait_until_gone(&tag);
    let output = resume_tournament(&killed);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));

    // The same tournament without a kill, the bots fast.
    let whole = dir.path().join("whole");
    let fast: Vec<TestBot> = names
        .iter()
        .map(|&n| TestBot::new(n, "tests/bots/paced_bot.py", &["0"]))
        .collect();
    std::fs::create_dir(dir.path().join("w")).unwrap();
    let config = write_config(&dir.path().join("w"), settings, &fast);
    let output = run_tournament(&config, &whole);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_eq!(
        games_csv_without_timing(&killed),
        games_csv_without_timing(&whole)
    );
    assert_eq!(csv_rows(&whole).len(), 12);
}

#[test]
fn settings_a_swiss_refuses_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let case = |settings: &str, flags: &[&str]| -> String {
        let config = write_instant_config(dir.path(), settings, &["a", "b", "c"]);
        let mut args = vec![
            "tournament",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-progress",
        ];
        args.extend(flags);
        let output = run_arena(&args);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(!out.exists(), "nothing is written for a refused run");
        String::from_utf8_lossy(&output.stderr).trim().to_string()
    };
    let err = case("format = \"swiss\"", &[]);
    assert!(err.contains("a swiss needs its number of rounds"), "{err}");
    let err = case("rounds = 3", &[]);
    assert!(
        err.contains("`rounds`: is a setting of a swiss (format = \"swiss\")"),
        "{err}"
    );
    let err = case("", &["--format", "sprt"]);
    assert!(err.contains("--format cannot make or unmake one"), "{err}");
    // The flags make one as the file does.
    let output = run_arena(&[
        "tournament",
        write_instant_config(dir.path(), "seed = 2", &["a", "b", "c"])
            .to_str()
            .unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
        "--format",
        "swiss",
        "--rounds",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_eq!(csv_rows(&out).len(), 2 * 2);
}
