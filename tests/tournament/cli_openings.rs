//! `arena openings`: the written suite is legal (a tournament accepts it),
//! reproducible from its seed, distinct, and with `--balanced` holds only
//! openings whose self-play games score inside the band for white (checked
//! again here by playing each kept opening with `arena play`).

use crate::common;
use crate::common::INSTANT_BOT;

use common::tournament::{run_arena, text};

fn suite(args: &[&str]) -> (String, String) {
    let mut all = vec!["openings"];
    all.extend_from_slice(args);
    let output = run_arena(&all);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn lines(suite: &str) -> Vec<&str> {
    suite.lines().filter(|l| !l.starts_with('#')).collect()
}

#[test]
fn suites_are_reproducible_distinct_and_say_how_they_were_made() {
    let args = [
        "--variant",
        "qango7",
        "--plies",
        "4",
        "--count",
        "30",
        "--seed",
        "5",
    ];
    let (a, _) = suite(&args);
    let (b, _) = suite(&args);
    assert_eq!(a, b);
    assert!(
        a.contains("# Made by: arena openings --variant qango7 --plies 4"),
        "{a}"
    );
    let openings = lines(&a);
    assert_eq!(openings.len(), 30);
    let mut distinct = openings.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 30);
    let (c, _) = suite(&[
        "--variant",
        "qango7",
        "--plies",
        "4",
        "--count",
        "30",
        "--seed",
        "6",
    ]);
    assert_ne!(lines(&c), openings);

    // A tournament reads the suite back: every line is legal.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.txt");
    std::fs::write(&path, &a).unwrap();
    let out = dir.path().join("out");
    let output = run_arena(&[
        "tournament",
        "--variant",
        "qango7",
        "--openings",
        path.to_str().unwrap(),
        "--bot",
        &format!("a={INSTANT_BOT}"),
        "--bot",
        &format!("b={INSTANT_BOT}"),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
        "-j",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));

    // Quinque after one ply: 24 first cells fall into 5 classes under the
    // square's eight symmetries, so a sixth opening does not exist.
    let output = run_arena(&[
        "openings",
        "--variant",
        "quinque",
        "--plies",
        "1",
        "--count",
        "6",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("found only 5 of 6"),
        "{}",
        text(&output)
    );
}

#[test]
fn balanced_suites_keep_only_openings_inside_the_band() {
    // The instant bot plays the first legal move, so the game from each
    // opening is fixed and white scores 0, 1/2 or 1: a 0-40 band keeps
    // exactly the openings black wins from.
    let engine = format!("{INSTANT_BOT} {{seed}}");
    let args = [
        "--variant",
        "qango6",
        "--plies",
        "3",
        "--count",
        "4",
        "--seed",
        "2",
        "--balanced",
        "--games",
        "1",
        "--band",
        "0-40",
        "--engine",
        &engine,
        "--tc",
        "per-move=5000",
    ];
    let (suite_text, report) = suite(&args);
    let openings = lines(&suite_text);
    assert_eq!(openings.len(), 4, "{suite_text}");
    let rejected: u64 = report
        .split(", ")
        .find(|part| part.contains(" outside the band)"))
        .and_then(|part| part.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{report}"));
    assert!(rejected > 0, "the band should reject some: {report}");
    for opening in openings {
        // Replayed independently with `arena play`.
        let output = run_arena(&[
            "play",
            "qango6",
            INSTANT_BOT,
            INSTANT_BOT,
            "--opening",
            opening,
            "--quiet",
        ]);
        let out = text(&output);
        assert!(out.contains("result 0-1"), "{opening}: {out}");
    }
}
