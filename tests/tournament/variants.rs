//! Several variants in one run: the schedule (every two bots meet equally
//! often in every variant, colours swapped within each pair), a
//! three-variant round robin whose per-variant and pooled standings are
//! exactly what `arena rate --variant X` and `arena rate --pool` give over
//! its games, and a killed multi-variant run that a resume completes.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use arena::games::Variant;
use arena::tournament::schedule::RoundRobinSchedule;
use arena::tournament::shard::Shard;
use common::tournament::*;
use common::unique_tag;

const VARIANTS: [&str; 3] = ["qango6", "qango7", "quinque"];

fn variants() -> Vec<&'static Variant> {
    VARIANTS
        .iter()
        .map(|id| Variant::by_id(id).unwrap())
        .collect()
}

/// 4 bots, 4 games per pairing, 3 variants: 6 pairings x 4 games x 3
/// variants = 72 games (counted by hand); each two bots play 4 games in each
/// variant, 2 with each colour, and the two games of a pair share the
/// variant and opening with colours swapped.
#[test]
fn every_pair_meets_equally_often_in_every_variant() {
    let schedule = RoundRobinSchedule::new(variants()[0], 4, 4, 2, 7).with_variants(variants());
    assert_eq!(schedule.len(), 72);
    let games: Vec<_> = schedule.games().collect::<anyhow::Result<_>>().unwrap();
    let mut meetings: BTreeMap<(&str, usize, usize), u32> = BTreeMap::new();
    for game in &games {
        *meetings
            .entry((game.variant_id, game.white, game.black))
            .or_default() += 1;
        // The opening is legal in the game's own variant.
        arena::tournament::schedule::opening_position(game.variant(), &game.opening).unwrap();
        assert_eq!(game.opening.len(), 2);
    }
    for variant in VARIANTS {
        for white in 0..4 {
            for black in (0..4).filter(|&b| b != white) {
                assert_eq!(
                    meetings[&(variant, white, black)],
                    2,
                    "{variant} {white}-{black}"
                );
            }
        }
    }
    assert_eq!(meetings.len(), 3 * 12);
    for pair in games.chunks(2) {
        let [first, second] = pair else { panic!() };
        assert_eq!(first.variant_id, second.variant_id);
        assert_eq!((first.white, first.black), (second.black, second.white));
        assert_eq!(first.opening, second.opening);
        // Variants take turns pair by pair, as documented.
        assert_eq!(first.variant_id, VARIANTS[(first.pair % 3) as usize]);
    }
    // Shards split the same schedule: their games together are all games.
    let mut sharded: Vec<u64> = (1..=4)
        .flat_map(|index| {
            let shard = Shard { index, count: 4 };
            games
                .iter()
                .filter(move |g| shard.contains_game(g.id))
                .map(|g| g.id)
        })
        .collect();
    sharded.sort_unstable();
    assert_eq!(sharded, (0..72).collect::<Vec<_>>());
    // With one variant the schedule is the one-variant schedule.
    let one = RoundRobinSchedule::new(variants()[1], 4, 4, 2, 7);
    let listed =
        RoundRobinSchedule::new(variants()[0], 4, 4, 2, 7).with_variants(vec![variants()[1]]);
    assert_eq!(one.len(), listed.len());
    for id in 0..one.len() {
        assert_eq!(one.game(id).unwrap(), listed.game(id).unwrap());
    }
}

/// The rows of `variant`'s fit in a rating file: those whose first column
/// (`variant`) is `variant`; in model.csv those of its own (`separate`) fit.
fn block(path: &Path, variant: &str) -> Vec<String> {
    let model = path.ends_with("model.csv");
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .skip(1)
        .filter(|line| {
            let mut columns = line.split(',');
            columns.next() == Some(variant) && (!model || columns.next() == Some("separate"))
        })
        .map(String::from)
        .collect()
}

fn rate(args: &[&str]) -> String {
    let out = run_arena(&[&["rate"], args].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const FILES: [&str; 4] = [
    "standings.csv",
    "model.csv",
    "pairwise.csv",
    "crosstable.csv",
];

#[test]
fn a_three_variant_round_robin_rates_each_variant_and_pools_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("tournament-variants");
    let config = write_config(
        dir.path(),
        "variants = [\"qango6\", \"qango7\", \"quinque\"]\ngames_per_pairing = 2\n\
         time_control = \"per-move=2000\"\nconcurrency = 2\nseed = 4\nopening_plies = 1",
        &[
            TestBot::tagged("greedy", "bots/python/greedy_bot.py", &[], &tag),
            TestBot::tagged(
                "random",
                "bots/python/random_bot.py",
                &["--seed", "3"],
                &tag,
            ),
            TestBot::tagged("first", "tests/bots/good_bot.py", &[], &tag),
        ],
    );
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("qango6, qango7, quinque"), "{stdout}");
    for heading in [
        "qango6 (its games alone):",
        "quinque (its games alone):",
        "All variants pooled",
    ] {
        assert!(stdout.contains(heading), "{heading}: {stdout}");
    }

    // 3 pairings x 2 games x 3 variants.
    assert_exactly_games(&out, 18);
    let (schedule, names) = round_robin_schedule(&out);
    let rows = csv_rows(&out);
    assert_rows_follow_schedule(&rows, &schedule, &names);
    for variant in VARIANTS {
        assert_eq!(rows.iter().filter(|r| r.variant == variant).count(), 6);
    }

    // One block per variant and the pooled one, 3 bots each.
    let standings = out.join("standings.csv");
    for variant in VARIANTS.iter().chain(&["all"]) {
        assert_eq!(block(&standings, variant).len(), 3, "{variant}");
    }
    assert_eq!(line_count(&standings), 1 + 4 * 3);
    // model.csv: each variant's own fit, and in the pooled fit each variant's
    // own advantage and draw elo.
    let model = std::fs::read_to_string(out.join("model.csv")).unwrap();
    for variant in VARIANTS {
        for fit in ["separate", "pooled"] {
            for parameter in ["white_advantage_elo", "draw_elo"] {
                let start = format!("\n{variant},{fit},{parameter},");
                assert!(model.contains(&start), "{start}: {model}");
            }
        }
    }

    // Each variant's block is exactly `arena rate --variant X` of the games.
    let games = out.join("games.csv");
    let games = games.to_str().unwrap();
    // Rating a run's games prints the tables and changes none of its files,
    // and refuses to write into the run's directory.
    let files_before = run_files(&out);
    let said = rate(&[games]);
    assert!(
        said.contains("qango6:") && said.contains("Nothing written"),
        "{said}"
    );
    let refused = run_arena(&["rate", games, "--out", out.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        text(&refused).contains("holds a run") && text(&refused).contains("never changes"),
        "{}",
        text(&refused)
    );
    for variant in VARIANTS {
        let alone = dir.path().join(format!("rate-{variant}"));
        rate(&[
            games,
            "--variant",
            variant,
            "--out",
            alone.to_str().unwrap(),
        ]);
        for file in FILES {
            let expected = block(&alone.join(file), variant);
            assert!(!expected.is_empty(), "{variant} {file}");
            assert_eq!(
                block(&out.join(file), variant),
                expected,
                "{variant} {file}"
            );
        }
    }
    // The whole files, pooled block included, are `arena rate --pool`'s.
    let pooled = dir.path().join("rate-pooled");
    let said = rate(&[games, "--pool", "--out", pooled.to_str().unwrap()]);
    assert!(said.contains("All 3 variants pooled (--pool):"), "{said}");
    for file in FILES {
        let ours = std::fs::read_to_string(out.join(file)).unwrap();
        assert_eq!(
            std::fs::read_to_string(pooled.join(file)).unwrap(),
            ours,
            "{file}"
        );
    }
    // Without --pool, arena rate fits each variant alone and says so.
    let separate = dir.path().join("rate-separate");
    let said = rate(&[games, "--out", separate.to_str().unwrap()]);
    assert!(
        said.contains("3 variants, each rated on its own (--pool to also rate them together)"),
        "{said}"
    );
    let separate = separate.join("standings.csv");
    assert!(block(&separate, "all").is_empty());
    assert_eq!(block(&separate, "quinque"), block(&standings, "quinque"));
    assert_eq!(
        run_files(&out),
        files_before,
        "arena rate changed the run's files"
    );
    wait_until_gone(&tag);
}

/// The run's files (not its logs) and their contents.
fn run_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

/// A multi-variant run killed in the middle: the resume plays exactly the
/// rest, each game in its scheduled variant.
#[test]
fn a_killed_multi_variant_run_resumes_to_exactly_the_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("tournament-variants-resume");
    let config = write_config(
        dir.path(),
        "variants = [\"qango7\", \"quinque\", \"qango6\"]\ngames_per_pairing = 2\n\
         time_control = \"per-move=2000\"\nconcurrency = 2\nseed = 12\nopening_plies = 1",
        &[
            TestBot::tagged("a", "tests/bots/paced_bot.py", &["15"], &tag),
            TestBot::tagged("b", "tests/bots/paced_bot.py", &["15"], &tag),
            TestBot::tagged("c", "tests/bots/good_bot.py", &[], &tag),
        ],
    );
    kill_after_rows(&config, &out, dir.path(), 3);
    let before = assert_consistent(&out);
    assert!(
        (before.len() as u64) < 18,
        "the run finished before it was killed; slow the bots down"
    );
    wait_until_gone(&tag);

    let output = resume_tournament(&out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_exactly_games(&out, 18);
    let (schedule, names) = round_robin_schedule(&out);
    assert_rows_follow_schedule(&csv_rows(&out), &schedule, &names);
    let standings = out.join("standings.csv");
    for variant in ["qango7", "quinque", "qango6", "all"] {
        assert_eq!(block(&standings, variant).len(), 3, "{variant}");
    }
    wait_until_gone(&tag);
}
