//! What a new user meets first, through the real binary: bare `arena` with
//! and without `./arena.toml`, and the one-line errors of a tournament file
//! with a misspelt key or a value of the wrong type.

use crate::common;
use crate::common::INSTANT_BOT;

use std::path::Path;

use common::tournament::{bot_entry, text, write_config_entries};

fn arena_in(dir: &Path, args: &[&str]) -> std::process::Output {
    common::arena()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run arena")
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn bare_arena_without_arena_toml_prints_a_quick_start_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena_in(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("no arena.toml here"), "{stdout}");
    for command in [
        "arena check-bot",
        "arena play",
        "arena tournament",
        "arena --help",
    ] {
        assert!(stdout.contains(command), "{command}: {stdout}");
    }
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    // `arena tournament` without a file says what to give, and writes nothing.
    let output = arena_in(dir.path(), &["tournament"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no arena.toml in this directory") && stderr.contains("--bot"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn bare_arena_plays_the_arena_toml_of_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let instant = INSTANT_BOT.to_string();
    write_config_entries(
        dir.path(),
        "variant = \"qango6\"\ngames_per_pairing = 2\nseed = 3\nout = \"here\"",
        &[
            bot_entry("a", std::slice::from_ref(&instant), ""),
            bot_entry("b", std::slice::from_ref(&instant), ""),
        ],
    );
    std::fs::rename(dir.path().join("t.toml"), dir.path().join("arena.toml")).unwrap();
    let output = arena_in(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let games = std::fs::read_to_string(dir.path().join("here").join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 2, "{games}");
}

/// Writes `t.toml` with `settings` and two instant bots; returns the error
/// `arena tournament` prints for it (it must fail with status 2, in one line).
fn config_error(settings: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let instant = INSTANT_BOT.to_string();
    write_config_entries(
        dir.path(),
        settings,
        &[
            bot_entry("a", std::slice::from_ref(&instant), ""),
            bot_entry("b", std::slice::from_ref(&instant), ""),
        ],
    );
    let output = arena_in(dir.path(), &["tournament", "t.toml"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert_eq!(
        entries(dir.path()),
        ["t.toml"],
        "a refused file wrote something"
    );
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn a_misspelt_key_is_located_with_the_nearest_key() {
    // Line 2 of the file (after `[tournament]`), column 1.
    let stderr = config_error("games_per_paring = 2");
    assert!(
        stderr.starts_with("arena: error: t.toml:2:1: `games_per_paring` is not a setting")
            && stderr.contains("did you mean `games_per_pairing`?"),
        "{stderr}"
    );
}

#[test]
fn a_value_of_the_wrong_type_is_said_in_words() {
    let stderr = config_error("games_per_pairing = \"4\"");
    assert!(
        stderr.starts_with("arena: error: t.toml:2:21: field `games_per_pairing`")
            && stderr.contains("a positive even whole number")
            && stderr.contains("the text \"4\""),
        "{stderr}"
    );
    for rust in ["i64", "u64", "usize", "invalid type"] {
        assert!(!stderr.contains(rust), "{rust}: {stderr}");
    }
}

/// A reader that goes away (`arena games | head -1`) ends nothing and
/// panics nowhere: the output is a view, and the command finishes.
#[test]
fn a_closed_stdout_is_no_panic() {
    for args in [
        &["games"][..],
        &["games", "qango7"],
        &["man"],
        &["completions", "bash"],
    ] {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: both descriptors are open and owned here alone: the read
        // end is closed at once, the write end handed to the child.
        let writer = unsafe {
            libc::close(fds[0]);
            <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fds[1])
        };
        let output = common::arena()
            .args(args)
            .stdout(std::process::Stdio::from(writer))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
