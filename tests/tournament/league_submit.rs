//! Submissions to a league (`arena league token`, `arena serve DIR
//! --submissions`) over real HTTP, as a participant's `curl` and a hostile
//! client send them: a good bot is admitted as NAME@1 and its change as
//! NAME@2; a non-compliant bot, a wrong token, an oversized upload, a path
//! in the file's name and another site's page are refused with the reason,
//! and nothing is written outside the league; an uploaded bot that tries
//! to write outside its sandbox does not manage to; a C upload is built and
//! admitted. Skipped (a plain SKIPPED line) where bubblewrap cannot run.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::common::serve::Server;
use crate::common::{arena, sandbox_works, stdout_of_success};

/// A league with a submissions server; its directory is under the
/// target directory (not /tmp, which the sandbox replaces), so what an
/// upload writes would land on the real file system.
struct Course {
    server: Server,
    dir: PathBuf,
    root: tempfile::TempDir,
}

impl Course {
    fn open() -> Course {
        let root = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let dir = root.path().join("league");
        let init = arena()
            .args(["league", "init"])
            .arg(&dir)
            .args(["--variant", "qango6"])
            .output()
            .unwrap();
        stdout_of_success(&init);
        let server = Server::start(&[dir.to_str().unwrap(), "--submissions", "--port", "0"]);
        Course { server, dir, root }
    }

    /// `arena league token DIR NAME`: the token printed.
    fn token(&self, name: &str) -> String {
        let out = arena()
            .args(["league", "token"])
            .arg(&self.dir)
            .arg(name)
            .output()
            .unwrap();
        stdout_of_success(&out).trim().to_string()
    }

    /// Uploads `bytes` as the file `file` with `token`: (status, answer).
    fn submit(&self, token: &str, file: &str, bytes: &[u8]) -> (u16, Value) {
        post(self.server.addr, &form(token, file, bytes), "")
    }

    fn registry(&self) -> String {
        std::fs::read_to_string(self.dir.join("bots.jsonl")).unwrap()
    }

    /// Every file under the test's directory outside `submissions/`.
    fn files_outside_uploads(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let uploads = self.dir.join("submissions");
        walk(self.root.path(), &mut |p| {
            if !p.starts_with(&uploads) {
                found.push(p.to_path_buf());
            }
        });
        found.sort();
        found
    }
}

fn walk(dir: &Path, each: &mut dyn FnMut(&Path)) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        each(&path);
        if path.is_dir() {
            walk(&path, each);
        }
    }
}

const BOUNDARY: &str = "arena-test-boundary";

/// A `multipart/form-data` body with the fields `token` and `file`.
fn form(token: &str, file: &str, bytes: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"token\"\r\n\r\n{token}\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// `POST /submit` with `body` (and the header lines `extra`): the status
/// and the JSON answer.
fn post(addr: SocketAddr, body: &[u8], extra: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let head = format!(
        "POST /submit HTTP/1.1\r\nHost: {addr}\r\nContent-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A body the server refuses by its length is not read: it may close
    // before all of it is sent.
    let _ = stream.write_all(body);
    answer(stream)
}

fn answer(mut stream: TcpStream) -> (u16, Value) {
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let code = answer[9..12].parse().unwrap();
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    let json =
        serde_json::from_str(body.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"));
    (code, json)
}

/// `GET /submit` as a browser on this machine asks for it: the page.
fn page_at(addr: SocketAddr) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /submit HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    page
}

fn starter(path: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn random_bot() -> String {
    starter("bots/python/random_bot.py")
}

fn found(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `curl -F token=... -F file=@PATH URL` as a participant types it.
fn curl(addr: SocketAddr, token: &str, path: &Path) -> (u16, Value) {
    let out = std::process::Command::new("curl")
        .args(["-sS", "-w", "\n%{http_code}", "-F"])
        .arg(format!("token={token}"))
        .arg("-F")
        .arg(format!("file=@{}", path.display()))
        .arg(format!("http://{addr}/submit"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (json, code) = text
        .trim()
        .rsplit_once('\n')
        .unwrap_or_else(|| panic!("curl: {text}"));
    (code.parse().unwrap(), serde_json::from_str(json).unwrap())
}

#[test]
fn a_good_bot_is_admitted_and_its_change_is_the_next_version() {
    if !sandbox_works() {
        return;
    }
    let course = Course::open();
    let token = course.token("ada");
    assert_eq!(token.len(), 64, "{token}");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(
        !course.registry().contains(&token),
        "the token is kept hashed"
    );
    let (code, page) = course.server.get("/submit");
    assert_eq!(code, 403, "a page asked for by a foreign host name: {page}");
    let page = page_at(course.server.addr);
    assert!(page.contains("enctype=\"multipart/form-data\""), "{page}");

    let first = course.root.path().join("random_bot.py");
    std::fs::write(&first, random_bot()).unwrap();
    let (code, answer) = if found("curl") {
        curl(course.server.addr, &token, &first)
    } else {
        course.submit(&token, "random_bot.py", random_bot().as_bytes())
    };
    assert_eq!(
        (code, &answer),
        (200, &serde_json::json!({"admitted": true, "bot": "ada@1"}))
    );
    let kept = course.dir.join("submissions/ada/1/random_bot.py");
    assert_eq!(std::fs::read_to_string(kept).unwrap(), random_bot());

    let changed = random_bot().replace(
        "rng.choice(turn[\"legal_moves\"])",
        "turn[\"legal_moves\"][0]",
    );
    assert_ne!(changed, random_bot());
    let (code, answer) = course.submit(&token, "random_bot.py", changed.as_bytes());
    assert_eq!(
        (code, answer["bot"].as_str()),
        (200, Some("ada@2")),
        "{answer}"
    );

    // Both versions, each in its own directory, always in the sandbox.
    let versions: Vec<Value> = course
        .registry()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "version")
        .collect();
    assert_eq!(versions.len(), 2);
    for (k, v) in versions.iter().enumerate() {
        assert_eq!(v["version"], k as u64 + 1);
        assert_eq!(v["bot"]["sandbox"], true, "{v}");
        let cwd = v["bot"]["cwd"].as_str().unwrap();
        assert!(
            cwd.ends_with(&format!("submissions/ada/{}", k + 1)),
            "{cwd}"
        );
    }
    // A new token replaces the old.
    let new = course.token("ada");
    let (code, answer) = course.submit(&token, "random_bot.py", changed.as_bytes());
    assert_eq!(code, 403, "{answer}");
    let (code, answer) = course.submit(&new, "random_bot.py", changed.as_bytes());
    assert_eq!(
        (code, &answer["unchanged"]),
        (200, &Value::Bool(true)),
        "{answer}"
    );
}

#[test]
fn refused_uploads_say_why_and_write_nothing_outside_the_league() {
    if !sandbox_works() {
        return;
    }
    let course = Course::open();
    let token = course.token("bob");
    let before = course.files_outside_uploads();

    let illegal = random_bot().replace(
        "return rng.choice(turn[\"legal_moves\"])",
        "return \"not a move\"",
    );
    let (code, answer) = course.submit(&token, "bad.py", illegal.as_bytes());
    assert_eq!(code, 422, "{answer}");
    assert_eq!(answer["admitted"], false);
    let reason = answer["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("not compliant: legal moves:"),
        "{reason}"
    );

    let (code, answer) = course.submit(&"0".repeat(64), "bot.py", random_bot().as_bytes());
    assert_eq!(code, 403, "{answer}");
    assert!(
        answer["reason"].as_str().unwrap().contains("token"),
        "{answer}"
    );

    // Refused by its Content-Length, before the body is read.
    let big = vec![b'#'; 300 * 1024];
    let (code, answer) = course.submit(&token, "big.py", &big);
    assert_eq!(code, 413, "{answer}");
    assert!(
        answer["reason"].as_str().unwrap().contains("256 KiB"),
        "{answer}"
    );

    for name in ["../x.py", "a/b.py", "..\\\\y.py", ".x.py", "bot.exe"] {
        let (code, answer) = course.submit(&token, name, random_bot().as_bytes());
        assert_eq!(code, 400, "{name}: {answer}");
        assert_eq!(answer["admitted"], false, "{name}");
    }

    let body = form(&token, "bot.py", random_bot().as_bytes());
    let (code, answer) = post(course.server.addr, &body, "Origin: http://evil.example\r\n");
    assert_eq!(code, 403, "{answer}");

    // Nothing admitted; nothing new outside the uploads but the registry's
    // token line and the league's own files.
    assert!(!course.registry().contains("\"version\""));
    let after = course.files_outside_uploads();
    let new: Vec<&PathBuf> = after.iter().filter(|p| !before.contains(p)).collect();
    assert!(new.is_empty(), "written outside the uploads: {new:?}");
    let mut uploads = Vec::new();
    walk(&course.dir.join("submissions"), &mut |p| {
        uploads.push(p.to_path_buf())
    });
    let names: Vec<String> = uploads
        .iter()
        .filter(|p| p.is_file())
        .map(|p| p.strip_prefix(&course.dir).unwrap().display().to_string())
        .collect();
    let mut names: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !n.contains(".logs/"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["submissions/bob/1.json", "submissions/bob/1/bad.py"]
    );
}

#[test]
fn an_uploaded_bot_cannot_write_outside_its_sandbox() {
    if !sandbox_works() {
        return;
    }
    let course = Course::open();
    let token = course.token("eve");
    let outside = course.root.path().join("pwned-outside");
    let in_league = course.dir.join("pwned-league");
    let registry = course.dir.join("bots.jsonl");
    let attack = format!(
        "def attack():\n    for path, mode in [({:?}, 'w'), ({:?}, 'w'), ({:?}, 'a'), ('pwned-own', 'w')]:\n        try:\n            with open(path, mode) as f:\n                f.write('PWNED\\n')\n            log('ATTACK: wrote ' + path)\n        except OSError as e:\n            log('ATTACK: ' + str(e))\n\n\ndef choose_move(turn, rng):\n    attack()\n",
        outside.display().to_string(),
        in_league.display().to_string(),
        registry.display().to_string()
    );
    // On each turn, as the games are played.
    let hostile = random_bot().replacen("def choose_move(turn, rng):\n", &attack, 1);
    assert_ne!(hostile, random_bot());
    let (code, answer) = course.submit(&token, "hostile.py", hostile.as_bytes());
    // It plays legally, so it is admitted: but it wrote nothing.
    assert_eq!(
        (code, answer["bot"].as_str()),
        (200, Some("eve@1")),
        "{answer}"
    );
    assert!(!outside.exists());
    assert!(!in_league.exists());
    assert!(!course.dir.join("submissions/eve/1/pwned-own").exists());
    assert!(!course.registry().contains("PWNED"));
    // It tried, and was told the file system is read-only (its stderr of
    // the check's first game).
    let log = course
        .dir
        .join("submissions/eve/1.logs/qango6-1-white-eve.log");
    let log = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    // A path under /tmp (this checkout's temporary files may be there) is
    // in the sandbox's own empty /tmp: the write lands there and is gone
    // with the bot (the real file does not exist, as checked above).
    let private = |path: &Path| path.starts_with("/tmp");
    for path in [&outside, &in_league, &registry, Path::new("pwned-own")] {
        let refused = format!(
            "ATTACK: [Errno 30] Read-only file system: '{}'",
            path.display()
        );
        let in_private_tmp = format!("ATTACK: wrote {}", path.display());
        assert!(
            log.contains(&refused) || private(path) && log.contains(&in_private_tmp),
            "{refused} not in {log}"
        );
    }
    let wrote = log
        .lines()
        .filter_map(|l| l.strip_prefix("ATTACK: wrote "))
        .find(|p| !private(Path::new(p)));
    assert_eq!(wrote, None, "{log}");
}

#[test]
fn a_c_upload_is_built_and_admitted_and_a_broken_one_is_refused() {
    if !sandbox_works() {
        return;
    }
    if !found("cc") {
        println!("SKIPPED: cc not found");
        return;
    }
    let course = Course::open();
    let token = course.token("cee");
    let source = starter("bots/c/random_bot.c");
    let broken = format!("{source}\nthis is not C;\n");
    let (code, answer) = course.submit(&token, "random_bot.c", broken.as_bytes());
    assert_eq!(code, 422, "{answer}");
    let reason = answer["reason"].as_str().unwrap();
    assert!(
        reason.contains("the build (cc -O2") && reason.contains("error"),
        "{reason}"
    );

    let (code, answer) = course.submit(&token, "random_bot.c", source.as_bytes());
    assert_eq!(
        (code, answer["bot"].as_str()),
        (200, Some("cee@1")),
        "{answer}"
    );
    assert!(course.dir.join("submissions/cee/2/bot").is_file());
}
