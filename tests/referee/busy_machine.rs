//! A busy machine is never a bot's loss: with busy loops outside arena
//! (3 per core, as another user's jobs on a shared class server), bots
//! that wait for a CPU lose no game on a CPU clock's wall-time cap or on
//! their start-up limit, which count only time a bot was not waiting for a
//! CPU; a wall clock still charges the wait; a bot that starves is told so,
//! never to flush; and the run's end says how long the machine kept the
//! bots waiting. Skipped where Linux does not say how long a thread waited
//! (no `/proc/self/schedstat`).

use crate::common;

use common::tournament::*;
use common::{unique_tag, CpuHog};

/// Busy loops per core outside arena.
const LOOPS_PER_CORE: usize = 3;

fn waits_readable() -> bool {
    let readable = std::fs::read_to_string("/proc/self/schedstat").is_ok();
    if !readable {
        eprintln!("SKIPPED: no /proc/self/schedstat, so arena cannot see CPU waits here");
    }
    readable
}

/// The Python interpreter itself: `python3` may be a launcher script (a
/// pyenv shim runs a few shells before the interpreter), and the CPU waits
/// of processes that have already ended are not seen.
fn interpreter() -> String {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// `dir/t.toml` with `settings` and `bots`, each run by [`interpreter`].
fn write_busy_config(
    dir: &std::path::Path,
    settings: &str,
    bots: &[TestBot],
) -> std::path::PathBuf {
    write_config_with(dir, settings, bots, &interpreter())
}

/// A round robin of `bots` (`name`, script, args, extra TOML) with
/// `settings`: the terminal's text and the rows.
fn run(settings: &str, bots: &[TestBot]) -> (String, Vec<arena::referee::GameRow>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = write_busy_config(dir.path(), settings, bots);
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    (text(&output), csv_rows(&out))
}

fn count(rows: &[arena::referee::GameRow], reason: &str) -> usize {
    rows.iter()
        .filter(|row| row.reason.as_str() == reason)
        .count()
}

/// Two bots that burn 60% of a 50 ms move in CPU (30 ms), both games at
/// once, beside the busy loops: each gets a quarter of a core or less, so
/// a move takes 120 ms and more of wall time, often past the CPU clock's
/// wall-time cap of 3 x 50 + 20 ms. On the CPU clock no game is lost on
/// time and the run ends saying how long the bots waited; on the wall
/// clock (the control) the same bots lose on time, as they should.
#[test]
fn a_cpu_clock_loses_no_game_to_a_busy_machine_and_a_wall_clock_still_does() {
    if !waits_readable() {
        return;
    }
    let _hog = CpuHog::per_core(LOOPS_PER_CORE);
    let tag = unique_tag("busy-cpu");
    let bots: Vec<TestBot> = ["a", "b"]
        .into_iter()
        .map(|name| TestBot::tagged(name, "tests/bots/cpu_moves.py", &["30"], &tag))
        .collect();
    let settings = |clock: &str| {
        format!(
            "variant = \"qango6\"\ngames_per_pairing = 2\ntime_control = \"per-move=50\"\n\
             grace_ms = 20\nconcurrency = 2\nseed = 3\nclock = \"{clock}\""
        )
    };
    let (said, cpu) = run(&settings("cpu"), &bots);
    assert_eq!(cpu.len(), 2);
    assert!(
        cpu.iter().all(|row| row.reason.is_rule()),
        "{cpu:?}\n{said}"
    );
    assert!(
        said.contains("the machine kept bots waiting for a CPU")
            && said.contains("no game was charged for it"),
        "{said}"
    );
    let (said, wall) = run(&settings("wall"), &bots);
    assert!(count(&wall, "timeout") > 0, "{wall:?}\n{said}");
    wait_until_gone(&tag);
}

/// Three bots that burn 250 ms of CPU before `ready`, with a start-up
/// limit of 1500 ms (five times what they need on a free core), beside the
/// busy loops: a start takes seconds of wall time, yet none loses as
/// `startup`, and the run ends saying the bots waited while they started.
#[test]
fn bots_that_start_on_a_busy_machine_lose_no_game_as_startup() {
    if !waits_readable() {
        return;
    }
    let _hog = CpuHog::per_core(LOOPS_PER_CORE);
    let tag = unique_tag("busy-start");
    let limits = "limits = { startup_ms = 1500 }";
    let bots: Vec<TestBot> = ["a", "b", "c"]
        .into_iter()
        .map(|name| TestBot {
            extra: limits,
            ..TestBot::tagged(name, "tests/bots/heavy_start.py", &["250"], &tag)
        })
        .collect();
    let (said, rows) = run(
        "variant = \"qango6\"\ngames_per_pairing = 2\ntime_control = \"per-move=5000\"\n\
         concurrency = 2\nseed = 4",
        &bots,
    );
    assert_eq!(rows.len(), 6);
    assert_eq!(count(&rows, "startup"), 0, "{rows:?}\n{said}");
    assert!(
        said.contains("the machine kept bots waiting for a CPU"),
        "{said}"
    );
    wait_until_gone(&tag);
}

/// A bot that needs 3 s of CPU before `ready`, on a 300 ms start-up limit,
/// beside the busy loops: it is too slow (it loses as `startup`), and the
/// message says it waited for a CPU, never that it was sleeping or should
/// flush its output.
#[test]
fn a_starved_bot_is_told_it_waited_for_a_cpu_not_to_flush() {
    if !waits_readable() {
        return;
    }
    let _hog = CpuHog::per_core(LOOPS_PER_CORE);
    let tag = unique_tag("busy-starved");
    let bots = [
        TestBot {
            extra: "limits = { startup_ms = 300 }",
            ..TestBot::tagged("slow", "tests/bots/heavy_start.py", &["3000"], &tag)
        },
        TestBot::tagged("quick", "tests/bots/good_bot.py", &[], &tag),
    ];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = write_busy_config(
        dir.path(),
        "variant = \"qango6\"\ngames_per_pairing = 2\ntime_control = \"per-move=1000\"\nseed = 5",
        &bots,
    );
    // The start check before the first game finds it (no game is played),
    // and says so as a game's message would.
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let error = stderr
        .lines()
        .find(|l| l.contains("bot \"slow\" cannot start"))
        .unwrap_or_else(|| panic!("{}", text(&output)));
    assert!(error.contains("ms for a CPU"), "{error}");
    for wrong in ["flush", "sleeping"] {
        assert!(!error.contains(wrong), "{error}");
    }
    assert!(!out.join("games.jsonl").exists() || jsonl_records(&out).is_empty());
    wait_until_gone(&tag);
}
