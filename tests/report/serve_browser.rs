//! The live page in a real browser: headless Chromium (driven as in
//! tests/report/browser.rs) opens `arena serve` on a tournament that is
//! still running and stays on the page while the rest of its games end:
//! no console errors; the games that end after the page loaded appear in
//! its list without a reload, and the standings change; at the end the
//! list holds every game of the run, and the standings, crosstable,
//! failures and game lines (the viewer's data) the page shows are those of
//! the report.html the run wrote.
//! Skipped, saying so, where Chromium or Node is not installed.

use crate::common;

use std::time::Duration;

use common::browser::drive;
use common::serve::Server;
use common::tournament::game_number;
use common::tournament::{jsonl_records, spawn_tournament, wait_exit, wait_for_rows};
use common::tournament::{write_config, TestBot};
use serde_json::{json, Value};

/// Games of the run: 3 bots, 4 games a pairing.
const GAMES: usize = 12;

/// The text of a section of the page, `null` when it has none.
const TEXT: &str = r##"const text = (id) => { const e = document.getElementById(id); return e ? e.textContent.replace(/\s+/g, " ").trim() : null; };"##;

/// Waits (in the page) until the list holds every game, then says what the
/// page shows.
const AT_THE_END: &str = r##"new Promise((done) => {
  const rows = () => [...document.querySelectorAll("#games tbody tr")].map((tr) => tr.dataset.key);
  const started = Date.now();
  const poll = () => {
    if (rows().length === GAMES || Date.now() - started > 40000) {
      // The last swap and the progress line come from one event.
      setTimeout(() => done({
        mark: window.arenaTestMark || null,
        keys: rows(),
        progress: document.querySelector("#live .progress").textContent,
        standings: text("standings"), cross: text("crosstable"), failures: text("failures"),
        lines: document.getElementById("game-lines").textContent,
      }), 300);
    } else setTimeout(poll, 100);
  };
  poll();
})"##;

/// What report.html shows, in the same words.
const REPORT: &str = r##"({ standings: text("standings"), cross: text("crosstable"), failures: text("failures"),
  lines: document.getElementById("game-lines").textContent })"##;

#[test]
fn the_live_page_follows_a_running_tournament() {
    let Some(chrome) = common::browser::chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // A gated bot against two quick ones: the test holds the run after its
    // first game, until the page has loaded.
    let gate = tmp.path().join("gate");
    let config = write_config(
        tmp.path(),
        "variant = \"qango6\"\ngames_per_pairing = 4\ntime_control = \"per-move=60000\"\nseed = 9",
        &[
            TestBot::new(
                "gated",
                "tests/bots/gated_bot.py",
                &[gate.to_str().unwrap(), "20"],
            ),
            TestBot::new("random", "bots/python/random_bot.py", &["--seed", "1"]),
            TestBot::new("crasher", "tests/bots/crash.py", &[]),
        ],
    );
    let out = tmp.path().join("run");
    let mut tournament = spawn_tournament(&config, &out, tmp.path());
    wait_for_rows(&out, 1, Duration::from_secs(30));
    std::fs::write(&gate, "").unwrap();
    let server = Server::start(&[out.to_str().unwrap(), "--port", "0"]);

    let at_load = r##"(window.arenaTestMark = "the same page", {
  keys: document.querySelectorAll("#games tbody tr").length,
  standings: document.getElementById("standings").textContent.replace(/\s+/g, " ").trim(),
})"##;
    let steps = json!([
        {"eval": at_load},
        {"remove": gate.display().to_string()},
        {"eval": format!("{TEXT} {}", AT_THE_END.replace("GAMES", &GAMES.to_string()))},
    ]);
    let url = format!("http://{}/", server.addr);
    let session = drive(&chrome, &tmp.path().join("profile"), &url, &steps);
    let status = wait_exit(&mut tournament, Duration::from_secs(60));
    assert!(status.success(), "the tournament ended with {status:?}");
    assert_eq!(session.errors, Vec::<String>::new(), "console errors");
    let (first, last) = (&session.results[0], &session.results[2]);

    let loaded = first["keys"].as_u64().unwrap() as usize;
    assert!(
        (1..GAMES).contains(&loaded),
        "the page loaded while the run was held ({loaded} games listed)"
    );
    assert_eq!(last["mark"], json!("the same page"), "no reload");
    // Every game of the run, listed by id.
    let mut ids: Vec<u64> = jsonl_records(&out).iter().map(game_number).collect();
    ids.sort();
    let keys: Vec<String> = ids.iter().map(|id| format!("g{id}")).collect();
    assert_eq!(last["keys"], json!(keys), "{last}");
    assert_ne!(
        first["standings"], last["standings"],
        "the standings changed"
    );
    assert!(
        last["progress"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{GAMES} of {GAMES} games")),
        "{}",
        last["progress"]
    );
    // What the page shows at the end is what the run's report shows.
    let report = out.join("report.html");
    assert!(report.exists());
    let url = format!("file://{}", report.display());
    let steps = json!([{"eval": format!("{TEXT} {REPORT}")}]);
    let written = drive(&chrome, &tmp.path().join("profile2"), &url, &steps);
    assert_eq!(written.errors, Vec::<String>::new(), "console errors");
    let report: &Value = &written.results[0];
    // The game lines too, those the page had before each update (their bots
    // renamed into the new order) and those it was sent.
    for section in ["standings", "cross", "failures", "lines"] {
        assert!(report[section].is_string(), "{report}");
        assert_eq!(last[section], report[section], "{section}");
    }
}
