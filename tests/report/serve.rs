//! `arena serve` as its users meet it, over real runs of instant bots: the
//! first line names the address (127.0.0.1 unless told otherwise, a warning
//! when told 0.0.0.0); the page is the report's, byte for byte what `arena
//! report` writes; a game added to the run while serving reaches the
//! Server-Sent Events and the status; several directories are listed, the
//! shards of one tournament as one run; no request reads a file outside
//! the run's directories, in whatever encoding; 100 idle connections do not
//! keep a request from being answered at once. The page in a real browser
//! following a running tournament: tests/report/serve_browser.rs.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::serve::Server;
use common::tournament::{
    run_arena, run_tournament, text, write_config, write_instant_config, TestBot,
};

/// A finished round robin of instant bots in `dir/name`.
fn finished_run(dir: &Path, name: &str, settings: &str) -> PathBuf {
    let work = dir.join(format!("{name}-config"));
    std::fs::create_dir_all(&work).unwrap();
    let config = write_instant_config(&work, settings, &["a", "b", "c"]);
    let out = dir.join(name);
    let run = run_tournament(&config, &out);
    assert!(run.status.success(), "{}", text(&run));
    std::fs::canonicalize(out).unwrap()
}

fn games_in(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .count()
}

/// The title the report gives a page of `n` games.
fn title(n: usize) -> String {
    format!("<title>arena report: {n} games</title>")
}

#[test]
fn serves_the_report_and_follows_a_game_added_to_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = finished_run(tmp.path(), "run", "games_per_pairing = 2\nseed = 3");
    let games = games_in(&out);
    let server = Server::start(&[out.to_str().unwrap(), "--port", "0"]);
    assert!(
        server.first.starts_with("Serving http://127.0.0.1:"),
        "{:?}",
        server.first
    );
    assert!(
        server.second.contains("127.0.0.1 only"),
        "{:?}",
        server.second
    );

    // The live page: the report with the progress line on top.
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(page.contains(&title(games)), "{}", &page[..400]);
    assert!(page.contains("<div id=\"live\""));
    // The page it swaps in is byte for byte what `arena report` writes.
    let (code, rendered) = server.get("/_live/page");
    assert_eq!(code, 200);
    let written = run_arena(&["report", out.to_str().unwrap()]);
    assert!(written.status.success(), "{}", text(&written));
    assert_eq!(
        rendered,
        std::fs::read_to_string(out.join("report.html")).unwrap(),
        "the served page equals report.html"
    );
    // The run's own files are served.
    let (code, manifest) = server.get("/tournament.json");
    assert_eq!(code, 200);
    assert_eq!(
        manifest,
        std::fs::read_to_string(out.join("tournament.json")).unwrap()
    );

    // A page listening for events, then one more game in the run.
    let mut events = TcpStream::connect(server.addr).unwrap();
    events
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    write!(events, "GET /_live/events HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let seen = read_until(&mut events, &format!("\"games\":{games},"));
    assert!(seen.contains("event: status"), "{seen}");
    let jsonl = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut record: serde_json::Value =
        serde_json::from_str(jsonl.lines().last().unwrap()).unwrap();
    record["game_id"] = serde_json::json!(format!("g{}", games as u64 + 100));
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(out.join("games.jsonl"))
        .unwrap();
    writeln!(file, "{record}").unwrap();
    drop(file);
    let seen = read_until(&mut events, &format!("\"games\":{},", games + 1));
    assert!(seen.contains("event: status"));
    // The page rendered anew says so, and so does the status.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, page) = server.get("/_live/page");
        if page.contains(&title(games + 1)) {
            assert!(page.contains(&format!("g{}", games + 100)));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the page did not show the new game"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (code, status) = server.get("/_live/status");
    assert_eq!(code, 200);
    let status: serde_json::Value = serde_json::from_str(&status).unwrap();
    assert_eq!(status["games"], serde_json::json!(games + 1));
    assert_eq!(status["planned"], serde_json::json!(games));
    assert!(status["version"].as_u64().unwrap() >= 2, "{status}");
}

/// What `stream` gives until it holds `wanted` (10 s at most).
fn read_until(stream: &mut TcpStream, wanted: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&seen).into_owned();
        if text.contains(wanted) {
            return text;
        }
        assert!(Instant::now() < deadline, "no {wanted:?} in {text}");
        match stream.read(&mut buf) {
            Ok(0) => panic!("the events stream ended: {text}"),
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
    }
}

#[test]
fn no_request_reads_outside_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = finished_run(tmp.path(), "run", "games_per_pairing = 2\nseed = 3");
    std::fs::write(tmp.path().join("secret.txt"), "TOPSECRET\n").unwrap();
    std::fs::write(out.join("logs/kept.log"), "a log of the run\n").unwrap();
    std::os::unix::fs::symlink(tmp.path().join("secret.txt"), out.join("leak")).unwrap();
    std::os::unix::fs::symlink(tmp.path(), out.join("logs/up")).unwrap();
    let server = Server::start(&[out.to_str().unwrap(), "--port", "0"]);
    assert_eq!(
        server.get("/logs/kept.log"),
        (200, "a log of the run\n".into())
    );
    for path in [
        "/../secret.txt",
        "/logs/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/.%2e/secret.txt",
        "/logs/%2e%2e/%2e%2e/secret.txt",
        "/logs%2f..%2f..%2fsecret.txt",
        "/..%2fsecret.txt",
        "/..%5csecret.txt",
        "/..\\secret.txt",
        "/%252e%252e/secret.txt",
        "/%c0%ae%c0%ae/secret.txt",
        "/leak",
        "/logs/up/secret.txt",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/logs/%00",
        "/./tournament.json",
    ] {
        let (code, body) = server.get(path);
        assert!(code == 400 || code == 404, "{path}: {code} {body}");
        assert!(
            !body.contains("TOPSECRET") && !body.contains("root:"),
            "{path}: {body}"
        );
    }
    // Only reading: any other method is refused.
    let mut stream = TcpStream::connect(server.addr).unwrap();
    write!(
        stream,
        "DELETE /games.jsonl HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    assert!(out.join("games.jsonl").exists());
}

#[test]
fn idle_connections_do_not_keep_a_request_waiting() {
    let tmp = tempfile::tempdir().unwrap();
    let out = finished_run(tmp.path(), "run", "games_per_pairing = 2\nseed = 3");
    let server = Server::start(&[out.to_str().unwrap(), "--port", "0"]);
    assert_eq!(server.get("/_live/status").0, 200);
    // 100 clients that connect and send nothing, or half a request.
    let idle: Vec<TcpStream> = (0..100)
        .map(|i| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            if i % 2 == 1 {
                s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
            }
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(page.contains("arena report"));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "answered in {:?} beside 100 idle connections",
        started.elapsed()
    );
    drop(idle);
}

#[test]
fn binds_loopback_unless_told_and_warns_when_told() {
    let tmp = tempfile::tempdir().unwrap();
    let out = finished_run(tmp.path(), "run", "games_per_pairing = 2\nseed = 3");
    let server = Server::start(&[out.to_str().unwrap(), "--port", "0", "--bind", "0.0.0.0"]);
    assert!(
        server.first.starts_with("Serving http://0.0.0.0:"),
        "{:?}",
        server.first
    );
    assert!(
        server.second.starts_with("warning: "),
        "{:?}",
        server.second
    );
    drop(server);
    // A directory that is not there: one line naming it.
    let missing = tmp.path().join("nowhere");
    let run = run_arena(&["serve", missing.to_str().unwrap(), "--port", "0"]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nowhere"), "{err}");
}

#[test]
fn several_runs_are_listed_and_shards_of_one_are_one() {
    let tmp = tempfile::tempdir().unwrap();
    let one = finished_run(tmp.path(), "one", "games_per_pairing = 2\nseed = 3");
    // Both shards from one tournament file, as a cluster runs them.
    let config = write_instant_config(
        tmp.path(),
        "games_per_pairing = 2\nseed = 4",
        &["a", "b", "c"],
    );
    let [s1, s2] = ["1/2", "2/2"].map(|shard| {
        let out = tmp.path().join(format!("shard{}", &shard[..1]));
        let args = [
            "tournament",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        let run = run_arena(&[&args[..], &["--shard", shard, "--no-progress"]].concat());
        assert!(run.status.success(), "{}", text(&run));
        std::fs::canonicalize(out).unwrap()
    });
    let dirs = [&one, &s1, &s2].map(|d| d.to_str().unwrap().to_string());
    let server = Server::start(&[&dirs[0], &dirs[1], &dirs[2], "--port", "0"]);
    let (code, list) = server.get("/");
    assert_eq!(code, 200);
    assert!(list.contains("href=\"/run/0/\"") && list.contains("href=\"/run/1/\""));
    assert!(!list.contains("/run/2/"), "the shards are one run: {list}");
    let (code, page) = server.get("/run/1/");
    assert_eq!(code, 200);
    assert!(
        page.contains(&title(games_in(&s1) + games_in(&s2))),
        "both shards' games"
    );
    assert_eq!(server.get("/run/0/").0, 200);
    assert_eq!(server.get("/run/7/").0, 404);
    let (_, status) = server.get("/run/1/_live/status");
    let status: serde_json::Value = serde_json::from_str(&status).unwrap();
    assert_eq!(status["planned"], status["games"], "{status}");
}

#[test]
fn a_tournament_serves_its_own_page_while_it_plays() {
    let tmp = tempfile::tempdir().unwrap();
    // Paced bots (30 ms a move): the run lasts a second or two.
    let config = write_config(
        tmp.path(),
        "variant = \"qango6\"\ngames_per_pairing = 2\nseed = 3",
        &[
            TestBot::new("p1", "tests/bots/paced_bot.py", &["30"]),
            TestBot::new("p2", "tests/bots/paced_bot.py", &["30"]),
        ],
    );
    let out = tmp.path().join("run");
    let args = [
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let mut run = Server::run(&[&args[..], &["--no-progress", "--serve", "0"]].concat());
    assert!(
        run.first.starts_with("Serving http://127.0.0.1:"),
        "{:?}",
        run.first
    );
    assert!(run.second.contains("127.0.0.1 only"), "{:?}", run.second);
    // The page while it plays, then every game of the run.
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        let (code, status) = run.get("/_live/status");
        assert_eq!(code, 200);
        let status: serde_json::Value = serde_json::from_str(&status).unwrap();
        if status["version"].as_u64() > Some(0) {
            break status;
        }
        assert!(Instant::now() < deadline, "no page: {status}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status["planned"], serde_json::json!(2), "{status}");
    let (code, page) = run.get("/");
    assert_eq!(code, 200);
    assert!(page.contains("<div id=\"live\""));
    // The server's threads yield the CPU; the run's do not.
    let threads = run.thread_priorities();
    let niceness = |which: &str| -> Vec<i64> {
        threads
            .iter()
            .filter(|(name, _)| name.starts_with("arena-serve") == (which == "server"))
            .map(|(_, nice)| *nice)
            .collect()
    };
    // 10 above the niceness arena started with (this test's own, which
    // `nice cargo test` raises), at most the lowest priority, 19.
    // SAFETY: getpriority takes no pointer.
    let own = i64::from(unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) });
    let lowered = (own + 10).min(19);
    assert!(
        niceness("server").iter().all(|n| *n >= lowered),
        "{threads:?}"
    );
    assert!(niceness("server").len() >= 3, "{threads:?}");
    assert!(niceness("run").contains(&own), "{threads:?}");
    assert!(run.wait(Duration::from_secs(30)).success());
}
