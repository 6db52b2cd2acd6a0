//! `arena check-bot` end to end: the built binary on the bundled random bot
//! (compliant) and on test bots that each break one rule (not compliant,
//! with the check that failed and the message that showed it).

use crate::common;

use std::path::PathBuf;
use std::process::Output;

use common::{arena, bot_script};

fn repo_path(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

/// Runs `arena check-bot ARGS -- python3 tests/bots/<bot>.py`.
fn check(args: &[&str], bot: &str) -> (Output, String) {
    let script = bot_script(bot).display().to_string();
    run(args, &["python3", &script])
}

fn run(args: &[&str], command: &[&str]) -> (Output, String) {
    let out = arena()
        .arg("check-bot")
        .args(args)
        .arg("--")
        .args(command)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

/// The report line of a check: `STATUS  label  summary`.
fn line_of<'a>(stdout: &'a str, label: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.get(6..).is_some_and(|rest| rest.starts_with(label)))
        .unwrap_or_else(|| panic!("no line for {label:?} in:\n{stdout}"))
}

fn last_line(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or_default()
}

#[test]
fn the_bundled_random_bot_is_compliant_on_qango_and_quinque() {
    let logs = tempfile::tempdir().unwrap();
    let log_dir = logs.path().display().to_string();
    let (out, stdout) = run(
        &[
            "--variants",
            "qango6,quinque",
            "--games",
            "2",
            "--tc",
            "per-move=2000",
            "--seed",
            "5",
            "--log-dir",
            &log_dir,
        ],
        &["python3", &repo_path("bots/python/random_bot.py")],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(last_line(&stdout), "COMPLIANT", "{stdout}");
    for label in [
        "handshake",
        "unknown types",
        "legal moves",
        "stdout",
        "timing",
        "stays up",
        "stderr",
        "game end",
        "quit",
    ] {
        let line = line_of(&stdout, label);
        assert!(line.starts_with("PASS"), "{line}\n{stdout}");
    }
    assert!(line_of(&stdout, "handshake").contains("name \"random\""));
    assert!(line_of(&stdout, "legal moves").contains("in 4 games (qango6, quinque)"));
    let timing = line_of(&stdout, "timing");
    assert!(
        timing.contains("median ") && timing.contains("worst ") && timing.contains("2000 ms"),
        "{timing}"
    );
    // The random bot logs its seed and every game to stderr.
    let stderr = line_of(&stdout, "stderr");
    assert!(
        stderr.contains("bytes to stderr") && stderr.contains("bot's log"),
        "{stderr}"
    );
    assert!(line_of(&stdout, "game end").contains("played 3 games in a process"));
    assert!(line_of(&stdout, "quit").contains("after quit (exit code 0)"));
    // Colours alternate, white first, and every game is listed.
    for game in [
        "qango6 game 1 (bot as white)",
        "qango6 game 2 (bot as black)",
        "quinque game 1 (bot as white)",
        "quinque game 2 (bot as black)",
    ] {
        assert!(stdout.contains(game), "{game}\n{stdout}");
    }
    let (logged, traced): (Vec<_>, Vec<_>) = std::fs::read_dir(logs.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .partition(|name| name.ends_with(".log"));
    assert_eq!(logged.len(), 4, "{logged:?}");
    // check-bot always traces: each game's wire trace sits next to its log.
    for log in &logged {
        let trace = log.replace(".log", ".trace");
        assert!(traced.contains(&trace), "{trace} in {traced:?}");
    }
    assert!(
        logged.contains(&"quinque-2-black-random_bot.log".to_string()),
        "{logged:?}"
    );
}

#[test]
fn an_illegal_move_is_quoted_with_the_rules_explanation() {
    let (out, stdout) = check(
        &[
            "--variants",
            "qango6,quinque",
            "--games",
            "2",
            "--tc",
            "per-move=500",
        ],
        "illegal",
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let legal = line_of(&stdout, "legal moves");
    assert!(
        legal.starts_with("FAIL") && legal.contains("illegal move in 4 of 4 games"),
        "{legal}"
    );
    // The bot plays the cell its opponent just took.
    assert!(
        stdout.contains("qango6 game 1 (bot as white), ply 2: played \"")
            && stdout.contains("\", which is illegal: ")
            && stdout.contains(" is occupied"),
        "{stdout}"
    );
    // Three are quoted in full; every game is in the list above them.
    assert!(stdout.contains("... and 1 more like these"), "{stdout}");
    let quinque = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("quinque game 2 (bot as black)"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        quinque.contains("illegal_move") && quinque.contains("(played \"place "),
        "{quinque}"
    );
    assert!(line_of(&stdout, "handshake").starts_with("PASS"));
    assert!(line_of(&stdout, "quit").starts_with("PASS"));
    assert_eq!(last_line(&stdout), "NOT COMPLIANT: 1 problem", "{stdout}");
}

#[test]
fn garbage_on_stdout_is_quoted() {
    let (out, stdout) = check(&["--variants", "qango7", "--games", "1"], "garbage");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = line_of(&stdout, "stdout");
    assert!(line.starts_with("FAIL"), "{line}");
    assert!(
        stdout.contains(
            "qango7 game 1 (bot as white), ply 0: answered a turn with a line that is not a move: expected a JSON object with \"type\", got invalid JSON"
        ) && stdout.contains("e4 is my move {not json"),
        "{stdout}"
    );
    // Nothing was answered, so legality and timing could not be judged.
    assert!(line_of(&stdout, "legal moves").starts_with("SKIP"));
    assert!(line_of(&stdout, "timing").starts_with("SKIP"));
    assert_eq!(last_line(&stdout), "NOT COMPLIANT: 1 problem", "{stdout}");
}

#[test]
fn a_bot_that_ignores_quit_and_sigterm_had_to_be_killed() {
    // One command-line string instead of separate words works too.
    let command = format!("python3 {}", bot_script("ignore_sigterm").display());
    let (out, stdout) = run(&["--variants", "qango6", "--games", "2"], &[&command]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let quit = line_of(&stdout, "quit");
    assert!(
        quit.starts_with("FAIL") && quit.contains("arena had to kill it"),
        "{quit}"
    );
    assert!(stdout.contains("(it ignored SIGTERM too)"), "{stdout}");
    assert!(line_of(&stdout, "game end").starts_with("PASS"));
    assert_eq!(last_line(&stdout), "NOT COMPLIANT: 1 problem", "{stdout}");
}

#[test]
fn a_bot_that_does_not_answer_in_time_fails_timing() {
    let (out, stdout) = check(
        &[
            "--variants",
            "qango6",
            "--games",
            "1",
            "--tc",
            "per-move=200",
        ],
        "hang",
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let timing = line_of(&stdout, "timing");
    assert!(
        timing.starts_with("FAIL") && timing.contains("ran out of time in 1 game;"),
        "{timing}"
    );
    assert!(
        stdout.contains("qango6 game 1 (bot as white), ply 0: did not answer within 200 ms"),
        "{stdout}"
    );
}

#[test]
fn a_bot_that_chokes_on_an_unknown_message_type_fails() {
    let (out, stdout) = check(&["--variants", "qango6", "--games", "1"], "strict_types");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = line_of(&stdout, "unknown types");
    assert!(line.starts_with("FAIL"), "{line}");
    assert!(
        stdout.contains("the bot exited: process ended: exit code 2; last stderr line: unknown message type 'x_check_unknown'"),
        "{stdout}"
    );
    // It is restarted and plays its game correctly.
    assert!(line_of(&stdout, "legal moves").starts_with("PASS"));
    assert_eq!(last_line(&stdout), "NOT COMPLIANT: 1 problem", "{stdout}");
}

#[test]
fn a_bot_that_exits_after_game_over_fails_game_end() {
    let (out, stdout) = check(&["--variants", "qango6", "--games", "2"], "one_game");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = line_of(&stdout, "game end");
    assert!(
        line.starts_with("FAIL") && line.contains("must wait for new_game or quit"),
        "{line}"
    );
    assert!(
        stdout.contains(
            "after game_over of qango6 game 1 (bot as white): the bot exited: process ended: exit code 0"
        ),
        "{stdout}"
    );
}

/// Exiting after game_over slower than the idle watch: the next game finds
/// the process gone, and the exit is still charged to game_over (not only
/// to the next game, where the bot did nothing wrong yet).
#[test]
fn a_bot_that_exits_slowly_after_game_over_fails_game_end() {
    let (out, stdout) = check(&["--variants", "qango6", "--games", "2"], "slow_exit");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = line_of(&stdout, "game end");
    assert!(line.starts_with("FAIL"), "{stdout}");
    assert!(
        stdout.contains("after game_over of qango6 game 1 (bot as white): the bot exited: process ended: exit code 0"),
        "{stdout}"
    );
}

#[test]
fn a_bot_that_crashes_at_start_fails_the_handshake() {
    let (out, stdout) = run(&["--variants", "qango6"], &["sh", "-c", "exit 3"]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = line_of(&stdout, "handshake");
    assert!(line.starts_with("FAIL"), "{line}");
    assert!(line_of(&stdout, "legal moves").starts_with("SKIP"));
    assert_eq!(last_line(&stdout), "NOT COMPLIANT: 1 problem", "{stdout}");
}

/// A program that is not there is not a bot to check: one error before
/// any game (the same as every command gives, see tests/referee/bot_programs.rs).
#[test]
fn a_bot_whose_program_is_missing_is_one_error() {
    let (out, stdout) = run(
        &["--variants", "qango6"],
        &["/nonexistent/arena-check-bot-test"],
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.lines().count() <= 1, "no games: {stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("arena: error: bot \"arena-check-bot-test\": program \"/nonexistent/arena-check-bot-test\" not found"),
        "{stderr}"
    );
}

#[test]
fn usage_errors_exit_with_status_2() {
    let (out, _) = check(&["--variants", "qango9"], "good_bot");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant \"qango9\""));
    let (out, _) = check(&["--games", "0"], "good_bot");
    assert_eq!(out.status.code(), Some(2));
    let none = arena().arg("check-bot").output().unwrap();
    assert_eq!(none.status.code(), Some(2));
}

#[test]
fn a_move_spelt_differently_from_legal_moves_is_a_problem() {
    let (out, stdout) = check(&["--variants", "qango6,quinque", "--games", "2"], "inexact");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let legal = line_of(&stdout, "legal moves");
    assert!(
        legal.starts_with("FAIL") && legal.contains("illegal move in 4 of 4 games"),
        "{legal}"
    );
    assert!(
        stdout.contains("is not a legal move; did you mean `"),
        "{stdout}"
    );
    assert_eq!(last_line(&stdout), "NOT COMPLIANT: 1 problem", "{stdout}");
}

/// `--tc` is the time control a tournament takes: `per-move=MS` plays that
/// limit, and a bare number (a clock of that many seconds in a tournament)
/// is refused with the per-move form to write instead, before any game.
#[test]
fn tc_is_a_time_control_as_in_a_tournament() {
    let (out, stdout) = check(
        &["--variants", "qango6", "--games", "1", "--tc", "300"],
        "good_bot",
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("\"300\" is a clock of 300 seconds, as in a tournament")
            && stderr.contains("give per-move=300"),
        "{stderr}"
    );
    let random_bot = repo_path("bots/python/random_bot.py");
    let (out, stdout) = run(
        &[
            "--variants",
            "qango6",
            "--games",
            "1",
            "--tc",
            "per-move=1500",
            "--seed",
            "1",
        ],
        &["python3", &random_bot],
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("1500 ms per move"), "{stdout}");
}
