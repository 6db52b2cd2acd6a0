//! One bot specification behind every command: a bot whose program cannot
//! start is the same one-line error (exit status 2, before any game, nothing
//! written) in `arena tournament`, `arena sprt`, `arena play` and `arena
//! check-bot`, and a bots file (`--bots`) is refused where a tournament file
//! with the same `[[bot]]` entries is.

use crate::common;
use crate::common::INSTANT_BOT;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::arena;

/// Runs arena with `args` in `dir`: (exit status, stderr, stdout).
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = arena().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The error each command gives for a bot `NAME` running `command`
/// (against the instant bot); each must be one line, exit status 2, and
/// leave no output directory.
fn errors_of_each_command(dir: &Path, name: &str, command: &str) -> Vec<String> {
    let bot = format!("{name}={command}");
    let instant = INSTANT_BOT.to_string();
    let other = format!("other={instant}");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let commands: [Vec<&str>; 4] = [
        vec![
            "tournament",
            "--bot",
            &bot,
            "--bot",
            &other,
            "--out",
            out,
            "--no-progress",
        ],
        vec![
            "sprt",
            &bot,
            &other,
            "--elo0",
            "0",
            "--elo1",
            "10",
            "--out",
            out,
            "--no-progress",
        ],
        vec!["play", "qango6", command, &instant, "--quiet"],
        vec!["check-bot", "--variants", "qango6", "--", command],
    ];
    commands
        .iter()
        .map(|args| {
            let (code, stderr, stdout) = run(dir, args);
            assert_eq!(code, Some(2), "{args:?}: {stderr}{stdout}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
            assert!(
                !stdout.contains("1-0") && !stdout.contains("0-1"),
                "{stdout}"
            );
            assert!(!Path::new(out).exists(), "{args:?} wrote {out}");
            stderr
                .trim_end()
                .strip_prefix("arena: error: ")
                .unwrap_or_else(|| panic!("{args:?}: {stderr}"))
                .to_string()
        })
        .collect()
}

#[test]
fn a_missing_program_is_the_same_error_in_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().canonicalize().unwrap();
    let errors = errors_of_each_command(&dir, "no-such-bot", "./no-such-bot");
    let expected = format!(
        "bot \"no-such-bot\": program \"./no-such-bot\" not found: {}/no-such-bot does not exist (check the path in `command`; it is relative to the bot's directory, {})",
        dir.display(),
        dir.display()
    );
    for error in &errors {
        assert_eq!(error, &expected);
    }
}

#[test]
fn a_program_that_is_not_executable_is_the_same_error_with_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().canonicalize().unwrap();
    let script = dir.join("bot.py");
    std::fs::write(&script, "print('hi')\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let errors = errors_of_each_command(&dir, "bot", "./bot.py");
    for error in &errors {
        assert_eq!(
            error,
            "bot \"bot\": field `command`: \"./bot.py\" is not executable (chmod +x ./bot.py, or run it through its interpreter, e.g. [\"python3\", \"./bot.py\"])"
        );
    }
    let errors = errors_of_each_command(&dir, "pyhton3", "pyhton3");
    for error in &errors {
        assert!(
            error.starts_with("bot \"pyhton3\": program \"pyhton3\" not found on PATH"),
            "{error}"
        );
    }
}

/// A bot that exists but crashes before `ready` passes the program check
/// and is stopped by the start check before the first game: one error, no
/// game recorded (`tests/tournament/unplayed.rs` has the rest).
#[test]
fn a_bot_that_crashes_at_start_stops_the_run_before_its_first_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stderr, stdout) = run(
        tmp.path(),
        &[
            "tournament",
            "--bot",
            "crash=sh -c 'echo no config >&2; exit 3'",
            "--bot",
            &format!("other={INSTANT_BOT}"),
            "--out",
            "out",
            "--no-progress",
            "--seed",
            "1",
        ],
    );
    assert_eq!(code, Some(2), "{stderr}{stdout}");
    assert!(
        stderr.starts_with("arena: error: bot \"crash\" cannot start: no config (its first line on stderr; arena: "),
        "{stderr}"
    );
    assert!(
        !tmp.path().join("out/games.csv").exists(),
        "{stderr}{stdout}"
    );
}

/// The same `[[bot]]` entries are refused by a tournament and by `arena
/// play --bots`, with the same words: one reader checks both. The error
/// points at the key at fault, else at the entry.
#[test]
fn play_bots_refuses_what_a_tournament_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        ("name = \"=cmd\"\ncommand = \"./x\"", "starts with `=`", 1),
        (
            "name = \"a\"\ncommand = \"./x\"\nlimits = { memory_mb = 0 }",
            "memory_mb",
            4,
        ),
        (
            "name = \"a\"\ncommand = \"./x\"\ntime_control = \"soon\"",
            "time_control",
            4,
        ),
        (
            "name = \"a\"\ncomand = \"./x\"",
            "`comand` is not a key of [[bot]]; did you mean `command`?",
            3,
        ),
    ];
    for (entry, detail, line) in cases {
        let file = tmp.path().join("bots.toml");
        std::fs::write(&file, format!("[[bot]]\n{entry}\n")).unwrap();
        let file = file.to_str().unwrap();
        let (code, tournament, _) = run(tmp.path(), &["tournament", file, "--no-progress"]);
        assert_eq!(code, Some(2), "{tournament}");
        let (code, play, _) = run(tmp.path(), &["play", "qango6", "a", "a", "--bots", file]);
        assert_eq!(code, Some(2), "{play}");
        assert_eq!(play, tournament, "{entry}");
        assert!(play.contains(detail), "{entry}: {play}");
        let at = format!("bots.toml:{line}:1: field `bot`: ");
        assert!(play.contains(&at), "{at}: {play}");
    }
}
