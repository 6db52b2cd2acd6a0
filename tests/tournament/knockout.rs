//! `format = "knockout"` end to end: six bots (two byes) where identical
//! instant bots tie every match (a pair on one opening goes one game each
//! way) and so play the tie-break pairs up to the cap, after which the
//! higher seed advances, while a bot that always loses is knocked out by
//! the lower seed in its match's first pair; losers play no more, one
//! winner, `round` the bracket round; the bracket on the terminal and in
//! report.html. And a knockout SIGKILLed mid-run resumes to the games of
//! an uninterrupted run.

use crate::common;

use std::collections::BTreeMap;

use common::tournament::*;
use common::unique_tag;

#[test]
fn six_bots_two_byes_tie_breaks_one_winner() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut file = String::from(
        "[tournament]\nformat = \"knockout\"\ntiebreak_pairs = 1\nseed = 5\nopening_plies = 2\nconcurrency = 2\n",
    );
    for name in ["a", "b"] {
        file.push_str(&format!(
            "\n[[bot]]\nname = {name:?}\ncommand = [{INSTANT_BOT:?}]\n"
        ));
    }
    // Seed 3 loses every game (its second move is on an occupied cell).
    let illegal = repo_path("tests/bots/illegal.py");
    file.push_str(&format!(
        "\n[[bot]]\nname = \"c\"\ncommand = [\"python3\", {:?}]\n",
        illegal.display().to_string()
    ));
    for name in ["d", "e", "f"] {
        file.push_str(&format!(
            "\n[[bot]]\nname = {name:?}\ncommand = [{INSTANT_BOT:?}]\n"
        ));
    }
    let config = dir.path().join("k.toml");
    std::fs::write(&config, file).unwrap();
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);

    // round -> the matches' bots (in game order) and their games.
    let mut rounds: BTreeMap<u64, BTreeMap<(String, String), u64>> = BTreeMap::new();
    for row in csv_rows(&out) {
        let pair = if row.white < row.black {
            (row.white, row.black)
        } else {
            (row.black, row.white)
        };
        *rounds
            .entry(row.round)
            .or_default()
            .entry(pair)
            .or_default() += 1;
    }
    let matches = |r: u64| -> Vec<(&str, &str, u64)> {
        rounds[&r]
            .iter()
            .map(|((x, y), n)| (x.as_str(), y.as_str(), *n))
            .collect()
    };
    // Round 1: seeds 1 and 2 have byes; 4-5 tie (2 games and a tie-break
    // pair) and d advances as the higher seed; f beats c in 2 games.
    assert_eq!(matches(1), [("c", "f", 2), ("d", "e", 4)], "{stdout}");
    // Round 2: a-d and b-f, both tied to the cap.
    assert_eq!(matches(2), [("a", "d", 4), ("b", "f", 4)], "{stdout}");
    // The final.
    assert_eq!(matches(3), [("a", "b", 4)], "{stdout}");
    assert_eq!(rounds.len(), 3);
    assert_consistent(&out);

    assert!(
        stdout.contains("Round 1 of 3: d - e, c - f; bye: a, b"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Round 1 of 3, tie-break pair 1 of at most 1: d - e"),
        "{stdout}"
    );
    assert!(stdout.contains("Round 2 of 3: a - d, b - f"), "{stdout}");
    assert!(stdout.contains("d (tied: higher seed)"), "{stdout}");
    assert!(stdout.contains("Winner: a"), "{stdout}");
    assert_eq!(stdout.matches("Winner:").count(), 1);
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("Knockout round 3 of 3"), "report.html");
    assert!(page.contains("Winner: a"), "report.html");
}

#[test]
fn a_knockout_killed_mid_run_resumes_to_the_games_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let tag = unique_tag("knockout-sigkill");
    let settings = "format = \"knockout\"\ntiebreak_pairs = 1\nseed = 8\nopening_plies = 3\nconcurrency = 2\ntime_control = \"per-move=2000\"";
    let names = ["a", "b", "c", "d", "e"];
    let bots: Vec<TestBot> = names
        .iter()
        .map(|&n| TestBot::tagged(n, "tests/bots/paced_bot.py", &["10"], &tag))
        .collect();
    let config = write_config(dir.path(), settings, &bots);
    let killed = dir.path().join("killed");
    kill_after_rows(&config, &killed, dir.path(), 3);
    let before = csv_rows(&killed).len();
    wait_until_gone(&tag);
    let output = resume_tournament(&killed);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));

    std::fs::create_dir(dir.path().join("w")).unwrap();
    let fast: Vec<TestBot> = names
        .iter()
        .map(|&n| TestBot::new(n, "tests/bots/paced_bot.py", &["0"]))
        .collect();
    let config = write_config(&dir.path().join("w"), settings, &fast);
    let whole = dir.path().join("whole");
    let output = run_tournament(&config, &whole);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let games = csv_rows(&whole).len();
    assert!(
        before < games,
        "finished before the kill; slow the bots down"
    );
    assert_eq!(
        games_csv_without_timing(&killed),
        games_csv_without_timing(&whole)
    );
}
