//! What a user reads about the command line comes from its definitions:
//! the reference page `docs/REFERENCE.md` is the generated one (every
//! command, flag, exit status and output column), every command that
//! `arena --help` lists is in the README's command table, and the man pages
//! and completions are generated from the same definitions.
//!
//! After changing a command, a flag, an exit status or a file's columns:
//! `ARENA_WRITE_DOCS=1 cargo test --test docs reference_page` rewrites the page.

use crate::common;

use std::path::PathBuf;

use arena::cli::reference::{reference_page, undescribed_columns, PAGE};
use common::arena;

fn repo_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_reference_page_is_the_generated_one() {
    common::assert_page_is_current(
        PAGE,
        &reference_page(),
        "reference_page",
        "the command line's definitions",
    );
}

#[test]
fn every_column_written_is_described() {
    let missing = undescribed_columns();
    assert!(
        missing.is_empty(),
        "columns without a meaning in src/cli/reference.rs (COLUMNS): {missing:?}"
    );
}

/// The command names in the `Commands:` section of `arena --help`, as the
/// real binary prints them.
fn commands_in_help() -> Vec<String> {
    let out = arena()
        .arg("--help")
        .env("COLUMNS", "1000")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let section = help
        .split("Commands:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no Commands: in arena --help:\n{help}"));
    let names: Vec<String> = section
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    names
}

/// The commands the README's command table names: the first word after
/// `arena` of each cell of its first column.
fn commands_in_readme_table() -> Vec<String> {
    let readme = std::fs::read_to_string(repo_file("README.md")).unwrap();
    let table = readme
        .split("\n## Commands\n")
        .nth(1)
        .expect("README.md has a ## Commands section");
    let table = table.split("\n## ").next().unwrap();
    let mut names = Vec::new();
    for row in table.lines().filter(|l| l.starts_with('|')) {
        let first = row.split('|').nth(1).unwrap_or_default();
        // One cell may name several commands: `arena tournament ...` / `arena merge ...`.
        for part in first.split("`arena").skip(1) {
            if let Some(name) = part.split(|c: char| c == '`' || c.is_whitespace()).nth(1) {
                if !name.is_empty() {
                    names.push(name.to_string());
                }
            }
        }
    }
    names
}

#[test]
fn every_command_of_the_help_is_in_the_readme_table() {
    let in_table = commands_in_readme_table();
    let missing: Vec<String> = commands_in_help()
        .into_iter()
        .filter(|c| !in_table.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "`arena --help` lists commands the README's command table does not: {missing:?} (table: {in_table:?})"
    );
}

#[test]
fn man_pages_and_completions_come_from_the_definitions() {
    let out = arena().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH arena 1"), "{page}");
    for name in commands_in_help() {
        let roff = name.replace('-', "\\-");
        assert!(
            page.contains(&format!("arena\\-{roff}(1)")),
            "arena(1) lacks {name}"
        );
    }
    let out = arena().args(["man", "tournament"]).output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH arena-tournament 1"), "{page}");
    assert!(page.contains("\\-\\-games"), "{page}");
    let out = arena().args(["man", "nonsense"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));

    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef arena"),
        ("fish", "complete -c arena"),
    ] {
        let out = arena().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("tournament"), "{shell}");
        assert!(
            script.contains("--games") || script.contains("games"),
            "{shell}"
        );
    }
}
