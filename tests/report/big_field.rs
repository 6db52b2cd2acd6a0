//! report.html of a big field: a round robin of 200 bots, 2 games per
//! pairing (39,800 games of Qango 6, written here as games.jsonl: random
//! playouts by the rules engine, move times of a quick compiled bot), is
//! under 4 MB, lists every game, and opens in headless Chromium without a
//! console error with the standings on the first screen (their table's top
//! within the first window), the settings' 200 bots folded, the crosstable
//! a table of the best ranked with every bot in the folded heatmap, and a
//! game of the list shown by the viewer as the rules engine replays it.
//! The browser part is skipped, saying so, without Chromium or Node.

use crate::common;

use std::io::{BufWriter, Write};
use std::path::Path;

use arena::games::{Color, Position, Variant};
use arena::protocol::{GameResult, Reason, TimeControl};
use arena::referee::record::record_with_result;
use common::browser::drive;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

const BOTS: usize = 200;
/// Page size the issue asks for at 40,000 games.
const BOUND: u64 = 4_000_000;

/// Games played by the rules engine: `count` random playouts of Qango 6,
/// each its moves and its outcome.
fn playouts(rng: &mut SmallRng, count: usize) -> Vec<(Vec<String>, arena::games::Outcome)> {
    let variant = Variant::by_id("qango6").unwrap();
    (0..count)
        .map(|_| {
            let mut pos = Position::new(variant);
            let mut moves = Vec::new();
            while !pos.is_over() {
                let legal = pos.legal_moves();
                let m = legal[rng.gen_range(0..legal.len())];
                pos.play(&m).unwrap();
                moves.push(m.to_string());
            }
            (moves, pos.outcome().unwrap())
        })
        .collect()
}

/// Writes the games of a round robin of `bots`, 2 games per pairing, into
/// `dir` (each one of 500 playouts, so that writing them takes little);
/// returns the moves of game 123.
fn write_games(dir: &Path, bots: usize) -> Vec<String> {
    let names: Vec<String> = (0..bots).map(|k| format!("bot{k:03}")).collect();
    let mut out = BufWriter::new(std::fs::File::create(dir.join("games.jsonl")).unwrap());
    let mut rng = SmallRng::seed_from_u64(7);
    let games = playouts(&mut rng, 500);
    let mut id = 0u64;
    let mut kept = Vec::new();
    for a in 0..bots {
        for b in a + 1..bots {
            for (white, black) in [(a, b), (b, a)] {
                let (moves, outcome) = &games[rng.gen_range(0..games.len())];
                let result = match outcome.winner {
                    Some(Color::White) => GameResult::WhiteWins,
                    Some(Color::Black) => GameResult::BlackWins,
                    None => GameResult::Draw,
                };
                let mut record =
                    record_with_result(id, id / 2, &names[white], &names[black], result);
                record.set_place(id, 0, id / 2);
                record.time_control = TimeControl::PerMove { move_ms: 400 };
                record.move_times_ms = moves.iter().map(|_| rng.gen_range(0..3)).collect();
                record.plies = moves.len() as u32;
                record.reason = Reason::Rule(outcome.reason);
                record.cells = outcome.cells.iter().map(|c| c.to_string()).collect();
                let cells = record.cells.join(" ");
                record.message = format!("{result} by {}: {cells}", outcome.reason);
                if id == 123 {
                    kept = moves.clone();
                }
                record.moves = moves.clone();
                serde_json::to_writer(&mut out, &record).unwrap();
                out.write_all(b"\n").unwrap();
                id += 1;
            }
        }
    }
    out.flush().unwrap();
    kept
}

#[test]
fn a_report_of_200_bots_is_small_and_shows_the_standings_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("big-field");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let started = std::time::Instant::now();
    let moves = write_games(&dir, BOTS);
    println!("games written in {:?}", started.elapsed());
    let out = common::arena().arg("report").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", common::tournament::text(&out));
    println!("report written in {:?}", started.elapsed());
    let page_path = dir.join("report.html");
    let size = std::fs::metadata(&page_path).unwrap().len();
    assert!(size < BOUND, "report.html is {size} bytes");
    let page = std::fs::read_to_string(&page_path).unwrap();
    // The standings come before the settings, whose bots are folded.
    let (standings, settings) = (
        page.find("<section id=\"standings\">").unwrap(),
        page.find("<section id=\"settings\">").unwrap(),
    );
    assert!(standings < settings);

    let Some(chrome) = common::browser::chromium_or_skip() else {
        return;
    };
    let steps = json!([
        {"eval": r##"({
            top: document.querySelector("#standings table.standings").getBoundingClientRect().top,
            height: innerHeight,
            rows: document.querySelectorAll("#standings table.standings tr").length,
            cross: document.querySelectorAll("#crosstable table.cross tr").length,
            heat: document.getElementById("cross-heat").width > 0,
            folded: !document.querySelector("#cross-all").open,
            count: document.getElementById("list-count").textContent,
            part: document.getElementById("list-part").hidden,
        })"##},
        {"eval": r##"new Promise((done) => { addEventListener("hashchange", () => done({
            cells: [...document.querySelectorAll("#v-board td[data-cell]")]
                .filter((td) => td.dataset.content !== ".")
                .map((td) => td.dataset.cell).sort(),
            ply: document.getElementById("v-ply").textContent,
        }), { once: true }); location.hash = "#game=g123"; })"##},
    ]);
    let url = format!("file://{}", page_path.display());
    let session = drive(&chrome, &tmp.path().join("profile"), &url, &steps);
    assert_eq!(session.errors, Vec::<String>::new(), "console errors");
    let first = &session.results[0];
    let (top, height) = (
        first["top"].as_f64().unwrap(),
        first["height"].as_f64().unwrap(),
    );
    assert!(
        top < height,
        "the standings start at {top} px of {height}: {first}"
    );
    assert_eq!(first["rows"], BOTS + 1, "{first}");
    // The table: a header and the 24 best ranked; the heatmap: everyone.
    assert_eq!(first["cross"], 25, "{first}");
    assert_eq!(first["heat"], true, "{first}");
    assert_eq!(first["folded"], true, "{first}");
    let games = BOTS * (BOTS - 1);
    assert_eq!(first["count"], format!("{games} of {games} games match"));
    assert_eq!(first["part"], true, "every game is listed: {first}");
    // The viewer draws game 123's last position: a disc on every cell played.
    let viewed = &session.results[1];
    let mut played = moves.clone();
    played.sort();
    assert_eq!(viewed["cells"], json!(played), "{viewed}");
    let ply = format!("ply {} / {}", moves.len(), moves.len());
    assert_eq!(viewed["ply"], ply);
    let _ = std::fs::remove_dir_all(&dir);
}
