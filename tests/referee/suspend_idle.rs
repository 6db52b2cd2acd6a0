//! `suspend_idle`: the bot that is not on move is stopped, so what it
//! computes in the background takes no CPU from its opponent. With real
//! processes: `tests/bots/pondering_bot.py` forks a child that spins for
//! ever after its first move (in its group, or out of it with `setsid`),
//! with and without the sandbox; the referee's messages (`turn`,
//! `game_over`, `quit`) still reach a stopped bot, and nothing of it
//! survives its slot.

use crate::common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::time::{Duration, Instant};

use arena::games::{Color, Variant};
use arena::protocol::{TimeControl, Turn, TurnClock};
use arena::referee::limits::tree_cpu_time;
use arena::referee::{play_bots, GameConfig, Seat, SpawnOptions};
use common::tournament::{jsonl_records, text, write_config, TestBot};
use common::{bot, eventually, live_processes_with_arg, proc_entry, sandbox_works, unique_tag};

const QUIT: &str = r#"{"type":"quit"}"#;

fn turn(history: &[&str]) -> Turn {
    Turn {
        game_id: "t".into(),
        variant: "qango6".into(),
        color: if history.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        },
        ply: history.len() as u32,
        state: serde_json::json!({}),
        history: history.iter().map(|m| m.to_string()).collect(),
        legal_moves: vec!["c3".into(), "d4".into()],
        clock: TurnClock {
            white_ms: None,
            black_ms: None,
            move_ms: 5000,
            basis: Default::default(),
        },
    }
}

/// Wall time the tree of `pid` takes to use 100 ms of CPU (at most 30 s):
/// on a free core 100 ms, on a loaded machine longer, never when stopped.
async fn wall_for_100_ms_of_cpu(pid: i32) -> Option<Duration> {
    let began = Instant::now();
    let before = tree_cpu_time(pid).expect("the bot runs");
    while began.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let used = tree_cpu_time(pid)
            .expect("the bot runs")
            .saturating_sub(before);
        if used >= Duration::from_millis(100) {
            return Some(began.elapsed());
        }
    }
    None
}

/// CPU time the tree of `pid` uses over `span`.
async fn cpu_over(pid: i32, span: Duration) -> Duration {
    let before = tree_cpu_time(pid).expect("the bot runs");
    tokio::time::sleep(span).await;
    let after = tree_cpu_time(pid).expect("the bot runs");
    after.saturating_sub(before)
}

/// The Python processes with `tag` (in the sandbox, `bwrap`'s own command
/// lines hold the tag too), with their states.
fn python_states(tag: &str) -> Vec<(i32, char)> {
    live_processes_with_arg(tag)
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{}/comm", p.pid))
                .is_ok_and(|c| c.starts_with("python"))
        })
        .map(|p| (p.pid, p.state))
        .collect()
}

fn kill_all_with(tag: &str) {
    for p in live_processes_with_arg(tag) {
        // SAFETY: plain system call on a process this test started.
        unsafe {
            libc::kill(p.pid, libc::SIGKILL);
        }
    }
}

/// The pondering bot's background child burns CPU while the bot is idle
/// and running; suspended, the bot and the child are stopped (state `T`)
/// and the tree uses no CPU; the next turn continues both; `quit` reaches
/// the stopped bot, which exits 0 by itself.
async fn background_work_stops_while_suspended(sandbox: bool, setsid: bool) {
    let dir = tempfile::tempdir().unwrap();
    let tag = unique_tag("ponder");
    let mut args = vec!["--ponder", tag.as_str()];
    if setsid {
        args.push("--setsid");
    }
    let mut spec = bot("pondering_bot", &args);
    spec.cwd = Some(dir.path().canonicalize().unwrap());
    spec.sandbox = Some(sandbox);
    let what = format!("sandbox {sandbox}, setsid {setsid}");
    let mut seat = Seat::new(spec, SpawnOptions::default());
    seat.prepare(None).await.unwrap();
    seat.request_move(&turn(&[]), Duration::from_secs(5))
        .await
        .unwrap();
    let pid = seat.process().unwrap().pid();
    let span = Duration::from_millis(400);

    let running = wall_for_100_ms_of_cpu(pid).await;
    seat.suspend();
    assert!(seat.process().unwrap().is_suspended());
    tokio::time::sleep(Duration::from_millis(50)).await;
    let states = python_states(&tag);
    assert_eq!(states.len(), 2, "{what}: the bot and its child: {states:?}");
    assert!(
        states.iter().all(|&(_, state)| state == 'T'),
        "{what}: stopped: {states:?}"
    );
    let stopped = cpu_over(pid, span).await;
    // A turn continues it: it answers at once.
    let (answer, used) = seat
        .request_move(&turn(&["c3"]), Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(answer.mv, "c3");
    assert!(!seat.process().unwrap().is_suspended());
    let again = wall_for_100_ms_of_cpu(pid).await;
    eprintln!(
        "{what}: 100 ms of tree CPU running took {running:?}, continued {again:?}; suspended, it used {stopped:?} over {span:?}; move {used:?}"
    );
    // Running, the tree uses CPU (as fast as the machine's load lets it);
    // stopped, next to none.
    assert!(running.is_some(), "{what}: no CPU used while running");
    assert!(again.is_some(), "{what}: no CPU used once continued");
    assert!(
        stopped <= Duration::from_millis(30),
        "{what}: suspended, the tree used {stopped:?}"
    );

    // `quit` to a stopped bot: continued first, it exits by itself.
    seat.suspend();
    let process = seat.process_mut().unwrap();
    let exit = process.shutdown(QUIT, Duration::from_secs(2)).await;
    assert_eq!(exit.code, Some(0), "{what}: {exit:?}");
    assert!(!exit.killed_by_referee, "{what}: {exit:?}");
    assert!(
        process.stderr_tail().contains("pondering_bot: quit"),
        "{what}: {}",
        process.stderr_tail()
    );
    // Without the sandbox a `setsid` child outlives its bot (see
    // tests/referee/sandbox.rs); everything else ends with the slot.
    if setsid && !sandbox {
        kill_all_with(&tag);
    } else {
        let gone = eventually(Duration::from_secs(5), || {
            live_processes_with_arg(&tag).is_empty()
        })
        .await;
        assert!(gone, "{what}: left behind: {:?}", python_states(&tag));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suspended_bot_and_its_child_use_no_cpu_until_continued() {
    background_work_stops_while_suspended(false, false).await;
}

/// Out of its group but still in its tree (its parent lives): found by the
/// read of the tree and stopped one by one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_that_left_the_group_is_stopped_too() {
    background_work_stops_while_suspended(false, true).await;
}

/// In the sandbox the bot is in the namespace init's group, not in the
/// referee's child's: that group is stopped, and a `setsid` child found in
/// the tree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sandboxed_bot_and_its_children_are_stopped() {
    if !sandbox_works() {
        return;
    }
    background_work_stops_while_suspended(true, false).await;
    background_work_stops_while_suspended(true, true).await;
}

/// Ending a stopped bot continues it first, so it acts on the end within
/// the grace: `kill` closes its input and sends SIGTERM, and the bot exits
/// on either (0 from its SIGTERM handler or at end of input, or SIGTERM
/// itself when it comes as Python shuts down). A bot left stopped would act
/// on neither and be SIGKILLed after the grace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_bot_is_continued_before_it_is_ended() {
    let tag = unique_tag("term");
    let mut seat = Seat::new(
        bot("pondering_bot", &["--on-term", &tag]),
        SpawnOptions::default(),
    );
    seat.prepare(None).await.unwrap();
    seat.request_move(&turn(&[]), Duration::from_secs(5))
        .await
        .unwrap();
    seat.suspend();
    let process = seat.process_mut().unwrap();
    assert!(process.is_suspended());
    let exit = process.kill().await;
    let ended = matches!(
        (exit.code, exit.signal),
        (Some(0), None) | (None, Some(libc::SIGTERM))
    );
    assert!(ended, "not by itself within the grace: {exit:?}");
    assert!(live_processes_with_arg(&tag).is_empty());
}

/// A game with suspension plays exactly the game without it, both bots
/// hear `game_over` (a stopped bot is continued for it) and are kept
/// running, not stopped, for their next game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_suspension_is_the_same_game_and_both_bots_hear_game_over() {
    let variant = Variant::by_id("qango6").unwrap();
    let mut records = Vec::new();
    for suspend in [false, true] {
        let tag = unique_tag("game");
        let mut white = Seat::new(
            bot("pondering_bot", &["--ponder", &tag]),
            SpawnOptions::default(),
        );
        let mut black = Seat::new(bot("good_bot", &[&tag]), SpawnOptions::default());
        let mut config = GameConfig::new("g", variant, TimeControl::PerMove { move_ms: 5000 });
        config.opening = vec!["c3".into()];
        config.suspend_idle = suspend;
        let record = play_bots(&mut white, &mut black, &config).await.unwrap();
        assert!(
            record.reason.is_rule(),
            "{}: {}",
            record.reason,
            record.message
        );
        for seat in [&mut white, &mut black] {
            let process = seat.process().expect("kept for its next game");
            assert!(!process.is_suspended());
            let state = proc_entry(process.pid()).unwrap().state;
            assert_ne!(state, 'T', "{} is stopped after its game", seat.name());
            let heard = eventually(Duration::from_secs(5), || {
                process.stderr_tail().contains("game_over")
            })
            .await;
            assert!(heard, "{}: {}", seat.name(), process.stderr_tail());
            let exit = seat
                .process_mut()
                .unwrap()
                .shutdown(QUIT, Duration::from_secs(2))
                .await;
            assert_eq!(exit.code, Some(0), "{exit:?}");
        }
        assert!(
            eventually(Duration::from_secs(5), || live_processes_with_arg(&tag)
                .is_empty())
            .await
        );
        records.push(record);
    }
    assert_eq!(records[0].moves, records[1].moves);
    assert_eq!(records[0].result, records[1].result);
    assert_eq!(records[0].reason, records[1].reason);
}

/// `arena tournament` with everything pinned to one CPU: `ponder` keeps a
/// child spinning after its first move, `worker` spends a fixed amount of
/// CPU on every move. `worker`'s moves take far longer (it shares the CPU
/// with the spinning child) without `--suspend-idle` than with it; and
/// with it, no process of `ponder` survives the tournament.
#[test]
fn on_one_cpu_a_pondering_opponent_slows_moves_only_without_suspend_idle() {
    pinned_comparison(false);
}

/// The same in the sandbox, where the bot's processes are not in the
/// group of the referee's child.
#[test]
fn on_one_cpu_in_the_sandbox_too() {
    if !sandbox_works() {
        return;
    }
    pinned_comparison(true);
}

fn pinned_comparison(sandbox: bool) {
    // Both comparisons pin to the same CPU: one at a time (under cargo
    // test they are threads of one process; nextest runs each alone).
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Each way twice, alternating, compared pair by pair: a load that comes
    // and goes on the CPU (a process another test left behind) upsets one
    // pair, not both; the feature has to show in one of them.
    let mut medians = Vec::new();
    for suspend in [false, true, false, true] {
        let dir = tempfile::tempdir().unwrap();
        let tag = unique_tag("pin");
        let bots = [
            TestBot::tagged("ponder", "tests/bots/pondering_bot.py", &["--ponder"], &tag),
            TestBot::tagged(
                "worker",
                "tests/bots/pondering_bot.py",
                &["--work", "600000"],
                &tag,
            ),
        ];
        let config = write_config(
            dir.path(),
            &format!(
                "move_ms = 10000\ngames_per_pairing = 2\nconcurrency = 1\nseed = 1\nsandbox = {sandbox}"
            ),
            &bots,
        );
        let out = dir.path().join("out");
        let mut command = common::arena();
        command.args([
            "tournament",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-progress",
        ]);
        if suspend {
            command.arg("--suspend-idle");
        }
        // SAFETY: one system call between fork and exec.
        unsafe {
            command.pre_exec(pin_to_one_cpu);
        }
        let began = Instant::now();
        let output = command.output().unwrap();
        assert!(output.status.success(), "{}", text(&output));
        let times = worker_move_times(&out);
        let median = median_ms(&times);
        eprintln!(
            "sandbox {sandbox}, suspend_idle {suspend}: worker's median move {median} ms over {} moves ({times:?}); run {:?}",
            times.len(),
            began.elapsed()
        );
        medians.push(median);
        assert!(
            eventually_gone(&tag),
            "left behind: {:?}",
            live_processes_with_arg(&tag)
        );
        if suspend {
            let said = String::from_utf8_lossy(&output.stdout);
            assert!(said.contains("; idle bots suspended"), "{said}");
            let manifest = std::fs::read_to_string(out.join("tournament.json")).unwrap();
            assert!(manifest.contains("\"suspend_idle\": true"), "{manifest}");
        }
    }
    // Sharing the CPU with the spinning child doubles the worker's moves;
    // a process of someone else's on the same CPU throughout would make
    // that 3 against 2 (1.5x), so the margin is below that.
    let pairs: Vec<(f64, f64)> = medians.chunks(2).map(|p| (p[0], p[1])).collect();
    assert!(
        pairs.iter().any(|&(without, with)| without >= 1.35 * with),
        "sandbox {sandbox}: worker's median move (without --suspend-idle, with it), each pair in ms: {pairs:?}"
    );
}

/// Pins the calling process (an `arena` about to exec) to the first CPU it
/// may use, and where it may (as root, as in CI) gives it a higher priority;
/// the bots it starts inherit both. The priority keeps the comparison a
/// ratio of the run's own processes on a loaded machine: at nice 0, three
/// other processes on the CPU would make the pondering child slow the
/// worker 5 against 4, not 2 against 1; at nice -10 they weigh a ninth as
/// much. Where the scheduler groups processes by session (autogroups, as
/// on this CI's kernel), a process's nice counts only within its session:
/// so the run gets a session of its own, and that session nice -10.
fn pin_to_one_cpu() -> std::io::Result<()> {
    // SAFETY: plain system calls on a zeroed, correctly sized cpu_set_t.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let Some(cpu) = (0..libc::CPU_SETSIZE as usize).find(|&c| libc::CPU_ISSET(c, &set)) else {
            return Ok(());
        };
        libc::CPU_ZERO(&mut set);
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, size, &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // Refused (EACCES) unless privileged: then the run keeps its nice;
        // without autogroups, the file is missing.
        libc::setsid();
        let autogroup = libc::open(c"/proc/self/autogroup".as_ptr(), libc::O_WRONLY);
        if autogroup >= 0 {
            libc::write(autogroup, b"-10".as_ptr().cast(), 3);
            libc::close(autogroup);
        }
        libc::setpriority(libc::PRIO_PROCESS, 0, -10);
    }
    Ok(())
}

/// The move times of `worker` in every game of the run.
fn worker_move_times(out: &Path) -> Vec<u64> {
    let mut times = Vec::new();
    for record in jsonl_records(out) {
        let first = if record["white"] == "worker" { 0 } else { 1 };
        let moves = record["move_times_ms"].as_array().unwrap();
        let opening = record["opening"].as_array().map_or(0, Vec::len);
        for (ply, t) in moves.iter().enumerate().skip(opening) {
            if ply % 2 == first {
                times.push(t.as_u64().unwrap());
            }
        }
    }
    assert!(times.len() >= 10, "too few moves: {times:?}");
    times
}

fn median_ms(times: &[u64]) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    sorted[sorted.len() / 2] as f64
}

fn eventually_gone(tag: &str) -> bool {
    let end = Instant::now() + Duration::from_secs(5);
    while !live_processes_with_arg(tag).is_empty() {
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}
