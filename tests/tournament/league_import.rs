//! `arena league import`: runs' games go into a league by bot name and
//! program identity (one name that hides two programs becomes two
//! versions, each with its games), a run imported twice, or again after an
//! import a crash cut short, adds each game once; and `arena rate` over
//! runs where one name is two programs warns.

use std::path::Path;

use crate::common;

use common::tournament::{run_arena, text};
use common::INSTANT_BOT;

/// A finished run in `out`: "perl-v1" runs `perl` (the instant bot with
/// that word as argument: another word, another program), "b" is the same
/// program in every run; two games.
fn run(out: &Path, perl: &str, seed: &str) {
    let output = run_arena(&[
        "tournament",
        "--bot",
        &format!("perl-v1={INSTANT_BOT} {perl}"),
        "--bot",
        &format!("b={INSTANT_BOT} b"),
        "--games",
        "2",
        "--seed",
        seed,
        "-j",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

fn arena_ok(args: &[&str]) -> String {
    let output = run_arena(args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    String::from_utf8(output.stdout).unwrap()
}

fn league(dir: &Path) -> String {
    let league = dir.join("league");
    arena_ok(&["league", "init", league.to_str().unwrap()]);
    league.to_str().unwrap().to_string()
}

/// (white, black) of each row of the league's games.csv, and its ids.
fn seats(league: &str) -> (Vec<(String, String)>, Vec<String>) {
    let csv = std::fs::read_to_string(Path::new(league).join("games.csv")).unwrap();
    let rows: Vec<Vec<String>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let seats = rows.iter().map(|r| (r[4].clone(), r[5].clone())).collect();
    let mut ids: Vec<String> = rows.iter().map(|r| r[0].clone()).collect();
    ids.sort();
    (seats, ids)
}

/// Games of each version in the league's versions.csv: (bot, games).
fn versions(league: &str) -> Vec<(String, String)> {
    let csv = std::fs::read_to_string(Path::new(league).join("versions.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (bot, games) = (at("bot"), at("games"));
    let mut rows: Vec<(String, String)> = lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[bot].to_string(), cells[games].to_string())
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn one_name_that_hides_two_programs_becomes_two_versions() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    run(&a, "v1", "1");
    run(&b, "v2", "2");
    let league = league(dir.path());
    let said = arena_ok(&[
        "league",
        "import",
        &league,
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert!(
        said.contains("perl-v1: new in the league: imported as perl-v1@1")
            && said.contains("perl-v1: another program than perl-v1@1: imported as perl-v1@2")
            && said.contains("b: the program of b@1: its games go to it"),
        "{said}"
    );
    let (seats, ids) = seats(&league);
    let perl: Vec<&str> = seats
        .iter()
        .map(|(w, b)| if w == "b@1" { b.as_str() } else { w.as_str() })
        .collect();
    assert_eq!(perl, ["perl-v1@1", "perl-v1@1", "perl-v1@2", "perl-v1@2"]);
    assert!(seats.iter().all(|(w, b)| w == "b@1" || b == "b@1"));
    assert_eq!(ids, ["g0", "g1", "g2", "g3"]);
    // The standings rate both versions, each with its own games.
    arena_ok(&["league", "standings", &league, "--all"]);
    assert_eq!(
        versions(&league),
        [("b@1", "4"), ("perl-v1@1", "2"), ("perl-v1@2", "2")]
            .map(|(b, g)| (b.to_string(), g.to_string()))
    );
}

#[test]
fn a_run_imported_twice_or_after_a_crash_adds_each_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    run(&a, "v1", "1");
    let league = league(dir.path());
    let import = || arena_ok(&["league", "import", &league, a.to_str().unwrap()]);
    assert!(import().contains("imported 2 games as g0 to g1"));
    let again = import();
    assert!(
        again.contains("nothing new: the league has its 2 games"),
        "{again}"
    );
    assert_eq!(seats(&league).1, ["g0", "g1"]);

    // A crash after the first game was appended: the import's `done` line
    // and its last game are not on disk.
    let cut = |name: &str| {
        let path = Path::new(&league).join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().collect();
        std::fs::write(&path, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    };
    cut("imports.jsonl");
    cut("games.jsonl");
    let after = import();
    assert!(
        after.contains("cut short by a crash: 1 of its 2 games are in the league")
            && after.contains("imported 1 game as g1 (1 game in the league already)"),
        "{after}"
    );
    let (seats, ids) = seats(&league);
    assert_eq!(ids, ["g0", "g1"]);
    assert_eq!(
        seats,
        [("perl-v1@1", "b@1"), ("b@1", "perl-v1@1")].map(|(w, b)| (w.to_string(), b.to_string()))
    );
    assert!(import().contains("nothing new"));
}

/// After a crash cut an import short, another command appended a game at
/// the id the import had meant for its second game: that game stays, and
/// the run's second game gets the next id.
#[test]
fn a_game_appended_after_a_crash_keeps_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    run(&a, "v1", "1");
    let league = league(dir.path());
    let import = || arena_ok(&["league", "import", &league, a.to_str().unwrap()]);
    import();
    let lines = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(Path::new(&league).join(name)).unwrap();
        text.lines().map(String::from).collect()
    };
    let imports = lines("imports.jsonl");
    std::fs::write(
        Path::new(&league).join("imports.jsonl"),
        imports[0].clone() + "\n",
    )
    .unwrap();
    // The league's g1 is now another game: its end time differs.
    let games = lines("games.jsonl");
    let other = games[1].replacen("\"ended_utc\":\"", "\"ended_utc\":\"1", 1);
    assert_ne!(other, games[1]);
    std::fs::write(
        Path::new(&league).join("games.jsonl"),
        format!("{}\n{other}\n", games[0]),
    )
    .unwrap();
    let after = import();
    assert!(
        after.contains("cut short by a crash: 1 of its 2 games are in the league")
            && after.contains("imported 1 game as g2 (1 game in the league already)"),
        "{after}"
    );
    let games = lines("games.jsonl");
    assert_eq!(games.len(), 3);
    assert_eq!(games[1], other);
    assert!(import().contains("nothing new"));
}

#[test]
fn rate_warns_when_one_name_is_two_programs() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        dir.path().join("a"),
        dir.path().join("b"),
        dir.path().join("c"),
    );
    run(&a, "v1", "1");
    run(&b, "v2", "2");
    run(&c, "v1", "3");
    let rate = |x: &Path, y: &Path| {
        let output = run_arena(&["rate", x.to_str().unwrap(), y.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        String::from_utf8(output.stderr).unwrap()
    };
    let warned = rate(&a, &b);
    let expected = format!(
        "warning: bot \"perl-v1\" is two programs in these runs ({}, {}): they are rated as one; arena league import keeps them apart as versions",
        a.join("games.csv").display(),
        b.join("games.csv").display()
    );
    assert!(warned.contains(&expected), "{warned}");
    assert_eq!(warned.matches("warning: bot").count(), 1, "{warned}");
    let same = rate(&a, &c);
    assert!(!same.contains("programs in these runs"), "{same}");
}
