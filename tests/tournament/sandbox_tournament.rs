//! `arena tournament` with `sandbox = true` and the output directory inside
//! the bots' own directory (as configs often have it): a bot that walks its
//! directory reads none of the journal, `tournament.json` or the logs, and
//! changes none of them. The attacks one by one, with and without the
//! sandbox, are in `tests/referee/sandbox.rs`.

use crate::common;

use common::arena;
use common::tournament::{
    assert_exactly_games, csv_rows_written, run_arena, text, write_config, TestBot,
};

#[test]
fn a_sandboxed_tournament_hides_its_output_directory_inside_the_bot_directory() {
    if let Err(e) = arena::referee::sandbox::check_available() {
        eprintln!("SKIPPED: bwrap not installed or not usable here: {e:#}");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().canonicalize().unwrap();
    let out = dir.join("out");
    let dir_arg = dir.display().to_string();
    let config = write_config(
        &dir,
        "sandbox = true\nmove_ms = 3000\n",
        &[
            TestBot::new(
                "thief",
                "tests/bots/hostile_bot.py",
                &["steal", &dir_arg, "t"],
            ),
            // Its argument puts a secret into tournament.json and its log.
            TestBot::new("good", "tests/bots/good_bot.py", &["SECRET-arg"]),
        ],
    );
    let output = run_arena(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--games",
        "2",
        "-j",
        "1",
        "--no-progress",
    ]);
    assert!(output.status.success(), "{}", text(&output));
    assert_exactly_games(&out, 2);
    let mut thief_log = String::new();
    for entry in std::fs::read_dir(out.join("logs")).unwrap() {
        let path = entry.unwrap().path();
        let body = std::fs::read_to_string(&path).unwrap();
        assert!(!body.contains("FORGED\n"), "{} was changed", path.display());
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .contains("thief")
        {
            thief_log.push_str(&body);
        }
    }
    let out_arg = out.display().to_string();
    // It walked its directory (the config there is its own to read) ...
    assert!(thief_log.contains("ATTACK: done"), "{thief_log}");
    assert!(thief_log.contains("t.toml"), "{thief_log}");
    // ... but saw nothing of the output directory and changed nothing there.
    assert!(
        !thief_log.contains(&format!("STOLEN {out_arg}")),
        "{thief_log}"
    );
    assert!(
        !thief_log.contains(&format!("FORGED {out_arg}")),
        "{thief_log}"
    );
    for file in ["tournament.json", "games.jsonl", "games.csv"] {
        let body = std::fs::read_to_string(out.join(file)).unwrap();
        assert!(!body.contains("FORGED"), "{file} was changed");
    }
    assert!(!out.join("FORGED").exists());
    let manifest = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    assert!(manifest.contains("\"sandbox\": true"), "{manifest}");
}

/// A sandbox that cannot start is the machine's failure, not the bots':
/// the run stops before the first game with an error saying what to fix.
#[test]
fn a_sandbox_that_cannot_work_stops_the_run_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = dir.join("out");
    // The bots find their interpreter on their own PATH, so that hiding
    // bwrap from arena's PATH hides nothing else.
    let path = format!(
        "env = {{ PATH = {:?} }}",
        std::env::var("PATH").unwrap_or_default()
    );
    let writable = format!("{path}\nwritable = [\"no-such-dir\"]");
    let bots = [
        TestBot {
            extra: &path,
            ..TestBot::new("a", "tests/bots/good_bot.py", &[])
        },
        TestBot {
            extra: &writable,
            ..TestBot::new("b", "tests/bots/good_bot.py", &[])
        },
    ];
    let config = write_config(dir, "sandbox = true\n", &bots);
    let run = |path_var: Option<&str>| {
        let mut cmd = arena();
        cmd.args(["tournament", config.to_str().unwrap(), "--out"])
            .arg(&out)
            .args(["--games", "2", "--no-progress"]);
        if let Some(p) = path_var {
            cmd.env("PATH", p);
        }
        std::fs::remove_dir_all(&out).ok();
        cmd.output().unwrap()
    };
    // No bwrap on PATH.
    let output = run(Some("/nonexistent"));
    assert!(!output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("install bubblewrap"),
        "{}",
        text(&output)
    );
    assert_eq!(csv_rows_written(&out), 0);

    if arena::referee::sandbox::check_available().is_err() {
        eprintln!("SKIPPED (rest): bwrap not installed or not usable here");
        return;
    }
    let output = run(None);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("\"b\"") && text(&output).contains("no-such-dir"),
        "{}",
        text(&output)
    );
    assert_eq!(csv_rows_written(&out), 0);
}
