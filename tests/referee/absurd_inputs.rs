//! Absurd values give a one-line error naming the problem, never a panic,
//! an abort or a silent wrap (issue 10).

use crate::common;
use crate::common::INSTANT_BOT;

use std::io::Write;
use std::process::Stdio;

use common::arena;

/// Runs arena with `args` in `dir`; (exit code, stderr).
fn run(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = arena().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One line, starting `arena: error:`, containing `detail`, no panic.
fn assert_one_line_error((code, stderr): (Option<i32>, String), detail: &str) {
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("arena: error: ") && stderr.contains(detail),
        "{stderr}"
    );
}

#[test]
fn absurd_flags_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (format!("a={INSTANT_BOT}"), format!("b={INSTANT_BOT}"));
    let sprt = |elo1: &str, model: &str| {
        run(
            tmp.path(),
            &[
                "sprt",
                "--elo0",
                "0",
                "--elo1",
                elo1,
                "--model",
                model,
                "--no-progress",
                "--out",
                "s",
                &a,
                &b,
            ],
        )
    };
    assert_one_line_error(
        sprt("7000", "logistic"),
        "logistic Elo bounds must lie within",
    );
    assert_one_line_error(
        sprt("7000", "normalized"),
        "normalized Elo bounds must lie within",
    );
    let tournament = |flag: &str, value: &str| {
        run(
            tmp.path(),
            &[
                "tournament",
                flag,
                value,
                "--no-progress",
                "--out",
                "t",
                "--bot",
                &a,
                "--bot",
                &b,
            ],
        )
    };
    assert_one_line_error(
        tournament("-j", "2305843009213693952"),
        "--concurrency: must be between 1 and 1024",
    );
    assert_one_line_error(
        tournament("--opening-plies", "4000000000"),
        "--opening-plies: must be between 0 and 1000",
    );
    assert!(
        !tmp.path().join("t").exists(),
        "nothing is written for a refused config"
    );
}

#[test]
fn absurd_tournament_files_are_refused_with_file_line_and_field() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = format!(
        "[[bot]]\nname = \"a\"\ncommand = \"{0}\"\n[[bot]]\nname = \"b\"\ncommand = \"{0}\"\n",
        INSTANT_BOT.to_string()
    );
    let cases = [
        (
            "[tournament]\nbase_ms = 1000\nincrement_ms = 9200000000000000000\n",
            "t.toml:3:16: field `increment_ms`: too large",
        ),
        (
            "[tournament]\nmove_ms = 9200000000000000000\n",
            "t.toml:2:11: field `move_ms`: too large",
        ),
        (
            "[tournament]\nconcurrency = 2305843009213693952\n",
            "t.toml:2:15: field `concurrency`: must be between 1 and 1024",
        ),
        (
            "[tournament]\ngrace_ms = 9200000000000000000\n",
            "t.toml:2:12: field `grace_ms`: too large",
        ),
    ];
    for (head, detail) in cases {
        std::fs::write(tmp.path().join("t.toml"), format!("{head}{bots}")).unwrap();
        assert_one_line_error(
            run(
                tmp.path(),
                &["tournament", "t.toml", "--out", "o", "--no-progress"],
            ),
            detail,
        );
    }
    let bot = |name: &str, extra: &str| {
        format!("[[bot]]\nname = \"{name}\"\ncommand = \"{INSTANT_BOT}\"\n{extra}")
    };
    let other = bot("b", "");
    // Located at the entry (line 1), or at the key the error names (line 4).
    let cases = [
        (
            bot("=HYPERLINK(1)", ""),
            "spreadsheets read as a formula",
            1,
        ),
        (bot("-x", ""), "formula", 1),
        (bot("ab\u{202E}cd", ""), "U+202E", 1),
        (bot(" a", ""), "whitespace", 1),
        (bot(&"n".repeat(65), ""), "at most 64", 1),
        (bot("a", "env = { \"A=B\" = \"1\" }\n"), "field `env`", 4),
        (
            bot("a", "env = { \"\" = \"1\" }\n"),
            "empty variable name",
            4,
        ),
        (bot("a", "env = { \"A\" = \"x\\u0000y\" }\n"), "NUL", 4),
        (bot("a", "cwd = \"missing-dir\"\n"), "field `cwd`", 1),
        (
            "[[bot]]\nname = \"a\"\ncommand = \"/tmp\"\n".to_string(),
            "is a directory",
            1,
        ),
        (
            "[[bot]]\nname = \"a\"\ncommand = \"./t.toml\"\n".to_string(),
            "is not executable",
            1,
        ),
    ];
    for (first, detail, line) in cases {
        std::fs::write(tmp.path().join("t.toml"), format!("{first}{other}")).unwrap();
        let result = run(
            tmp.path(),
            &["tournament", "t.toml", "--out", "o", "--no-progress"],
        );
        let at = format!("t.toml:{line}:1: field `bot`");
        assert!(result.1.contains(&at), "{at}: {}", result.1);
        assert_one_line_error(result, detail);
    }
    assert!(!tmp.path().join("o").exists());
}

#[test]
fn judge_refuses_endless_input() {
    let mut child = arena()
        .arg("judge")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![0u8; 1 << 20];
        // Stops when arena closes the pipe.
        for _ in 0..200 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("larger than 64 MiB"), "{stdout}");
}

#[test]
fn rate_refuses_more_bots_than_the_fit_can_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let mut csv = String::from("id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms\n");
    for i in 0..5_001u64 {
        csv += &format!("{i},0,{i},qango6,w{i},b{i},,1-0,group,5,1,1\n");
    }
    std::fs::write(tmp.path().join("games.csv"), csv).unwrap();
    let (code, stderr) = run(tmp.path(), &["rate", "games.csv", "--out", "r"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(
            "games.csv: line 5002: game g5000: bot \"w5000\" is the 10001th different bot"
        ),
        "{stderr}"
    );
}

/// Sets every `key` in a JSON tree to `value`; how many were set.
fn set_all(tree: &mut serde_json::Value, key: &str, value: &serde_json::Value) -> usize {
    match tree {
        serde_json::Value::Object(map) => map
            .iter_mut()
            .map(|(k, v)| {
                if k == key {
                    *v = value.clone();
                    1
                } else {
                    set_all(v, key, value)
                }
            })
            .sum(),
        serde_json::Value::Array(items) => items.iter_mut().map(|v| set_all(v, key, value)).sum(),
        _ => 0,
    }
}

#[test]
fn an_sprt_resumed_with_absurd_bounds_is_refused() {
    // tournament.json from an older arena, or edited by hand, may hold
    // bounds that today's flags refuse: resuming it is the same error.
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (format!("a={INSTANT_BOT}"), format!("b={INSTANT_BOT}"));
    let (code, stderr) = run(
        tmp.path(),
        &[
            "sprt",
            "--elo0",
            "0",
            "--elo1",
            "10",
            "--max-pairs",
            "1",
            "--no-progress",
            "--out",
            "s",
            &a,
            &b,
        ],
    );
    assert!(!stderr.contains("panicked") && code.is_some(), "{stderr}");
    let manifest = tmp.path().join("s/tournament.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    assert_eq!(set_all(&mut json, "elo1", &7000.0.into()), 1, "{json}");
    std::fs::write(&manifest, json.to_string()).unwrap();
    for _ in 0..2 {
        let resumed = run(tmp.path(), &["sprt", "--resume", "s", "--no-progress"]);
        assert!(resumed.1.contains("tournament.json: "), "{}", resumed.1);
        assert_one_line_error(resumed, "Elo bounds must lie within");
    }
}
