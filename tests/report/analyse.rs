//! `arena analyse DIR` on a real qango6 run between a bot that never plays
//! a winning move (tests/bots/misses_wins.py) and one that always does
//! (bots/python/greedy_bot.py): the rows are checked against the record
//! replayed by the rules engine alone (a position with a move completing a
//! pattern is a proven win; a move that wins keeps it; the win-missing bot's
//! missed wins are found as mistakes), the opening's plies are absent, the
//! per-bot file counts the rows, and `arena report` shows the section and
//! the viewer's value strip. analysis.csv joins games.jsonl and games.csv
//! on `game_id` (spelled `gN` in all three), and its row of ply N is the
//! record's Nth move, the one the viewer's ply N shows. Bad directories fail
//! with one line, status 2.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use arena::games::{Color, Position, Variant};
use arena::referee::GameRecord;
use arena::report::analysis::{read_analysis_csv, PlyRow, ANALYSIS_BOTS_CSV, ANALYSIS_CSV};
use arena_solver::Value;
use common::tournament::*;

const OPENING_PLIES: usize = 2;

fn records(out: &Path) -> HashMap<u64, GameRecord> {
    std::fs::read_to_string(out.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<GameRecord>(l).unwrap())
        .map(|r| (r.number().unwrap(), r))
        .collect()
}

/// The moves of `pos` that end the game with a win for its mover.
fn winning_moves(pos: &Position) -> Vec<String> {
    let mover = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut next = pos.clone();
            next.play(m).unwrap();
            next.outcome().is_some_and(|o| o.winner == Some(mover))
        })
        .map(|m| m.to_string())
        .collect()
}

/// What the rules say of one row's position and move.
struct Facts {
    win_in_one: Vec<String>,
    played_wins: bool,
}

fn facts(record: &GameRecord, row: &PlyRow) -> Facts {
    let mut pos = Position::new(Variant::by_id(&record.game).unwrap());
    // Ply N is the position after N moves: the row's move is the Nth.
    for m in &record.moves[..row.ply as usize - 1] {
        pos.play_str(m).unwrap();
    }
    let mover = pos.to_move();
    assert_eq!(mover, row.color, "game {} ply {}", row.game_id, row.ply);
    let name = if mover == Color::White {
        &record.white
    } else {
        &record.black
    };
    assert_eq!(&row.mover, name);
    assert_eq!(row.mv, record.moves[row.ply as usize - 1]);
    let win_in_one = winning_moves(&pos);
    pos.play_str(&row.mv).unwrap();
    Facts {
        win_in_one,
        played_wins: pos.outcome().is_some_and(|o| o.winner == Some(mover)),
    }
}

/// The tab-separated game lines of a report page.
fn game_lines(page: &str) -> Vec<Vec<String>> {
    let start = page
        .find("<script id=\"game-lines\" type=\"text/plain\">")
        .unwrap();
    let body = &page[start..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()];
    body.lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

/// The `game_id` column of a CSV file, one value per row.
fn id_column(path: &Path) -> Vec<String> {
    let mut csv = csv::Reader::from_path(path).unwrap();
    let at = csv.headers().unwrap().iter().position(|h| h == "game_id");
    let at = at.unwrap_or_else(|| panic!("{}: no game_id column", path.display()));
    csv.records().map(|r| r.unwrap()[at].to_string()).collect()
}

/// What a user joining the files as text gets: every game_id of
/// analysis.csv is one of games.jsonl's and one of games.csv's, and every
/// one of the `games` games is analysed.
fn joins_on_game_id(out: &Path, games: usize) {
    let journal: std::collections::HashSet<String> =
        std::fs::read_to_string(out.join("games.jsonl"))
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                assert!(v.get("id").is_none(), "no numeric id any more: {l}");
                v["game_id"].as_str().unwrap().to_string()
            })
            .collect();
    let rows: std::collections::HashSet<String> =
        id_column(&out.join("games.csv")).into_iter().collect();
    assert_eq!(journal, rows);
    assert!(journal.iter().all(|id| id.starts_with('g')), "{journal:?}");
    let analysed: std::collections::HashSet<String> =
        id_column(&out.join(ANALYSIS_CSV)).into_iter().collect();
    assert_eq!(analysed.len(), games);
    for id in &analysed {
        assert!(
            journal.contains(id),
            "{id} of analysis.csv is in no games.jsonl line"
        );
    }
}

#[test]
fn the_win_missing_bot_s_missed_wins_are_found_and_shown_in_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!("variant = \"qango6\"\nopening_plies = {OPENING_PLIES}\ngames_per_pairing = 6\nmove_ms = 2000\nseed = 5"),
        &[
            TestBot::new("misses", "tests/bots/misses_wins.py", &["--seed", "3"]),
            TestBot::new("greedy", "bots/python/greedy_bot.py", &["--seed", "4"]),
        ],
    );
    let out = dir.path().join("run");
    let run = run_tournament(&config, &out);
    assert!(run.status.success(), "{}", text(&run));
    // The run's own report has no analysis.
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(!page.contains("<section id=\"decisions\">"));

    let analyse = run_arena(&[
        "analyse",
        out.to_str().unwrap(),
        "--budget-ms",
        "100",
        "-j",
        "2",
        "--no-progress",
    ]);
    assert!(analyse.status.success(), "{}", text(&analyse));
    let stdout = String::from_utf8_lossy(&analyse.stdout);
    assert!(
        stdout.starts_with("bot ") && stdout.contains("\nmisses ") && stdout.contains("\ngreedy "),
        "{stdout}"
    );

    let records = records(&out);
    let rows = read_analysis_csv(&out.join(ANALYSIS_CSV)).unwrap();
    assert!(!rows.is_empty());
    joins_on_game_id(&out, records.len());
    let (mut missed_and_marked, mut greedy_wins_kept) = (0, 0);
    for row in &rows {
        let record = &records[&row.game_id];
        assert_eq!(record.opening.len(), OPENING_PLIES);
        assert!(
            row.ply as usize > OPENING_PLIES,
            "an opening ply was analysed: {row:?}"
        );
        let f = facts(record, row);
        let at = format!("game {} ply {}: {row:?}", row.game_id, row.ply);
        if !f.win_in_one.is_empty() {
            assert_eq!(row.before, Some(Value::Win), "a win in one is a win: {at}");
        }
        if f.played_wins {
            assert_eq!(row.after, Some(Value::Win), "{at}");
            assert_eq!(
                row.mistake(),
                Some(false),
                "a winning move keeps the win: {at}"
            );
            greedy_wins_kept += (row.mover == "greedy") as u32;
        }
        if row.before == Some(Value::Loss) {
            assert_ne!(
                row.mistake(),
                Some(true),
                "a lost position cannot get worse: {at}"
            );
        }
        if row.mover == "misses" && !f.win_in_one.is_empty() && !f.played_wins {
            assert!(!f.win_in_one.contains(&row.mv), "{at}");
            if row.mistake() == Some(true) {
                missed_and_marked += 1;
            }
        }
        if row.mistake() == Some(true) {
            assert!(row.after < row.before, "{at}");
            assert!(!f.played_wins, "{at}");
        }
    }
    assert!(
        missed_and_marked > 0,
        "no missed win in one marked as a mistake"
    );
    assert!(greedy_wins_kept > 0, "greedy never won by a move");
    // Every bot move the rules accept is a row: the games' moves minus the openings.
    let bot_moves: usize = records
        .values()
        .map(|r| r.moves.len() - OPENING_PLIES)
        .sum();
    assert_eq!(rows.len(), bot_moves);

    // The per-bot file counts the rows.
    let bots = std::fs::read_to_string(out.join(ANALYSIS_BOTS_CSV)).unwrap();
    let mut lines = bots.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let mine: Vec<&PlyRow> = rows.iter().filter(|r| r.mover == cells[0]).collect();
        let mistakes = mine.iter().filter(|r| r.mistake() == Some(true)).count();
        assert_eq!(cells[col("moves")], mine.len().to_string(), "{line}");
        assert_eq!(cells[col("mistakes")], mistakes.to_string(), "{line}");
    }

    // The report shows the section and each analysed game's strip.
    let report = run_arena(&["report", out.to_str().unwrap()]);
    assert!(report.status.success(), "{}", text(&report));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let section = &page[page
        .find("<section id=\"decisions\">")
        .expect("the section")..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("Decisions against perfect play"));
    assert!(
        section.contains(&format!(
            "{} of {} games analysed.",
            records.len(),
            records.len()
        )),
        "{section}"
    );
    assert!(
        section.contains(">misses</td>") && section.contains(">greedy</td>"),
        "{section}"
    );
    let lines = game_lines(&page);
    assert_eq!(lines.len(), records.len());
    let mut strips_with_mistakes = 0;
    for f in &lines {
        let id: u64 = f[0].trim_start_matches('g').parse().unwrap();
        let strip = f.last().unwrap();
        let record = &records[&id];
        assert_eq!(strip.len(), record.moves.len() + 1, "{strip}");
        assert!(strip.starts_with(&"-".repeat(OPENING_PLIES)), "{strip}");
        let marked = strip.chars().filter(|c| c.is_ascii_lowercase()).count();
        let mistakes = rows
            .iter()
            .filter(|r| r.game_id == id && r.mistake() == Some(true))
            .count();
        assert_eq!(marked, mistakes, "game {id}: {strip}");
        // The viewer's ply N is the position analysis.csv's row of ply N led to.
        for r in rows.iter().filter(|r| r.game_id == id) {
            let at = strip.as_bytes()[r.ply as usize];
            assert_eq!(
                at.is_ascii_lowercase(),
                r.mistake() == Some(true),
                "{r:?}: {strip}"
            );
        }
        strips_with_mistakes += (marked > 0) as u32;
    }
    assert!(strips_with_mistakes > 0);
}

#[test]
fn a_directory_without_games_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let check = |path: &Path, expected: &str| {
        let out = run_arena(&["analyse", path.to_str().unwrap(), "--no-progress"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    };
    check(dir.path(), "has no games.jsonl: not an arena run directory");
    check(&dir.path().join("missing"), "is not a directory");
    std::fs::write(dir.path().join("games.jsonl"), "").unwrap();
    check(dir.path(), "holds no finished game: nothing to analyse");
    std::fs::write(dir.path().join("games.jsonl"), "{\"id\":0}\n").unwrap();
    check(dir.path(), "games.jsonl: line 1: not a game record");
}

/// Two bots that play the solver's value-keeping move on every turn (the
/// solver settles every qango6 position at once): the analysis, with its
/// own solvers, finds every position decided and no mistake.
#[test]
fn perfect_play_has_no_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    let arena = env!("CARGO_BIN_EXE_arena");
    let config = write_config(
        dir.path(),
        &format!("variant = \"qango6\"\nopening_plies = {OPENING_PLIES}\ngames_per_pairing = 2\nmove_ms = 10000\nseed = 6"),
        &[
            TestBot::new("perfect_a", "tests/bots/perfect_bot.py", &[arena]),
            TestBot::new("perfect_b", "tests/bots/perfect_bot.py", &[arena]),
        ],
    );
    let out = dir.path().join("run");
    let run = run_tournament(&config, &out);
    assert!(run.status.success(), "{}", text(&run));
    let analyse = run_arena(&[
        "analyse",
        out.to_str().unwrap(),
        "--budget-ms",
        "5000",
        "--no-progress",
    ]);
    assert!(analyse.status.success(), "{}", text(&analyse));
    let rows = read_analysis_csv(&out.join(ANALYSIS_CSV)).unwrap();
    assert!(rows.len() >= 4, "{rows:?}");
    for row in &rows {
        assert!(row.before.is_some(), "undecided: {row:?}");
        assert_eq!(
            row.mistake(),
            Some(false),
            "a perfect move marked as a mistake: {row:?}"
        );
        assert_eq!(row.before, row.after, "{row:?}");
    }
}
