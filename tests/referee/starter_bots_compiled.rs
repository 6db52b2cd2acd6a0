//! The compiled starter bots (C, C++, Java in `bots/`) are built with the
//! compiler found on this machine into a temporary directory and must pass
//! `arena check-bot` (the built binary) on every variant, and must read a
//! line far longer than any arena sends, with its fields in another order.
//! A missing compiler skips its bot with a plain message.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_file(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

fn found(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs a build command; panics with its output when it fails.
fn build(program: &str, args: &[&str]) {
    let out = Command::new(program).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `arena check-bot` on every variant (the default), two games each.
fn assert_compliant(command: &[&str]) {
    let out = common::arena()
        .args([
            "check-bot",
            "--games",
            "2",
            "--tc",
            "per-move=3000",
            "--seed",
            "5",
        ])
        .arg("--")
        .args(command)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.lines().last() == Some("COMPLIANT"),
        "{command:?} is not compliant:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for variant in arena::games::Variant::ids() {
        assert!(
            stdout.contains(&format!("{variant} game 2")),
            "{variant} was not played:\n{stdout}"
        );
    }
}

/// Feeds `hello`, a 300 KB `turn` whose fields come in an unusual order
/// (nested objects before `type`, `legal_moves` first), and `quit`: the bot
/// must answer `ready`, then a move from that list, then exit.
fn assert_reads_long_lines(command: &[&str]) {
    use std::io::Write;
    use std::process::Stdio;
    let moves: Vec<String> = (0..20_000)
        .map(|i| format!("capture a1 b2 c3 #{i}"))
        .collect();
    let turn = serde_json::json!({
        "legal_moves": moves,
        "state": {"board": [["w1", "."]], "nested": {"type": "not this"}},
        "clock": {"white_ms": null, "black_ms": null, "move_ms": 5000},
        "type": "turn",
    });
    let input = format!(
        "{}\n{turn}\n{}\n",
        r#"{"type":"hello","protocol":1,"referee":"test"}"#, r#"{"type":"quit"}"#
    );
    assert!(input.len() > 300_000);
    let mut child = Command::new(command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    assert_eq!(lines.len(), 2, "{command:?} wrote:\n{stdout}");
    assert_eq!(lines[0]["type"], "ready", "{stdout}");
    assert_eq!(lines[1]["type"], "move", "{stdout}");
    let chosen = lines[1]["move"].as_str().unwrap_or_default();
    assert!(moves.iter().any(|m| m == chosen), "{chosen:?} is not legal");
    assert!(out.status.success(), "{command:?} exit: {}", out.status);
}

fn binary(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

/// Builds `source` with `compiler` (`std` selects the language standard)
/// into a temporary directory and checks the binary; skips without it.
fn check_native_starter(compiler: &str, std: &str, source: &str) {
    if !found(compiler) {
        println!("SKIPPED: {compiler} not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = binary(dir.path(), "random_bot");
    let source = repo_file(source);
    build(
        compiler,
        &[std, "-Wall", "-Werror", "-O2", "-o", &exe, &source],
    );
    assert_reads_long_lines(&[&exe, "--seed", "1"]);
    assert_compliant(&[&exe, "--seed", "1"]);
}

#[test]
fn the_c_starter_is_compliant_on_every_variant() {
    check_native_starter("cc", "-std=c99", "bots/c/random_bot.c");
}

#[test]
fn the_cpp_starter_is_compliant_on_every_variant() {
    check_native_starter("g++", "-std=c++17", "bots/cpp/random_bot.cpp");
}

#[test]
fn the_java_starter_is_compliant_on_every_variant() {
    if !found("javac") || !found("java") {
        println!("SKIPPED: javac not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let classes = dir.path().display().to_string();
    build(
        "javac",
        &[
            "-Xlint:all",
            "-Werror",
            "-d",
            &classes,
            &repo_file("bots/java/RandomBot.java"),
        ],
    );
    let command = ["java", "-cp", &classes, "RandomBot", "--seed", "1"];
    assert_reads_long_lines(&command);
    assert_compliant(&command);
}
