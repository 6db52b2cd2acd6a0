//! A Swiss and a knockout played in shards, one round at a time
//! (`arena tournament --shard K/N`, then `arena merge`, then each shard
//! again with `--after MERGED`): every shard plays its pairs of the round
//! (pair p is shard p mod N + 1's), the merge says whether the round is
//! complete (exit 5: the next round is to play; 3: games missing; 0: the
//! tournament is over), and when every round is merged the merged games
//! and tables equal an unsharded run's with the same seed (deterministic
//! bots: the instant bot and `nth_legal.py` bots, which play by position
//! alone). The one-line refusals: a shard that played its part asked to
//! play on before the merge, and `--after` a directory of another
//! tournament.

use std::path::{Path, PathBuf};
use std::process::Output;

use common::tournament::*;

use crate::common;

/// `[tournament]` settings and bots: the instant bot `a`, then one
/// `nth_legal.py N` bot `nN` for each of `nths`, then the instant bot
/// `last` when asked.
fn write_field(dir: &Path, settings: &str, nths: &[u32], last: bool) -> PathBuf {
    let mut entries = vec![bot_entry("a", &[INSTANT_BOT.to_string(), "a".into()], "")];
    for n in nths {
        let script = repo_path("tests/bots/nth_legal.py").display().to_string();
        let command = ["python3".to_string(), script, n.to_string()];
        entries.push(bot_entry(&format!("n{n}"), &command, ""));
    }
    if last {
        let command = [INSTANT_BOT.to_string(), "last".into()];
        entries.push(bot_entry("last", &command, ""));
    }
    write_config_entries(dir, settings, &entries)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `arena tournament CONFIG --shard K/N --out DIR`, or, once DIR holds
/// the shard, `--resume DIR --after MERGED`.
fn play_shard(config: &Path, dir: &Path, shard: &str, merged: &Path) -> Output {
    if dir.join("tournament.json").exists() {
        let args = ["tournament", "--resume", path(dir), "--after", path(merged)];
        return run_arena(&[&args[..], &["--no-progress"]].concat());
    }
    let args = [
        "tournament",
        path(config),
        "--shard",
        shard,
        "--out",
        path(dir),
    ];
    run_arena(&[&args[..], &["--no-progress"]].concat())
}

fn merge(merged: &Path, shards: &[PathBuf]) -> Output {
    let mut args = vec!["merge", path(merged)];
    args.extend(shards.iter().map(|s| path(s)));
    run_arena(&args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).trim().to_string()
}

/// The format's tables at the end of `stdout`: from the line starting
/// `from` to the line before `Merged` (a merge's summary), or the end.
fn tables(stdout: &str, from: &str) -> String {
    stdout
        .lines()
        .skip_while(|line| !line.starts_with(from))
        .take_while(|line| !line.starts_with("Merged "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays every shard's part of the round, then merges; returns the
/// merge's output.
fn play_round(config: &Path, shards: &[PathBuf], merged: &Path) -> Output {
    let count = shards.len();
    for (k, dir) in shards.iter().enumerate() {
        let output = play_shard(config, dir, &format!("{}/{count}", k + 1), merged);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        assert!(stdout(&output).contains(&format!("shard {}/{count}", k + 1)));
    }
    merge(merged, shards)
}

/// Each shard's games are its pairs: game id g is in shard (g / 2) mod N + 1.
fn assert_pairs_dealt(shards: &[PathBuf]) {
    let count = shards.len() as u64;
    for (k, dir) in shards.iter().enumerate() {
        for id in assert_consistent(dir) {
            assert_eq!((id / 2) % count, k as u64, "g{id} in {}", dir.display());
        }
    }
}

#[test]
fn a_swiss_in_three_shards_merges_round_by_round_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let settings = "format = \"swiss\"\nrounds = 3\nvariant = \"qango6\"\ngames_per_pairing = 2\nseed = 7\nopening_plies = 2\nconcurrency = 3";
    let config = write_field(dir.path(), settings, &[1, 2, 3, 5, 8], false);
    let single = dir.path().join("single");
    let whole = run_tournament(&config, &single);
    assert_eq!(whole.status.code(), Some(0), "{}", text(&whole));

    let merged = dir.path().join("merged");
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| dir.path().join(format!("shard-{k}")))
        .collect();
    // Round 1: 3 boards of one pair, one pair per shard.
    for (k, shard) in shards.iter().enumerate() {
        let output = play_shard(&config, shard, &format!("{}/3", k + 1), &merged);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        assert!(
            stdout(&output).contains(&format!("Round 1 of 3: shard {}/3 done (2 games", k + 1)),
            "{}",
            text(&output)
        );
    }
    // Played again before the merge: nothing to play, one line.
    let ahead = run_arena(&["tournament", "--resume", path(&shards[0]), "--no-progress"]);
    assert_eq!(ahead.status.code(), Some(2), "{}", text(&ahead));
    let line = stderr(&ahead);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.contains("merge the shards first"), "{line}");
    // Two of three shards merged: shard 3's pair is missing (exit 3).
    let partial = merge(&merged, &shards[..2]);
    assert_eq!(partial.status.code(), Some(3), "{}", text(&partial));
    assert!(stdout(&partial).contains("missing: shard 3/3 (no directory given, 2 games)"));

    let mut codes = Vec::new();
    let mut last = merge(&merged, &shards);
    codes.push(last.status.code());
    assert!(
        stdout(&last).contains("Next: Round 2 of 3 (6 games)"),
        "{}",
        text(&last)
    );
    while last.status.code() == Some(5) && codes.len() < 5 {
        last = play_round(&config, &shards, &merged);
        codes.push(last.status.code());
    }
    assert_eq!(codes, [Some(5), Some(5), Some(0)], "{}", text(&last));
    assert!(stdout(&last).contains("Round 3 of 3 was the last: the tournament is over"));
    assert_pairs_dealt(&shards);
    assert_same_games(&merged, &single);
    let table = tables(&stdout(&last), "Swiss table after 3 rounds");
    assert!(table.contains("Swiss round 3:"), "{table}");
    assert_eq!(table, tables(&stdout(&whole), "Swiss table after 3 rounds"));
}

#[test]
fn a_knockout_with_a_tie_break_in_two_shards_equals_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    // Seeds 1 and 4 are both the instant bot: their match ties, every pair.
    let settings = "format = \"knockout\"\ntiebreak_pairs = 1\nvariant = \"qango6\"\ngames_per_pairing = 2\nseed = 7\nopening_plies = 2\nconcurrency = 2";
    let config = write_field(dir.path(), settings, &[1, 2], true);
    let single = dir.path().join("single");
    let whole = run_tournament(&config, &single);
    assert_eq!(whole.status.code(), Some(0), "{}", text(&whole));
    assert!(
        stdout(&whole).contains("(with 1 tie-break pair)"),
        "{}",
        text(&whole)
    );

    let merged = dir.path().join("merged");
    let shards = [dir.path().join("s1"), dir.path().join("s2")];
    let mut codes = Vec::new();
    let mut last = play_round(&config, &shards, &merged);
    codes.push(last.status.code());
    while last.status.code() == Some(5) && codes.len() < 8 {
        last = play_round(&config, &shards, &merged);
        codes.push(last.status.code());
    }
    assert_eq!(codes.last(), Some(&Some(0)), "{codes:?}\n{}", text(&last));
    assert!(
        codes.len() >= 3,
        "a round, its tie-break, the final: {codes:?}"
    );
    assert_pairs_dealt(&shards);
    // The games, not the standings: `a` and `last`, the same bot, tie
    // exactly in the ratings, and the order of an exact tie follows
    // games.csv's order (finishing order in a run, id order in a merge).
    assert_same_game_records(&merged, &single);
    let table = tables(&stdout(&last), "Knockout round 1");
    assert!(table.contains("Winner: "), "{table}");
    assert_eq!(table, tables(&stdout(&whole), "Knockout round 1"));
}

#[test]
fn after_a_merge_of_another_tournament_is_one_line_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let swiss = |seed: u32| {
        format!(
            "format = \"swiss\"\nrounds = 2\nvariant = \"qango6\"\nseed = {seed}\nconcurrency = 2"
        )
    };
    let other_dir = dir.path().join("other");
    std::fs::create_dir_all(&other_dir).unwrap();
    let other = write_field(&other_dir, &swiss(2), &[], true);
    let run = |args: &[&str]| run_arena(&[args, &["--no-progress"]].concat());
    let other_shard = dir.path().join("o1");
    let output = run(&[
        "tournament",
        path(&other),
        "--shard",
        "1/2",
        "--out",
        path(&other_shard),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let other_merged = dir.path().join("other-merged");
    // Round 1 is one pair, shard 1's: complete, round 2 to play (exit 5).
    assert_eq!(merge(&other_merged, &[other_shard]).status.code(), Some(5));

    let config = write_field(dir.path(), &swiss(1), &[], true);
    let shard = dir.path().join("s1");
    let args = [
        "tournament",
        path(&config),
        "--shard",
        "1/2",
        "--out",
        path(&shard),
    ];
    let output = run(&[&args[..], &["--after", path(&other_merged)]].concat());
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let line = stderr(&output);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.contains("is another tournament than"), "{line}");
    assert!(
        line.contains("other-merged") && line.contains("s1"),
        "{line}"
    );
    assert!(!shard.exists(), "a refused new run writes nothing");
    // --after on a round robin's shard: one line too.
    let rr = write_field(dir.path(), "seed = 1", &[], true);
    let args = [
        "tournament",
        path(&rr),
        "--shard",
        "1/2",
        "--out",
        path(&shard),
    ];
    let output = run(&[&args[..], &["--after", path(&other_merged)]].concat());
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(stderr(&output).contains("--after is for a shard of a swiss or knockout"));
}
