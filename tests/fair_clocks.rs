//! Fair clocks on a busy machine, with real processes: a bot is charged for
//! what it does, not for the queue arena or the machine makes.

mod common;

use common::tournament::*;
use common::unique_tag;

/// The start-up storm: far more bots starting than cores, each needing
/// 150 ms of CPU before `ready` (a JVM, a model loaded at start).
/// Started all at once they would queue for the CPU past their limit; arena
/// starts them a few at a time, from their own spawn, so none loses.
#[test]
fn a_start_up_storm_loses_no_game_as_startup() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("startup-storm");
    let limits = "limits = { startup_ms = 2000 }";
    let bots: Vec<TestBot> = ["a", "b", "c", "d", "e"]
        .into_iter()
        .map(|name| TestBot {
            extra: limits,
            ..TestBot::tagged(name, "tests/bots/heavy_start.py", &["150"], &tag)
        })
        .collect();
    // 10 pairings x 2 games, all 20 at once: 40 bots start together, which
    // on 2 cores takes each of them 40 x 150 ms / 2 = 3 s when started at once.
    let config = write_config(
        dir.path(),
        "variant = \"qango6\"\ngames_per_pairing = 2\ntime_control = \"per-move=2000\"\n\
         concurrency = 20\nseed = 2",
        &bots,
    );
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 20);
    let startup: Vec<_> = rows
        .iter()
        .filter(|row| row.reason.as_str() == "startup")
        .collect();
    assert!(
        startup.is_empty(),
        "{} startup losses: {startup:?}",
        startup.len()
    );
    wait_until_gone(&tag);
}

/// More games at once than cores is said at the start, once, with the fix;
/// as many as the cores is not.
#[test]
fn more_games_at_once_than_cores_is_warned_at_the_start() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let run = |jobs: usize| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let jobs = jobs.to_string();
        let mut args = vec!["tournament", "--games", "2", "-j", &jobs, "--no-progress"];
        let flags = instant_bot_flags();
        args.extend(flags.iter().map(String::as_str));
        args.extend(["--out", out.to_str().unwrap()]);
        let output = run_arena(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let many = cores + 1;
    let said = run(many);
    let expected = format!("warning: -j {many} plays {many} games at once on {cores} core");
    assert_eq!(said.matches(&expected).count(), 1, "{said}");
    assert!(said.contains(&format!("use -j {cores} or less")), "{said}");
    assert!(!run(cores).contains("games at once"));
}
