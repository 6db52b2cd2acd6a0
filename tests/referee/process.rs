//! Process-level tests of `BotProcess` against the misbehaving bots in
//! `tests/bots/`: bounded reads, capped logs, process-group cleanup.

use crate::common;

use std::time::Duration;

use arena::protocol::FailureReason;
use arena::referee::{BotProcess, ReadLine, SendError, SpawnOptions};
use common::{bot, eventually, group_bytes_written, is_dead, live_group_members};
use serde_json::{json, Value};
use tokio::time::Instant;

const HELLO: &str = r#"{"type":"hello","protocol":1,"referee":"arena test"}"#;
const QUIT: &str = r#"{"type":"quit"}"#;
const SEND: Duration = Duration::from_secs(2);

fn turn(ply: u32, history: &[&str]) -> String {
    json!({
        "type": "turn", "game_id": "t", "variant": "qango6",
        "color": if ply.is_multiple_of(2) { "white" } else { "black" },
        "ply": ply, "state": {}, "history": history,
        "legal_moves": ["c3", "d4", "a1"],
        "clock": {"white_ms": null, "black_ms": null, "move_ms": 1000},
    })
    .to_string()
}

fn in_secs(secs: f64) -> Instant {
    Instant::now() + Duration::from_secs_f64(secs)
}

async fn read_json(bot: &mut BotProcess, secs: f64) -> Value {
    match bot.read_line(in_secs(secs)).await {
        ReadLine::Line(l) => serde_json::from_slice(&l).expect("bot wrote JSON"),
        other => panic!("{}: expected a line, got {other:?}", bot.name()),
    }
}

async fn start(name: &str, args: &[&str], opts: &SpawnOptions) -> BotProcess {
    let mut bot = BotProcess::spawn(&common::bot(name, args), opts).unwrap();
    bot.send_line(HELLO, SEND).await.unwrap();
    let ready = read_json(&mut bot, 10.0).await;
    assert_eq!(ready["type"], "ready", "{ready}");
    bot
}

/// After `kill`, the bot is reaped and nothing of its group runs.
async fn assert_all_gone(bot: &mut BotProcess) {
    let pid = bot.pid();
    bot.kill().await;
    assert!(is_dead(pid), "bot {pid} still exists");
    assert!(
        common::proc_entry(pid).is_none(),
        "bot {pid} was not reaped"
    );
    assert!(
        eventually(Duration::from_secs(2), || live_group_members(pid)
            .is_empty())
        .await,
        "left behind: {:?}",
        live_group_members(pid)
    );
}

#[tokio::test]
async fn good_bot_plays_and_quits_cleanly() {
    let mut bot = start("good_bot", &[], &SpawnOptions::default()).await;
    bot.send_line(&turn(0, &[]), SEND).await.unwrap();
    let answer = read_json(&mut bot, 10.0).await;
    assert_eq!(answer, json!({"type": "move", "move": "c3"}));
    let exit = bot.shutdown(QUIT, Duration::from_secs(5)).await;
    assert_eq!(exit.code, Some(0), "{exit}");
    assert!(!exit.killed_by_referee);
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn huge_line_is_rejected_without_buffering_it() {
    let mut bot = start("huge_line", &[], &SpawnOptions::default()).await;
    bot.send_line(&turn(0, &[]), SEND).await.unwrap();
    assert_eq!(bot.read_line(in_secs(10.0)).await, ReadLine::TooLong);
    assert!(bot.buffered_stdout_bytes() <= 64 * 1024 + 16 * 1024);
    // The rest of the 10 MB line is read and thrown away; nothing else comes.
    assert_eq!(bot.read_line(in_secs(1.5)).await, ReadLine::Timeout);
    assert!(bot.buffered_stdout_bytes() <= 64 * 1024 + 16 * 1024);
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn stderr_flood_is_capped_with_marker_and_never_blocks_the_bot() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("logs/spam.log");
    let opts = SpawnOptions {
        log_path: Some(log.clone()),
        log_cap: 64 * 1024,
        ..SpawnOptions::default()
    };
    let mut bot = start("stderr_spam", &[], &opts).await;
    for ply in 0..5 {
        bot.send_line(&turn(ply, &[]), SEND).await.unwrap();
        let answer = read_json(&mut bot, 10.0).await;
        assert_eq!(answer["type"], "move");
    }
    // On a loaded machine the spamming thread may not have reached the cap
    // yet: give it time (the cap is what is under test, not its speed).
    let marker = b"\n[arena: log truncated after 65536 bytes]\n";
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::fs::metadata(&log).map_or(0, |m| m.len()) < (64 * 1024 + marker.len()) as u64
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_all_gone(&mut bot).await;
    let text = std::fs::read(&log).unwrap();
    assert_eq!(text.len(), 64 * 1024 + marker.len());
    assert!(text.ends_with(marker));
    assert!(text.starts_with(b"[arena: started"));
    assert!(bot.stderr_tail().contains("spam spam"));
}

#[tokio::test]
async fn kill_takes_the_whole_process_group() {
    let mut bot = start("fork_child", &[], &SpawnOptions::default()).await;
    let pid = bot.pid();
    let members = live_group_members(pid);
    assert!(
        members.len() >= 2,
        "expected bot and its child: {members:?}"
    );
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn bot_death_is_seen_even_when_its_child_holds_stdout() {
    let mut bot = start("fork_child", &[], &SpawnOptions::default()).await;
    bot.send_line(&turn(0, &[]), SEND).await.unwrap();
    assert_eq!(read_json(&mut bot, 10.0).await["type"], "move");
    bot.send_line(&turn(2, &["c3", "d4"]), SEND).await.unwrap();
    let asked = Instant::now();
    assert_eq!(bot.read_line(in_secs(20.0)).await, ReadLine::Eof);
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    assert!(
        live_group_members(bot.pid()).len() == 1,
        "the child should still hold the pipe"
    );
    let (reason, message) = bot.death_reason(Duration::from_secs(2)).await.unwrap();
    assert_eq!(reason, FailureReason::Crash);
    assert!(message.contains("exit code 4"), "{message}");
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn a_bot_ignoring_sigterm_gets_sigkill() {
    let mut bot = start("ignore_sigterm", &[], &SpawnOptions::default()).await;
    let begun = Instant::now();
    let exit = bot.shutdown(QUIT, Duration::from_millis(200)).await;
    assert_eq!(exit.signal, Some(libc::SIGKILL), "{exit}");
    assert!(exit.killed_by_referee);
    assert!(begun.elapsed() < Duration::from_secs(3));
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn a_silent_bot_times_out_and_a_deaf_one_cannot_block_writes() {
    let mut bot = start("hang", &[], &SpawnOptions::default()).await;
    bot.send_line(&turn(0, &[]), SEND).await.unwrap();
    let asked = Instant::now();
    assert_eq!(
        bot.read_line(asked + Duration::from_millis(300)).await,
        ReadLine::Timeout
    );
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    // The bot no longer reads: the pipe fills and a write times out.
    let big = "x".repeat(60_000);
    let mut result = Ok(());
    for _ in 0..100 {
        result = bot.send_line(&big, Duration::from_millis(200)).await;
        if result.is_err() {
            break;
        }
    }
    assert_eq!(result, Err(SendError::Timeout(Duration::from_millis(200))));
    assert!(matches!(
        bot.send_line("{}", SEND).await,
        Err(SendError::Closed(_))
    ));
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn writing_to_a_dead_bot_is_an_error_not_a_signal() {
    let mut bot = start("crash", &[], &SpawnOptions::default()).await;
    bot.send_line(&turn(0, &[]), SEND).await.unwrap();
    assert_eq!(read_json(&mut bot, 10.0).await["type"], "move");
    bot.send_line(&turn(2, &["c3", "d4"]), SEND).await.unwrap();
    assert_eq!(bot.read_line(in_secs(10.0)).await, ReadLine::Eof);
    let (reason, message) = bot.death_reason(Duration::from_secs(2)).await.unwrap();
    // The process is gone, so its stdin has no reader: EPIPE, not SIGPIPE.
    let sent = bot.send_line(&turn(4, &[]), SEND).await;
    assert!(matches!(sent, Err(SendError::Closed(_))), "{sent:?}");
    assert_eq!(reason, FailureReason::Crash);
    assert!(
        message.contains("exit code 3") && message.contains("giving up"),
        "{message}"
    );
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn slow_start_misses_a_short_startup_deadline() {
    let mut bot = BotProcess::spawn(&bot("slow_start", &["30"]), &SpawnOptions::default()).unwrap();
    bot.send_line(HELLO, SEND).await.unwrap();
    assert_eq!(bot.read_line(in_secs(0.3)).await, ReadLine::Timeout);
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn unasked_lines_queue_in_order_without_growing_memory() {
    let mut bot = start("stdout_flood", &[], &SpawnOptions::default()).await;
    // Let the bot get far ahead of the reader: tens of kilobytes (over two
    // thousand lines) written and waiting in the pipe.
    let pid = bot.pid();
    let ahead = eventually(Duration::from_secs(10), || {
        group_bytes_written(pid) >= 48 * 1024
    })
    .await;
    assert!(
        ahead,
        "the bot wrote only {} bytes",
        group_bytes_written(pid)
    );
    for n in 0..1000 {
        let line = read_json(&mut bot, 5.0).await;
        assert_eq!(line, json!({"type": "info", "n": n}));
        assert!(bot.buffered_stdout_bytes() <= 64 * 1024 + 16 * 1024);
    }
    assert_all_gone(&mut bot).await;
}

/// Starts `spec`, sends it a turn, and checks that the bot then dies of a
/// resource limit: its stdout ends and the death is reported as `expected`
/// with a message containing `says`.
async fn assert_dies_of_limit(spec: &arena::referee::BotSpec, expected: FailureReason, says: &str) {
    let mut bot = BotProcess::spawn(spec, &SpawnOptions::default()).unwrap();
    bot.send_line(HELLO, SEND).await.unwrap();
    assert_eq!(read_json(&mut bot, 10.0).await["type"], "ready");
    bot.send_line(&turn(0, &[]), SEND).await.unwrap();
    assert_eq!(bot.read_line(in_secs(20.0)).await, ReadLine::Eof);
    let (reason, message) = bot.death_reason(Duration::from_secs(2)).await.unwrap();
    assert_eq!(reason, expected, "{message}");
    assert!(message.contains(says), "{message}");
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn memory_limit_death_is_reported_as_memory() {
    let mut spec = bot("memory_hog", &[]);
    spec.limits.memory_mb = Some(200);
    assert_dies_of_limit(&spec, FailureReason::Memory, "MemoryError").await;
}

#[tokio::test]
async fn cpu_limit_death_is_reported_as_cpu() {
    let mut spec = bot("cpu_burn", &[]);
    spec.limits.cpu_seconds = Some(1);
    assert_dies_of_limit(&spec, FailureReason::Cpu, "SIGXCPU").await;
}

#[tokio::test]
async fn a_missing_program_is_a_clear_spawn_error() {
    let mut spec = bot("good_bot", &[]);
    spec.command = vec!["/nonexistent/arena-bot".into()];
    let err = BotProcess::spawn(&spec, &SpawnOptions::default()).unwrap_err();
    let text = format!("{err:#}");
    assert!(
        text.contains("good_bot") && text.contains("/nonexistent/arena-bot"),
        "{text}"
    );
}

#[tokio::test]
async fn env_and_cwd_reach_the_bot_and_shell_mode_is_opt_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = arena::referee::BotSpec::from_command_line(
        "sh",
        r#"echo "$ARENA_TEST_VAR $(pwd)" ; cat >/dev/null"#,
    )
    .unwrap();
    spec.shell = true;
    spec.cwd = Some(dir.path().to_path_buf());
    spec.env.insert("ARENA_TEST_VAR".into(), "hello-env".into());
    let mut bot = BotProcess::spawn(&spec, &SpawnOptions::default()).unwrap();
    let line = match bot.read_line(in_secs(5.0)).await {
        ReadLine::Line(l) => String::from_utf8(l).unwrap(),
        other => panic!("{other:?}"),
    };
    let cwd = dir.path().canonicalize().unwrap();
    assert_eq!(line, format!("hello-env {}", cwd.display()));
    assert_all_gone(&mut bot).await;
}

#[tokio::test]
async fn dropping_a_bot_kills_its_group() {
    let bot = start("fork_child", &[], &SpawnOptions::default()).await;
    let pid = bot.pid();
    assert!(live_group_members(pid).len() >= 2);
    drop(bot);
    assert!(
        eventually(Duration::from_secs(3), || live_group_members(pid)
            .is_empty())
        .await,
        "left behind: {:?}",
        live_group_members(pid)
    );
}

/// Queued lines are written, in order, just before the next line sent, and
/// only then.
#[tokio::test]
async fn queued_lines_go_out_with_the_next_line() {
    let spec = arena::referee::BotSpec::from_command_line("cat", "cat").unwrap();
    let mut bot = BotProcess::spawn(&spec, &SpawnOptions::default()).unwrap();
    bot.queue_line("one");
    bot.queue_line("two");
    assert_eq!(bot.read_line(in_secs(0.2)).await, ReadLine::Timeout);
    bot.send_line("three", SEND).await.unwrap();
    bot.send_line("four\n", SEND).await.unwrap();
    for want in ["one", "two", "three", "four"] {
        assert_eq!(
            bot.read_line(in_secs(5.0)).await,
            ReadLine::Line(want.into())
        );
    }
    assert_all_gone(&mut bot).await;
}
