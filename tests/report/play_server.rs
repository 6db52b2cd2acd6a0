//! `arena serve --play BOTS.toml` over plain HTTP, as a hostile client
//! would see it: only the file's bots start, actions need the page's token
//! from its own origin and a loopback host, `--max-live` holds under 50
//! starts at once, a closed page or an idle person ends the game (a loss on
//! time, recorded, its bot stopped), Ctrl-C leaves no process behind, and a
//! game played to the end is recorded as `arena judge`, `report` and
//! `rate` take it. The page itself in a browser: `play_browser`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::serve::Server;
use crate::common::{
    arena, bot_script, live_processes_with_arg, output_with_stdin, stdout_of_success, unique_tag,
    INSTANT_BOT,
};

/// A play server on a free port over the bots of a file written for it.
struct Play {
    server: Server,
    token: String,
    out: PathBuf,
    _dir: tempfile::TempDir,
}

/// The bots file: `instant` (the instant bot, with `tag` as its name so
/// its processes can be found) and `stubborn` (ignores SIGTERM).
fn bots_file(dir: &Path, tag: &str) -> PathBuf {
    let path = dir.join("bots.toml");
    let text = format!(
        "[[bot]]\nname = \"instant\"\ncommand = [{:?}, {tag:?}]\n\n[[bot]]\nname = \"stubborn\"\ncommand = [\"python3\", {:?}, {tag:?}]\n",
        INSTANT_BOT,
        bot_script("ignore_sigterm").display().to_string(),
    );
    std::fs::write(&path, text).unwrap();
    path
}

impl Play {
    fn start(tag: &str, flags: &[&str]) -> Play {
        let dir = tempfile::tempdir().unwrap();
        let bots = bots_file(dir.path(), tag);
        let out = dir.path().join("out");
        let args: Vec<&str> = [
            "--play",
            bots.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--port",
            "0",
        ]
        .into_iter()
        .chain(flags.iter().copied())
        .collect();
        let server = Server::start(&args);
        let token = token_of(&request(server.addr, "GET", "/play", &[], "").1);
        Play {
            server,
            token,
            out,
            _dir: dir,
        }
    }

    fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    fn origin(&self) -> String {
        format!("http://{}", self.addr())
    }

    /// An action as the page sends it: (status, JSON answer).
    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_as(&self.token, path, body)
    }

    fn post_as(&self, token: &str, path: &str, body: &Value) -> (u16, Value) {
        let origin = self.origin();
        let headers = [
            ("Origin", origin.as_str()),
            ("x-arena-token", token),
            ("Content-Type", "application/json"),
        ];
        let (code, text) = request(self.addr(), "POST", path, &headers, &body.to_string());
        (code, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    fn new_game(&self, variant: &str, white: Value, black: Value) -> (u16, Value) {
        let body = json!({"variant": variant, "time_control": "per-move=1000", "white": white, "black": black});
        self.post("/play/new", &body)
    }

    fn follow(&self, game: &str) -> Events {
        Events::open(self.addr(), game, &self.token)
    }

    fn records(&self) -> Vec<Value> {
        std::fs::read_to_string(self.out.join("games.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The records once `n` are there (30 s at most).
    fn wait_for_records(&self, n: usize) -> Vec<Value> {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let records = self.records();
            if records.len() >= n {
                return records;
            }
            assert!(Instant::now() < end, "{n} records never came: {records:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn token_of(page: &str) -> String {
    let at = page.find("\"token\":\"").expect("the page has its token") + 9;
    page[at..at + 64].to_string()
}

/// One HTTP/1.1 request on its own connection (Host: the server's
/// address): (status, body).
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut lines = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        lines.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        lines.push_str(&format!("{k}: {v}\r\n"));
    }
    if method == "POST" {
        lines.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    lines.push_str("\r\n");
    lines.push_str(body);
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(lines.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let code = answer.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (code, body)
}

/// A game's states as the page hears them (an HTTP/1.0 request, so the
/// stream is not chunked); dropping it closes the connection, as closing
/// the tab does.
struct Events {
    lines: BufReader<TcpStream>,
}

impl Events {
    fn open(addr: SocketAddr, game: &str, token: &str) -> Events {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "GET /play/game/{game}/events?token={token} HTTP/1.0\r\nHost: {addr}\r\n\r\n"
        )
        .unwrap();
        Events {
            lines: BufReader::new(stream),
        }
    }

    /// The next state sent.
    fn next(&mut self) -> Value {
        loop {
            let mut line = String::new();
            let n = self
                .lines
                .read_line(&mut line)
                .expect("a state within 30 s");
            assert!(n > 0, "the events ended");
            if let Some(data) = line.strip_prefix("data: ") {
                return serde_json::from_str(data).unwrap();
            }
        }
    }

    /// The states until the game is over, the person's moves played
    /// (`choose` picks one of the legal moves): the last state.
    fn play_out(&mut self, play: &Play, game: &str, choose: impl Fn(&[Value]) -> usize) -> Value {
        loop {
            let state = self.next();
            if state["over"] == true {
                return state;
            }
            let legal = state["legal"].as_array().unwrap();
            if !legal.is_empty() {
                let mv = &legal[choose(legal)];
                let ply = state["moves"].as_array().unwrap().len();
                let (code, answer) = play.post(
                    &format!("/play/game/{game}/move"),
                    &json!({"move": mv, "ply": ply}),
                );
                assert_eq!(code, 200, "{answer}");
            }
        }
    }
}

fn person(name: &str) -> Value {
    json!({ "person": name })
}

fn bot(name: &str) -> Value {
    json!({ "bot": name })
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let end = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < end, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `arena judge` of a journal record: its JSON answer.
fn judge(record: &Value) -> Value {
    let out = output_with_stdin(arena().arg("judge"), record.to_string().as_bytes());
    serde_json::from_str(&stdout_of_success(&out)).unwrap()
}

#[test]
fn a_person_plays_the_bot_and_the_game_is_recorded_like_a_tournaments() {
    let tag = unique_tag("play-whole");
    let play = Play::start(&tag, &[]);
    let (code, answer) = play.new_game("qango6", person("ada"), bot("instant"));
    assert_eq!(code, 200, "{answer}");
    let game = answer["game_id"].as_str().unwrap().to_string();
    let mut events = play.follow(&game);
    // The person plays the last legal move, the bot the first.
    let end = events.play_out(&play, &game, |legal| legal.len() - 1);
    let records = play.wait_for_records(1);
    let record = &records[0];
    assert_eq!(record["game_id"], game.as_str());
    assert_eq!(
        (&record["white"], &record["black"]),
        (&json!("ada"), &json!("instant"))
    );
    assert_eq!(record["moves"], end["moves"]);
    assert_eq!(
        (&record["result"], &record["reason"]),
        (&end["result"], &end["reason"])
    );
    // The rules engine, replaying the record, agrees.
    let judged = judge(record);
    assert_eq!(judged["winner"], record["winner"], "{judged}");
    assert_eq!(judged["reason"], end["reason"], "{judged}");
    // The bot is stopped with its game.
    wait_until("the bot's process ends", Duration::from_secs(10), || {
        live_processes_with_arg(&tag).is_empty()
    });
    // The strip of the game just played: a value per position.
    let (code, strip) = play.post(&format!("/play/game/{game}/analysis"), &json!({}));
    assert_eq!(code, 200, "{strip}");
    let plies = record["moves"].as_array().unwrap().len();
    assert_eq!(strip["strip"].as_str().unwrap().len(), plies + 1, "{strip}");
    // Two people at one screen: two names; the same name twice is refused.
    let (code, refused) = play.new_game("qango6", person("bo"), person("bo"));
    assert_eq!(code, 400);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("both sides are named"),
        "{refused}"
    );
    let (code, answer) = play.new_game("quinque", person("bo"), person("cy"));
    assert_eq!(code, 200, "{answer}");
    let second = answer["game_id"].as_str().unwrap().to_string();
    play.follow(&second)
        .play_out(&play, &second, |legal| legal.len() / 2);
    let records = play.wait_for_records(2);
    let judged = judge(&records[1]);
    assert_eq!(judged["winner"], records[1]["winner"], "{judged}");
    assert_eq!(judged["reason"], records[1]["reason"], "{judged}");
    // arena report and arena rate take the directory as it is.
    stdout_of_success(&arena().arg("report").arg(&play.out).output().unwrap());
    assert!(play.out.join("report.html").exists());
    let rated = stdout_of_success(
        &arena()
            .arg("rate")
            .arg(play.out.join("games.csv"))
            .output()
            .unwrap(),
    );
    assert!(rated.contains("Rated 2 games"), "{rated}");
}

#[test]
fn hints_give_each_moves_value_as_arena_solve_does() {
    let tag = unique_tag("play-hints");
    let play = Play::start(&tag, &[]);
    let (_, answer) = play.new_game("qango6", person("ada"), bot("instant"));
    let game = answer["game_id"].as_str().unwrap().to_string();
    let mut events = play.follow(&game);
    // Hints only on a person's turn: play two moves first, so the
    // position is small enough for the solver to settle moves.
    let mut played = 0;
    let state = loop {
        let state = events.next();
        if state["legal"].as_array().unwrap().is_empty() {
            continue;
        }
        if played == 2 {
            break state;
        }
        let mv = &state["legal"][0];
        let ply = state["moves"].as_array().unwrap().len();
        play.post(
            &format!("/play/game/{game}/move"),
            &json!({"move": mv, "ply": ply}),
        );
        played += 1;
    };
    let (code, hints) = play.post(&format!("/play/game/{game}/hints"), &json!({}));
    assert_eq!(code, 200, "{hints}");
    let moves = hints["moves"].as_array().unwrap();
    assert_eq!(moves.len(), state["legal"].as_array().unwrap().len());
    let flip = |v: &str| {
        match v {
            "win" => "loss",
            "loss" => "win",
            other => other,
        }
        .to_string()
    };
    let mut checked = 0;
    for hint in moves.iter().filter(|h| h["value"] != "unknown").take(4) {
        let mut line: Vec<Value> = state["moves"].as_array().unwrap().clone();
        line.push(hint["move"].clone());
        let record = json!({"game": "qango6", "moves": line});
        let out = output_with_stdin(
            arena().args(["solve", "--budget-ms", "5000"]),
            record.to_string().as_bytes(),
        );
        let solved: Value = serde_json::from_str(&stdout_of_success(&out)).unwrap();
        // arena solve's value is for the side to move after the move.
        assert_eq!(
            flip(solved["value"].as_str().unwrap()),
            hint["value"].as_str().unwrap(),
            "{hint} vs {solved}"
        );
        checked += 1;
    }
    assert!(checked > 0, "no move was settled: {hints}");
}

#[test]
fn only_the_bots_of_the_file_start_and_only_from_the_pages_own_origin() {
    let tag = unique_tag("play-hostile");
    let play = Play::start(&tag, &[]);
    let new = |white: Value| json!({"variant": "qango6", "time_control": "per-move=1000", "white": white, "black": person("ada")});
    // A bot not in the file, a command, a time control not offered.
    for (body, says) in [
        (new(bot("sh")), "no bot \"sh\""),
        (
            new(json!({"command": ["sh", "-c", "touch /tmp/x"]})),
            "unknown variant `command`",
        ),
        (
            json!({"variant": "qango6", "time_control": "per-move=1", "white": bot("instant"), "black": person("a")}),
            "not offered",
        ),
        (
            json!({"variant": "qango6", "time_control": "per-move=1000", "white": bot("instant"), "black": person("a"), "command": "sh"}),
            "unknown field",
        ),
    ] {
        let (code, answer) = play.post("/play/new", &body);
        assert_eq!(code, 400, "{body}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains(says), "{answer}");
    }
    assert!(live_processes_with_arg(&tag).is_empty());
    let body = new(bot("instant")).to_string();
    let origin = play.origin();
    let good = [
        ("Origin", origin.as_str()),
        ("x-arena-token", play.token.as_str()),
        ("Content-Type", "application/json"),
    ];
    let with = |change: (&'static str, &'static str)| -> Vec<(&str, &str)> {
        let mut headers: Vec<(&str, &str)> = good
            .iter()
            .copied()
            .filter(|(k, _)| *k != change.0)
            .collect();
        if !change.1.is_empty() {
            headers.push(change);
        }
        headers
    };
    for (headers, code) in [
        (with(("Origin", "")), 403),
        (with(("Origin", "http://evil.example")), 403),
        (with(("x-arena-token", "")), 403),
        (with(("x-arena-token", "00ff")), 403),
        (with(("Content-Type", "text/plain")), 415),
        (with(("Sec-Fetch-Site", "cross-site")), 403),
        (with(("Host", "evil.example:80")), 403),
    ] {
        let (got, answer) = request(play.addr(), "POST", "/play/new", &headers, &body);
        assert_eq!(got, code, "{headers:?}: {answer}");
    }
    // A page of a renamed host (DNS rebinding) does not even get a token.
    let (code, _) = request(play.addr(), "GET", "/play", &[("Host", "evil.example")], "");
    assert_eq!(code, 403);
    // A body past 4 KiB.
    let big = json!({"variant": "x".repeat(5000)}).to_string();
    assert_eq!(
        request(play.addr(), "POST", "/play/new", &good, &big).0,
        413
    );
    assert!(live_processes_with_arg(&tag).is_empty(), "nothing started");
    // A game belongs to the page that started it.
    let (code, answer) = play.new_game("qango6", person("ada"), bot("instant"));
    assert_eq!(code, 200, "{answer}");
    let game = answer["game_id"].as_str().unwrap();
    let other = token_of(&request(play.addr(), "GET", "/play", &[], "").1);
    let (code, answer) = play.post_as(
        &other,
        &format!("/play/game/{game}/move"),
        &json!({"move": "a1"}),
    );
    assert_eq!(code, 403, "{answer}");
    let (code, _) = request(
        play.addr(),
        "GET",
        &format!("/play/game/{game}/events?token={other}"),
        &[],
        "",
    );
    assert_eq!(code, 403);
}

#[test]
fn max_live_holds_under_50_starts_at_once() {
    let tag = unique_tag("play-max-live");
    let play = Play::start(&tag, &["--max-live", "2"]);
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let starts: Vec<_> = (0..50)
            .map(|_| s.spawn(|| play.new_game("qango6", person("ada"), bot("instant"))))
            .collect();
        starts.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let started = answers.iter().filter(|(code, _)| *code == 200).count();
    assert_eq!(started, 2, "{answers:?}");
    for (code, answer) in answers.iter().filter(|(code, _)| *code != 200) {
        assert_eq!(*code, 503);
        assert_eq!(
            answer["error"],
            "all 2 boards are in use: try again when a game ends"
        );
    }
    assert!(live_processes_with_arg(&tag).len() <= 2);
}

#[test]
fn a_closed_page_or_an_idle_person_loses_on_time_and_the_bot_is_stopped() {
    let tag = unique_tag("play-closed");
    let play = Play::start(&tag, &["--idle-secs", "1"]);
    // The person is idle: past the page's limit, a loss on time.
    let (_, answer) = play.new_game("qango6", person("ada"), bot("instant"));
    let idle = answer["game_id"].as_str().unwrap().to_string();
    let mut events = play.follow(&idle);
    let end = loop {
        let state = events.next();
        if state["over"] == true {
            break state;
        }
    };
    assert_eq!(
        (&end["result"], &end["reason"]),
        (&json!("0-1"), &json!("timeout"))
    );
    assert!(
        end["message"]
            .as_str()
            .unwrap()
            .contains("no move within 1 s"),
        "{end}"
    );
    // The page closes (its bot ignores SIGTERM): the game ends, recorded,
    // and the bot is stopped.
    let tag = unique_tag("play-closed-page");
    let play = Play::start(&tag, &["--idle-secs", "600"]);
    let (_, answer) = play.new_game("qango6", bot("stubborn"), person("ada"));
    let game = answer["game_id"].as_str().unwrap().to_string();
    let mut events = play.follow(&game);
    while events.next()["legal"].as_array().unwrap().is_empty() {}
    wait_until("the bot runs", Duration::from_secs(10), || {
        !live_processes_with_arg(&tag).is_empty()
    });
    drop(events);
    let records = play.wait_for_records(1);
    assert_eq!(records[0]["reason"], "timeout");
    assert_eq!(records[0]["winner"], "white");
    assert!(records[0]["message"]
        .as_str()
        .unwrap()
        .contains("left the page"));
    wait_until("the bot's process ends", Duration::from_secs(10), || {
        live_processes_with_arg(&tag).is_empty()
    });
}

#[test]
fn ctrl_c_stops_every_game_and_leaves_no_process() {
    let tag = unique_tag("play-ctrl-c");
    let mut play = Play::start(&tag, &["--max-live", "3"]);
    let mut followed = Vec::new();
    for _ in 0..3 {
        let (code, answer) = play.new_game("qango6", person("ada"), bot("stubborn"));
        assert_eq!(code, 200, "{answer}");
        followed.push(play.follow(answer["game_id"].as_str().unwrap()));
    }
    wait_until("three bots run", Duration::from_secs(20), || {
        live_processes_with_arg(&tag).len() >= 3
    });
    // SAFETY: kill takes no pointers; the pid is the server's, alive.
    unsafe { libc::kill(play.server.pid() as i32, libc::SIGINT) };
    let status = play.server.wait(Duration::from_secs(20));
    assert!(status.success(), "{status:?}");
    assert!(live_processes_with_arg(&tag).is_empty());
    assert!(
        play.records().is_empty(),
        "unfinished games are not recorded"
    );
}
