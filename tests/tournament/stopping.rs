//! Stopping a run and sharing its directory, end to end with the real
//! binary: the first Ctrl-C lets the games in flight finish and records
//! them, a second one stops at once, and either way `--resume` plays
//! exactly the missing games (and a Ctrl-C during the last games ends the
//! run complete); one arena at a time writes a directory (a
//! second run, a resume or a merge into it is refused at once, naming the
//! holder), a SIGKILLed run leaves no lock behind, and the commands that
//! only read a directory work while a run holds it.
//!
//! The bots are `paced_bot.py`, slowed down or sped up through
//! `PACED_BOT_MS` in arena's environment (which they inherit), so the same
//! tournament (same settings: same identity, same plan) is caught in the
//! middle of its games and then resumed quickly.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use arena::files::dir_lock::LOCK_FILE;
use common::tournament::*;
use common::{arena, live_processes_with_arg, unique_tag};

const PACED: &str = "tests/bots/paced_bot.py";
/// 3 bots, 2 games a pairing.
const GAMES: u64 = 6;

/// `dir/t.toml`: three paced bots tagged `tag`, 6 games at `-j 2`.
fn paced_config(dir: &Path, tag: &str) -> PathBuf {
    write_config(
        dir,
        "games_per_pairing = 2\ntime_control = \"per-move=5000\"\nconcurrency = 2\nseed = 7\nopening_plies = 1",
        &[
            TestBot::tagged("a", PACED, &[], tag),
            TestBot::tagged("b", PACED, &[], tag),
            TestBot::tagged("c", PACED, &[], tag),
        ],
    )
}

/// Starts `arena ARGS --no-progress` with the bots waiting `pace_ms`
/// before each move, its output in `dir/arena.stdout` and `.stderr`.
fn spawn_paced(args: &[&str], dir: &Path, pace_ms: u64) -> Child {
    let mut args = args.to_vec();
    args.push("--no-progress");
    spawn_arena_with(&args, dir, |command| {
        command.env("PACED_BOT_MS", pace_ms.to_string());
    })
}

/// `arena tournament CONFIG --out OUT` started as [`spawn_paced`] starts it.
fn spawn_paced_run(config: &Path, out: &Path, dir: &Path, pace_ms: u64) -> Child {
    let (config, out) = (config.to_str().unwrap(), out.to_str().unwrap());
    spawn_paced(&["tournament", config, "--out", out], dir, pace_ms)
}

/// `arena ARGS` to completion with bots that do not wait.
fn run_fast(args: &[&str]) -> Output {
    arena()
        .args(args)
        .env("PACED_BOT_MS", "0")
        .output()
        .expect("run arena")
}

/// `arena tournament --resume OUT` to completion with fast bots.
fn resume_fast(out: &Path) -> Output {
    run_fast(&[
        "tournament",
        "--resume",
        out.to_str().unwrap(),
        "--no-progress",
    ])
}

fn stdout_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("arena.stdout")).unwrap_or_default()
}

/// Polls `dir/arena.stdout` until it holds `needle`; panics after 15 s.
fn wait_for_stdout(dir: &Path, needle: &str) -> String {
    let end = Instant::now() + Duration::from_secs(15);
    loop {
        let stdout = stdout_of(dir);
        if stdout.contains(needle) {
            return stdout;
        }
        assert!(Instant::now() < end, "no {needle:?} in:\n{stdout}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Polls until `count` processes tagged `tag` run (the bots of the games in
/// flight); panics after 15 s.
/// Polls until `count` bots of games run: at least `count` processes
/// tagged `tag` for 300 ms on end. (Before the first game the run starts
/// each bot once, at most `-j` at a time, and an interpreter's launcher may
/// fork short-lived copies of its command line: neither lasts.) Panics
/// after 15 s.
fn wait_for_game_bots(tag: &str, count: usize) {
    let end = Instant::now() + Duration::from_secs(15);
    let mut since: Option<Instant> = None;
    loop {
        if live_processes_with_arg(tag).len() < count {
            since = None;
        } else if since.get_or_insert_with(Instant::now).elapsed() >= Duration::from_millis(300) {
            return;
        }
        assert!(Instant::now() < end, "the bots did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Polls until `out`'s lock file names a holder; panics after 15 s.
fn wait_for_lock(out: &Path) {
    let end = Instant::now() + Duration::from_secs(15);
    loop {
        let text = std::fs::read_to_string(out.join(LOCK_FILE)).unwrap_or_default();
        if text.starts_with("pid ") {
            return;
        }
        assert!(Instant::now() < end, "{} never locked", out.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Lines of games.jsonl, checking that the file ends with a whole line.
fn journal_lines(out: &Path) -> usize {
    let text = std::fs::read_to_string(out.join("games.jsonl")).unwrap_or_default();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "a partial line: {text}"
    );
    text.lines().count()
}

/// The N of "finishing N games" (or "1 game").
fn finishing_count(stdout: &str) -> usize {
    let rest = stdout
        .split("Interrupted: finishing ")
        .nth(1)
        .unwrap_or_else(|| panic!("no finishing line in:\n{stdout}"));
    rest.split(' ').next().unwrap().parse().unwrap()
}

/// What the resume of `out` said and did: it found `before` games, played
/// the rest, and every game of the plan is there exactly once, as planned.
fn assert_resume_completes(out: &Path, before: usize) {
    let output = resume_fast(out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    // (Nothing is said of 0 games.)
    assert!(
        before == 0 || stdout.contains(&format!("{before} of {GAMES} games already played")),
        "{stdout}"
    );
    let played = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('g'))
        .count();
    assert_eq!(played as u64, GAMES - before as u64, "{stdout}");
    assert_exactly_games(out, GAMES);
    let (schedule, names) = round_robin_schedule(out);
    assert_rows_follow_schedule(&csv_rows(out), &schedule, &names);
    assert!(!out.join(LOCK_FILE).exists(), "the lock file is removed");
}

#[test]
fn the_first_ctrl_c_finishes_the_games_in_flight_and_records_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("stopping-graceful");
    let config = paced_config(dir.path(), &tag);
    // The first two games take 31 plies each: about 2 s at 60 ms a move.
    let mut child = spawn_paced_run(&config, &out, dir.path(), 60);
    wait_for_game_bots(&tag, 4);
    std::thread::sleep(Duration::from_millis(150));
    let before = journal_lines(&out);
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(15));
    let stdout = stdout_of(dir.path());
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("Ctrl-C again to stop now") && !stdout.contains("Stopping now"),
        "{stdout}"
    );
    let in_flight = finishing_count(&stdout);
    assert_eq!(in_flight, 2, "-j 2: {stdout}");
    // The games in flight are recorded, whole, and no other game started.
    let after = journal_lines(&out);
    assert_eq!(after, before + in_flight, "{stdout}");
    assert_eq!(assert_consistent(&out).len(), after);
    assert!(
        stdout.contains(&format!(
            "Interrupted: {after} of {GAMES} games played. Continue with: arena tournament --resume {}",
            out.display()
        )),
        "{stdout}"
    );
    assert!(!out.join(LOCK_FILE).exists());
    wait_until_gone(&tag);

    assert_resume_completes(&out, after);
    wait_until_gone(&tag);
}

#[test]
fn a_second_ctrl_c_stops_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("stopping-now");
    let config = paced_config(dir.path(), &tag);
    // The first two games take 31 plies each: over 6 s at 200 ms a move.
    let mut child = spawn_paced_run(&config, &out, dir.path(), 200);
    wait_for_game_bots(&tag, 4);
    signal(&child, libc::SIGINT);
    let stdout = wait_for_stdout(dir.path(), "Ctrl-C again to stop now");
    assert_eq!(finishing_count(&stdout), 2, "{stdout}");
    let second = Instant::now();
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(15));
    let stopped_in = second.elapsed();
    let stdout = stdout_of(dir.path());
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("Stopping now: 2 games in flight not recorded (--resume plays them again)"),
        "{stdout}"
    );
    // (A game takes 31 plies, over 6 s, at this pace.)
    assert!(stopped_in < Duration::from_secs(3), "{stopped_in:?}");
    // Abandoned, not recorded; the bots are killed.
    assert_eq!(journal_lines(&out), 0, "{stdout}");
    assert!(stdout.contains("--resume"), "{stdout}");
    wait_until_gone(&tag);

    assert_resume_completes(&out, 0);
    wait_until_gone(&tag);
}

/// SIGTERM (what a scheduler sends before its SIGKILL) stops at once.
#[test]
fn sigterm_stops_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("stopping-term");
    let config = paced_config(dir.path(), &tag);
    let mut child = spawn_paced_run(&config, &out, dir.path(), 200);
    wait_for_game_bots(&tag, 4);
    signal(&child, libc::SIGTERM);
    let status = wait_exit(&mut child, Duration::from_secs(15));
    let stdout = stdout_of(dir.path());
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("Stopping now: 2 games in flight not recorded")
            && !stdout.contains("finishing"),
        "{stdout}"
    );
    assert_eq!(journal_lines(&out), 0, "{stdout}");
    wait_until_gone(&tag);
    assert_resume_completes(&out, 0);
}

#[test]
fn a_second_arena_on_a_running_directory_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("lock-running");
    let config = paced_config(dir.path(), &tag);
    let mut child = spawn_paced_run(&config, &out, dir.path(), 40);
    wait_for_lock(&out);
    let in_use = format!(
        "arena: error: {} is in use by another arena (pid {}, \"arena tournament {} --out {} --no-progress\"); wait for it to finish or stop it\n",
        out.display(),
        child.id(),
        config.display(),
        out.display()
    );
    let refused = |args: &[&str]| {
        let start = Instant::now();
        let output = run_fast(args);
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert_eq!(String::from_utf8_lossy(&output.stderr), in_use);
    };
    // A resume from another terminal, and a new run given the same --out.
    refused(&[
        "tournament",
        "--resume",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    refused(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    // What only reads the directory works while the run holds it; rating
    // its games into it is refused like the rest.
    wait_for_rows(&out, 1, Duration::from_secs(15));
    let games = out.join("games.csv");
    let rate = run_fast(&["rate", games.to_str().unwrap()]);
    assert_eq!(rate.status.code(), Some(0), "{}", text(&rate));
    refused(&[
        "rate",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let game = csv_rows(&out)[0].id.to_string();
    let show = run_fast(&["show", out.to_str().unwrap(), &game, "--ply", "1"]);
    assert_eq!(show.status.code(), Some(0), "{}", text(&show));
    let report = run_fast(&["report", out.to_str().unwrap()]);
    assert_eq!(report.status.code(), Some(0), "{}", text(&report));

    let status = wait_exit(&mut child, Duration::from_secs(30));
    assert_eq!(status.code(), Some(0), "{}", stdout_of(dir.path()));
    assert_exactly_games(&out, GAMES);
    assert!(!out.join(LOCK_FILE).exists());
    wait_until_gone(&tag);
}

#[test]
fn a_killed_run_leaves_no_lock_behind() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("lock-killed");
    let config = paced_config(dir.path(), &tag);
    let mut child = spawn_paced_run(&config, &out, dir.path(), 40);
    wait_for_rows(&out, 1, Duration::from_secs(15));
    signal(&child, libc::SIGKILL);
    wait_exit(&mut child, Duration::from_secs(5));
    // The file stays, naming a process that is gone; the lock went with it.
    let left = std::fs::read_to_string(out.join(LOCK_FILE)).unwrap();
    assert!(left.starts_with(&format!("pid {}\n", child.id())), "{left}");
    let before = assert_consistent(&out).len();
    wait_until_gone(&tag);
    assert_resume_completes(&out, before);
}

#[test]
fn a_merge_into_a_directory_a_run_is_writing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tag = unique_tag("lock-merge");
    let config = paced_config(dir.path(), &tag);
    let (shard1, shard2) = (dir.path().join("shard1"), dir.path().join("shard2"));
    let output = run_fast(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        shard2.to_str().unwrap(),
        "--shard",
        "2/2",
        "--no-progress",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let mut child = spawn_paced(
        &[
            "tournament",
            config.to_str().unwrap(),
            "--out",
            shard1.to_str().unwrap(),
            "--shard",
            "1/2",
        ],
        dir.path(),
        60,
    );
    wait_for_lock(&shard1);
    let output = run_fast(&["merge", shard1.to_str().unwrap(), shard2.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!(
            "arena: error: {} is in use by another arena (pid {}, ",
            shard1.display(),
            child.id()
        )),
        "{stderr}"
    );
    // The inputs are only read: merging the running shard elsewhere works
    // (as far as it got).
    wait_for_rows(&shard1, 1, Duration::from_secs(15));
    let merged = dir.path().join("merged");
    let output = run_fast(&[
        "merge",
        merged.to_str().unwrap(),
        shard1.to_str().unwrap(),
        shard2.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    assert!(!merged.join(LOCK_FILE).exists());

    // (It may have finished meanwhile.)
    signal(&child, libc::SIGTERM);
    let status = wait_exit(&mut child, Duration::from_secs(15));
    assert!(
        matches!(status.code(), Some(130 | 0)),
        "{status:?}: {}",
        stdout_of(dir.path())
    );
    wait_until_gone(&tag);
}

/// A Ctrl-C during the last games, which then all finish, leaves nothing
/// missing: the run is complete (exit status 0, no resume hint).
#[test]
fn a_ctrl_c_during_the_last_games_ends_complete() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("stopping-last");
    let config = write_config(
        dir.path(),
        "games_per_pairing = 2\ntime_control = \"per-move=5000\"\nconcurrency = 2\nseed = 7\nopening_plies = 1",
        &[
            TestBot::tagged("a", PACED, &[], &tag),
            TestBot::tagged("b", PACED, &[], &tag),
        ],
    );
    let mut child = spawn_paced_run(&config, &out, dir.path(), 30);
    wait_for_game_bots(&tag, 4);
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, Duration::from_secs(15));
    let stdout = stdout_of(dir.path());
    assert_eq!(status.code(), Some(0), "{stdout}");
    assert_eq!(finishing_count(&stdout), 2, "{stdout}");
    assert!(!stdout.contains("--resume"), "{stdout}");
    assert_exactly_games(&out, 2);
    wait_until_gone(&tag);
}
