//! The games being played, on the live page of `arena tournament --serve`:
//! while a game of slow bots runs (held at a gate until the test is ready,
//! then 40-80 ms a move), the server reports it with its moves so far
//! (`_live/games`, and `games` events on `_live/events`); those moves are
//! the first moves of the game games.jsonl records when it ends; and once
//! it is recorded it is no longer reported. `arena serve DIR` sees finished
//! games only, and says so. In headless Chromium the page draws the game's
//! board, again as moves are played, larger in the projector view, with
//! the viewer's coordinates and colour groups; a Quinque game's board too,
//! its stacks with their heights.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::serve::Server;
use common::tournament::game_number;
use common::tournament::{jsonl_records, write_config, TestBot};
use serde_json::Value;

/// The games the server reports as being played: id → (moves, how many
/// of them are the opening).
fn playing(server: &Server) -> (bool, BTreeMap<u64, (Vec<String>, usize)>) {
    let (code, body) = server.get("/_live/games");
    assert_eq!(code, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    let games = answer["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let moves = g["moves"].as_array().unwrap();
            let moves = moves.iter().map(|m| m.as_str().unwrap().to_string());
            let opening = g["opening"].as_u64().unwrap() as usize;
            (game_number(g), (moves.collect(), opening))
        })
        .collect();
    (answer["live"] == Value::Bool(true), games)
}

/// The first `games` event on `_live/events` that reports a game.
fn games_event(server: &Server) -> Value {
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "GET /_live/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut lines = BufReader::new(stream).lines();
    let mut event = String::new();
    loop {
        let line = lines.next().expect("the stream ended").unwrap();
        if let Some(name) = line.strip_prefix("event: ") {
            event = name.to_string();
        } else if let Some(data) = line.strip_prefix("data: ") {
            if event == "games" {
                let games: Value = serde_json::from_str(data).unwrap();
                if games["games"].as_array().is_some_and(|g| !g.is_empty()) {
                    return games;
                }
            }
        }
    }
}

/// A served round robin (`--serve 0`) of two gated bots, one game at a time,
/// two games: each bot waits before its first move until `gate` (returned
/// with the output directory and the server) is removed, then takes
/// `move_ms` a move.
fn gated_served_run(dir: &Path, seed: u64, move_ms: u64) -> (PathBuf, PathBuf, Server) {
    gated_served_run_of("qango6", dir, seed, move_ms)
}

/// [`gated_served_run`] of `variant`.
fn gated_served_run_of(
    variant: &str,
    dir: &Path,
    seed: u64,
    move_ms: u64,
) -> (PathBuf, PathBuf, Server) {
    let gate = dir.join("gate");
    std::fs::write(&gate, "").unwrap();
    let move_ms = move_ms.to_string();
    let bot = |name| {
        TestBot::new(
            name,
            "tests/bots/gated_bot.py",
            &[gate.to_str().unwrap(), &move_ms],
        )
    };
    let config = write_config(
        dir,
        &format!(
            "variant = \"{variant}\"\ngames_per_pairing = 2\nseed = {seed}\nconcurrency = 1\n\
             time_control = \"per-move=60000\""
        ),
        &[bot("p1"), bot("p2")],
    );
    let out = dir.join("run");
    let run = Server::run(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
        "--serve",
        "0",
    ]);
    (gate, out, run)
}

#[test]
fn a_served_tournament_shows_its_games_move_by_move() {
    let tmp = tempfile::tempdir().unwrap();
    // Two games one after the other, 40 ms a move: each lasts a second or
    // so, once the test opens the gate the first move waits for.
    let (gate, out, mut run) = gated_served_run(tmp.path(), 3, 40);
    // The page's stream tells of a game being played, with its players.
    let event = games_event(&run);
    assert_eq!(event["live"], Value::Bool(true), "{event}");
    let game = &event["games"][0];
    assert_eq!(game["game"], "qango6", "{event}");
    assert_eq!(
        (game["rows"].as_u64(), game["cols"].as_u64()),
        (Some(6), Some(6))
    );
    assert!(
        ["p1", "p2"].contains(&game["white"].as_str().unwrap()),
        "{event}"
    );
    std::fs::remove_file(&gate).unwrap();

    // The first game, seen with more moves than its opening.
    let deadline = Instant::now() + Duration::from_secs(20);
    let (id, seen) = loop {
        let (live, games) = playing(&run);
        assert!(live);
        if let Some((&id, (moves, opening))) = games.iter().next() {
            if moves.len() > *opening {
                break (id, moves.clone());
            }
        }
        assert!(Instant::now() < deadline, "no game in progress seen");
        std::thread::sleep(Duration::from_millis(10));
    };
    // Once it is recorded, it is no longer in progress (the second game is
    // still playing: the server is still up).
    let record = loop {
        let records = std::fs::read_to_string(out.join("games.jsonl"))
            .map(|_| jsonl_records(&out))
            .unwrap_or_default();
        if let Some(r) = records.into_iter().find(|r| game_number(r) == id) {
            break r;
        }
        assert!(Instant::now() < deadline, "game {id} never recorded");
        std::thread::sleep(Duration::from_millis(10));
    };
    let (_, games) = playing(&run);
    assert!(!games.contains_key(&id), "game {id} still shown: {games:?}");
    let moves: Vec<String> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(seen.len() > record["opening"].as_array().unwrap().len());
    assert!(
        seen.len() <= moves.len() && moves[..seen.len()] == seen[..],
        "shown {seen:?}, recorded {moves:?}"
    );
    assert!(run.wait(Duration::from_secs(30)).success());

    // `arena serve DIR` sees the files only: no games in progress.
    let server = Server::start(&[out.to_str().unwrap(), "--port", "0"]);
    assert_eq!(playing(&server), (false, BTreeMap::new()));
}

/// Waits (in the page) for a game in progress drawn with a disc, then for
/// the same board with more discs (drawn move by move, no reload); then
/// measures its cells, before and in the projector view.
const BOARDS: &str = r##"new Promise((done) => {
  const started = Date.now();
  const card = () => document.querySelector("#playing .live-game");
  const discs = () => card() ? card().querySelectorAll("td .disc").length : 0;
  let first = null;
  const poll = () => {
    const c = card();
    if (c && discs() > 0 && first === null) first = { game: c.dataset.game, discs: discs() };
    const later = first && c && c.dataset.game === first.game && discs() > first.discs;
    if (later || Date.now() - started > 20000) {
      const cell = () => c.querySelector("td").getBoundingClientRect().width;
      const small = c ? cell() : 0;
      const look = LOOK;
      document.querySelector("#live button.projector").click();
      done({ first: first, later: discs(), look: look, heading: document.querySelector("#playing h2").textContent,
        moves: c ? c.querySelector(".moves").textContent.split(" ").length : 0,
        small: small, large: c ? cell() : 0 });
    } else setTimeout(poll, 50);
  };
  poll();
})"##;

#[test]
fn the_page_draws_the_games_in_progress() {
    let Some(chrome) = common::browser::chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // Held before their first move until the page has loaded (the gate),
    // then two games of about two seconds each.
    let (gate, _out, mut run) = gated_served_run(tmp.path(), 5, 80);
    let steps = serde_json::json!([
        { "remove": gate.display().to_string() },
        { "eval": BOARDS.replace("LOOK", &common::browser::read_look("#playing .live-game table.board")) },
    ]);
    let url = format!("http://{}/", run.addr);
    let session = common::browser::drive(&chrome, &tmp.path().join("profile"), &url, &steps);
    assert_eq!(session.errors, Vec::<String>::new(), "console errors");
    let seen = &session.results[1];
    assert_eq!(seen["heading"], "Games in progress", "{seen}");
    let first = seen["first"]["discs"]
        .as_u64()
        .expect("a board with a disc");
    let later = seen["later"].as_u64().unwrap();
    assert!(
        later > first,
        "the board was drawn again with more moves: {seen}"
    );
    // The card's board is the viewer's: the same coordinates and colour
    // groups (report_browser reads the viewer's against the same look).
    assert_eq!(
        seen["look"],
        common::browser::expected_look("qango6"),
        "{seen}"
    );
    // A disc per move (Qango places one a move).
    assert_eq!(seen["moves"].as_u64(), Some(later), "{seen}");
    let (small, large) = (
        seen["small"].as_f64().unwrap(),
        seen["large"].as_f64().unwrap(),
    );
    assert!(
        small > 0.0 && large > 2.0 * small,
        "projector cells: {seen}"
    );
    assert!(run.wait(Duration::from_secs(60)).success());
}

/// Waits (in the page) for a game in progress with two stones on its
/// board, then reads the board's look and each stone's height.
const QUINQUE_BOARD: &str = r##"new Promise((done) => {
  const started = Date.now();
  const poll = () => {
    const stones = [...document.querySelectorAll("#playing .live-game td .disc")];
    if (stones.length >= 2 || Date.now() - started > 20000) {
      done({ look: LOOK, heights: stones.map((s) => s.textContent),
        sides: stones.map((s) => s.className), moves: document.querySelector("#playing .live-game .moves").textContent });
    } else setTimeout(poll, 50);
  };
  poll();
})"##;

/// A Quinque game in progress is drawn too, as the viewer draws Quinque:
/// its board (coordinates, plain cells) and its stacks with their heights.
#[test]
fn the_page_draws_a_quinque_game_in_progress() {
    let Some(chrome) = common::browser::chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (gate, _out, mut run) = gated_served_run_of("quinque", tmp.path(), 4, 30);
    let read = QUINQUE_BOARD.replace(
        "LOOK",
        &common::browser::read_look("#playing .live-game table.board"),
    );
    let steps = serde_json::json!([
        { "remove": gate.display().to_string() },
        { "eval": read },
    ]);
    let url = format!("http://{}/", run.addr);
    let session = common::browser::drive(&chrome, &tmp.path().join("profile"), &url, &steps);
    assert_eq!(session.errors, Vec::<String>::new(), "console errors");
    let seen = &session.results[1];
    assert_eq!(
        seen["look"],
        common::browser::expected_look("quinque"),
        "{seen}"
    );
    let heights = seen["heights"].as_array().unwrap();
    assert!(heights.len() >= 2, "{seen}");
    assert!(
        heights
            .iter()
            .all(|h| ["1", "2", "3"].contains(&h.as_str().unwrap())),
        "a stack shows its height: {seen}"
    );
    let sides: Vec<&str> = seen["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(
        sides.contains(&"disc w") && sides.contains(&"disc b"),
        "{seen}"
    );
    assert!(run.wait(Duration::from_secs(120)).success());
}
