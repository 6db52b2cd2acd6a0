//! `arena rate` end to end: reading, merging, writing, and bad input.

mod common;

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
fn rates_merged_files_and_writes_tables_next_to_the_first() {
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
        &["t1/games.csv", "more.csv", "--variant", "qango6"],
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
    let standings = std::fs::read_to_string(t1.join("standings.csv")).unwrap();
    assert!(standings.contains("\n1,alpha,4,2,2,0,75.0,"), "{standings}");
    let pairwise = std::fs::read_to_string(t1.join("pairwise.csv")).unwrap();
    // One WW pair and one DD pair for alpha.
    assert!(
        pairwise.lines().nth(1).unwrap().ends_with(",0,0,1,0,1"),
        "{pairwise}"
    );
    assert!(t1.join("model.csv").exists());

    let elsewhere = dir.path().join("out");
    let out = arena(&["t1/games.csv", "--out", "out"], dir.path());
    assert!(out.status.success());
    assert!(elsewhere.join("standings.csv").exists());
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
