//! The play page of `arena serve --play BOTS.toml` in a real browser:
//! headless Chromium (driven by tests/browser/cdp.js) plays whole games on
//! the real server by clicking its buttons (and by the keyboard): a person
//! against the bundled random bot on qango6, against the engine on qango7,
//! two people on Quinque until a capture was played and the game ended, and
//! two people on Qango 7 Plus (its tournament start, whose first move's
//! four cells are marked before it) by Tab, Enter and Space alone. After each game
//! the page's status line gives the result and reason of the record the
//! server appended to the out directory's games.jsonl, and `arena judge`
//! replaying that record agrees; no console errors. Also: the board's cells
//! are buttons named by their cell (as Chromium's accessibility tree says),
//! the status is a `role=status`, hints put a value on every legal cell and
//! go with the next move, the clocks run, the analysis strip has a cell per
//! position, "play again" starts the same game, "leave game" loses it on
//! time (and so does closing the page, at once), the viewer's link names
//! the game, equal names are refused on the page and the server's "all N
//! boards are in use" is shown there. With `ARENA_WRITE_DOCS=1`
//! the screenshot of a game in progress replaces docs/play.png.
//! Skipped, saying so, where Chromium or Node is not installed.

use crate::common;

use std::path::{Path, PathBuf};

use common::browser::{chromium_or_skip, drive, Session};
use common::serve::Server;
use common::tournament::{jsonl_records, repo_path};
use serde_json::{json, Value};

/// The test's helpers in the page (`window.t`), reading only what a person
/// sees: the board's buttons, the status line, the move list.
const KIT: &str = r##"window.t = {
  board: () => document.getElementById("board"),
  turn: () => t.board().dataset.turn,
  ply: () => t.board().dataset.ply,
  over: () => t.turn() === "over",
  enabled: () => [...document.querySelectorAll("#board button.cell:not([disabled])")],
  // A person may move now (or the game is over).
  ready: () => t.over() || (t.turn() === "person" && t.enabled().length > 0),
  mark: () => { t.before = t.ply(); return true; },
  moved: () => t.ply() !== t.before || t.over(),
  cell: (b) => b ? '#board button.cell[aria-label="' + b.getAttribute("aria-label") + '"]' : null,
  // The first enabled cell offering a move that starts with one of
  // `words` (in that order), else the first enabled cell.
  pick: (words) => {
    const cells = t.enabled();
    for (const w of words) {
      const b = cells.find((c) => (c.title.split(": ")[1] || "").split(", ").some((m) => m.startsWith(w)));
      if (b) return t.cell(b);
    }
    return t.cell(cells[0]);
  },
  played: [],
  captured: () => t.played.some((m) => m.startsWith("capture")),
  // The first shown action starting with one of `words`, else the first.
  action: (words) => {
    const all = [...document.querySelectorAll("#actions-list button.action")];
    const b = words.map((w) => all.find((a) => a.getAttribute("aria-label").startsWith(w))).find((a) => a) || all[0];
    if (!b) return null;
    t.played.push(b.getAttribute("aria-label"));
    return '#actions-list button[aria-label="' + b.getAttribute("aria-label") + '"]';
  },
  // Every status line shown since the kit was installed.
  statuses: (() => {
    const seen = [document.getElementById("status").textContent];
    new MutationObserver(() => seen.push(document.getElementById("status").textContent))
      .observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true });
    return seen;
  })(),
  focused: () => document.activeElement.getAttribute("aria-label") || document.activeElement.id,
  result: () => ({
    game: document.getElementById("game").dataset.game,
    status: document.getElementById("status").textContent,
    moves: [...document.querySelectorAll("#moves li")].map((li) => li.textContent),
  }),
}; true"##;

/// Sets the new-game form (`{variant, opponent, colour, name, name2}`,
/// opponent `bot:NAME` or `person`): true when every value was offered.
fn set_form(form: &Value) -> String {
    format!(
        r##"(() => {{ const f = {form};
  const set = (id, v) => {{ const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event("change")); return e.value === v; }};
  return Object.entries(f).every(([k, v]) => set(k, v)); }})()"##
    )
}

/// The steps of a drive, each step's result read back by its index.
#[derive(Default)]
struct Steps(Vec<Value>);

impl Steps {
    /// Adds `step`: its index among the results.
    fn add(&mut self, step: Value) -> usize {
        self.0.push(step);
        self.0.len() - 1
    }

    fn all(&mut self, steps: Vec<Value>) {
        self.0.extend(steps);
    }

    /// The kit, the form, Start, and the game's first state.
    fn start(form: &Value) -> Steps {
        let mut steps = Steps::default();
        steps.all(vec![
            json!({"eval": KIT}),
            json!({"eval": set_form(form)}),
            json!({"click": "#start"}),
            json!({"wait": "t.board().dataset.turn !== undefined", "timeout": 30000}),
        ]);
        steps
    }

    fn json(&self) -> Value {
        Value::Array(self.0.clone())
    }
}

/// Steps that click the cell `pick` chooses (a JS expression) when a
/// person may move, and wait for the move to be made.
fn click_round(pick: &str) -> Vec<Value> {
    vec![
        json!({"wait": "t.ready()", "timeout": 30000}),
        json!({"eval": "t.mark()"}),
        json!({"click_at": pick}),
        json!({"wait": "t.moved()", "timeout": 30000}),
    ]
}

/// Rounds of `round` until the game is over (`max` rounds at most).
fn until_over(round: Vec<Value>, max: u32) -> Value {
    json!({"repeat": round, "until": "t.over()", "max": max})
}

/// The server on a bots file in `dir`: random-py (the bundled random bot)
/// and, when given, the engine binary.
fn serve(dir: &Path, engine: Option<&Path>) -> (Server, PathBuf) {
    serve_with(dir, engine, &[])
}

/// [`serve`] with more flags.
fn serve_with(dir: &Path, engine: Option<&Path>, flags: &[&str]) -> (Server, PathBuf) {
    let random = repo_path("bots/python/random_bot.py");
    let mut bots = format!(
        "[[bot]]\nname = \"random-py\"\ncommand = [\"python3\", {:?}, \"--seed\", \"7\"]\n",
        random.display().to_string()
    );
    if let Some(engine) = engine {
        bots += &format!(
            "\n[[bot]]\nname = \"engine\"\ncommand = [{:?}, \"--movetime\", \"50\"]\ntime_control = \"per-move=3000\"\n",
            engine.display().to_string()
        );
    }
    let file = dir.join("bots.toml");
    std::fs::write(&file, bots).unwrap();
    let out = dir.join("played");
    let mut args = vec![
        "--play",
        file.to_str().unwrap(),
        "--port",
        "0",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(flags);
    let server = Server::start(&args);
    (server, out)
}

fn play_url(server: &Server) -> String {
    format!("http://{}/play", server.addr)
}

/// The page's result (`t.result()`, the last step's) was recorded: the out
/// directory's record of that game has its moves, its result and reason
/// are the status line's, and `arena judge` replaying it agrees. The record.
fn check_recorded(out: &Path, page: &Value) -> Value {
    let id = page["game"].as_str().expect("the page names its game");
    let records = jsonl_records(out);
    let record = records
        .iter()
        .find(|r| r["game_id"] == id)
        .unwrap_or_else(|| panic!("{id} is not in games.jsonl: {records:?}"))
        .clone();
    assert_eq!(
        record["moves"], page["moves"],
        "the page's moves are the record's"
    );
    let status = format!(
        "{} {}: {}",
        record["result"].as_str().unwrap(),
        record["reason"].as_str().unwrap(),
        record["message"].as_str().unwrap()
    );
    assert_eq!(
        page["status"],
        json!(status),
        "the status line says the result"
    );
    let judged = judge(&record);
    let result = match judged["winner"].as_str() {
        Some("white") => "1-0",
        Some("black") => "0-1",
        _ => "1/2-1/2",
    };
    assert_ne!(judged["status"], "ongoing", "{judged}");
    assert_eq!(record["result"], json!(result), "{judged}");
    assert_eq!(record["reason"], judged["reason"], "{judged}");
    record
}

/// `arena judge` of a record: its verdict.
fn judge(record: &Value) -> Value {
    let out =
        common::output_with_stdin(common::arena().arg("judge"), record.to_string().as_bytes());
    serde_json::from_slice(&out.stdout).expect("judge prints JSON")
}

fn no_errors(session: &Session) {
    assert_eq!(session.errors, Vec::<String>::new(), "console errors");
}

/// The engine's binary, built beside arena (`cargo nextest run --workspace`
/// builds it; else it is built here).
fn engine() -> PathBuf {
    let arena = Path::new(env!("CARGO_BIN_EXE_arena"));
    let engine = arena.with_file_name("arena-engine");
    if !engine.exists() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = std::process::Command::new(cargo);
        build
            .args(["build", "-p", "arena-engine", "--bin", "arena-engine"])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if arena.parent().is_some_and(|d| d.ends_with("release")) {
            build.arg("--release");
        }
        let status = build.status().expect("run cargo build");
        assert!(status.success(), "cargo build -p arena-engine failed");
    }
    engine
}

#[test]
fn a_person_beats_or_loses_to_the_random_bot_on_qango6() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (server, out) = serve(tmp.path(), None);
    let form = json!({"variant": "qango6", "opponent": "bot:random-py", "colour": "white", "name": "alice"});
    let mut steps = Steps::start(&form);
    steps.add(json!({"wait": "t.ready()", "timeout": 30000}));
    // The markup, as the page has it and as Chromium's accessibility tree.
    let markup = steps.add(json!({"eval": r##"({
  cells: [...document.querySelectorAll("#board td[data-cell]")].map((td) => {
    const b = td.querySelectorAll("button.cell");
    return [td.dataset.cell, b.length === 1 ? b[0].getAttribute("aria-label") : null, b.length === 1 && !b[0].disabled];
  }),
  statuses: document.querySelectorAll('[role="status"]').length,
  status: document.getElementById("status").textContent,
  viewer: document.getElementById("viewer-link").getAttribute("href"),
  game: document.getElementById("game").dataset.game,
})"##}));
    let ax = steps.add(json!({"ax": true}));
    // The person's clock runs.
    steps.add(json!({"wait": r##"document.querySelector("#clock-white .time").textContent !== "5:00""##, "timeout": 10000}));
    // A first move, then hints for the second, gone after it.
    steps.all(click_round("t.pick(['c3'])"));
    steps.add(json!({"wait": "t.ready()", "timeout": 30000}));
    steps.add(json!({"click": "#hints"}));
    steps
        .add(json!({"wait": "document.querySelector('#hint-list li') !== null", "timeout": 30000}));
    // The picture of docs/PLAY.md: a game in progress, with hints.
    let shot = tmp.path().join("play.png");
    steps.add(json!({"eval": "window.scrollTo(0, 0) || true"}));
    steps.add(json!({"screenshot": shot.display().to_string(), "width": 1100, "height": 760}));
    let hints = steps.add(json!({"eval": r##"({
  enabled: t.enabled().map((b) => [b.getAttribute("aria-label"), b.dataset.hint || null, (b.querySelector(".badge") || {}).textContent || null]),
  list: [...document.querySelectorAll("#hint-list li")].map((li) => [li.dataset.move, li.dataset.hint]),
})"##}));
    steps.all(click_round("t.pick([])"));
    let badges = steps
        .add(json!({"eval": "document.querySelectorAll('#board .badge, #hint-list li').length"}));
    steps.add(until_over(click_round("t.pick([])"), 40));
    let result = steps.add(json!({"eval": "t.result()"}));
    let strip = steps.add(json!({"wait": "document.querySelector('#strip') && [...document.querySelectorAll('#strip .v')].map((v) => v.dataset.value).join('')", "timeout": 30000}));
    let session = drive(
        &chrome,
        &tmp.path().join("profile"),
        &play_url(&server),
        &steps.json(),
    );
    no_errors(&session);
    let r = &session.results;
    let first = &r[markup];
    let id = first["game"].as_str().unwrap();
    assert_eq!(first["statuses"], 1);
    assert_eq!(first["status"], "white (alice) to move");
    assert_eq!(first["viewer"], json!(format!("/#game={id}")));
    let cells = first["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 36, "every cell of qango6");
    for cell in cells {
        assert_eq!(cell[0], cell[1], "a cell is one button named by its cell");
        assert_eq!(cell[2], true, "every cell is legal on the first move");
    }
    // Chromium tells a screen reader the same: 36 buttons a1..f6, a status.
    let ax = r[ax].as_array().unwrap();
    let named: Vec<&str> = ax
        .iter()
        .filter(|n| n["role"] == "button")
        .filter_map(|n| n["name"].as_str())
        .filter(|name| name.len() == 2)
        .collect();
    assert_eq!(named.len(), 36, "{named:?}");
    assert!(named.contains(&"a1") && named.contains(&"f6"), "{named:?}");
    assert!(ax.iter().any(|n| n["role"] == "status"), "a status");
    // Hints: a value on every legal cell, and the same in the list.
    let hints = &r[hints];
    let enabled = hints["enabled"].as_array().unwrap();
    assert!(!enabled.is_empty());
    let letter = |v: &str| match v {
        "win" => "W",
        "draw" => "D",
        "loss" => "L",
        _ => "?",
    };
    let list = hints["list"].as_array().unwrap();
    for cell in enabled {
        let value = cell[1]
            .as_str()
            .unwrap_or_else(|| panic!("no hint on {cell}"));
        assert_eq!(cell[2], letter(value), "{cell}");
        let listed = json!([cell[0], value]);
        assert!(list.contains(&listed), "{listed} in {list:?}");
    }
    assert_eq!(list.len(), enabled.len());
    assert_eq!(r[badges], 0, "the hints go with the next move");
    let page = &r[result];
    let record = check_recorded(&out, page);
    assert_eq!(record["game"], "qango6");
    assert_eq!(record["white"], "alice");
    assert_eq!(record["black"], "random-py");
    // The strip: one cell per position, values as the viewer's.
    let strip = r[strip].as_str().expect("the analysis strip");
    assert_eq!(strip.len(), page["moves"].as_array().unwrap().len() + 1);
    assert!(strip.chars().all(|c| "WBD?-wbd".contains(c)), "{strip}");
    if std::env::var_os("ARENA_WRITE_DOCS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/play.png");
        std::fs::copy(&shot, docs).unwrap();
    }
}

#[test]
fn a_person_plays_the_engine_on_qango7_and_may_play_again_and_leave() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let engine = engine();
    let tmp = tempfile::tempdir().unwrap();
    let (server, out) = serve(tmp.path(), Some(&engine));
    // Black: the engine starts and moves first.
    let form =
        json!({"variant": "qango7", "opponent": "bot:engine", "colour": "black", "name": "bob"});
    let mut steps = Steps::start(&form);
    steps.add(until_over(click_round("t.pick([])"), 30));
    let result = steps.add(json!({"eval": "t.result()"}));
    let busy = steps.add(json!({"eval": "t.statuses"}));
    // Play again: the same settings, a new game; then leave it.
    steps.add(json!({"eval": "t.first = t.result().game"}));
    steps.add(json!({"click": "#again"}));
    steps.add(json!({"wait": "document.getElementById('game').dataset.game !== t.first && t.ready()", "timeout": 30000}));
    let title = steps.add(json!({"eval": "document.getElementById('game-title').textContent"}));
    steps.add(json!({"click": "#leave"}));
    steps.add(json!({"wait": "t.over()", "timeout": 30000}));
    let left = steps.add(json!({"eval": "t.result()"}));
    let session = drive(
        &chrome,
        &tmp.path().join("profile"),
        &play_url(&server),
        &steps.json(),
    );
    no_errors(&session);
    let r = &session.results;
    // The engine's thinking (or starting) was shown as such.
    let statuses = r[busy].as_array().unwrap();
    assert!(
        statuses.contains(&json!("white (engine) is thinking…"))
            || statuses.contains(&json!("white (engine) is starting…")),
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&json!("black (bob) to move")),
        "{statuses:?}"
    );
    let page = &r[result];
    let record = check_recorded(&out, page);
    assert_eq!(record["game"], "qango7");
    assert_eq!(record["white"], "engine");
    assert_eq!(record["black"], "bob");
    let title = r[title].as_str().unwrap();
    assert!(
        title.contains("engine (white) vs bob (black) · "),
        "{title}"
    );
    assert!(title.contains("qango7"), "{title}");
    let left = &r[left];
    assert_ne!(left["game"], page["game"]);
    let status = left["status"].as_str().unwrap();
    assert!(
        status.starts_with("1-0 timeout"),
        "leaving loses on time: {status}"
    );
    let id = left["game"].as_str().unwrap();
    let record = jsonl_records(&out).into_iter().find(|r| r["game_id"] == id);
    let record = record.expect("the game left is recorded");
    assert_eq!(
        (&record["result"], &record["reason"]),
        (&json!("1-0"), &json!("timeout"))
    );
}

#[test]
fn two_people_play_quinque_with_a_capture() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (server, out) = serve(tmp.path(), None);
    let form = json!({"variant": "quinque", "opponent": "person", "colour": "white", "name": "ann", "name2": "ben"});
    let mut steps = Steps::start(&form);
    steps.add(json!({"wait": "t.ready()", "timeout": 30000}));
    // By the keyboard: the focused cell's Enter opens its actions, Escape
    // closes them (the focus back on the cell), Enter again and Enter on
    // the action plays it.
    let focused = steps.add(json!({"eval": "t.focused()"}));
    steps.add(json!({"key": "Enter"}));
    let opened = steps.add(json!({"eval": "[t.focused(), [...document.querySelectorAll('#actions-list button')].map((b) => [b.getAttribute('aria-label'), b.textContent])]"}));
    steps.add(json!({"key": "Escape"}));
    let closed =
        steps.add(json!({"eval": "[t.focused(), document.getElementById('actions').hidden]"}));
    steps.add(json!({"key": "Enter"}));
    steps.add(json!({"eval": "t.mark()"}));
    steps.add(json!({"key": "Enter"}));
    steps.add(json!({"wait": "t.moved()", "timeout": 30000}));
    // Then by clicks: captures first (and doubles, which make them) until
    // one was played; then places, which end the game soonest.
    let cell = "t.captured() ? t.pick(['place']) : t.pick(['capture', 'double', 'place'])";
    let action = "t.captured() ? t.action(['place']) : t.action(['capture', 'double', 'place'])";
    steps.add(until_over(
        vec![
            json!({"wait": "t.ready()", "timeout": 30000}),
            json!({"eval": "t.mark()"}),
            json!({"click_at": cell}),
            json!({"wait": "t.over() || document.querySelector('#actions-list button') !== null", "timeout": 30000}),
            json!({"click_at": action}),
            json!({"wait": "t.moved()", "timeout": 30000}),
        ],
        90,
    ));
    let result = steps.add(json!({"eval": "t.result()"}));
    let played = steps.add(json!({"eval": "t.played"}));
    let session = drive(
        &chrome,
        &tmp.path().join("profile"),
        &play_url(&server),
        &steps.json(),
    );
    no_errors(&session);
    let r = &session.results;
    let first = r[focused].as_str().unwrap().to_string();
    let place = format!("place {first}");
    assert_eq!(
        r[opened],
        json!([place, [[place, place]]]),
        "a cell's actions are buttons named and labelled by the move"
    );
    assert_eq!(r[closed], json!([first, true]), "Escape closes them");
    let page = &r[result];
    let record = check_recorded(&out, page);
    assert_eq!(record["game"], "quinque");
    assert_eq!(
        (&record["white"], &record["black"]),
        (&json!("ann"), &json!("ben"))
    );
    assert_eq!(record["moves"][0], json!(place));
    let played = r[played].as_array().unwrap();
    let captures: Vec<&Value> = played
        .iter()
        .filter(|m| m.as_str().unwrap().starts_with("capture"))
        .collect();
    assert!(!captures.is_empty(), "a capture was played: {played:?}");
    for m in captures {
        assert!(
            record["moves"].as_array().unwrap().contains(m),
            "{m} in the record"
        );
    }
}

#[test]
fn two_people_play_qango7plus_by_the_keyboard() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (server, out) = serve(tmp.path(), None);
    let form = json!({"variant": "qango7plus-tournament", "opponent": "person", "colour": "black", "name": "cy", "name2": "di"});
    let mut steps = Steps::start(&form);
    // Before the first move: the cells it may go on, marked and enabled.
    let marks = r##"({
  marked: [...document.querySelectorAll("#board td.first")].map((td) => td.dataset.cell).sort(),
  enabled: t.enabled().map((b) => b.getAttribute("aria-label")).sort(),
  legend: !!document.querySelector('#legend [data-kind="first"]'),
})"##;
    steps.add(json!({"wait": "t.ready()", "timeout": 30000}));
    let before = steps.add(json!({ "eval": marks }));
    // Each round: Tab to the next playable cell (past the last one the
    // focus leaves the board: Tab on, round to the first) and Enter; then
    // Space on the cell the focus went to.
    let round = vec![
        json!({"wait": "t.ready()", "timeout": 30000}),
        json!({"eval": "t.mark()"}),
        json!({"key": "Tab"}),
        json!({"repeat": [{"key": "Tab"}], "until": "document.activeElement.matches('#board button.cell')", "max": 80}),
        json!({"key": "Enter"}),
        json!({"wait": "t.moved()", "timeout": 30000}),
        json!({"wait": "t.ready()", "timeout": 30000}),
        json!({"eval": "t.mark()"}),
        json!({"key": " "}),
        json!({"wait": "t.moved()", "timeout": 30000}),
    ];
    steps.add(until_over(round, 40));
    let result = steps.add(json!({"eval": "t.result()"}));
    let after = steps.add(json!({ "eval": marks }));
    let session = drive(
        &chrome,
        &tmp.path().join("profile"),
        &play_url(&server),
        &steps.json(),
    );
    no_errors(&session);
    // docs/RULES.md: qango7plus-tournament's first move goes only on b5,
    // c6, e2 or f3.
    let allowed = json!(["b5", "c6", "e2", "f3"]);
    let before = &session.results[before];
    assert_eq!(before["marked"], allowed, "{before}");
    assert_eq!(before["enabled"], allowed, "{before}");
    assert_eq!(before["legend"], true, "the legend says what the marks are");
    let after = &session.results[after];
    assert_eq!(
        after["marked"],
        json!([]),
        "no marks once the first move is down"
    );
    let record = check_recorded(&out, &session.results[result]);
    assert_eq!(record["game"], "qango7plus-tournament");
    // The first name chose black.
    assert_eq!(
        (&record["white"], &record["black"]),
        (&json!("di"), &json!("cy"))
    );
}

#[test]
fn the_page_refuses_equal_names_and_says_when_the_boards_are_in_use() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (server, _out) = serve_with(tmp.path(), None, &["--max-live", "1"]);
    let said = "[document.getElementById('form-error').textContent, document.getElementById('game').hidden]";
    let mut steps = Steps::default();
    steps.add(json!({"eval": KIT}));
    // Two people of one name, and a person named as the bot: refused on
    // the page, before any request.
    let form = json!({"variant": "qango6", "opponent": "person", "name": "sam", "name2": " sam "});
    steps.add(json!({"eval": set_form(&form)}));
    steps.add(json!({"click": "#start"}));
    let twins = steps.add(json!({"eval": said}));
    let form = json!({"opponent": "bot:random-py", "name": "random-py"});
    steps.add(json!({"eval": set_form(&form)}));
    steps.add(json!({"click": "#start"}));
    let bot = steps.add(json!({"eval": said}));
    // The one board taken (by a request of this page's own), Start says so.
    steps.add(json!({"eval": r##"fetch("/play/new", { method: "POST", headers: { "content-type": "application/json",
  "x-arena-token": JSON.parse(document.getElementById("setup").textContent).token },
  body: JSON.stringify({ variant: "qango6", time_control: "per-move=1000", white: { person: "x" }, black: { person: "y" } }) })
  .then((r) => r.status)"##}));
    let form = json!({"opponent": "bot:random-py", "name": "sam"});
    steps.add(json!({"eval": set_form(&form)}));
    steps.add(json!({"click": "#start"}));
    let busy = steps.add(json!({"wait": "document.getElementById('form-error').textContent.includes('in use') && [document.getElementById('form-error').textContent, document.getElementById('game').hidden]", "timeout": 30000}));
    let session = drive(
        &chrome,
        &tmp.path().join("profile"),
        &play_url(&server),
        &steps.json(),
    );
    // The refused request is the one error the browser logs.
    assert_eq!(session.errors.len(), 1, "{:?}", session.errors);
    assert!(session.errors[0].contains("503"), "{:?}", session.errors);
    let r = &session.results;
    assert!(
        r[twins][0]
            .as_str()
            .unwrap()
            .contains("two different names"),
        "{}",
        r[twins]
    );
    assert_eq!(r[twins][1], true, "no game");
    assert!(
        r[bot][0].as_str().unwrap().contains("the bot's"),
        "{}",
        r[bot]
    );
    assert_eq!(
        r[busy],
        json!(["all 1 boards are in use: try again when a game ends", true])
    );
}

#[test]
fn closing_the_page_leaves_the_game_at_once() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (server, out) = serve(tmp.path(), None);
    let form =
        json!({"variant": "qango6", "opponent": "bot:random-py", "colour": "white", "name": "eve"});
    let mut steps = Steps::start(&form);
    steps.add(json!({"wait": "t.ready()", "timeout": 30000}));
    let id = steps.add(json!({"eval": "t.result().game"}));
    // Another page in the tab: this one's pagehide sends "leave".
    // (after the step's answer, which a navigation under way would cut off).
    steps.add(json!({"eval": "setTimeout(() => location.assign('about:blank'), 50), true"}));
    steps.add(json!({"wait": "location.href === 'about:blank' && document.readyState === 'complete'", "timeout": 30000}));
    let session = drive(
        &chrome,
        &tmp.path().join("profile"),
        &play_url(&server),
        &steps.json(),
    );
    no_errors(&session);
    let id = session.results[id].as_str().unwrap();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let record = loop {
        let found = jsonl_records(&out).into_iter().find(|r| r["game_id"] == id);
        if let Some(record) = found {
            break record;
        }
        assert!(std::time::Instant::now() < end, "{id} was never recorded");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(
        (&record["result"], &record["reason"]),
        (&json!("0-1"), &json!("timeout"))
    );
    // Left by the page itself, not found abandoned later.
    let message = record["message"].as_str().unwrap();
    assert!(
        message.contains("left the page") && !message.contains("no page followed"),
        "{message}"
    );
}
