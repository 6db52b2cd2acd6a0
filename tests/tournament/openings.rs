//! Opening suites end to end: a bad suite line is refused before any game
//! with the file and line; a tournament plays the suite's openings in order,
//! cycling, both games of a pair on one opening; tournament.json keeps the
//! suite, so a resume plays the same openings after the file changed.

use crate::common;
use crate::common::INSTANT_BOT;

use std::path::Path;

use common::tournament::{csv_rows, resume_tournament, run_tournament, text};

fn write_tournament(dir: &Path, settings: &str) -> std::path::PathBuf {
    let path = dir.join("t.toml");
    let mut toml =
        format!("[tournament]\nvariant = \"qango6\"\nconcurrency = 1\nseed = 3\n{settings}\n");
    for name in ["a", "b", "c"] {
        toml.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [{INSTANT_BOT:?}]\n"
        ));
    }
    std::fs::write(&path, toml).unwrap();
    path
}

#[test]
fn a_suite_with_an_illegal_line_is_refused_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("suite.txt"),
        "# two good lines, then one that plays on a taken cell\na1 b2\nc3\n\nd4 e5 d4\n",
    )
    .unwrap();
    let config = write_tournament(dir.path(), "openings = \"suite.txt\"");
    let out = dir.path().join("out");
    let output = run_tournament(&config, &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        stderr.contains("suite.txt:5: move 3 \"d4\" is illegal in qango6"),
        "{stderr}"
    );
    assert!(!out.join("games.csv").exists(), "no game may start");

    // Random plies and a suite exclude each other.
    let config = write_tournament(dir.path(), "openings = \"suite.txt\"\nopening_plies = 2");
    let output = run_tournament(&config, &dir.path().join("out2"));
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
}

#[test]
fn a_tournament_cycles_through_the_suite_and_resumes_with_the_same_openings() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.txt");
    std::fs::write(&suite, "a1 b2 # first\nc3 d4\n").unwrap();
    let config = write_tournament(
        dir.path(),
        "openings = \"suite.txt\"\nopenings_start = 1\ngames_per_pairing = 2",
    );
    let out = dir.path().join("out");
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let mut rows = csv_rows(&out);
    rows.sort_by_key(|r| r.id);
    // Three bots: three pairs; from index 1 the two-line suite cycles.
    let openings: Vec<&str> = rows.iter().map(|r| r.opening.as_str()).collect();
    assert_eq!(
        openings,
        ["c3 d4", "c3 d4", "a1 b2", "a1 b2", "c3 d4", "c3 d4"]
    );

    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap();
    let stored = &manifest["config"]["openings"];
    assert_eq!(
        stored["openings"],
        serde_json::json!([["a1", "b2"], ["c3", "d4"]])
    );
    // sha256sum of the file as written above.
    assert_eq!(
        stored["sha256"],
        arena::files::sha256_hex(b"a1 b2 # first\nc3 d4\n")
    );

    // The suite changes after the run started: a resume keeps the stored
    // openings. Drop the last game pair's rows so the resume replays them.
    std::fs::write(&suite, "e5 f6\n").unwrap();
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let kept: Vec<&str> = csv.lines().take(5).collect();
    std::fs::write(out.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let jsonl = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let kept: Vec<&str> = jsonl.lines().take(4).collect();
    std::fs::write(out.join("games.jsonl"), kept.join("\n") + "\n").unwrap();
    let output = resume_tournament(&out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 6, "{}", text(&output));
    for row in rows.iter().filter(|r| r.pair == 2) {
        assert_eq!(row.opening, "c3 d4", "resumed game {}", row.id);
    }
}
