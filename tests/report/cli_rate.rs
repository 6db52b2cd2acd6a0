//! `arena rate` end to end: reading, merging, writing, and bad input.

use crate::common;

use std::path::Path;

const HEADER: &str =
    "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms\n";

fn arena(args: &[&str], cwd: &Path) -> std::process::Output {
    common::arena()
        .arg("rate")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run arena")
}

fn games(lines: &[&str]) -> String {
    let mut s = HEADER.to_string();
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

#[test]
fn rates_merged_files_and_writes_tables_only_to_out() {
    let dir = tempfile::tempdir().unwrap();
    let t1 = dir.path().join("t1");
    std::fs::create_dir(&t1).unwrap();
    std::fs::write(
        t1.join("games.csv"),
        games(&[
            "0,0,0,qango6,alpha,beta,,1-0,group,20,5,5",
            "1,0,0,qango6,beta,alpha,,0-1,group,20,5,5",
        ]),
    )
    .unwrap();
    // A second tournament reusing pair id 0 and adding a variant to filter out.
    std::fs::write(
        dir.path().join("more.csv"),
        games(&[
            "0,0,0,qango6,alpha,beta,,1/2-1/2,full,40,5,5",
            "1,0,0,qango6,beta,alpha,,1/2-1/2,full,40,5,5",
            "2,0,1,quinque,alpha,beta,,0-1,line,30,5,5",
        ]),
    )
    .unwrap();
    let out = arena(
        &[
            "t1/games.csv",
            "more.csv",
            "--variant",
            "qango6",
            "--out",
            "r",
        ],
        dir.path(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("alpha") && stdout.contains("75.0%"),
        "{stdout}"
    );
    let r = dir.path().join("r");
    let standings = std::fs::read_to_string(r.join("standings.csv")).unwrap();
    assert!(
        standings.contains("\nqango6,1,alpha,4,2,2,0,75.0,"),
        "{standings}"
    );
    let pairwise = std::fs::read_to_string(r.join("pairwise.csv")).unwrap();
    // One WW pair and one DD pair for alpha.
    assert!(
        pairwise.lines().nth(1).unwrap().ends_with(",0,0,1,0,1"),
        "{pairwise}"
    );
    assert!(r.join("model.csv").exists());

    // Without --out the tables are printed and nothing is written.
    let before = listing(dir.path());
    let out = arena(&["t1/games.csv", "more.csv"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(
        stdout.contains("alpha") && stdout.contains("Nothing written"),
        "{stdout}"
    );
    assert_eq!(listing(dir.path()), before);
}

/// Every file under `dir` with its size, to see that nothing changed.
fn listing(dir: &Path) -> Vec<(String, u64)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.is_dir() {
            files.extend(listing(&path));
        } else {
            files.push((path.display().to_string(), entry.metadata().unwrap().len()));
        }
    }
    files.sort();
    files
}

#[test]
fn bad_input_names_file_line_and_field_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("games.csv"),
        games(&[
            "0,0,0,qango6,alpha,beta,,1-0,group,20,5,5",
            "1,0,0,qango6,beta,alpha,,1:0,group,20,5,5",
        ]),
    )
    .unwrap();
    let out = arena(&["games.csv"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("games.csv: line 3, field `result`"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));

    let out = arena(&["missing.csv"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("missing.csv"), "{stderr}");

    let out = arena(&["games.csv", "--variant", "nope"], dir.path());
    assert_eq!(out.status.code(), Some(2));
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Four games between alpha and beta: white and black each win once, two draws.
fn four_games() -> String {
    games(&[
        "0,0,0,qango6,alpha,beta,,1-0,group,20,5,5",
        "1,0,0,qango6,beta,alpha,,0-1,group,20,5,5",
        "2,0,1,qango6,alpha,beta,,1/2-1/2,full,36,5,5",
        "3,0,1,qango6,beta,alpha,,1/2-1/2,full,36,5,5",
    ])
}

#[test]
fn a_file_without_games_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.csv"), HEADER).unwrap();
    std::fs::write(dir.path().join("games.csv"), four_games()).unwrap();
    for args in [&["empty.csv"][..], &["games.csv", "empty.csv"]] {
        let out = arena(args, dir.path());
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("empty.csv: no games"), "{args:?}: {stderr}");
        assert!(!dir.path().join("standings.csv").exists());
    }
}

#[test]
fn the_output_says_how_many_games_from_how_many_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.csv"), four_games()).unwrap();
    std::fs::write(dir.path().join("b.csv"), four_games()).unwrap();
    let out = arena(&["a.csv", "b.csv"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout.contains("Rated 8 games from 2 files."), "{stdout}");
}

#[test]
fn a_game_id_repeated_within_a_file_names_both_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = four_games();
    text.push_str("2,0,1,qango6,alpha,beta,,1/2-1/2,full,36,5,5\n");
    std::fs::write(dir.path().join("games.csv"), text).unwrap();
    let out = arena(&["games.csv"], dir.path());
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("game g2 of the same tournament appears twice")
            && stderr.contains("games.csv:4 (file 1 given)")
            && stderr.contains("games.csv:6 (file 1 given)"),
        "{stderr}"
    );
    let out = arena(&["games.csv", "--allow-duplicates"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(
        stdout.contains("Rated 5 games from 1 file; 1 game counted more than once"),
        "{stdout}"
    );
}

#[test]
fn the_same_file_twice_is_an_error_naming_both_arguments() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.csv"), four_games()).unwrap();
    let out = arena(&["games.csv", "./games.csv"], dir.path());
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("game g0 of the same tournament appears twice")
            && stderr.contains("games.csv:2 (file 1 given)")
            && stderr.contains("./games.csv:2 (file 2 given)"),
        "{stderr}"
    );
}

/// A copied tournament directory keeps its tournament.json, so its games are
/// recognised as the same games; a different tournament (another out
/// directory) reusing the same ids is not a repeat.
#[test]
fn a_copied_tournament_is_recognised_by_its_tournament_json() {
    let dir = tempfile::tempdir().unwrap();
    let manifest =
        |out: &str| format!(r#"{{"format": 2, "config": {{"out": "{out}", "seed": 7}}}}"#);
    for (sub, out) in [("t1", "/runs/t1"), ("copy", "/runs/t1"), ("t2", "/runs/t2")] {
        let d = dir.path().join(sub);
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join("games.csv"), four_games()).unwrap();
        std::fs::write(d.join("tournament.json"), manifest(out)).unwrap();
    }
    let out = arena(&["t1/games.csv", "t2/games.csv"], dir.path());
    assert!(out.status.success(), "{}", stderr_of(&out));
    let out = arena(
        &["t1/games.csv", "t2/games.csv", "copy/games.csv"],
        dir.path(),
    );
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("t1/games.csv:2 (file 1 given)")
            && stderr.contains("copy/games.csv:2 (file 3 given)"),
        "{stderr}"
    );
}

#[test]
fn no_prior_rates_by_maximum_likelihood_or_refuses_naming_the_bots() {
    let dir = tempfile::tempdir().unwrap();
    // Results not ordered by strength alone (beta also wins once): the
    // maximum-likelihood fit exists.
    let mut mixed = four_games();
    mixed.push_str("4,0,2,qango6,beta,alpha,,1-0,group,20,5,5\n");
    mixed.push_str("5,0,2,qango6,alpha,beta,,1-0,group,20,5,5\n");
    std::fs::write(dir.path().join("games.csv"), &mixed).unwrap();
    let out = arena(&["games.csv", "--no-prior", "--out", "mle"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout.contains("pure maximum likelihood"), "{stdout}");
    // gamma beats alpha in both colours: its rating has no finite maximum.
    let mut text = mixed.clone();
    text.push_str("6,0,3,qango6,gamma,alpha,,1-0,group,20,5,5\n");
    text.push_str("7,0,3,qango6,alpha,gamma,,0-1,group,20,5,5\n");
    std::fs::write(dir.path().join("sweep.csv"), text).unwrap();
    let out = arena(&["sweep.csv", "--no-prior"], dir.path());
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no maximum-likelihood ratings exist")
            && stderr.contains("gamma")
            && stderr.contains("--no-prior"),
        "{stderr}"
    );
    // With the prior it rates, and marks the ratings that rest on it.
    let out = arena(&["sweep.csv", "--out", "prior"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout.contains("* rests on the prior"), "{stdout}");
    let standings =
        std::fs::read_to_string(dir.path().join("prior").join("standings.csv")).unwrap();
    assert!(standings.lines().next().unwrap().contains(",elo_prior,"));
    assert!(standings.contains(",true,"), "{standings}");
    // alpha wins or draws every game against beta: the results are ordered by
    // strength, so the draw parameter runs off with the ratings.
    let out = arena(&["t.csv", "--no-prior"], &{
        std::fs::write(dir.path().join("t.csv"), four_games()).unwrap();
        dir.path().to_path_buf()
    });
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("run off together"), "{stderr}");
}

#[test]
fn tables_and_report_are_replaced_atomically() {
    // A reader (or a kill) must never see a half-written or empty table: the
    // new file is written beside the old one and renamed over it, so a
    // descriptor opened on the old file still reads all of the old file.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    std::fs::write(&csv, games(&["0,0,0,qango6,alpha,beta,,1-0,group,20,5,5"])).unwrap();
    let first = arena(&["games.csv", "--out", "r"], dir.path());
    assert!(first.status.success(), "{first:?}");
    let files = [
        "standings.csv",
        "model.csv",
        "pairwise.csv",
        "crosstable.csv",
        "report.html",
    ];
    let before: Vec<(std::fs::File, String)> = files
        .iter()
        .map(|f| {
            let path = dir.path().join("r").join(f);
            (
                std::fs::File::open(&path).unwrap(),
                std::fs::read_to_string(&path).unwrap(),
            )
        })
        .collect();
    std::fs::write(
        &csv,
        games(&[
            "0,0,0,qango6,alpha,beta,,1-0,group,20,5,5",
            "1,0,0,qango6,beta,gamma,,0-1,group,20,5,5",
        ]),
    )
    .unwrap();
    let second = arena(&["games.csv", "--out", "r"], dir.path());
    assert!(second.status.success(), "{second:?}");
    let standings = std::fs::read_to_string(dir.path().join("r").join("standings.csv")).unwrap();
    assert!(standings.contains("gamma"), "{standings}");
    for (name, (mut old, old_text)) in files.iter().zip(before) {
        let mut still = String::new();
        std::io::Read::read_to_string(&mut old, &mut still).unwrap();
        assert!(!old_text.is_empty(), "{name}");
        assert_eq!(still, old_text, "{name} was rewritten in place");
        use std::os::unix::fs::MetadataExt;
        let new_file = std::fs::metadata(dir.path().join("r").join(name)).unwrap();
        assert_ne!(new_file.ino(), old.metadata().unwrap().ino(), "{name}");
    }
    let mut left: Vec<String> = std::fs::read_dir(dir.path().join("r"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut expected: Vec<String> = files.iter().map(|f| f.to_string()).collect();
    expected.sort();
    assert_eq!(left, expected, "temporary files left behind");
}

/// With `--variant`, report.html shows the games that were rated, not every
/// game of the directory.
#[test]
fn the_report_of_one_variant_holds_its_games_only() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("games.csv"),
        games(&[
            "0,0,0,qango6,alpha,beta,,1-0,group,20,5,5",
            "1,0,0,qango6,beta,alpha,,0-1,group,20,5,5",
            "2,0,1,quinque,alpha,beta,,0-1,line,30,5,5",
        ]),
    )
    .unwrap();
    let report = dir.path().join("r").join("report.html");
    for (variant, games) in [(None, 3), (Some("qango6"), 2), (Some("quinque"), 1)] {
        let mut args = vec!["games.csv", "--out", "r"];
        args.extend(variant.iter().flat_map(|v| ["--variant", v]));
        let out = arena(&args, dir.path());
        assert!(out.status.success(), "{out:?}");
        let html = std::fs::read_to_string(&report).unwrap();
        assert!(
            html.contains(&format!("<title>arena report: {games} games</title>")),
            "{variant:?}: {games} games expected"
        );
    }
}

/// A 4-0 in two game pairs: the estimate is infinite and the interval holds
/// it, with the lower bound of a 2-pair sweep, 400 log10(2 / 1.96^2) =
/// -113.4 (docs/STATISTICS.md).
#[test]
fn a_sweep_is_infinite_with_an_interval_that_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("games.csv"),
        games(&[
            "0,0,0,qango6,alpha,beta,,1-0,group,20,5,5",
            "1,0,0,qango6,beta,alpha,,0-1,group,20,5,5",
            "2,0,1,qango6,alpha,beta,,1-0,group,20,5,5",
            "3,0,1,qango6,beta,alpha,,0-1,group,20,5,5",
        ]),
    )
    .unwrap();
    let out = arena(&["games.csv", "--out", "r"], dir.path());
    assert!(out.status.success(), "{}", stderr_of(&out));
    let pairwise = std::fs::read_to_string(dir.path().join("r/pairwise.csv")).unwrap();
    let header: Vec<&str> = pairwise.lines().next().unwrap().split(',').collect();
    let line: Vec<&str> = pairwise.lines().nth(1).unwrap().split(',').collect();
    let column = |name: &str| line[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!((column("bot_a"), column("bot_b")), ("alpha", "beta"));
    assert_eq!(
        (column("elo_diff"), column("elo_low"), column("elo_high")),
        ("inf", "-113.4", "inf"),
        "{pairwise}"
    );
}

#[test]
fn a_runs_directory_stands_for_its_games_csv() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.csv"), four_games()).unwrap();
    let by_file = arena(&["games.csv"], dir.path());
    let by_dir = arena(&["."], dir.path());
    assert!(by_dir.status.success(), "{}", stderr_of(&by_dir));
    assert_eq!(by_dir.stdout, by_file.stdout);
}
