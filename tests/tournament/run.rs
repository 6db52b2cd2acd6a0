//! `arena tournament` and `arena sprt` end to end with real bot processes:
//! every output file with the right rows, failing bots losing without
//! stopping the tournament, and Ctrl-C stopping cleanly and resumably.

use crate::common;

use std::path::Path;
use std::time::Duration;

use arena::cli::judge::judge;
use arena::games::GameResult;
use common::tournament::*;
use common::{arena, unique_tag};

const GOOD: &str = "tests/bots/good_bot.py";
const PACED: &str = "tests/bots/paced_bot.py";

#[test]
fn small_tournament_writes_every_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("tournament-files");
    let config = write_config(
        dir.path(),
        &format!(
            "variant = \"qango6\"\ngames_per_pairing = 4\ntime_control = \"per-move=2000\"\n\
             concurrency = 2\nseed = 11\nopening_plies = 2\nout = {:?}",
            out.display().to_string()
        ),
        &[
            TestBot::tagged("good", GOOD, &[], &tag),
            TestBot::tagged("paced", PACED, &["1"], &tag),
            TestBot::tagged(
                "random",
                "bots/python/random_bot.py",
                &["--seed", "3"],
                &tag,
            ),
        ],
    );
    let output = run_arena(&["tournament", config.to_str().unwrap(), "--no-progress"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(&out.display().to_string()), "{stdout}");
    assert!(stdout.contains("Elo"), "standings table missing:\n{stdout}");

    // 3 pairings x 4 games, each scheduled game once, as tournament.json says.
    assert_exactly_games(&out, 12);
    let (schedule, names) = round_robin_schedule(&out);
    let rows = csv_rows(&out);
    assert_rows_follow_schedule(&rows, &schedule, &names);
    for row in rows {
        assert_eq!(row.opening.split(' ').count(), 2);
        assert!(row.reason.is_rule(), "{row:?}");
    }

    // Every record replays under `arena judge` to the recorded result.
    for record in jsonl_records(&out) {
        let verdict = judge(record.to_string().as_bytes()).unwrap();
        assert_eq!(verdict["winner"], record["winner"], "{record}");
        assert_eq!(verdict["reason"], record["reason"], "{record}");
        assert_eq!(verdict["plies"], record["plies"], "{record}");
    }

    assert_eq!(line_count(&out.join("standings.csv")), 1 + 3);
    assert_eq!(line_count(&out.join("pairwise.csv")), 1 + 3);
    assert!(out.join("model.csv").is_file());
    // A bot's log of a game is created when it first writes to stderr
    // (these bots write when they hear game_over): at most one per bot and
    // game, named after its game, and every log a record names exists.
    let records = jsonl_records(&out);
    let game_ids: Vec<String> = records
        .iter()
        .map(|r| r["game_id"].as_str().unwrap().to_string())
        .collect();
    let logs: Vec<String> = std::fs::read_dir(out.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!logs.is_empty() && logs.len() <= 2 * 12, "{logs:?}");
    for log in &logs {
        assert!(
            game_ids.iter().any(|id| log.starts_with(&format!("{id}-"))),
            "{log} is not a game's log"
        );
    }
    for record in &records {
        for side in ["white_log", "black_log"] {
            if let Some(path) = record[side].as_str() {
                assert!(Path::new(path).is_file(), "{record}");
            }
        }
    }
    wait_until_gone(&tag);
}

#[test]
fn failing_bots_lose_and_the_tournament_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("tournament-failures");
    // Starts once (the start check before the first game), then never
    // answers hello.
    let starts = dir.path().join("slow.starts").display().to_string();
    let mut slow = TestBot::tagged(
        "slow-start",
        "tests/bots/starts_then_fails.py",
        &[&starts, "1", "silent"],
        &tag,
    );
    slow.extra = "limits = { startup_ms = 1500 }";
    let config = write_config(
        dir.path(),
        "games_per_pairing = 2\ntime_control = \"per-move=2000\"\nconcurrency = 2\nseed = 1",
        &[
            TestBot::tagged("good", GOOD, &[], &tag),
            TestBot::tagged("crash", "tests/bots/crash.py", &[], &tag),
            slow,
        ],
    );
    let output = run_arena(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_exactly_games(&out, 6);
    let rows = csv_rows(&out);
    for row in &rows {
        let loser = match row.result {
            GameResult::WhiteWins => &row.black,
            GameResult::BlackWins => &row.white,
            GameResult::Draw => panic!("unexpected draw: {row:?}"),
        };
        if row.white == "slow-start" || row.black == "slow-start" {
            if row.white == "crash" || row.black == "crash" {
                continue; // Who fails first between these two depends on timing.
            }
            assert_eq!(loser, "slow-start", "{row:?}");
            assert_eq!(row.reason, "startup", "{row:?}");
        } else {
            assert_eq!(loser, "crash", "{row:?}");
            assert_eq!(row.reason, "crash", "{row:?}");
        }
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "(slow-start): never answered hello: no line within the 1500 ms startup limit"
        ) && stdout.contains("(crash): process ended: exit code 3"),
        "failure messages are shown:\n{stdout}"
    );
    wait_until_gone(&tag);
}

#[test]
fn ctrl_c_stops_cleanly_writes_standings_and_resume_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("tournament-sigint");
    let config = write_config(
        dir.path(),
        "games_per_pairing = 6\ntime_control = \"per-move=2000\"\nconcurrency = 2\nseed = 5\nopening_plies = 1",
        &[
            TestBot::tagged("a", PACED, &["15"], &tag),
            TestBot::tagged("b", PACED, &["15"], &tag),
            TestBot::tagged("c", PACED, &["15"], &tag),
        ],
    );
    let mut child = spawn_tournament(&config, &out, dir.path());
    wait_for_rows(&out, 2, Duration::from_secs(30));
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(15));
    let stdout = std::fs::read_to_string(dir.path().join("arena.stdout")).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("--resume"), "{stdout}");
    // The games in flight were finished and recorded (a first Ctrl-C);
    // the bots are gone.
    let done = assert_consistent(&out);
    assert!(done.len() >= 2 && done.len() < 18, "{done:?}");
    // Standings of the bots that have played so far.
    // (header plus at least two bots)
    assert!(line_count(&out.join("standings.csv")) > 2);
    // And report.html over exactly the games played so far.
    let page = std::fs::read_to_string(out.join("report.html")).expect("report.html after Ctrl-C");
    assert!(
        page.contains(&format!(
            "<title>arena report: {} games</title>",
            done.len()
        )),
        "{stdout}"
    );
    wait_until_gone(&tag);

    let output = run_arena(&[
        "tournament",
        "--resume",
        out.to_str().unwrap(),
        "-j",
        "3",
        "--no-progress",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout)
            .contains(&format!("{} of 18 games already played", done.len())),
        "{}",
        text(&output)
    );
    assert_exactly_games(&out, 18);
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    for line in standings.lines().skip(1) {
        assert_eq!(
            line.split(',').nth(3),
            Some("12"),
            "each bot played 12: {standings}"
        );
    }
    wait_until_gone(&tag);

    // Resuming a finished tournament plays nothing and changes nothing.
    let before = std::fs::read(out.join("games.csv")).unwrap();
    let output = run_arena(&[
        "tournament",
        "--resume",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), before);
}

#[test]
fn sprt_stops_when_it_decides_and_journals_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("sprt");
    let good = format!("python3 {} {tag}", repo_path(GOOD).display());
    let crash = format!(
        "python3 {} {tag}",
        repo_path("tests/bots/crash.py").display()
    );
    let output = run_arena(&[
        "sprt",
        &format!("good={good}"),
        &format!("crash={crash}"),
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--tc",
        "per-move=2000",
        "-j",
        "2",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    // The crashing bot loses every game: H1 (good is stronger) is accepted.
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(stdout.contains("LLR"), "{stdout}");
    let ids = assert_consistent(&out);
    let pairs = stdout.lines().filter(|l| l.starts_with("pair ")).count();
    assert!(pairs >= 2, "{stdout}");
    // Progress counts completed pairs from 1 in the order they finish.
    let numbers = pair_numbers(&stdout);
    assert_eq!(numbers, (1..=pairs as u64).collect::<Vec<_>>(), "{stdout}");
    // Every completed pair is in the journal; abandoned games are not.
    assert!(ids.len() >= 2 * pairs, "{ids:?}");
    for row in csv_rows(&out) {
        let partner = csv_rows(&out).into_iter().find(|r| r.id == row.id ^ 1);
        if let Some(partner) = partner {
            assert_eq!(partner.opening, row.opening);
            assert_eq!(
                (partner.white, partner.black),
                (row.black.clone(), row.white.clone())
            );
        }
        assert_eq!(row.reason, "crash", "{row:?}");
    }
    assert_eq!(line_count(&out.join("standings.csv")), 1 + 2);
    // The report has the LLR path of the SPRT, ending at the printed LLR.
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("<section id=\"sprt\">"), "no SPRT section");
    assert!(page.contains("good vs crash, LLR "), "no LLR line");
    wait_until_gone(&tag);
}

#[test]
fn bundled_arena_toml_is_valid_and_its_bots_exist() {
    use arena::tournament::config::Defaults;
    use arena::tournament::settings::load;
    use arena::tournament::testing;
    use arena::tournament::Given;
    let defaults = Defaults {
        concurrency: 2,
        ..testing::defaults()
    };
    let config = load(&repo_path("arena.toml"), &Given::new(), &defaults)
        .unwrap()
        .config;
    assert!(config.bots.len() >= 4, "{:?}", config.bot_names());
    assert!(config.games_per_pairing >= 2);
    // Loaded through a relative path (tests run in the repository root), the
    // bots' directories are still absolute, so a resume works from anywhere.
    let relative = load(std::path::Path::new("arena.toml"), &Given::new(), &defaults)
        .unwrap()
        .config;
    assert_eq!(relative.bots, config.bots);
    for bot in &config.bots {
        let cwd = bot.cwd.clone().unwrap();
        assert!(cwd.is_absolute(), "{}", cwd.display());
        // Scripts run by an interpreter must be in the repository.
        if ["python3", "node"].contains(&bot.command[0].as_str()) {
            let script = cwd.join(&bot.command[1]);
            assert!(
                script.is_file(),
                "{}: {} is missing",
                bot.name,
                script.display()
            );
        }
        if bot.command[0] == "cargo" {
            let package = &bot.command[bot.command.iter().position(|w| w == "-p").unwrap() + 1];
            let manifest = std::fs::read_to_string(cwd.join("bots/engine/Cargo.toml")).unwrap();
            assert!(
                manifest.contains(&format!("name = {package:?}")),
                "{package}"
            );
        }
    }
}

#[test]
fn configuration_errors_name_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "variant = \"qango6\"\ngames_per_pairing = 3",
        &[TestBot::new("a", GOOD, &[]), TestBot::new("b", GOOD, &[])],
    );
    let output = arena()
        .args(["tournament", config.to_str().unwrap()])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("t.toml:3:21: field `games_per_pairing`") && stderr.contains("even"),
        "{stderr}"
    );
    assert!(!dir.path().join("arena-out").exists());

    let output = run_arena(&["tournament", "--resume", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("tournament.json"), "{stderr}");

    let output = run_arena(&[
        "tournament",
        "--bot",
        "a=python3 x.py",
        "--bot",
        "a=python3 y.py",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("at least two bots"));
}

#[test]
fn a_directory_with_another_runs_games_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let foreign = "not arena's games\n";
    std::fs::write(out.join("games.csv"), foreign).unwrap();
    let bots = instant_bot_flags();
    let mut args = vec![
        "tournament",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ];
    args.extend(bots.iter().map(String::as_str));
    let refused = run_arena(&args);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("games.csv already exists"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["games.csv"], "the refused directory was changed");
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        foreign
    );
}

/// A tournament file may hold an SPRT (`format = "sprt"` with its bounds):
/// `arena tournament FILE` plays it through the one driver and ends it as
/// `arena sprt` would, exit status included.
#[test]
fn a_file_with_format_sprt_runs_the_test() {
    let dir = tempfile::tempdir().unwrap();
    let entries = [
        bot_entry("win", &[INSTANT_BOT.to_string()], ""),
        // Its first move is off the board: it loses every game.
        bot_entry("lose", &["sh".into(), "-c".into(), LOSING_SH.into()], ""),
    ];
    let config = write_config_entries(
        dir.path(),
        "format = \"sprt\"\nelo0 = 0\nelo1 = 200\nseed = 4\nconcurrency = 1",
        &entries,
    );
    let out = dir.path().join("out");
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("SPRT win vs lose: "), "{stdout}");
    assert!(
        stdout.lines().last().unwrap().starts_with("H1 accepted"),
        "{stdout}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["plan"]["kind"], "sprt", "{manifest}");
    assert_eq!(manifest["plan"]["elo1"], 200.0, "{manifest}");
    // Its settings are an SPRT's: two bots, no games_per_pairing.
    let three = write_config_entries(
        dir.path(),
        "format = \"sprt\"\nelo0 = 0\nelo1 = 200\ngames_per_pairing = 4",
        &entries,
    );
    let output = run_tournament(&three, &dir.path().join("refused"));
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("field `games_per_pairing`: an SPRT plays game pairs"),
        "{}",
        text(&output)
    );
}

/// One rule for relative paths: what a file names is relative to the file's
/// directory, what the command line names to the current directory.
#[test]
fn paths_in_a_file_are_relative_to_it_and_flags_to_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("cfg");
    std::fs::create_dir(&cfg).unwrap();
    std::fs::write(cfg.join("suite.txt"), "a1\nb2\n").unwrap();
    let instant = INSTANT_BOT.to_string();
    let config = write_config_entries(
        &cfg,
        "variant = \"qango6\"\ngames_per_pairing = 2\nseed = 1\nout = \"relout\"\n\
         openings = \"suite.txt\"",
        &[
            bot_entry("a", std::slice::from_ref(&instant), ""),
            bot_entry("b", std::slice::from_ref(&instant), ""),
        ],
    );
    let run = |extra: &[&str]| {
        let output = arena()
            .arg("tournament")
            .arg(&config)
            .args(extra)
            .arg("--no-progress")
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    };
    run(&[]);
    assert!(cfg.join("relout").join("games.csv").is_file());
    assert!(!dir.path().join("relout").exists());
    // The same file with the output directory on the command line.
    run(&["--out", "relflag"]);
    assert!(dir.path().join("relflag").join("games.csv").is_file());
    assert!(!cfg.join("relflag").exists());
}
