//! `arena play` end to end: the binary, its output, its record file.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use common::{
    arena, bot_script, live_processes_with_arg, output_with_stdin, stdout_of_success, unique_tag,
};

fn py(name: &str) -> String {
    format!("python3 {}", bot_script(name).display())
}

#[test]
fn plays_bots_from_command_lines_and_writes_a_judgeable_record() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.json");
    let out = arena()
        .args(["play", "qango6", &py("good_bot"), &py("crash")])
        .args(["--tc", "per-move=5000", "--record"])
        .arg(&record)
        .arg("--log-dir")
        .arg(dir.path().join("logs"))
        .output()
        .unwrap();
    let stdout = stdout_of_success(&out);
    assert!(
        stdout.starts_with("qango6 | white: good_bot | black: crash | per-move=5000"),
        "{stdout}"
    );
    assert!(stdout.contains("  1. white "), "{stdout}");
    assert!(stdout.contains("result 1-0  reason crash"), "{stdout}");
    assert!(
        stdout.contains("black (crash): process ended: exit code 3"),
        "{stdout}"
    );
    // A board is drawn: the column header of a 6x6 board.
    assert!(stdout.contains("a  b  c  d  e  f"), "{stdout}");

    let judged = arena().args(["judge"]).arg(&record).output().unwrap();
    assert_eq!(
        judged.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&judged.stdout)
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    assert_eq!(json["reason"], "crash");
    assert_eq!(json["plies"], 3);
    assert!(std::path::Path::new(json["black_log"].as_str().unwrap()).exists());
}

#[test]
fn picks_bots_by_name_from_a_bots_file_with_an_opening() {
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots.toml");
    let script = bot_script("good_bot");
    std::fs::write(
        &bots,
        format!(
            "[[bot]]\nname = \"first\"\ncommand = [\"python3\", {:?}]\n\n[[bot]]\nname = \"second\"\ncommand = \"python3 {}\"\n",
            script.display().to_string(),
            script.display()
        ),
    )
    .unwrap();
    let record = dir.path().join("game.json");
    let out = arena()
        .args([
            "play", "qango7", "first", "second", "--quiet", "--tc", "10+0.1",
        ])
        .args(["--opening", "d4 a1"])
        .arg("--bots")
        .arg(&bots)
        .arg("--record")
        .arg(&record)
        .output()
        .unwrap();
    let stdout = stdout_of_success(&out);
    assert!(
        !stdout.contains("a  b  c"),
        "--quiet draws no board: {stdout}"
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    assert_eq!(json["white"], "first");
    assert_eq!(json["black"], "second");
    assert_eq!(json["opening"], serde_json::json!(["d4", "a1"]));
    assert_eq!(
        json["time_control"],
        serde_json::json!({"type": "clock", "base_ms": 10000, "increment_ms": 100})
    );

    let unknown = arena()
        .args(["play", "qango7", "first", "third", "--bots"])
        .arg(&bots)
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr.contains("\"third\" is not a bot in the bots file"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_are_clear_errors() {
    let out = arena().args(["play", "qango9", "a", "b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant \"qango9\""));
    let out = arena()
        .args(["play", "qango6", "a", "b", "--tc", "fast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("time control \"fast\""));
}

#[test]
fn a_human_types_moves_on_stdin() {
    // The bot takes a1 first; the person tries it, then plays b1, then leaves.
    let out = output_with_stdin(
        arena().args([
            "play",
            "qango6",
            &py("good_bot"),
            "human",
            "--tc",
            "per-move=5000",
        ]),
        b"a1\nb1\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("\"a1\" is not a legal move: a1 is occupied"),
        "{stdout}"
    );
    assert!(stdout.contains("  2. black b1"), "{stdout}");
    assert!(stdout.contains("result 1-0  reason disconnect"), "{stdout}");
    assert!(stdout.contains("black (human): left the game"), "{stdout}");
}

#[test]
fn sigterm_to_arena_stops_the_bots() {
    let tag = unique_tag("cli-hang");
    let hang = format!("{} {tag}", py("hang"));
    let mut child = arena()
        .args([
            "play",
            "qango6",
            &py("good_bot"),
            &hang,
            "--tc",
            "per-move=20000",
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // White's first move is printed once the referee has it; the game is
    // then at the hanging bot's turn. The thread keeps draining stdout.
    let stdout = child.stdout.take().unwrap();
    let (white_moved, moves) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.trim_start().starts_with("1. white") {
                let _ = white_moved.send(());
            }
        }
    });
    moves
        .recv_timeout(Duration::from_secs(10))
        .expect("white's first move was never printed");
    assert!(
        !live_processes_with_arg(&tag).is_empty(),
        "the bot is not running"
    );
    // SAFETY: plain system call on our own child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while !live_processes_with_arg(&tag).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "left behind: {:?}",
            live_processes_with_arg(&tag)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Without `--log-dir`, what a bot writes to stderr is kept in a new
/// directory under the temporary directory and named at the end; when no
/// bot wrote anything, no directory is left behind.
#[test]
fn without_log_dir_the_bots_stderr_is_kept_and_named() {
    let tmp = tempfile::tempdir().unwrap();
    let out = arena()
        .env("TMPDIR", tmp.path())
        .args(["play", "qango6", &py("chatty_bot"), &py("silent_bot")])
        .args(["--tc", "per-move=5000", "--quiet"])
        .output()
        .unwrap();
    stdout_of_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let named: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("arena: a bot's stderr: "))
        .collect();
    assert_eq!(named.len(), 1, "only the chatty bot wrote: {stderr}");
    let log = std::path::Path::new(named[0]);
    assert!(log.starts_with(tmp.path()), "{stderr}");
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains("thinking about ply 0"), "{text}");

    let quiet = tempfile::tempdir().unwrap();
    let out = arena()
        .env("TMPDIR", quiet.path())
        .args(["play", "qango6", &py("silent_bot"), &py("silent_bot")])
        .args(["--tc", "per-move=5000", "--quiet"])
        .output()
        .unwrap();
    stdout_of_success(&out);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("stderr:"));
    assert_eq!(std::fs::read_dir(quiet.path()).unwrap().count(), 0);
}

/// A bot started by a fork (`ARENA_SPAWN=fork`: where the kernel has no
/// pidfds) and one started without copying arena (the default,
/// `crates/referee/src/spawn.rs`) play the same: a crash and a memory
/// limit end the game alike.
#[test]
fn bots_forked_and_bots_cloned_end_their_games_alike() {
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots.toml");
    std::fs::write(
        &bots,
        format!(
            "[[bot]]\nname = \"good\"\ncommand = \"{}\"\n\n\
             [[bot]]\nname = \"hog\"\ncommand = \"{}\"\nlimits = {{ memory_mb = 300 }}\n\n\
             [[bot]]\nname = \"crash\"\ncommand = \"{}\"\n",
            py("good_bot"),
            py("memory_hog"),
            py("crash"),
        ),
    )
    .unwrap();
    let play = |spawn: &str, black: &str| {
        let out = arena()
            .env("ARENA_SPAWN", spawn)
            .args(["play", "qango6", "good", black, "--quiet", "--bots"])
            .arg(&bots)
            .args(["--tc", "per-move=5000"])
            .output()
            .unwrap();
        stdout_of_success(&out)
    };
    for spawn in ["fork", "clone"] {
        let crash = play(spawn, "crash");
        assert!(
            crash.contains("result 1-0  reason crash"),
            "{spawn}: {crash}"
        );
        assert!(
            crash.contains("process ended: exit code 3"),
            "{spawn}: {crash}"
        );
        let hog = play(spawn, "hog");
        assert!(hog.contains("result 1-0  reason memory"), "{spawn}: {hog}");
    }
}
