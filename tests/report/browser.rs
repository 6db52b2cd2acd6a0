//! The report in a real browser: headless Chromium, driven over the DevTools
//! protocol by tests/browser/cdp.js (Node, no packages), loads one report
//! over two small real tournaments (qango6 and quinque, so also "several
//! directories make one report") from file:// with JavaScript on, and:
//! no console errors or uncaught exceptions; the viewer opened at
//! `#game=…&ply=N` shows exactly the position `arena judge` gives for the
//! game's first N moves (Qango discs and Quinque stack heights, cell by cell
//! in the DOM); the right-arrow key steps to ply N+1, again equal to
//! `arena judge`'s; the crasher's crash link in the failure table, clicked,
//! lists exactly the games it counts; the empty board marks where the
//! first move may go (Quinque's 24 cells, none on Qango 6); after `arena analyse` of the qango
//! directory, the value strip under the board shows analysis.csv's values
//! and mistakes (and the quinque games have none). Takes a screenshot, which replaces
//! docs/report.png with `ARENA_WRITE_DOCS=1` (a test run leaves the
//! repository as it was).
//! Skipped, saying so, where Chromium or Node is not installed (.ci/run
//! installs both).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use arena::games::Color;
use arena::report::analysis::read_analysis_csv;
use arena_solver::Value as Solved;
use common::browser::{drive, expected_look, read_look};
use common::tournament::game_number;
use common::tournament::{jsonl_records, run_arena, text, write_config, TestBot};
use serde_json::{json, Value};

/// The script that reads the viewer's board: `{cell: content}` of every
/// board cell, plus the ply counter.
const READ_BOARD: &str = r##"({
  cells: Object.fromEntries([...document.querySelectorAll("#v-board td[data-cell]")]
    .map((td) => [td.dataset.cell, td.dataset.content])),
  ply: document.getElementById("v-ply").textContent,
})"##;

/// `{cell: content}` after the first `n` moves of `record`, from `arena
/// judge`'s `board` (rows from 1, columns from a; `#` is off the board, so
/// not a cell; a Qango disc is a stack of height 1 as the viewer names it).
fn judged_cells(record: &Value, n: usize) -> BTreeMap<String, String> {
    let moves: Vec<Value> = record["moves"].as_array().unwrap()[..n].to_vec();
    let input = json!({"game": record["game"], "moves": moves}).to_string();
    let out = common::output_with_stdin(common::arena().arg("judge"), input.as_bytes());
    let verdict: Value = serde_json::from_slice(&out.stdout).expect("judge prints JSON");
    let mut cells = BTreeMap::new();
    for (r, row) in verdict["board"]
        .as_array()
        .expect("board")
        .iter()
        .enumerate()
    {
        for (c, cell) in row.as_array().unwrap().iter().enumerate() {
            let content = match cell.as_str().unwrap() {
                "#" => continue,
                "w" => "w1",
                "b" => "b1",
                other => other,
            };
            let name = format!("{}{}", (b'a' + c as u8) as char, r + 1);
            cells.insert(name, content.to_string());
        }
    }
    cells
}

fn dom_cells(board: &Value) -> BTreeMap<String, String> {
    board["cells"]
        .as_object()
        .expect("cells")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect()
}

/// Runs a tournament of `bots` in `variant` into `dir/NAME`, `games` a
/// pairing with `opening` random plies; its records.
fn tournament(
    dir: &Path,
    name: &str,
    (variant, games, opening): (&str, u32, u32),
    bots: &[TestBot],
) -> (PathBuf, Vec<Value>) {
    let out = dir.join(name);
    let work = dir.join(format!("{name}-config"));
    std::fs::create_dir_all(&work).unwrap();
    let config = write_config(
        &work,
        &format!(
            "variant = \"{variant}\"\ngames_per_pairing = {games}\ntime_control = \"per-move=2000\"\nopening_plies = {opening}\nseed = 5"
        ),
        bots,
    );
    let run = run_arena(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert!(out.join("report.html").exists(), "{}", text(&run));
    let records = jsonl_records(&out);
    (out, records)
}

#[test]
fn report_works_in_a_real_browser() {
    let Some(chrome) = common::browser::chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (qango, qango_games) = tournament(
        tmp.path(),
        "qango",
        // 12 games (g0 ... g11, so g2 must come before g10) with a 2-ply
        // opening.
        ("qango6", 4, 2),
        &[
            TestBot::new("good", "tests/bots/good_bot.py", &[]),
            TestBot::new("good2", "tests/bots/good_bot.py", &[]),
            TestBot::new("crasher", "tests/bots/crash.py", &[]),
        ],
    );
    let (quinque, quinque_games) = tournament(
        tmp.path(),
        "quinque",
        ("quinque", 2, 0),
        &[
            TestBot::new("random", "bots/python/random_bot.py", &["--seed", "1"]),
            TestBot::new("random2", "bots/python/random_bot.py", &["--seed", "2"]),
        ],
    );
    // The qango directory analysed against perfect play: its games get the
    // value strip; the quinque directory's do not.
    let analyse = run_arena(&[
        "analyse",
        qango.to_str().unwrap(),
        "--budget-ms",
        "50",
        "--no-progress",
    ]);
    assert!(analyse.status.success(), "{}", text(&analyse));
    let analysis = read_analysis_csv(&qango.join("analysis.csv")).unwrap();
    let out = tmp.path().join("report");
    let run = run_arena(&[
        "report",
        qango.to_str().unwrap(),
        quinque.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let page = out.join("report.html");
    assert!(page.exists(), "{}", text(&run));
    let total = qango_games.len() + quinque_games.len();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(&format!("<title>arena report: {total} games</title>")),
        "one report over both directories"
    );
    // The pooled standings, then each variant's own, each with its Elo plot.
    let standings = html
        .split_once("<section id=\"standings\">")
        .and_then(|(_, rest)| rest.split_once("</section>"))
        .map(|(section, _)| section)
        .expect("a standings section");
    for variant in ["qango6", "quinque"] {
        assert!(
            standings.contains(&format!("{variant}, its games alone")),
            "standings of {variant} alone"
        );
    }
    assert_eq!(
        standings.matches("<div class=\"plot\">").count(),
        3,
        "an Elo plot for the pooled fit and one per variant"
    );

    // A Qango game and a Quinque game (with a stack of 2 or more by ply N)
    // of at least N + 1 moves; directory 1 is qango, 2 is quinque.
    let qango_game = qango_games
        .iter()
        .find(|r| r["moves"].as_array().unwrap().len() >= 4)
        .expect("a qango game of 4 moves or more");
    let (quinque_game, n) = quinque_games
        .iter()
        .flat_map(|r| {
            let len = r["moves"].as_array().unwrap().len();
            (1..len).map(move |n| (r, n))
        })
        .find(|(r, n)| {
            judged_cells(r, *n)
                .values()
                .any(|c| c.ends_with('2') || c.ends_with('3'))
        })
        .expect("a quinque game with a stack of height 2 or more");
    let qango_key = format!("d1{}", qango_game["game_id"].as_str().unwrap());
    let quinque_key = format!("d2{}", quinque_game["game_id"].as_str().unwrap());

    // The crasher's crash losses, from the records.
    let mut crashes: Vec<String> = qango_games
        .iter()
        .filter(|r| {
            let loser = if r["result"] == "1-0" {
                &r["black"]
            } else {
                &r["white"]
            };
            r["reason"] == "crash" && loser == "crasher"
        })
        .map(|r| format!("d1{}", r["game_id"].as_str().unwrap()))
        .collect();
    crashes.sort();
    assert!(!crashes.is_empty(), "the crasher crashed");

    let shot = tmp.path().join("report.png");
    let look = read_look("#v-board table.board");
    let open = |key: &str, ply: usize| {
        format!(
            "new Promise((done) => {{ addEventListener('hashchange', () => done({{ ...{READ_BOARD}, look: {look} }}), {{ once: true }}); location.hash = '#game={key}&ply={ply}'; }})"
        )
    };
    let click_crash_link = r##"new Promise((done) => {
  const row = [...document.querySelectorAll("#failures tr")].find((tr) => tr.cells[0] && tr.cells[0].textContent === "crasher");
  const column = [...document.querySelectorAll("#failures tr th")].findIndex((th) => th.textContent === "crash");
  addEventListener("hashchange", () => done([...document.querySelectorAll("#games tbody tr")].map((tr) => tr.dataset.key)), { once: true });
  row.cells[column].querySelector("a").click();
})"##;
    // The viewer's marks: the move list (text, opening or not), the cells
    // marked as placed by the opening, and the legend's kinds.
    let open_marks = |key: &str, ply: usize| {
        format!(
            r##"new Promise((done) => {{ addEventListener("hashchange", () => done({{
  moves: [...document.querySelectorAll("#v-moves li")].map((li) => [li.textContent, li.classList.contains("opening")]),
  opening: [...document.querySelectorAll("#v-board td.op")].map((td) => td.dataset.cell).sort(),
  legend: [...document.querySelectorAll("#v-legend .item")].map((item) => item.dataset.kind),
  legendText: document.getElementById("v-legend").textContent,
}}), {{ once: true }}); location.hash = "#game={key}&ply={ply}"; }})"##
        )
    };
    // The value strip under the board: each cell's value and marks.
    let open_strip = |key: &str, ply: usize| {
        format!(
            r##"new Promise((done) => {{ addEventListener("hashchange", () => done({{
  hidden: document.getElementById("v-values").hidden,
  cells: [...document.querySelectorAll("#v-values .v")].map((c) => [c.dataset.value, c.classList.contains("mistake"), c.classList.contains("current")]),
  text: document.getElementById("v-values").textContent,
}}), {{ once: true }}); location.hash = "#game={key}&ply={ply}"; }})"##
        )
    };
    // The empty board (ply 0): the cells marked as where the first move
    // may go, and whether the legend says so.
    let open_first = |key: &str| {
        format!(
            r##"new Promise((done) => {{ addEventListener("hashchange", () => done({{
  marked: [...document.querySelectorAll("#v-board td.first")].map((td) => td.dataset.cell).sort(),
  legend: !!document.querySelector('#v-legend [data-kind="first"]'),
}}), {{ once: true }}); location.hash = "#game={key}&ply=0"; }})"##
        )
    };
    let steps = json!([
        {"eval": format!("({{ ...{READ_BOARD}, look: {} }})", read_look("#v-board table.board"))},
        {"key": "ArrowRight"},
        {"eval": READ_BOARD},
        {"eval": open(&quinque_key, n)},
        {"eval": click_crash_link},
        // The README's picture: the top of the page under a finished game.
        {"eval": "window.scrollTo(0, 0)"},
        {"eval": open(&qango_key, qango_game["moves"].as_array().unwrap().len())},
        {"screenshot": shot.display().to_string(), "width": 1200, "height": 1300},
        // The whole list, unfiltered.
        {"eval": r##"new Promise((done) => { addEventListener("hashchange", () => done([...document.querySelectorAll("#games tbody tr")].map((tr) => tr.dataset.key)), { once: true }); location.hash = "#list"; })"##},
        {"eval": open_marks(&qango_key, 3)},
        {"eval": open_marks(&quinque_key, 1)},
        {"eval": open_strip(&qango_key, 3)},
        {"eval": open_strip(&quinque_key, 1)},
        {"eval": open_first(&quinque_key)},
        {"eval": open_first(&qango_key)},
    ]);
    let url = format!("file://{}#game={qango_key}&ply=3", page.display());
    let profile = tmp.path().join("profile");
    let session = drive(&chrome, &profile, &url, &steps);
    assert_eq!(session.errors, Vec::<String>::new(), "console errors");
    let r = &session.results;

    // The shared link opens the game at ply 3: arena judge's position.
    assert_eq!(
        dom_cells(&r[0]),
        judged_cells(qango_game, 3),
        "{qango_key} at ply 3"
    );
    assert!(r[0]["ply"].as_str().unwrap().starts_with("ply 3 / "));
    // The right arrow steps to ply 4, which differs from ply 3.
    assert!(r[2]["ply"].as_str().unwrap().starts_with("ply 4 / "));
    assert_eq!(
        dom_cells(&r[2]),
        judged_cells(qango_game, 4),
        "{qango_key} at ply 4"
    );
    assert_ne!(dom_cells(&r[0]), dom_cells(&r[2]));
    // The board looks as the rules engine describes it: coordinates and
    // each cell's colour group (the live page's cards read the same).
    assert_eq!(
        r[0]["look"],
        expected_look(qango_game["game"].as_str().unwrap())
    );
    // Quinque stack heights, on Quinque's board.
    assert_eq!(
        r[3]["look"],
        expected_look(quinque_game["game"].as_str().unwrap())
    );
    assert_eq!(
        dom_cells(&r[3]),
        judged_cells(quinque_game, n),
        "{quinque_key} at ply {n}"
    );
    // The failure link lists exactly the games it counts.
    let mut listed: Vec<String> = r[4]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(listed, crashes);
    assert!(shot.exists());
    if std::env::var_os("ARENA_WRITE_DOCS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.png");
        std::fs::copy(&shot, docs).unwrap();
    }

    // Every game, listed by id (directory first): g2 before g10, whatever
    // order they finished in.
    let mut by_id: Vec<(u32, u64)> = qango_games
        .iter()
        .map(|r| (1, game_number(r)))
        .chain(quinque_games.iter().map(|r| (2, game_number(r))))
        .collect();
    by_id.sort();
    let expected: Vec<String> = by_id.iter().map(|(d, id)| format!("d{d}g{id}")).collect();
    assert_eq!(
        qango_games.len(),
        12,
        "ids up to g11, so g10 must follow g9"
    );
    assert_eq!(r[8], json!(expected), "the list in game-id order");

    // The qango game's 2 opening plies (opening_plies = 2) are marked in
    // the move list, and so are their 2 discs on the board at ply 3 (a
    // Qango disc never moves); the bots' moves are not.
    let marks = &r[9];
    let moves = marks["moves"].as_array().unwrap();
    let record_moves = qango_game["moves"].as_array().unwrap();
    assert_eq!(qango_game["opening"].as_array().unwrap().len(), 2);
    assert_eq!(moves.len(), record_moves.len());
    for (i, (shown, played)) in moves.iter().zip(record_moves).enumerate() {
        let text = shown[0].as_str().unwrap();
        assert!(text.starts_with(played.as_str().unwrap()), "{text}");
        assert_eq!(
            shown[1],
            json!(i < 2),
            "move {} marked as opening: {text}",
            i + 1
        );
        assert_eq!(text.contains("opening"), i < 2, "{text}");
    }
    let mut opening_cells = vec![record_moves[0].clone(), record_moves[1].clone()];
    opening_cells.sort_by_key(|c| c.as_str().unwrap().to_string());
    assert_eq!(marks["opening"], json!(opening_cells));
    // The legend: Qango 6's colour groups (docs/RULES.md: red, yellow,
    // orange, blue, green), the discs and the marks, the opening's too.
    assert_eq!(
        marks["legend"],
        json!(["R", "Y", "O", "B", "G", "white", "black", "last", "win", "opening"])
    );
    assert!(marks["legendText"].as_str().unwrap().contains("red group"));
    // A Quinque game without an opening: empty cells and stacks, no
    // opening mark.
    let marks = &r[10];
    assert_eq!(
        marks["legend"],
        json!([".", "white", "black", "last", "win", "first"])
    );
    assert!(marks["legendText"]
        .as_str()
        .unwrap()
        .contains("white stack"));
    assert_eq!(marks["opening"], json!([]));

    // The analysed qango game's strip: one cell per position, the opening's
    // unanalysed, each bot move's value after it (for white) and its
    // mistake as analysis.csv says, the current ply marked.
    let strip = &r[11];
    assert_eq!(strip["hidden"], json!(false));
    let cells = strip["cells"].as_array().unwrap();
    assert_eq!(cells.len(), record_moves.len() + 1);
    assert_eq!(
        cells[1][0],
        json!("-"),
        "an opening position is not analysed"
    );
    let id = game_number(qango_game);
    for row in analysis.iter().filter(|r| r.game_id == id) {
        let cell = &cells[row.ply as usize];
        let white = row.after.map(|v| {
            if row.color == Color::White {
                v
            } else {
                v.flip()
            }
        });
        let letter = match white {
            None => "?",
            Some(Solved::Win) => "W",
            Some(Solved::Loss) => "B",
            Some(Solved::Draw) => "D",
        };
        let value = cell[0].as_str().unwrap();
        assert_eq!(
            value.to_ascii_uppercase(),
            letter,
            "ply {}: {row:?}",
            row.ply
        );
        assert_eq!(
            cell[1],
            json!(row.mistake() == Some(true)),
            "ply {}: {row:?}",
            row.ply
        );
    }
    assert_eq!(cells.iter().filter(|c| c[2] == json!(true)).count(), 1);
    assert_eq!(cells[3][2], json!(true), "ply 3 is current");
    assert!(strip["text"].as_str().unwrap().contains("perfect play: "));
    // The quinque game was not analysed: no strip.
    assert_eq!(r[12]["hidden"], json!(true));
    assert_eq!(r[12]["cells"], json!([]));
    // Before the first move (docs/RULES.md): Quinque's may go anywhere but
    // the centre c3, so its 24 other cells are marked; Qango 6's anywhere,
    // so nothing is.
    let mut quinque_first: Vec<String> = (b'a'..=b'e')
        .flat_map(|c| (1..=5).map(move |r| format!("{}{r}", c as char)))
        .filter(|cell| cell != "c3")
        .collect();
    quinque_first.sort();
    assert_eq!(r[13]["marked"], json!(quinque_first));
    assert_eq!(r[13]["legend"], json!(true));
    assert_eq!(r[14]["marked"], json!([]));
    assert_eq!(r[14]["legend"], json!(false));
}
