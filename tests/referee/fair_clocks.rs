//! Fair clocks on a busy machine, with real processes: a bot is charged for
//! what it does, not for the queue arena or the machine makes.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::tournament::*;
use common::unique_tag;

/// Wall time from `hello` to `ready` of `tests/bots/heavy_start.py 150`
/// started alone, now, on this machine: the worst of three.
fn one_heavy_start() -> Duration {
    (0..3)
        .map(|_| {
            let mut bot = Command::new("python3")
                .arg(repo_path("tests/bots/heavy_start.py"))
                .arg("150")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let began = Instant::now();
            let mut stdin = bot.stdin.take().unwrap();
            writeln!(stdin, r#"{{"type":"hello","protocol":1,"referee":"test"}}"#).unwrap();
            let mut ready = String::new();
            BufReader::new(bot.stdout.take().unwrap())
                .read_line(&mut ready)
                .unwrap();
            let took = began.elapsed();
            assert!(ready.contains("ready"), "{ready}");
            drop(stdin);
            bot.kill().unwrap();
            bot.wait().unwrap();
            took
        })
        .max()
        .unwrap()
}

/// The start-up storm: far more bots starting than cores, each needing
/// 150 ms of CPU before `ready` (a JVM, a model loaded at start).
/// Started all at once they would queue for the CPU past their limit; arena
/// starts them a few at a time, from their own spawn, so none loses.
#[test]
fn a_start_up_storm_loses_no_game_as_startup() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("startup-storm");
    // The limit is 5 times what one start takes here and now (at least 2 s;
    // on a free machine, one start is about 0.2 s): a start in a slot of
    // its own takes about that long however loaded the machine is, while
    // 40 started at once on 2 cores would take about 20 times as long.
    let startup_ms = (5 * one_heavy_start().as_millis()).max(2000);
    let limits = format!("limits = {{ startup_ms = {startup_ms} }}");
    let bots: Vec<TestBot> = ["a", "b", "c", "d", "e"]
        .into_iter()
        .map(|name| TestBot {
            extra: &limits,
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

/// Runs three bots of `script ARG` in a round robin of 6 games, all at once
/// on a third as many cores; returns what the terminal said and the records.
fn crowded_run(script: &str, arg: &str, tag: &str) -> (String, Vec<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bots: Vec<TestBot> = ["a", "b", "c"]
        .into_iter()
        .map(|name| TestBot::tagged(name, script, &[arg], tag))
        .collect();
    let jobs = 3 * std::thread::available_parallelism().unwrap().get();
    let config = write_config(
        dir.path(),
        &format!(
            "variant = \"qango6\"\ngames_per_pairing = 2\ntime_control = \"per-move=5000\"\n\
             concurrency = {jobs}\nseed = 5"
        ),
        &bots,
    );
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    wait_until_gone(tag);
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        jsonl_records(&out),
    )
}

/// Each bot move's (wall ms, CPU ms) in `records`, opening moves excluded.
fn bot_moves(records: &[serde_json::Value]) -> Vec<(u64, u64)> {
    let mut moves = Vec::new();
    for record in records {
        let skip = record["opening"].as_array().unwrap().len();
        let wall = record["move_times_ms"].as_array().unwrap();
        let cpu = record["move_cpu_ms"].as_array().unwrap();
        assert_eq!(wall.len(), cpu.len(), "{record}");
        for (w, c) in wall.iter().zip(cpu).skip(skip) {
            moves.push((w.as_u64().unwrap(), c.as_u64().unwrap()));
        }
    }
    moves
}

/// Bots that think 20 ms of CPU per move, three games thinking at once per
/// core: every record has each move's CPU time beside its wall time, and
/// the run ends saying the bots were kept waiting, with the fix.
#[test]
fn crowded_thinking_bots_are_told_to_have_waited() {
    let (said, records) = crowded_run("tests/bots/cpu_moves.py", "20", &unique_tag("crowded"));
    let moves = bot_moves(&records);
    assert!(moves.len() > 60, "{}", moves.len());
    for &(wall, cpu) in &moves {
        // The CPU time is the bot's 20 ms (and a little for the protocol;
        // a little less when the bot began before arena read its clock,
        // which then also starts the wall time later), never more than the
        // wall time it took.
        assert!(
            (15..=60).contains(&cpu) && cpu <= wall + 1,
            "{wall} ms wall, {cpu} ms CPU"
        );
    }
    assert!(
        said.contains("warning: bots were often kept waiting:")
            && said.contains("run fewer games at once (-j"),
        "{said}"
    );
}

/// Bots that sleep 30 ms per move use almost no CPU: waiting on purpose is
/// no waiting for a CPU, and nothing is said.
#[test]
fn sleeping_bots_are_not_told_to_have_waited() {
    let (said, records) = crowded_run("tests/bots/paced_bot.py", "30", &unique_tag("sleepy"));
    let moves = bot_moves(&records);
    assert!(moves.len() > 60, "{}", moves.len());
    // Almost no CPU: most moves under 10 ms, none near the 30 ms slept (a
    // CI run saw one move of 11 ms: the interpreter's own work, on a
    // loaded machine).
    for &(wall, cpu) in &moves {
        assert!(cpu < 25 && cpu <= wall + 1, "{wall} ms wall, {cpu} ms CPU");
    }
    let idle = moves.iter().filter(|&&(_, cpu)| cpu < 10).count();
    assert!(2 * idle > moves.len(), "{idle} of {moves:?}");
    // Most moves took the 30 ms of sleep on the wall clock. (The clock
    // starts once the turn is written, which on a loaded machine may be
    // long after the bot has it: a CI run at a load of 12 on 2 cores saw a
    // move of 0 ms, the bot's answer waiting when the clock started.)
    let slept = moves.iter().filter(|&&(wall, _)| wall >= 20).count();
    assert!(2 * slept > moves.len(), "{slept} of {moves:?}");
    assert!(!said.contains("kept waiting"), "{said}");
}

/// Two bots that each use 30 ms of CPU per move (60% of a 50 ms limit),
/// three games thinking at once per core: on the wall clock they wait for
/// the CPUs and lose on time; on the CPU clock none does. (The CPU clock's
/// wall cap is its largest, 100 times the limit, far above the CPU the
/// moves need: with 20 times, the test failed at a load of 20 on 2 cores.)
#[test]
fn a_cpu_clock_charges_the_bot_not_the_crowd() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let run = |clock: &str| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let tag = unique_tag(&format!("clock-{clock}"));
        let bots: Vec<TestBot> = ["a", "b"]
            .into_iter()
            .map(|name| TestBot::tagged(name, "tests/bots/cpu_moves.py", &["30"], &tag))
            .collect();
        let games = 2 * ((3 * cores).div_ceil(2));
        let config = write_config(
            dir.path(),
            &format!(
                "variant = \"qango6\"\ngames_per_pairing = {games}\ntime_control = \"per-move=50\"\n\
                 grace_ms = 20\nconcurrency = {games}\nseed = 8\nclock = \"{clock}\"\nwall_cap = 100"
            ),
            &bots,
        );
        let output = run_tournament(&config, &out);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        wait_until_gone(&tag);
        // tournament.json says what the clocks counted, and on a CPU clock
        // how CPU time was measured.
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
                .unwrap();
        let cpu = clock == "cpu";
        assert_eq!(manifest["config"]["clock"].as_str() == Some("cpu"), cpu);
        assert_eq!(manifest["cpu_time"].as_str().is_some(), cpu, "{manifest}");
        csv_rows(&out)
    };
    let timeouts = |rows: &[arena::referee::GameRow]| {
        rows.iter()
            .filter(|row| row.reason.as_str() == "timeout")
            .count()
    };
    let wall = run("wall");
    assert!(
        timeouts(&wall) > 0,
        "no timeout on the crowded wall clock: {wall:?}"
    );
    let cpu = run("cpu");
    assert_eq!(timeouts(&cpu), 0, "{cpu:?}");
    assert!(cpu.iter().all(|row| row.reason.is_rule()), "{cpu:?}");
}

/// `arena play` with `--clock cpu`: the turn says so, the record says so,
/// and a bot that sleeps past the wall-time cap loses on time, told why.
#[test]
fn on_a_cpu_clock_a_sleeping_bot_meets_the_wall_cap() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("r.json");
    let sleeper = format!("python3 {}", repo_path("tests/bots/paced_bot.py").display());
    let thinker = format!(
        "python3 {} 5",
        repo_path("tests/bots/cpu_moves.py").display()
    );
    // The cap is 6 times the limit, so the thinker (5 ms of CPU a move)
    // stays under it even on a loaded machine; the sleeper sleeps past it.
    let output = common::arena()
        .args(["play", "qango6", &thinker, &sleeper, "--tc", "per-move=100"])
        .args(["--clock", "cpu", "--wall-cap", "6", "--quiet", "--record"])
        .arg(&record)
        .args(["--trace", dir.path().to_str().unwrap()])
        .env("PACED_BOT_MS", "1000")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(record["clock"], "cpu");
    assert_eq!(record["reason"], "timeout");
    assert_eq!(record["winner"], "white");
    // 6 x 100 ms + 100 ms of grace. (Whether the sleeper's move came while
    // arena listened after the cap, "answered after", or later, depends on
    // the machine's load.)
    let message = record["message"].as_str().unwrap();
    assert!(message.contains("the wall-time cap of 700 ms"), "{message}");
    // Every turn said what the clock counts.
    let traces: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trace"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(!traces.is_empty());
    for trace in &traces {
        for turn in trace.lines().filter(|l| l.contains("\"type\":\"turn\"")) {
            assert!(turn.contains("\"basis\":\"cpu\""), "{turn}");
        }
    }
}

/// On a CPU clock the processes a bot starts count too, where arena can
/// give the bot a cgroup: a bot that does its thinking in a child process
/// is charged for it and stopped at its budget. The wall-time cap is far
/// above the CPU budget (10.1 s for 200 ms): a CI run at a load of 6 on 2
/// cores gave the bot only 164 ms of CPU in a cap of 1.1 s.
#[test]
fn on_a_cpu_clock_the_processes_a_bot_starts_count_too() {
    if !arena::referee::cgroup::available() {
        eprintln!("SKIPPED: no writable cgroup v2 here (the CPU clock counts the bot's process)");
        return;
    }
    for sandbox in [false, true] {
        if sandbox && arena::referee::sandbox::check_available().is_err() {
            eprintln!("SKIPPED: bwrap not usable here");
            continue;
        }
        let offload = format!(
            "python3 {} 300",
            repo_path("tests/bots/offload.py").display()
        );
        let thinker = format!(
            "python3 {} 5",
            repo_path("tests/bots/cpu_moves.py").display()
        );
        let mut command = common::arena();
        command.args(["play", "qango6", &offload, &thinker, "--tc", "per-move=100"]);
        command.args(["--clock", "cpu", "--wall-cap", "100", "--quiet"]);
        if sandbox {
            command.arg("--sandbox");
        }
        let output = command.output().unwrap();
        let said = text(&output);
        assert_eq!(output.status.code(), Some(0), "{said}");
        // 100 ms + 100 ms of grace, of the child's CPU time.
        assert!(
            said.contains("reason timeout")
                && said.contains("ms of CPU time for the move; its CPU-time limit was 200 ms"),
            "sandbox {sandbox}: {said}"
        );
    }
}
