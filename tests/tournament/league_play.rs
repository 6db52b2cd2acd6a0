//! `arena league play` through the real binary: a league made, its bots
//! added, its games played and rated (seats `NAME@N`, every record judged
//! again by `arena judge`); an edited program becomes version 2 and both
//! versions keep their games; a SIGKILL mid-play loses only the games in
//! flight and playing again duplicates nothing; a second play at once is
//! refused by the lock; a new version is seeded first; clearly separated
//! bots end `--until-certified` certified.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use common::tournament::*;
use common::{arena, output_with_stdin, INSTANT_BOT};

/// `arena league init DIR` (qango6, a generous per-move limit), with
/// `settings` appended to its league.toml.
fn init(dir: &Path, settings: &str) -> PathBuf {
    let league = dir.join("league");
    let out = run_arena(&[
        "league",
        "init",
        league.to_str().unwrap(),
        "--variant",
        "qango6",
        "--tc",
        "per-move=2000",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let toml = league.join("league.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str(settings);
    std::fs::write(&toml, text).unwrap();
    league
}

/// `arena league add LEAGUE NAME -- COMMAND...`, run in `cwd`.
fn add(league: &Path, name: &str, command: &[&str], cwd: &Path) -> String {
    let out = arena()
        .args(["league", "add", league.to_str().unwrap(), name, "--"])
        .args(command)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn play_command(league: &Path, flags: &[&str]) -> Command {
    let mut command = arena();
    command
        .args(["league", "play", league.to_str().unwrap(), "--no-progress"])
        .args(flags);
    command
}

/// `arena league play LEAGUE FLAGS...`, which must succeed; its stdout.
fn play(league: &Path, flags: &[&str]) -> String {
    let out = play_command(league, flags).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// A CSV file's rows as maps from column to value.
fn csv_maps(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Each (bot, games) of a standings-like CSV.
fn games_of(path: &Path) -> Vec<(String, u64)> {
    csv_maps(path)
        .into_iter()
        .map(|m| (m["bot"].clone(), m["games"].parse().unwrap()))
        .collect()
}

/// A script `NAME.sh` in `dir` running the instant bot; `tweak` changes
/// its text (so its program) without changing what it does.
fn instant_script(dir: &Path, name: &str, tweak: &str) -> String {
    let file = format!("{name}.sh");
    std::fs::write(
        dir.join(&file),
        format!("# {tweak}\nexec {INSTANT_BOT} \"$@\"\n"),
    )
    .unwrap();
    file
}

/// Every line of games.jsonl whole (no torn last line) and every game id
/// once, the same in games.csv; the ids.
fn assert_whole_journal(league: &Path) -> BTreeSet<u64> {
    let text = std::fs::read_to_string(league.join("games.jsonl")).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "a torn last line");
    assert_consistent(league)
}

#[test]
fn a_league_is_made_played_and_rated_and_its_records_judged_again() {
    let dir = tempfile::tempdir().unwrap();
    let league = init(dir.path(), "opening_plies = 2\nseed = 3\n");
    add(&league, "ada", &[INSTANT_BOT, "ada"], dir.path());
    add(&league, "bob", &[INSTANT_BOT, "bob"], dir.path());
    let stdout = play(&league, &["--games", "5", "-j", "2"]);
    assert!(stdout.contains("versions that have not met"), "{stdout}");
    // 5 games round up to 3 pairs.
    assert_eq!(assert_whole_journal(&league), (0..6).collect());
    for row in csv_rows(&league) {
        let mut seats = [row.white.as_str(), row.black.as_str()];
        seats.sort();
        assert_eq!(seats, ["ada@1", "bob@1"]);
    }
    for record in jsonl_records(&league) {
        let judged = output_with_stdin(
            arena().arg("judge"),
            serde_json::to_string(&record).unwrap().as_bytes(),
        );
        assert_eq!(judged.status.code(), Some(0), "{}", text(&judged));
    }
    let mut standings = games_of(&league.join("standings.csv"));
    standings.sort();
    assert_eq!(
        standings,
        [("ada@1".to_string(), 6), ("bob@1".to_string(), 6)]
    );
    assert_eq!(csv_maps(&league.join("versions.csv")).len(), 2);
    // The table of the latest versions ends the output.
    assert!(stdout.contains("ada@1") && stdout.contains("6 games played"));
}

#[test]
fn an_edited_program_becomes_version_2_and_both_versions_keep_their_games() {
    let dir = tempfile::tempdir().unwrap();
    let league = init(dir.path(), "");
    let ada = instant_script(dir.path(), "ada", "first");
    add(&league, "ada", &["sh", &ada, "ada"], dir.path());
    add(&league, "bob", &[INSTANT_BOT, "bob"], dir.path());
    play(&league, &["--games", "2"]);
    instant_script(dir.path(), "ada", "second");
    let stdout = play(&league, &["--games", "2"]);
    assert!(
        stdout.contains("ada: the program changed: registered ada@2"),
        "{stdout}"
    );
    let versions: Vec<(String, u64)> = csv_maps(&league.join("versions.csv"))
        .into_iter()
        .map(|m| (m["bot"].clone(), m["games"].parse().unwrap()))
        .collect();
    let mut labels: Vec<&str> = versions.iter().map(|(b, _)| b.as_str()).collect();
    labels.sort();
    assert_eq!(labels, ["ada@1", "ada@2", "bob@1"]);
    assert!(versions.iter().all(|(_, games)| *games == 2 || *games == 4));
    let latest: BTreeSet<String> = games_of(&league.join("standings.csv"))
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    assert_eq!(latest, ["ada@2", "bob@1"].map(String::from).into());
    // The second play's games are the new version's.
    let rows = csv_rows(&league);
    assert!(rows
        .iter()
        .filter(|r| r.id >= 2)
        .all(|r| r.white == "ada@2" || r.black == "ada@2"));
}

/// Two paced bots (`ms` per move unless `PACED_BOT_MS` says otherwise).
fn paced_league(dir: &Path, ms: &str) -> PathBuf {
    let league = init(dir, "");
    let script = repo_path("tests/bots/paced_bot.py");
    for name in ["ada", "bob"] {
        add(
            &league,
            name,
            &["python3", script.to_str().unwrap(), ms],
            dir,
        );
    }
    league
}

#[test]
fn a_sigkill_mid_play_loses_only_the_games_in_flight_and_nothing_is_repeated() {
    let dir = tempfile::tempdir().unwrap();
    let league = paced_league(dir.path(), "15");
    let mut child = play_command(&league, &["--games", "200", "-j", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_rows(&league, 3, Duration::from_secs(60));
    signal(&child, libc::SIGKILL);
    wait_exit(&mut child, Duration::from_secs(10));
    // What the journal held at the kill (a torn last line left out).
    let before: BTreeSet<u64> = std::fs::read_to_string(league.join("games.jsonl"))
        .unwrap()
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .map(|l| game_number(&serde_json::from_str(l).unwrap()))
        .collect();
    assert!(before.len() >= 3);
    let out = play_command(&league, &["--games", "4", "-j", "2"])
        .env("PACED_BOT_MS", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let after = assert_whole_journal(&league);
    assert!(after.is_superset(&before), "games lost");
    assert_eq!(after.len(), before.len() + 4, "{}", text(&out));
    let newest = before.iter().max().unwrap();
    assert!(after.difference(&before).all(|id| id > newest));
    // No version was made by the kill.
    assert_eq!(csv_maps(&league.join("versions.csv")).len(), 2);
}

#[test]
fn a_second_play_on_one_league_is_refused_by_its_lock() {
    let dir = tempfile::tempdir().unwrap();
    let league = paced_league(dir.path(), "15");
    let mut first = play_command(&league, &["--games", "200", "-j", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_rows(&league, 1, Duration::from_secs(60));
    let second: Output = play_command(&league, &["--games", "2"]).output().unwrap();
    assert_ne!(second.status.code(), Some(0), "{}", text(&second));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains("is in use by another arena (pid"),
        "{}",
        text(&second)
    );
    // A writer too.
    let add = arena()
        .args(["league", "retire", league.to_str().unwrap(), "ada"])
        .output()
        .unwrap();
    assert_ne!(add.status.code(), Some(0), "{}", text(&add));
    // Ctrl-C: the first finishes its games in flight and rates.
    signal(&first, libc::SIGINT);
    let status = wait_exit(&mut first, Duration::from_secs(60));
    assert_eq!(status.code(), Some(130));
    assert_whole_journal(&league);
    assert!(league.join("standings.csv").is_file());
}

#[test]
fn a_new_version_is_seeded_first_and_clear_differences_end_certified() {
    let dir = tempfile::tempdir().unwrap();
    let league = init(dir.path(), "opening_plies = 2\n");
    add(&league, "ada", &[INSTANT_BOT, "ada"], dir.path());
    add(&league, "bob", &[INSTANT_BOT, "bob"], dir.path());
    play(&league, &["--games", "4", "-j", "2"]);
    let weak = repo_path("tests/bots/fails_after.py");
    add(
        &league,
        "cy",
        &["python3", weak.to_str().unwrap(), "0"],
        dir.path(),
    );
    // One batch: cy meets each of the others, one pair each.
    let stdout = play(&league, &["-j", "2"]);
    assert!(
        stdout.contains("2 pairs: versions that have not met"),
        "{stdout}"
    );
    let seeded: Vec<_> = csv_rows(&league)
        .into_iter()
        .filter(|r| r.id >= 4)
        .collect();
    assert_eq!(seeded.len(), 4);
    assert!(seeded
        .iter()
        .all(|r| r.white == "cy@1" || r.black == "cy@1"));
    // ada and bob are equal; retired bob leaves ada against cy, clearly apart.
    let out = run_arena(&["league", "retire", league.to_str().unwrap(), "bob"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = play(
        &league,
        &["--until-certified", "--max-games", "400", "-j", "2"],
    );
    assert!(
        stdout.contains("order is certified at confidence"),
        "{stdout}"
    );
    let games = csv_rows(&league).len();
    assert!(games < 8 + 400, "stopped when certified: {games}");
    let latest = games_of(&league.join("standings.csv"));
    assert_eq!(latest[0].0, "ada@1", "{latest:?}");
    // Certified already: nothing more to play.
    let stdout = play(&league, &["--until-certified"]);
    assert!(stdout.contains("Nothing to play"), "{stdout}");
}

/// Two shards of one array at once share one plan: each plays its pairs
/// into its own directory (a shard run again has them already) and
/// leaves the league as it is; the next play
/// brings their games in, each once with its planned id, and again adds
/// nothing; a later plan reserves ids after every game, and a plain play
/// takes ids after every reserved one.
#[test]
fn shards_play_one_plan_apart_and_their_games_join_the_league_once() {
    let dir = tempfile::tempdir().unwrap();
    let league = init(dir.path(), "opening_plies = 2\n");
    for name in ["ada", "bob", "cy"] {
        add(&league, name, &[INSTANT_BOT, name], dir.path());
    }
    let shard = |k: &str| {
        play_command(&league, &["--games", "8", "--shard", k])
            .spawn()
            .unwrap()
    };
    let (mut one, mut two) = (shard("1/2"), shard("2/2"));
    assert!(one.wait().unwrap().success() && two.wait().unwrap().success());
    assert!(
        csv_rows(&league).is_empty(),
        "shards leave the league as it is"
    );
    // A shard run again (a requeued job) has its games already.
    let rerun = play(&league, &["--games", "8", "--shard", "1/2"]);
    assert!(rerun.contains("0 games played by shard 1/2"), "{rerun}");
    let collected = play(&league, &["--games", "0"]);
    assert!(collected.contains("collected 8 games"), "{collected}");
    assert_eq!(assert_whole_journal(&league), (0..8).collect());
    // Each pair's two games, colours swapped, one opening.
    let records = jsonl_records(&league);
    for pair in 0..4u64 {
        let games: Vec<&serde_json::Value> = records.iter().filter(|r| r["pair"] == pair).collect();
        assert_eq!(games.len(), 2, "pair {pair}");
        assert_eq!(games[0]["white"], games[1]["black"]);
        assert_eq!(games[0]["opening"], games[1]["opening"]);
    }
    let again = play(&league, &["--games", "0"]);
    assert!(!again.contains("collected"), "{again}");
    // A shard run again now plans from the league as it is now.
    play(&league, &["--games", "4", "--shard", "1/2"]);
    play(&league, &["--games", "4"]);
    play(&league, &["--games", "0"]);
    // The second plan reserved g8..g11; its shard 1/2 played pair 4
    // (g8, g9), shard 2/2 never ran; the plain play went on after g11.
    let ids = assert_whole_journal(&league);
    let expected: BTreeSet<u64> = (0..10).chain(12..16).collect();
    assert_eq!(ids, expected);
    let refused = play_command(&league, &["--until-certified", "--shard", "1/2"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
}

/// A shard registers nothing, so it refuses to play a bot whose program
/// changed since its version was registered (it would play under the old
/// version's name).
#[test]
fn a_shard_refuses_a_changed_program_until_a_plain_play_registers_it() {
    let dir = tempfile::tempdir().unwrap();
    let league = init(dir.path(), "");
    let script = instant_script(dir.path(), "ada", "v1");
    add(&league, "ada", &["sh", &script], dir.path());
    add(&league, "bob", &[INSTANT_BOT, "bob"], dir.path());
    instant_script(dir.path(), "ada", "v2");
    let refused = play_command(&league, &["--games", "2", "--shard", "1/2"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        text(&refused).contains("ada's program changed since ada@1"),
        "{}",
        text(&refused)
    );
    let registered = play(&league, &["--games", "0"]);
    assert!(registered.contains("registered ada@2"), "{registered}");
    play(&league, &["--games", "2", "--shard", "1/2"]);
}
