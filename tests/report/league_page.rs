//! `arena serve LEAGUE`: a league's leaderboard page. A small league made
//! and played with the CLI (`arena league init/add/play`: ada, bob and cy,
//! then ada's second version). Over HTTP: the leaderboard ranks the latest
//! versions as `arena league standings` does (ada@1 not among them), lists
//! every version and each bot's history, the recent games link to the
//! viewer, games that `arena league play` adds while it is served and a
//! version registered reach the page, and the registry (token hashes) is
//! not served. In headless Chromium: no console errors, the standings
//! shown, every version on demand, a recent game opening in the viewer, and
//! the page changing without a reload when `arena league play` adds games
//! (the fold the reader opened staying open, the newest game first).
//! Skipped, saying so, where Chromium or Node is not installed.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::browser::drive;
use common::serve::Server;
use common::tournament::{run_arena, text};
use common::INSTANT_BOT;
use serde_json::json;

/// Games in the league when it is first served: every pair of ada@1,
/// bob@1 and cy@1 (a game pair each), then ada@2's pairs.
const FIRST: usize = 10;
/// Games `arena league play` appends while the page is open (one pair).
const MORE: usize = 2;
const GAMES: usize = FIRST + MORE;

fn arena_ok(args: &[&str]) -> String {
    let out = run_arena(args);
    assert!(out.status.success(), "arena {args:?}: {}", text(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// `arena league play LEAGUE --games N`.
fn play(league: &Path, games: usize) {
    let games = games.to_string();
    let l = league.to_str().unwrap();
    arena_ok(&[
        "league",
        "play",
        l,
        "--games",
        &games,
        "-j",
        "2",
        "--no-progress",
    ]);
}

/// The league `dir/league`, made and played with the CLI: ada, bob and cy
/// registered and played, then ada's second version registered and played.
fn small_league(dir: &Path) -> PathBuf {
    let league = dir.join("league");
    let l = league.to_str().unwrap();
    arena_ok(&["league", "init", l, "--variant", "qango6"]);
    for name in ["ada", "bob", "cy"] {
        arena_ok(&["league", "add", l, name, "--", INSTANT_BOT, name]);
    }
    play(&league, 6);
    arena_ok(&["league", "add", l, "ada", "--", INSTANT_BOT, "ada", "2"]);
    play(&league, 4);
    assert_eq!(games_in(&league), FIRST);
    league
}

fn games_in(league: &Path) -> usize {
    std::fs::read_to_string(league.join("games.jsonl"))
        .unwrap()
        .lines()
        .count()
}

/// The id of the last game of the league's journal.
fn last_game(league: &Path) -> String {
    let journal = std::fs::read_to_string(league.join("games.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(journal.lines().last().unwrap()).unwrap();
    last["game_id"].as_str().unwrap().to_string()
}

/// The bots of `arena league standings` (`--all`: every version), best
/// first, from the standings.csv and versions.csv it writes.
fn standings_bots(league: &Path) -> (Vec<String>, Vec<String>) {
    arena_ok(&["league", "standings", league.to_str().unwrap()]);
    let column = |file: &str, name: &str| -> Vec<String> {
        let mut csv = csv::Reader::from_path(league.join(file)).unwrap();
        let at = csv
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == name)
            .unwrap();
        csv.records().map(|r| r.unwrap()[at].to_string()).collect()
    };
    (
        column("standings.csv", "bot"),
        column("versions.csv", "bot"),
    )
}

/// The text of each `td.name` cell of the element `id` in `page`, in order.
fn names_in(page: &str, id: &str) -> Vec<String> {
    let start = page
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let end = start + page[start..].find("</table>").unwrap();
    page[start..end]
        .split("<td class=\"name\">")
        .skip(1)
        .map(|cell| cell[..cell.find("</td>").unwrap()].to_string())
        .collect()
}

#[test]
fn a_league_is_served_as_its_leaderboard_and_follows_its_games() {
    let tmp = tempfile::tempdir().unwrap();
    let league = small_league(tmp.path());
    let (latest, every) = standings_bots(&league);
    assert_eq!(latest.len(), 3, "{latest:?}");
    assert!(!latest.contains(&"ada@1".to_string()), "{latest:?}");
    assert_eq!(every.len(), 4, "{every:?}");
    let server = Server::start(&[league.to_str().unwrap(), "--port", "0"]);
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(page.contains(&format!("<title>arena league: {FIRST} games</title>")));
    // The latest versions, ranked as arena league standings ranks them.
    assert_eq!(names_in(&page, "lb-latest"), latest);
    // Every version (a fold), as versions.csv lists them.
    assert!(page.contains("<details id=\"lb-every\"><summary>Every version (4 rated"));
    assert_eq!(names_in(&page, "lb-every"), every);
    // Each bot's versions: ada's two, in order.
    assert!(page.contains("<span class=\"name\">ada</span>: 2 versions · now ada@2"));
    assert_eq!(names_in(&page, "lb-history-1"), ["ada@1", "ada@2"]);
    // The recent games, newest first, each opening the viewer.
    let recent = page.matches("<a href=\"#game=g").count();
    assert_eq!(recent, FIRST);
    assert!(page.contains(&format!("{FIRST} games · 3 bots scheduled · 4 versions")));
    // The league's files are served (its logs), not its registry, which
    // holds the participants' token hashes, nor their uploaded code.
    assert_eq!(server.get("/league.toml").0, 200);
    assert_eq!(server.get("/bots.jsonl").0, 404);
    let upload = league.join("submissions/ada/1");
    std::fs::create_dir_all(&upload).unwrap();
    std::fs::write(upload.join("bot.py"), "# ada's code\n").unwrap();
    assert_eq!(server.get("/submissions/ada/1/bot.py").0, 404);
    // Taking submissions, the live bar links to the upload page.
    if common::sandbox_works() {
        let submit = Server::start(&[league.to_str().unwrap(), "--submissions", "--port", "0"]);
        let (_, page) = submit.get("/");
        assert!(page.contains("href=\"/submit\">submit a bot</a>"));
        assert!(!server.get("/").1.contains("href=\"/submit\""));
    }

    // Two games played while it is served: the page follows.
    play(&league, MORE);
    assert_eq!(games_in(&league), GAMES);
    let end = Instant::now() + Duration::from_secs(60);
    let page = loop {
        let (_, page) = server.get("/_live/page");
        if page.contains(&format!("{GAMES} games · 3 bots")) {
            break page;
        }
        assert!(Instant::now() < end, "the page never showed {GAMES} games");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(page.matches("<a href=\"#game=g").count(), GAMES);
    let (latest, _) = standings_bots(&league);
    assert_eq!(names_in(&page, "lb-latest"), latest);

    // A third version of ada registered: its history shows it before it
    // has played (no Elo yet), and the ranking is the standings' again.
    let l = league.to_str().unwrap();
    arena_ok(&["league", "add", l, "ada", "--", INSTANT_BOT, "ada", "3"]);
    let page = loop {
        let (_, page) = server.get("/_live/page");
        if page.contains("<span class=\"name\">ada</span>: 3 versions") {
            break page;
        }
        assert!(Instant::now() < end, "the page never showed ada@3");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(names_in(&page, "lb-history-1"), ["ada@1", "ada@2", "ada@3"]);
    assert!(
        page.contains("<td class=\"name\">ada@3</td><td>"),
        "ada@3 in its history"
    );
    let history = &page[page.find("id=\"lb-history-1\"").unwrap()..];
    let ada3 = &history[history.find(">ada@3<").unwrap()..];
    let ada3 = &ada3[..ada3.find("</tr>").unwrap()];
    assert!(ada3.contains("<td>0</td><td>-</td>"), "{ada3}");
    let (latest, _) = standings_bots(&league);
    assert!(!latest.iter().any(|b| b.starts_with("ada@")), "{latest:?}");
    assert_eq!(names_in(&page, "lb-latest"), latest);
}

/// Reads what the leaderboard shows, in the page.
const SHOWN: &str = r##"(() => {
  const names = (sel) => [...document.querySelectorAll(sel + " td.name")].map((td) => td.textContent);
  const every = document.querySelector("#lb-every table");
  return {
    latest: names("#lb-latest"),
    every: names("#lb-every"),
    every_open: document.getElementById("lb-every").open,
    every_visible: every.checkVisibility(),
    summary: document.getElementById("lb-summary").textContent,
    recent: document.querySelectorAll("#lb-recent a").length,
    newest: document.querySelector("#lb-recent a").textContent,
    mark: window.leagueTestMark || null,
  };
})()"##;

#[test]
fn the_leaderboard_in_a_browser_shows_versions_on_demand_and_follows_games() {
    let Some(chrome) = common::browser::chromium_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let league = small_league(tmp.path());
    let (latest, every) = standings_bots(&league);
    let server = Server::start(&[league.to_str().unwrap(), "--port", "0"]);
    // More games are played once the page removes the trigger file.
    let trigger = tmp.path().join("play-now");
    std::fs::write(&trigger, "").unwrap();
    let player = {
        let (trigger, league) = (trigger.clone(), league.clone());
        std::thread::spawn(move || {
            let end = Instant::now() + Duration::from_secs(60);
            while trigger.exists() && Instant::now() < end {
                std::thread::sleep(Duration::from_millis(50));
            }
            play(&league, MORE);
            last_game(&league)
        })
    };
    let steps = json!([
        {"wait": "document.querySelectorAll('#lb-latest td.name').length > 0"},
        {"eval": format!("window.leagueTestMark = 'the same page'; {SHOWN}")},
        {"click": "#lb-every > summary"},
        {"eval": SHOWN},
        {"click": "#lb-recent a"},
        {"wait": "!document.getElementById('viewer').hidden && document.getElementById('v-title').textContent"},
        {"key": "Escape"},
        {"remove": trigger.display().to_string()},
        {"wait": format!("document.getElementById('lb-summary').textContent.startsWith('{GAMES} games')")},
        {"eval": SHOWN},
    ]);
    let url = format!("http://{}/", server.addr);
    let session = drive(&chrome, &tmp.path().join("profile"), &url, &steps);
    let last = player.join().unwrap();
    assert_eq!(session.errors, Vec::<String>::new(), "console errors");
    let r = &session.results;
    // The standings at load: the latest versions, every version folded.
    assert_eq!(r[1]["latest"], json!(latest));
    assert_eq!(r[1]["every_visible"], json!(false), "{}", r[1]);
    assert_eq!(r[1]["every_open"], json!(false));
    assert!(
        r[1]["summary"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{FIRST} games")),
        "{}",
        r[1]
    );
    assert_eq!(r[1]["recent"], json!(FIRST));
    // Every version on demand.
    assert_eq!(r[2], json!(true));
    assert_eq!(r[3]["every_visible"], json!(true), "{}", r[3]);
    assert_eq!(r[3]["every"], json!(every));
    // A recent game opens in the viewer: the newest listed first.
    let title = r[5].as_str().unwrap_or_default();
    let newest = r[3]["newest"].as_str().unwrap();
    assert!(
        title.starts_with(&format!("{newest}: ")),
        "viewer title {title:?}"
    );
    // After the games were played: the same page (no reload), the games
    // counted and listed, every version still shown.
    let after = &r[9];
    assert_eq!(after["mark"], json!("the same page"));
    assert!(
        after["summary"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{GAMES} games")),
        "{after}"
    );
    assert_eq!(after["recent"], json!(GAMES));
    assert_eq!(after["newest"], json!(last), "the newest game first");
    assert_eq!(after["every_visible"], json!(true), "the fold stayed open");
    assert_eq!(after["every_open"], json!(true));
    let (latest_now, _) = standings_bots(&league);
    assert_eq!(after["latest"], json!(latest_now));
}
