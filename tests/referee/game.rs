//! Whole games through the referee, against the misbehaving bots in
//! `tests/bots/`: each failure ends the game with the right reason, the
//! opponent wins, the referee plays on, and no process is left behind.

use crate::common;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena::games::{Color, Position, Variant};
use arena::protocol::{GameResult, TimeControl};
use arena::referee::{
    play_bots, play_game, BotPool, BotSpec, GameConfig, GameEvent, GameRecord, Human, Player, Seat,
    SpawnOptions,
};
use common::{bot, eventually, live_processes_with_arg, unique_tag};

fn qango6() -> &'static Variant {
    Variant::by_id("qango6").unwrap()
}

fn config(id: &str, move_ms: u64) -> GameConfig {
    GameConfig::new(id, qango6(), TimeControl::PerMove { move_ms })
}

/// A test bot whose command line carries a unique tag.
fn tagged(name: &str, args: &[&str]) -> (BotSpec, String) {
    let tag = unique_tag(name);
    let mut all: Vec<&str> = args.to_vec();
    all.push(&tag);
    (bot(name, &all), tag)
}

fn seat(spec: BotSpec) -> Seat {
    Seat::new(spec, SpawnOptions::default())
}

/// Shuts the seats down and checks nothing with these tags still runs.
async fn assert_all_gone(seats: &mut [&mut Seat], tags: &[&str]) {
    for seat in seats.iter_mut() {
        seat.shutdown().await;
    }
    for tag in tags {
        assert!(
            eventually(Duration::from_secs(3), || live_processes_with_arg(tag)
                .is_empty())
            .await,
            "left behind for {tag}: {:?}",
            live_processes_with_arg(tag)
        );
    }
}

/// `arena judge` must accept the record and agree with a rules ending.
fn judge_agrees(record: &GameRecord) {
    let json = serde_json::to_vec(record).unwrap();
    let verdict = arena::cli::judge::judge(&json).unwrap_or_else(|e| panic!("judge rejected: {e}"));
    assert_eq!(verdict["plies"], record.plies);
    if record.reason.is_rule() {
        assert_eq!(verdict["reason"], record.reason.as_str());
        assert_eq!(
            verdict["winner"],
            serde_json::to_value(record.winner).unwrap()
        );
    } else {
        assert_eq!(
            verdict["status"], "ongoing",
            "a failure ends an unfinished game"
        );
    }
}

/// Plays `bad` against the good bot twice (bad as `bad_color`), checks both
/// games end with `reason` and the good bot winning, that the bad bot is
/// restarted while the good one is reused, and that nothing is left behind.
/// Per-move limits in tests are generous unless the test is about a
/// timeout: the machine may be loaded, and a good bot must never time out.
async fn bad_bot_loses_twice(
    bad: BotSpec,
    bad_tag: &str,
    bad_color: Color,
    move_ms: u64,
    reason: &str,
) -> Vec<GameRecord> {
    let (good, good_tag) = tagged("good_bot", &[]);
    let mut bad_seat = seat(bad);
    let mut good_seat = seat(good);
    let mut records = Vec::new();
    let dir = tempfile::tempdir().unwrap();
    for game in 0..2 {
        let mut cfg = config(&format!("{reason}-{game}"), move_ms);
        // The good bot gets its answers in even on a loaded machine; only
        // a bot that never answers waits out the whole allowance.
        cfg.grace = Duration::from_millis(1000);
        cfg.log_dir = Some(dir.path().to_path_buf());
        let record = match bad_color {
            Color::White => play_bots(&mut bad_seat, &mut good_seat, &cfg).await,
            Color::Black => play_bots(&mut good_seat, &mut bad_seat, &cfg).await,
        }
        .unwrap();
        assert_eq!(record.reason, reason, "{record:#?}");
        assert_eq!(record.winner, Some(bad_color.opponent()), "{record:#?}");
        let expected = if bad_color == Color::White {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        };
        assert_eq!(record.result, expected);
        assert!(
            record.message.starts_with(&format!("{bad_color} (")),
            "{}",
            record.message
        );
        assert!(!bad_seat.is_running(), "a failed bot is not kept");
        assert!(
            good_seat.is_running(),
            "the opponent is kept for the next game"
        );
        judge_agrees(&record);
        records.push(record);
    }
    assert_eq!(good_seat.process_starts(), 1, "the good bot is reused");
    assert!(bad_seat.process_starts() >= 1);
    assert!(
        live_processes_with_arg(bad_tag).is_empty(),
        "the failed bot was killed"
    );
    assert_all_gone(&mut [&mut bad_seat, &mut good_seat], &[bad_tag, &good_tag]).await;
    // The winner heard the result of each game. It writes to stderr only
    // then, after the game's record was made, so its logs are found by name
    // (`<game>-<colour>-good_bot.log`, created on that first line). A line
    // written just after game_over may land in the next game's log: the log
    // switches when the next game starts, not when the bot gets around to
    // writing.
    let mut good_logs = String::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with("-good_bot.log") {
            good_logs += &std::fs::read_to_string(path).unwrap();
        }
    }
    for record in &records {
        let line = format!("game_over {} {reason}", record.result.as_str());
        assert_eq!(
            good_logs.matches(&line).count(),
            2,
            "{line:?} twice in {good_logs:?}"
        );
    }
    records
}

#[tokio::test]
async fn good_bots_play_to_a_rules_ending_and_are_reused() {
    let (w, wt) = tagged("chatty_bot", &[]);
    let (b, bt) = tagged("chatty_bot", &[]);
    let (mut white, mut black) = (seat(w), seat(b));
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config("g1", 5000);
    cfg.log_dir = Some(dir.path().join("logs"));
    let first = play_bots(&mut white, &mut black, &cfg).await.unwrap();
    assert!(first.reason.is_rule(), "{first:#?}");
    assert_eq!(first.moves.len(), first.plies as usize);
    assert_eq!(first.move_times_ms.len(), first.moves.len());
    assert!(first.message.contains(first.reason.as_str()) || first.message.starts_with("draw"));
    judge_agrees(&first);
    let white_log = first.white_log.clone().unwrap();
    assert!(
        white_log.ends_with("g1-white-chatty_bot.log"),
        "{white_log:?}"
    );
    let text = std::fs::read_to_string(&white_log).unwrap();
    assert!(text.starts_with("[arena: started "), "{text}");
    assert!(text.contains("[arena: game g1 as white]\nthinking about ply 0\n"));
    // What a bot writes to stderr before answering is logged before its
    // answer is taken, so the record's log holds its last move's line too.
    for ply in (0..first.plies).step_by(2) {
        assert!(
            text.contains(&format!("\nthinking about ply {ply}\n")),
            "ply {ply} of {}: {text}",
            first.plies
        );
    }
    assert!(first.warnings.is_empty() && first.white_log_tail.is_none());

    cfg.game_id = "g2".into();
    let second = play_bots(&mut black, &mut white, &cfg).await.unwrap();
    assert_eq!(second.white, "chatty_bot");
    assert_eq!(white.process_starts(), 1);
    assert_eq!(black.process_starts(), 1);
    // Per-game logs for a reused process.
    let log2 = second.black_log.clone().unwrap();
    let text = std::fs::read_to_string(log2).unwrap();
    // (Its game_over line of g1 may come first: see `bad_bot_loses_twice`.)
    assert!(text.starts_with("[arena: game g2 as black]\n"), "{text}");
    assert!(text.contains("\nthinking about ply 1\n"), "{text}");
    assert_all_gone(&mut [&mut white, &mut black], &[&wt, &bt]).await;
}

/// Bots that write nothing to stderr get no log files and no log paths.
#[tokio::test]
async fn quiet_bots_leave_no_log_files() {
    let instant = |name: &str| BotSpec::from_command_line(name, common::INSTANT_BOT).unwrap();
    let (mut white, mut black) = (seat(instant("a")), seat(instant("b")));
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    for game in ["q1", "q2"] {
        let mut cfg = config(game, 5000);
        cfg.log_dir = Some(logs.clone());
        let record = play_bots(&mut white, &mut black, &cfg).await.unwrap();
        assert!(record.reason.is_rule(), "{record:#?}");
        assert_eq!((&record.white_log, &record.black_log), (&None, &None));
        let json = serde_json::to_value(&record).unwrap();
        assert!(json.get("white_log").is_none() && json.get("black_log").is_none());
        judge_agrees(&record);
    }
    white.shutdown().await;
    black.shutdown().await;
    assert!(!logs.exists(), "no file, not even the directory");
}

/// A log file that cannot be created (here: a directory is in its way)
/// costs nothing: the game is played to its true result, and what the bot
/// wrote is kept in the record with a warning. (A name too long for the file
/// system cannot happen: the bot's part of the file name is cut short.)
#[tokio::test]
async fn a_log_that_cannot_be_created_keeps_its_tail_in_the_record() {
    let (mut w, wt) = tagged("chatty_bot", &[]);
    w.name = "n".repeat(300);
    let (b, bt) = tagged("chatty_bot", &[]);
    let (mut white, mut black) = (seat(w), seat(b));
    let dir = tempfile::tempdir().unwrap();
    // The white log's file name, bot name cut to its first 96 characters.
    std::fs::create_dir(
        dir.path()
            .join(format!("long-white-{}.log", "n".repeat(96))),
    )
    .unwrap();
    let mut cfg = config("long", 5000);
    cfg.log_dir = Some(dir.path().to_path_buf());
    let record = play_bots(&mut white, &mut black, &cfg).await.unwrap();
    assert!(record.reason.is_rule(), "{record:#?}");
    judge_agrees(&record);
    assert_eq!(record.white_log, None);
    let tail = record.white_log_tail.clone().unwrap();
    assert!(tail.starts_with("thinking about ply 0\n"), "{tail}");
    assert_eq!(record.warnings.len(), 1, "{:?}", record.warnings);
    assert!(
        record.warnings[0].contains("Is a directory"),
        "{:?}",
        record.warnings
    );
    // The opponent's log is unaffected.
    assert!(record.black_log.as_ref().unwrap().exists());
    assert_eq!(record.black_log_tail, None);
    assert_all_gone(&mut [&mut white, &mut black], &[&wt, &bt]).await;
}

#[tokio::test]
async fn crash_mid_game_is_a_crash_with_the_exit_code() {
    let (bad, tag) = tagged("crash", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::White, 5000, "crash").await;
    assert!(
        records[0].message.contains("exit code 3"),
        "{}",
        records[0].message
    );
    assert!(
        records[0].message.contains("giving up"),
        "{}",
        records[0].message
    );
    assert_eq!(records[0].plies, 2, "one move each, then the crash");
}

#[tokio::test]
async fn hang_is_a_timeout() {
    let (bad, tag) = tagged("hang", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::Black, 300, "timeout").await;
    assert!(
        records[0].message.contains("did not answer within 300 ms"),
        "{}",
        records[0].message
    );
}

#[tokio::test]
async fn garbage_is_a_protocol_error_quoting_the_line() {
    let (bad, tag) = tagged("garbage", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::White, 5000, "protocol_error").await;
    assert!(
        records[0].message.contains("e4 is my move {not json"),
        "{}",
        records[0].message
    );
}

#[tokio::test]
async fn illegal_move_is_explained_by_the_rules_engine() {
    let (bad, tag) = tagged("illegal", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::Black, 5000, "illegal_move").await;
    let r = &records[0];
    assert_eq!(r.plies, 1, "white's first move, then black's illegal one");
    assert!(
        r.message
            .contains(&format!("played {:?}, which is illegal: ", r.moves[0])),
        "{}",
        r.message
    );
}

#[tokio::test]
async fn slow_start_is_a_startup_failure() {
    let (mut bad, tag) = tagged("slow_start", &["30"]);
    bad.limits.startup_ms = Some(400);
    let records = bad_bot_loses_twice(bad, &tag, Color::White, 5000, "startup").await;
    assert!(
        records[0]
            .message
            .contains("never answered hello: no line within the 400 ms startup limit"),
        "{}",
        records[0].message
    );
    assert_eq!(records[0].plies, 0);
}

#[tokio::test]
async fn huge_line_is_a_protocol_error() {
    let (bad, tag) = tagged("huge_line", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::Black, 5000, "protocol_error").await;
    assert!(
        records[0].message.contains("longer than 65536 bytes"),
        "{}",
        records[0].message
    );
}

#[tokio::test]
async fn fork_child_crash_is_seen_and_its_child_is_killed() {
    let (bad, tag) = tagged("fork_child", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::White, 5000, "crash").await;
    assert!(
        records[0].message.contains("exit code 4"),
        "{}",
        records[0].message
    );
}

#[tokio::test]
async fn exiting_mid_game_is_a_crash_even_with_status_zero() {
    let (bad, tag) = tagged("exit_midgame", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::Black, 5000, "crash").await;
    assert!(
        records[0].message.contains("exit code 0"),
        "{}",
        records[0].message
    );
    assert_eq!(
        records[0].plies, 5,
        "two moves by black, then it leaves at ply 5"
    );
}

/// A line written after the answer, while the opponent thinks (300 ms), is
/// seen as unasked at the next turn, not taken as that turn's answer (the
/// runtime's view of the pipe is no guide when moves are read outside it).
#[tokio::test]
async fn a_second_line_after_the_answer_is_a_protocol_error() {
    let (bad, bad_tag) = tagged("double_answer", &[]);
    let (slow, slow_tag) = tagged("paced_bot", &["300"]);
    let (mut white, mut black) = (seat(bad), seat(slow));
    let record = play_bots(&mut white, &mut black, &config("double", 5000))
        .await
        .unwrap();
    assert_eq!(record.reason.as_str(), "protocol_error", "{record:#?}");
    assert_eq!(record.plies, 2, "caught at its second turn: {record:#?}");
    assert!(
        record.message.contains("no answer was expected"),
        "{}",
        record.message
    );
    assert_all_gone(&mut [&mut white, &mut black], &[&bad_tag, &slow_tag]).await;
}

#[tokio::test]
async fn unasked_output_is_a_protocol_error() {
    let (bad, tag) = tagged("stdout_flood", &[]);
    let records = bad_bot_loses_twice(bad, &tag, Color::White, 5000, "protocol_error").await;
    // Which the referee sees first depends on scheduling: the flood already
    // waiting before the turn is sent, or a flood line read as the answer.
    let message = &records[0].message;
    assert!(
        message.contains("no answer was expected")
            || message.contains("unknown message type \"info\""),
        "{message}"
    );
}

#[tokio::test]
async fn memory_limit_is_reported_as_memory() {
    let (mut bad, tag) = tagged("memory_hog", &[]);
    bad.limits.memory_mb = Some(200);
    bad_bot_loses_twice(bad, &tag, Color::White, 5000, "memory").await;
}

#[tokio::test]
async fn cpu_limit_is_reported_as_cpu() {
    let (mut bad, tag) = tagged("cpu_burn", &[]);
    bad.limits.cpu_seconds = Some(1);
    let (good, good_tag) = tagged("good_bot", &[]);
    let (mut bad_seat, mut good_seat) = (seat(bad), seat(good));
    let record = play_bots(&mut bad_seat, &mut good_seat, &config("cpu", 10_000))
        .await
        .unwrap();
    assert_eq!(record.reason, "cpu", "{record:#?}");
    assert_eq!(record.winner, Some(Color::Black));
    assert!(record.message.contains("SIGXCPU"), "{}", record.message);
    assert_all_gone(&mut [&mut bad_seat, &mut good_seat], &[&tag, &good_tag]).await;
}

#[tokio::test]
async fn a_program_that_cannot_start_and_a_wrong_protocol_are_startup_failures() {
    let mut missing = bot("good_bot", &[]);
    missing.name = "missing".into();
    missing.command = vec!["/nonexistent/bot-binary".into()];
    let (good, good_tag) = tagged("good_bot", &[]);
    let mut good_seat = seat(good);
    let mut missing_seat = seat(missing);
    let record = play_bots(&mut good_seat, &mut missing_seat, &config("m", 5000))
        .await
        .unwrap();
    assert_eq!(record.reason, "startup");
    assert_eq!(record.winner, Some(Color::White));
    assert!(
        record.message.contains("/nonexistent/bot-binary"),
        "{}",
        record.message
    );

    let tag = unique_tag("v2");
    let mut v2 = BotSpec::from_command_line("v2", "sh").unwrap();
    v2.command = vec![format!(
        r#"read l; echo '{{"type":"ready","name":"v2","protocol":2}}'; exec python3 -c 'import time; time.sleep(30)' {tag}"#
    )];
    v2.shell = true;
    let mut v2_seat = seat(v2);
    let record = play_bots(&mut v2_seat, &mut good_seat, &config("v", 5000))
        .await
        .unwrap();
    assert_eq!(record.reason, "startup");
    assert!(
        record
            .message
            .contains("answered hello with protocol 2, but arena speaks protocol 1"),
        "{}",
        record.message
    );
    assert_all_gone(
        &mut [&mut good_seat, &mut v2_seat, &mut missing_seat],
        &[&good_tag, &tag],
    )
    .await;
}

#[tokio::test]
async fn stderr_spam_and_sigterm_ignoring_bots_play_normally_and_are_cleaned_up() {
    let (spam, spam_tag) = tagged("stderr_spam", &[]);
    let (stubborn, stubborn_tag) = tagged("ignore_sigterm", &[]);
    let dir = tempfile::tempdir().unwrap();
    let options = SpawnOptions {
        log_cap: 32 * 1024,
        ..SpawnOptions::default()
    };
    let mut spam_seat = Seat::new(spam, options);
    let mut stubborn_seat = seat(stubborn);
    let mut cfg = config("spam", 5000);
    cfg.log_dir = Some(dir.path().to_path_buf());
    let record = play_bots(&mut spam_seat, &mut stubborn_seat, &cfg)
        .await
        .unwrap();
    assert!(record.reason.is_rule(), "{record:#?}");
    assert_all_gone(
        &mut [&mut spam_seat, &mut stubborn_seat],
        &[&spam_tag, &stubborn_tag],
    )
    .await;
    let log = std::fs::read(record.white_log.unwrap()).unwrap();
    assert!(log.len() <= 32 * 1024 + 64, "{}", log.len());
    assert!(log.ends_with(b"[arena: log truncated after 32768 bytes]\n"));
}

#[tokio::test]
async fn forced_opening_is_played_before_the_bots_and_recorded() {
    let (w, wt) = tagged("good_bot", &[]);
    let (b, bt) = tagged("illegal", &[]);
    let (mut white, mut black) = (seat(w), seat(b));
    let mut cfg = config("open", 5000);
    cfg.opening = vec!["c3".into(), "d4".into()];
    // The illegal bot replays the last move on the board: with an opening
    // that is d4 at once, on white's first own turn.
    let record = play_bots(&mut black, &mut white, &cfg).await.unwrap();
    assert_eq!(record.opening, ["c3", "d4"]);
    assert_eq!(&record.moves[..2], ["c3", "d4"]);
    assert_eq!(record.move_times_ms[..2], [0, 0]);
    assert_eq!(record.reason, "illegal_move");
    assert_eq!(record.winner, Some(Color::Black));
    assert!(record.message.contains("\"d4\""), "{}", record.message);
    judge_agrees(&record);

    cfg.opening = vec!["c3".into(), "c3".into()];
    let err = play_bots(&mut white, &mut black, &cfg).await.unwrap_err();
    assert!(
        format!("{err:#}").contains("opening move 1 (\"c3\") is illegal"),
        "{err:#}"
    );
    assert_all_gone(&mut [&mut white, &mut black], &[&wt, &bt]).await;
}

#[tokio::test]
async fn clock_time_control_counts_down_and_flags() {
    let (good, good_tag) = tagged("good_bot", &[]);
    let (hang, hang_tag) = tagged("hang", &[]);
    let (mut good_seat, mut hang_seat) = (seat(good), seat(hang));
    let mut cfg = config("clock", 0);
    cfg.time_control = TimeControl::Clock {
        base_ms: 400,
        increment_ms: 50,
    };
    cfg.grace = Duration::from_millis(1000);
    let record = play_bots(&mut good_seat, &mut hang_seat, &cfg)
        .await
        .unwrap();
    assert_eq!(record.reason, "timeout");
    assert_eq!(record.winner, Some(Color::White));
    assert!(
        record.message.contains("within 400 ms"),
        "{}",
        record.message
    );
    assert!(record.black_time_ms == 0 && record.plies == 1);
    assert_all_gone(
        &mut [&mut good_seat, &mut hang_seat],
        &[&good_tag, &hang_tag],
    )
    .await;
}

#[tokio::test]
async fn games_run_in_parallel_from_a_pool() {
    let (spec, tag) = tagged("good_bot", &[]);
    let pool = Arc::new(Mutex::new(BotPool::new(SpawnOptions::default())));
    let mut tasks = tokio::task::JoinSet::new();
    for g in 0..4 {
        let pool = pool.clone();
        let spec = spec.clone();
        tasks.spawn(async move {
            let (mut w, mut b) = {
                let mut pool = pool.lock().unwrap();
                (pool.checkout(&spec), pool.checkout(&spec))
            };
            let record = play_bots(&mut w, &mut b, &config(&format!("p{g}"), 5000))
                .await
                .unwrap();
            let mut pool = pool.lock().unwrap();
            assert!(pool.checkin(w).is_empty());
            assert!(pool.checkin(b).is_empty());
            record
        });
    }
    while let Some(record) = tasks.join_next().await {
        let record = record.unwrap();
        assert!(record.reason.is_rule());
    }
    let mut pool = Arc::try_unwrap(pool).unwrap().into_inner().unwrap();
    assert!(pool.idle_count() >= 2 && pool.idle_count() <= 8);
    assert!(!live_processes_with_arg(&tag).is_empty());
    pool.shutdown().await;
    assert_eq!(pool.idle_count(), 0);
    assert!(
        eventually(Duration::from_secs(3), || live_processes_with_arg(&tag)
            .is_empty())
        .await
    );
}

/// Terminal output captured for the human-player test.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn a_human_is_shown_the_board_and_asked_again_after_an_illegal_move() {
    let first = Position::new(qango6()).legal_moves()[0].to_string();
    // Malformed, then legal, then the now occupied cell, then end of input.
    let input = format!("zz9\n?\n{first}\n{first}\n");
    let out = Captured::default();
    let mut human = Human::new(
        "you",
        false,
        Box::new(std::io::Cursor::new(input.into_bytes())),
        Box::new(out.clone()),
    );
    let (good, good_tag) = tagged("good_bot", &[]);
    let mut good_seat = seat(good);
    let mut moves_seen = Vec::new();
    let record = play_game(
        Player::Human(&mut human),
        Player::Bot(&mut good_seat),
        &config("h", 5000),
        &mut |event| {
            if let GameEvent::Moved { notation, .. } = event {
                moves_seen.push(notation.to_string());
            }
        },
    )
    .await
    .unwrap();
    assert_eq!(record.reason, "disconnect");
    assert_eq!(record.winner, Some(Color::Black));
    assert_eq!(record.moves[0], first);
    assert_eq!(moves_seen, record.moves);
    assert_eq!(record.white, "you");
    assert!(record.white_log.is_none());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("\"zz9\" is not a legal move"), "{text}");
    assert!(text.contains("legal moves: "), "{text}");
    assert!(
        text.contains(&format!("\"{first}\" is not a legal move")),
        "{text}"
    );
    assert!(text.matches("white (you) to move").count() >= 4, "{text}");
    assert_all_gone(&mut [&mut good_seat], &[&good_tag]).await;
}

#[tokio::test]
async fn an_abandoned_game_leaves_no_half_conversation_behind() {
    let (good, good_tag) = tagged("good_bot", &[]);
    let (hang, hang_tag) = tagged("hang", &[]);
    let (other, other_tag) = tagged("good_bot", &[]);
    let (mut good_seat, mut hang_seat, mut other_seat) = (seat(good), seat(hang), seat(other));
    // Started ahead of the game (a slow machine must not make the timeout
    // below fire before the game has begun).
    good_seat.prepare(None).await.unwrap();
    hang_seat.prepare(None).await.unwrap();
    // The caller gives up on a game (say, the tournament is interrupted).
    let abandoned = tokio::time::timeout(
        Duration::from_millis(1000),
        play_bots(&mut good_seat, &mut hang_seat, &config("gone", 10_000)),
    )
    .await;
    assert!(abandoned.is_err());
    assert!(good_seat.is_running());
    assert_eq!(
        good_seat.process_starts(),
        1,
        "prepared once, reused by the game"
    );
    // The next game does not trust the interrupted process.
    let record = play_bots(&mut good_seat, &mut other_seat, &config("next", 5000))
        .await
        .unwrap();
    assert!(record.reason.is_rule(), "{record:#?}");
    assert_eq!(good_seat.process_starts(), 2);
    assert_all_gone(
        &mut [&mut good_seat, &mut hang_seat, &mut other_seat],
        &[&good_tag, &hang_tag, &other_tag],
    )
    .await;
}

/// Over the idle cap, a bot's spare process (left by games it played at the
/// same time) is ended before another bot's only one, which its next game
/// would have to start again.
#[tokio::test]
async fn the_idle_cap_ends_spare_processes_first() {
    let (mut a, a_tag) = tagged("good_bot", &[]);
    let (mut b, b_tag) = tagged("good_bot", &[]);
    (a.name, b.name) = ("a".into(), "b".into());
    let mut pool = BotPool::new(SpawnOptions::default()).with_idle_cap(2);
    // b's process is the oldest idle one; a has two (as after two games at
    // once): plain least-recently-used would end b's.
    let (mut a1, mut a2, mut b1) = (pool.checkout(&a), pool.checkout(&a), pool.checkout(&b));
    for seat in [&mut a1, &mut a2, &mut b1] {
        seat.prepare(None).await.unwrap();
    }
    assert!(pool.checkin(b1).is_empty());
    assert!(pool.checkin(a1).is_empty());
    let evicted = pool.checkin(a2);
    assert_eq!(evicted.len(), 1);
    assert_eq!(evicted[0].name(), a.name, "a's spare, not b's only process");
    assert_eq!(pool.idle_count(), 2);
    for mut seat in evicted {
        seat.shutdown().await;
    }
    // b is still kept: checking it out again reuses its process.
    let b_again = pool.checkout(&b);
    assert!(b_again.is_running());
    assert!(pool.checkin(b_again).is_empty());
    pool.shutdown().await;
    for tag in [&a_tag, &b_tag] {
        assert!(
            eventually(Duration::from_secs(3), || live_processes_with_arg(tag)
                .is_empty())
            .await
        );
    }
}
