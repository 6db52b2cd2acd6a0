//! Sharding a tournament and merging it back (`arena tournament --shard
//! K/N`, `arena merge`): the shards of a schedule are disjoint and together
//! exactly the schedule, a shard survives SIGKILL and resumes, merged
//! shards equal one unsharded run of deterministic bots, a merge reads the
//! shards' journals alone, and it refuses directories that do not belong
//! together and reports missing shards as incomplete (exit status 3).

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use arena::games::Variant;
use arena::tournament::driver::{Format, RunState};
use arena::tournament::round_robin::RoundRobin;
use arena::tournament::schedule::RoundRobinSchedule;
use arena::tournament::ScheduledGame;
use common::tournament::*;
use common::{live_processes_with_arg, unique_tag};
use proptest::prelude::*;

/// The documented rule, from outside the code: game pair `p` (games `2p`
/// and `2p + 1`) is shard `p mod N + 1`'s.
fn shard_of_game(id: u64, count: u64) -> u64 {
    (id / 2) % count + 1
}

fn shard_games(schedule: &RoundRobinSchedule, index: u64, count: u64) -> Vec<ScheduledGame> {
    let shard = format!("{index}/{count}").parse().unwrap();
    let mut feed = RoundRobin::new(schedule.clone()).with_shard(shard);
    let total = feed.games();
    let mut games = Vec::new();
    let nothing_done = RunState::new();
    while let Some(game) = feed.next_game(&nothing_done).unwrap() {
        games.push(game);
    }
    assert_eq!(games.len() as u64, total, "shard {index}/{count}");
    games
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn shards_are_disjoint_and_together_exactly_the_schedule(
        variant_index in 0..Variant::all().len(),
        bots in 2usize..6,
        cycles in 1u32..3,
        seed in any::<u64>(),
        // Up to 3 more shards than the largest schedule here has pairs.
        count in 1u64..(5 * 4 / 2 * 2 + 3),
    ) {
        let variant = &Variant::all()[variant_index];
        let schedule = RoundRobinSchedule::new(variant, bots, 2 * cycles, 2, seed);
        let whole: Vec<ScheduledGame> = schedule.games().collect::<anyhow::Result<_>>().unwrap();
        let mut seen = BTreeSet::new();
        for index in 1..=count {
            for game in shard_games(&schedule, index, count) {
                prop_assert_eq!(shard_of_game(game.id, count), index);
                prop_assert!(seen.insert(game.id), "game {} in two shards", game.id);
                prop_assert_eq!(&game, &whole[game.id as usize]);
            }
        }
        prop_assert_eq!(seen.len(), whole.len());
    }
}

#[test]
fn more_shards_than_pairs_leaves_the_last_shards_empty() {
    // 3 bots, 2 games a pairing: 3 pairs, so shards 4..=7 of 7 play nothing.
    let schedule = RoundRobinSchedule::new(&Variant::all()[0], 3, 2, 2, 5);
    let sizes: Vec<usize> = (1..=7)
        .map(|k| shard_games(&schedule, k, 7).len())
        .collect();
    assert_eq!(sizes, [2, 2, 2, 0, 0, 0, 0]);
}

/// 3 instant bots, 4 games a pairing: 12 games, 6 pairs.
const SETTINGS: &str =
    "variant = \"qango6\"\ngames_per_pairing = 4\nseed = 7\nopening_plies = 2\nconcurrency = 2";
const BOTS: [&str; 3] = ["a", "b", "c"];

fn run_shard(config: &Path, out: &Path, shard: &str) {
    let output = run_arena(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--shard",
        shard,
        "--no-progress",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

fn merge(out: &Path, dirs: &[&PathBuf]) -> std::process::Output {
    let mut args = vec!["merge".to_string(), out.display().to_string()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_arena(&args)
}

/// Plays shards 1..=4 of 4 of the instant-bot tournament in `dir`.
fn four_shards(dir: &Path, config: &Path) -> Vec<PathBuf> {
    (1..=4)
        .map(|k| {
            let out = dir.join(format!("shard{k}"));
            run_shard(config, &out, &format!("{k}/4"));
            out
        })
        .collect()
}

#[test]
fn four_merged_shards_equal_one_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_instant_config(dir.path(), SETTINGS, &BOTS);
    let single = dir.path().join("single");
    let output = run_tournament(&config, &single);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let shards = four_shards(dir.path(), &config);
    for (k, shard) in shards.iter().enumerate() {
        let ids = assert_consistent(shard);
        let expected: BTreeSet<u64> = (0..12)
            .filter(|&id| shard_of_game(id, 4) == k as u64 + 1)
            .collect();
        assert_eq!(ids, expected, "shard {}", k + 1);
    }

    let merged = dir.path().join("merged");
    // Given in any order.
    let output = merge(&merged, &[&shards[2], &shards[0], &shards[3], &shards[1]]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("Merged 12 of 12 games"),
        "{}",
        text(&output)
    );
    assert_same_games(&merged, &single);
    // The merge orders rows by game id (a run writes them as they finish).
    let ids: Vec<u64> = csv_rows(&merged).iter().map(|r| r.id).collect();
    assert_eq!(ids, (0..12).collect::<Vec<_>>());
    let record_ids: Vec<u64> = jsonl_records(&merged).iter().map(game_number).collect();
    assert_eq!(record_ids, ids);
    assert!(merged.join("report.html").exists());
}

#[test]
fn a_foreign_or_repeated_shard_is_refused_naming_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_instant_config(dir.path(), SETTINGS, &BOTS);
    let shards = four_shards(dir.path(), &config);

    // Shard 4/4 of the same bots with another seed: another tournament.
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).unwrap();
    let other_config =
        write_instant_config(&other_dir, &SETTINGS.replace("seed = 7", "seed = 8"), &BOTS);
    let foreign = dir.path().join("foreign4");
    run_shard(&other_config, &foreign, "4/4");

    let merged = dir.path().join("merged");
    let refused = |dirs: &[&PathBuf], words: &[&str]| {
        let output = merge(&merged, dirs);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        let stderr = String::from_utf8_lossy(&output.stderr);
        for word in words {
            assert!(stderr.contains(word), "{word:?} not in {}", text(&output));
        }
        assert!(!merged.join("games.csv").exists(), "nothing is merged");
    };
    let foreign_name = foreign.display().to_string();
    refused(
        &[&shards[0], &shards[1], &shards[2], &foreign],
        &[&foreign_name, "another tournament"],
    );
    // The same shard twice, once as a copy in another directory.
    let copy = dir.path().join("copy2");
    std::fs::create_dir(&copy).unwrap();
    for file in ["tournament.json", "games.csv", "games.jsonl"] {
        std::fs::copy(shards[1].join(file), copy.join(file)).unwrap();
    }
    let copy_name = copy.display().to_string();
    refused(
        &[&shards[0], &shards[1], &copy, &shards[3]],
        &[&copy_name, "both hold shard 2/4"],
    );
    // Shards of another split of the same tournament.
    let three = dir.path().join("three");
    run_shard(&config, &three, "3/3");
    let three_name = three.display().to_string();
    refused(&[&shards[0], &three], &[&three_name, "one split"]);
}

#[test]
fn a_missing_shard_makes_the_merge_incomplete_until_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_instant_config(dir.path(), SETTINGS, &BOTS);
    let shards = four_shards(dir.path(), &config);
    let merged = dir.path().join("merged");

    let output = merge(&merged, &[&shards[0], &shards[1], &shards[3]]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Shard 3/4 has pairs 2 (games 4, 5); 12 games minus 2.
    assert!(
        stdout.contains("missing: shard 3/4 (no directory given, 2 games)"),
        "{stdout}"
    );
    assert!(stdout.contains("Merged 10 of 12 games"), "{stdout}");
    assert!(stdout.contains("INCOMPLETE, 2 missing"), "{stdout}");
    let ids: Vec<u64> = csv_rows(&merged).iter().map(|r| r.id).collect();
    assert_eq!(ids, [0, 1, 2, 3, 6, 7, 8, 9, 10, 11]);

    // A shard that stopped early: its unplayed games are listed by id.
    let partial = dir.path().join("partial3");
    std::fs::create_dir(&partial).unwrap();
    std::fs::copy(
        shards[2].join("tournament.json"),
        partial.join("tournament.json"),
    )
    .unwrap();
    let head = |file: &str, lines: usize| {
        let text = std::fs::read_to_string(shards[2].join(file)).unwrap();
        let kept: Vec<&str> = text.lines().take(lines).collect();
        format!("{}\n", kept.join("\n"))
    };
    std::fs::write(partial.join("games.csv"), head("games.csv", 1)).unwrap();
    std::fs::write(partial.join("games.jsonl"), "").unwrap();
    let output = merge(&merged, &[&shards[0], &shards[1], &partial, &shards[3]]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("lacks 2 games: 4-5"), "{stdout}");

    // Given all four, the same output directory is replaced and complete.
    let output = merge(&merged, &[&shards[0], &shards[1], &shards[2], &shards[3]]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_exactly_games(&merged, 12);
}

#[test]
fn a_shard_killed_mid_run_resumes_to_exactly_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shard2");
    let tag = unique_tag("shard-sigkill");
    // 3 bots, 6 games a pairing: 18 games, 9 pairs; shard 2/3 has pairs
    // 1, 4, 7: games 2, 3, 8, 9, 14, 15.
    let config = write_config(
        dir.path(),
        "games_per_pairing = 6\ntime_control = \"per-move=2000\"\nconcurrency = 1\nseed = 9\nopening_plies = 2\nshard = \"2/3\"",
        &[
            TestBot::tagged("a", "tests/bots/paced_bot.py", &["15"], &tag),
            TestBot::tagged("b", "tests/bots/paced_bot.py", &["15"], &tag),
            TestBot::tagged("c", "tests/bots/paced_bot.py", &["15"], &tag),
        ],
    );
    let mut child = spawn_tournament(&config, &out, dir.path());
    wait_for_rows(&out, 1, Duration::from_secs(60));
    signal(&child, libc::SIGKILL);
    wait_exit(&mut child, Duration::from_secs(5));
    let before = assert_consistent(&out);
    assert!(
        before.len() < 6,
        "the shard finished before it was killed; slow the bots down"
    );
    wait_until_gone(&tag);

    let output = resume_tournament(&out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let ids = assert_consistent(&out);
    assert_eq!(ids, BTreeSet::from([2, 3, 8, 9, 14, 15]));
    assert!(before.is_subset(&ids));
    let (schedule, names) = round_robin_schedule(&out);
    assert_rows_follow_schedule(&csv_rows(&out), &schedule, &names);
    assert!(live_processes_with_arg(&tag).is_empty());
}

/// What is merged is the shards' journals: a shard's games.csv is not read
/// (its rows are written from the records, as a run writes them), a
/// journal out of id order is sorted on disk, and a journal line cut off
/// by a kill is left out and noted. The merge is the same as that of the
/// untouched shards.
#[test]
fn the_merge_reads_the_shards_journals_alone() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_instant_config(dir.path(), SETTINGS, &BOTS);
    let shards = four_shards(dir.path(), &config);
    let reference = dir.path().join("reference");
    let output = merge(&reference, &shards.iter().collect::<Vec<_>>());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));

    let damaged: Vec<PathBuf> = shards
        .iter()
        .map(|shard| {
            let name = shard.file_name().unwrap().to_str().unwrap();
            let copy = dir.path().join(format!("copy-{name}"));
            std::fs::create_dir(&copy).unwrap();
            for file in ["tournament.json", "games.jsonl"] {
                std::fs::copy(shard.join(file), copy.join(file)).unwrap();
            }
            copy
        })
        .collect();
    // Shard 1 has no games.csv, shard 2 a wrong one, shard 3's journal is
    // in reverse order, shard 4's ends in a torn line.
    std::fs::write(damaged[1].join("games.csv"), "nonsense\n").unwrap();
    let jsonl = std::fs::read_to_string(damaged[2].join("games.jsonl")).unwrap();
    let reversed: Vec<&str> = jsonl.lines().rev().collect();
    assert!(reversed.len() > 1);
    std::fs::write(damaged[2].join("games.jsonl"), reversed.join("\n") + "\n").unwrap();
    let torn = damaged[3].join("games.jsonl");
    let jsonl = std::fs::read_to_string(&torn).unwrap();
    std::fs::write(&torn, format!("{jsonl}{{\"id\":3,\"round\":0,\"pa")).unwrap();

    let merged = dir.path().join("merged");
    let mut args = vec!["merge", "--sort-kib", "1", merged.to_str().unwrap()];
    args.extend(damaged.iter().map(|d| d.to_str().unwrap()));
    let output = run_arena(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "note: {}:{}: left out an unfinished last line (cut off by a kill)",
            torn.display(),
            jsonl.lines().count() + 1
        )),
        "{stdout}"
    );
    for file in ["games.csv", "games.jsonl"] {
        assert_eq!(
            std::fs::read_to_string(merged.join(file)).unwrap(),
            std::fs::read_to_string(reference.join(file)).unwrap(),
            "{file}"
        );
    }
}
