//! Hostile bots (`tests/bots/hostile_bot.py`) against the referee, with and
//! without the sandbox: every attack fails or is charged to the attacker in
//! the sandbox, and nothing of a bot survives its slot. The unsandboxed runs
//! document honestly which attacks only the sandbox stops.
//!
//! On a machine without a working `bwrap`, the sandboxed tests print
//! "SKIPPED: ..." and pass; `.ci/run` installs bubblewrap so they run in CI.

use crate::common;

use std::io::Read;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use arena::games::{Color, Variant};
use arena::protocol::TimeControl;
use arena::referee::{play_bots, BotSpec, GameConfig, GameRecord, Seat, SpawnOptions};
use common::{bot, eventually, live_processes_with_arg, sandbox_works, unique_tag};

/// A bot directory with the output directory inside it, as configs often
/// have it: `dir/out` holds a journal and a log with secrets in them.
struct Arena {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    out: PathBuf,
}

impl Arena {
    fn new() -> Arena {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().canonicalize().unwrap();
        let out = dir.join("out");
        std::fs::create_dir_all(out.join("logs")).unwrap();
        std::fs::write(out.join("games.jsonl"), "{\"SECRET\": \"journal\"}\n").unwrap();
        std::fs::write(out.join("tournament.json"), "{\"SECRET\": \"config\"}\n").unwrap();
        std::fs::write(out.join("logs/other.log"), "SECRET opponent's log\n").unwrap();
        Arena {
            _tmp: tmp,
            dir,
            out,
        }
    }

    fn spec(&self, name: &str, args: &[&str], sandbox: bool) -> BotSpec {
        let mut spec = bot(name, args);
        spec.cwd = Some(self.dir.clone());
        spec.sandbox = Some(sandbox);
        spec
    }
}

/// One game: the attacker (white) runs `attack` with `arg` (`{victim}` is
/// replaced by the victim's tag) against `good_bot` (black).
struct Duel {
    record: GameRecord,
    attacker_log: String,
    attacker_tag: String,
    victim_tag: String,
}

async fn duel(arena: &Arena, attack: &str, arg: Option<&str>, sandbox: bool) -> Duel {
    duel_with(arena, attack, arg, sandbox, |_| {}).await
}

async fn duel_with(
    arena: &Arena,
    attack: &str,
    arg: Option<&str>,
    sandbox: bool,
    adjust: impl FnOnce(&mut BotSpec),
) -> Duel {
    let attacker_tag = unique_tag("attacker");
    let victim_tag = unique_tag("victim");
    let arg = arg.map(|a| a.replace("{victim}", &victim_tag));
    let mut args = vec![attack];
    args.extend(arg.as_deref());
    args.push(&attacker_tag);
    let mut attacker = arena.spec("hostile_bot", &args, sandbox);
    adjust(&mut attacker);
    let victim = arena.spec("good_bot", &[&victim_tag], sandbox);
    let options = SpawnOptions {
        sandbox_hide: vec![arena.out.clone()],
        ..SpawnOptions::default()
    };
    let mut white = Seat::new(attacker, options.clone());
    let mut black = Seat::new(victim, options);
    let mut config = GameConfig::new(
        &attacker_tag,
        Variant::by_id("qango6").unwrap(),
        TimeControl::PerMove { move_ms: 3000 },
    );
    config.log_dir = Some(arena.out.join("logs"));
    let record = play_bots(&mut white, &mut black, &config).await.unwrap();
    white.shutdown().await;
    black.shutdown().await;
    let attacker_log = record
        .white_log
        .as_ref()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .unwrap_or_default();
    Duel {
        record,
        attacker_log,
        attacker_tag,
        victim_tag,
    }
}

impl Duel {
    fn is_rules_ending(&self) -> bool {
        self.record.reason.is_rule()
    }

    fn describe(&self) -> String {
        format!(
            "{} {} {}\n--- attacker's log\n{}",
            self.record.result.as_str(),
            self.record.reason,
            self.record.message,
            self.attacker_log
        )
    }

    /// Nothing with either tag is left running (the sandbox's promise).
    async fn assert_nothing_survives(&self) {
        assert_gone(&[&self.attacker_tag, &self.victim_tag]).await;
    }
}

/// Within 5 s no process with any of these tags runs.
async fn assert_gone(tags: &[&str]) {
    for tag in tags {
        assert!(
            eventually(Duration::from_secs(5), || live_processes_with_arg(tag)
                .is_empty())
            .await,
            "left behind for {tag}: {:?}",
            live_processes_with_arg(tag)
        );
    }
}

fn kill_all_with(tag: &str) {
    for p in live_processes_with_arg(tag) {
        // SAFETY: plain system call on a process this test started.
        unsafe {
            libc::kill(p.pid, libc::SIGKILL);
        }
    }
}

/// An attack on the opponent, whose success the attacker reports as
/// "ATTACK: {success}": without the sandbox it works and the victim (black)
/// loses; in the sandbox the attacker finds no opponent and the game ends
/// by the rules. Returns the unsandboxed game.
async fn attack_on_the_opponent(attack: &str, success: &str) -> Duel {
    let arena = Arena::new();
    let success = format!("ATTACK: {success}");
    let open = duel(&arena, attack, Some("{victim}"), false).await;
    assert_eq!(
        open.record.loser(),
        Some(Color::Black),
        "{}",
        open.describe()
    );
    assert!(open.attacker_log.contains(&success), "{}", open.describe());
    open.assert_nothing_survives().await;

    if sandbox_works() {
        let boxed = duel(&arena, attack, Some("{victim}"), true).await;
        assert!(boxed.is_rules_ending(), "{}", boxed.describe());
        assert!(
            !boxed.attacker_log.contains(&success),
            "{}",
            boxed.describe()
        );
        assert!(
            boxed.attacker_log.contains("ATTACK: done"),
            "{}",
            boxed.describe()
        );
        boxed.assert_nothing_survives().await;
    }
    open
}

#[tokio::test]
async fn killing_the_opponent_only_the_sandbox_stops() {
    let open = attack_on_the_opponent("kill_opponent", "killed").await;
    assert!(
        ["crash", "disconnect"].contains(&open.record.reason.as_str()),
        "{}",
        open.describe()
    );
}

#[tokio::test]
async fn forging_the_opponents_output_only_the_sandbox_stops() {
    let open = attack_on_the_opponent("forge_opponent", "forged a line").await;
    assert!(
        open.record.message.contains("forged"),
        "{}",
        open.describe()
    );
}

fn journal_untouched(arena: &Arena) -> bool {
    let journal = std::fs::read_to_string(arena.out.join("games.jsonl")).unwrap();
    let manifest = std::fs::read_to_string(arena.out.join("tournament.json")).unwrap();
    !journal.contains("FORGED")
        && !manifest.contains("FORGED")
        && !arena.out.join("FORGED").exists()
}

#[tokio::test]
async fn reading_and_writing_the_output_directory_only_the_sandbox_stops() {
    let arena = Arena::new();
    let out = arena.out.display().to_string();
    if sandbox_works() {
        let boxed = duel(&arena, "steal", Some(&out), true).await;
        assert!(boxed.is_rules_ending(), "{}", boxed.describe());
        assert!(
            boxed.attacker_log.contains("ATTACK: new file failed"),
            "{}",
            boxed.describe()
        );
        assert!(
            !boxed.attacker_log.contains("STOLEN"),
            "{}",
            boxed.describe()
        );
        assert!(journal_untouched(&arena), "{}", boxed.describe());
        boxed.assert_nothing_survives().await;
    }

    // Without the sandbox the bot reads the journal, the other logs and
    // tournament.json, and writes into them.
    let open = duel(&arena, "steal", Some(&out), false).await;
    for stolen in ["journal", "config", "opponent's log"] {
        assert!(
            open.attacker_log.contains("STOLEN") && open.attacker_log.contains(stolen),
            "{stolen}: {}",
            open.describe()
        );
    }
    assert!(!journal_untouched(&arena));
}

#[tokio::test]
async fn the_bot_directory_is_read_only_in_the_sandbox_except_writable_paths() {
    if !sandbox_works() {
        return;
    }
    let arena = Arena::new();
    std::fs::create_dir(arena.dir.join("data")).unwrap();
    std::fs::write(arena.dir.join("data/book.txt"), "SECRET book\n").unwrap();
    std::fs::write(arena.dir.join("notes.txt"), "SECRET notes\n").unwrap();
    let dir = arena.dir.display().to_string();
    let boxed = duel_with(&arena, "steal", Some(&dir), true, |spec| {
        spec.writable = vec!["data".into()];
    })
    .await;
    let log = &boxed.attacker_log;
    // Its own files are readable, the output directory inside is empty.
    assert!(
        log.contains(&format!("STOLEN {dir}/notes.txt: SECRET notes")),
        "{}",
        boxed.describe()
    );
    assert!(!log.contains("journal"), "{}", boxed.describe());
    assert!(
        log.contains(&format!("FORGED {dir}/data/book.txt")),
        "{}",
        boxed.describe()
    );
    assert!(
        log.contains(&format!("write {dir}/notes.txt failed")),
        "{}",
        boxed.describe()
    );
    let notes = std::fs::read_to_string(arena.dir.join("notes.txt")).unwrap();
    assert_eq!(notes, "SECRET notes\n");
    let book = std::fs::read_to_string(arena.dir.join("data/book.txt")).unwrap();
    assert_eq!(book, "SECRET book\nFORGED\n");
    assert!(journal_untouched(&arena));
}

/// Accepts connections on a loopback port for `wait`, returning what was sent.
fn listen(listener: TcpListener, wait: Duration) -> std::thread::JoinHandle<String> {
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let end = std::time::Instant::now() + wait;
        let mut got = String::new();
        while std::time::Instant::now() < end {
            if let Ok((mut stream, _)) = listener.accept() {
                stream.set_nonblocking(false).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(2)))
                    .unwrap();
                let _ = stream.read_to_string(&mut got);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        got
    })
}

async fn connect_duel(arena: &Arena, sandbox: bool, network: bool) -> (Duel, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let heard = listen(listener, Duration::from_secs(4));
    let duel = duel_with(arena, "connect", Some(&port), sandbox, |spec| {
        spec.network = network;
    })
    .await;
    (duel, heard.join().unwrap())
}

#[tokio::test]
async fn the_network_is_closed_in_the_sandbox_unless_allowed() {
    let arena = Arena::new();
    let (open, heard) = connect_duel(&arena, false, false).await;
    assert!(heard.contains("LEAKED"), "{}", open.describe());

    if !sandbox_works() {
        return;
    }
    let (boxed, heard) = connect_duel(&arena, true, false).await;
    assert!(heard.is_empty(), "heard {heard:?}; {}", boxed.describe());
    assert!(
        boxed.attacker_log.contains("connect failed"),
        "{}",
        boxed.describe()
    );
    assert!(boxed.is_rules_ending(), "{}", boxed.describe());

    let (allowed, heard) = connect_duel(&arena, true, true).await;
    assert!(heard.contains("LEAKED"), "{}", allowed.describe());
}

#[tokio::test]
async fn a_setsid_daemon_outlives_its_slot_only_without_the_sandbox() {
    let arena = Arena::new();
    let open = duel(&arena, "setsid_daemon", None, false).await;
    assert!(
        open.attacker_log.contains("daemon left"),
        "{}",
        open.describe()
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let survivors = live_processes_with_arg(&open.attacker_tag);
    kill_all_with(&open.attacker_tag);
    assert_eq!(survivors.len(), 1, "the daemon: {survivors:?}");

    if !sandbox_works() {
        return;
    }
    let boxed = duel(&arena, "setsid_daemon", None, true).await;
    assert!(
        boxed.attacker_log.contains("daemon left"),
        "{}",
        boxed.describe()
    );
    assert!(boxed.is_rules_ending(), "{}", boxed.describe());
    boxed.assert_nothing_survives().await;
}

/// Four forked workers spin while the bot answers every turn: the CPU limit
/// binds their sum, so the attacker loses on `cpu` (before, four workers
/// used 3.96 s under a 1 s limit).
async fn assert_cpu_workers_lose_on_cpu(arena: &Arena, sandbox: bool) {
    let duel = duel_with(arena, "cpu_workers", None, sandbox, |spec| {
        spec.limits.cpu_seconds = Some(1);
    })
    .await;
    assert_eq!(duel.record.reason, "cpu", "{}", duel.describe());
    assert_eq!(
        duel.record.loser(),
        Some(Color::White),
        "{}",
        duel.describe()
    );
    assert!(
        duel.record.message.contains("together"),
        "{}",
        duel.describe()
    );
    duel.assert_nothing_survives().await;
}

#[tokio::test]
async fn forked_cpu_workers_are_charged_to_the_attacker() {
    let arena = Arena::new();
    assert_cpu_workers_lose_on_cpu(&arena, false).await;
    if sandbox_works() {
        assert_cpu_workers_lose_on_cpu(&arena, true).await;
    }
}

/// `arena play` between the attacker and good_bot; the attacker SIGKILLs
/// its parent and every process named `arena` it can see.
fn play_against_referee_killer(sandbox: bool) -> (std::process::ExitStatus, String, String) {
    let tag = unique_tag("victim");
    let attacker_tag = unique_tag("attacker");
    let hostile = common::bot_script("hostile_bot");
    let good = common::bot_script("good_bot");
    let white = format!("python3 {} kill_referee {attacker_tag}", hostile.display());
    let black = format!("python3 {} {tag}", good.display());
    let mut cmd = common::arena();
    cmd.args(["play", "qango6", &white, &black, "--quiet"]);
    if sandbox {
        cmd.arg("--sandbox");
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status, tag, text + &attacker_tag)
}

#[tokio::test]
async fn killing_the_referee_only_the_sandbox_stops_and_bots_die_with_it() {
    use std::os::unix::process::ExitStatusExt;
    let (status, victim, text) = play_against_referee_killer(false);
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{text}");
    // PR_SET_PDEATHSIG: the victim dies with the referee.
    assert_gone(&[&victim]).await;

    if !sandbox_works() {
        return;
    }
    let (status, victim, text) = play_against_referee_killer(true);
    assert_eq!(status.code(), Some(0), "{text}");
    assert!(live_processes_with_arg(&victim).is_empty());
}

/// A descriptor the referee inherited without close-on-exec (as from a
/// careless parent) is not passed on to bots.
#[tokio::test]
async fn inherited_descriptors_are_not_passed_on() {
    const FD: i32 = 987;
    let file = std::fs::File::open("/dev/null").unwrap();
    // SAFETY: dup2 onto an unused high number, which is left without
    // FD_CLOEXEC on purpose (dup2 clears it), as an inherited descriptor is.
    unsafe {
        assert_eq!(libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&file), FD), FD);
    }
    let script = "import os, sys; print(sorted(os.listdir('/proc/self/fd'), key=int), file=sys.stderr); print(os.path.exists('/proc/self/fd/987'))";
    let out = Command::new("python3")
        .args(["-c", script])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "True",
        "a plain child inherits it (the test's premise)"
    );
    let mut spec = bot("good_bot", &[]);
    spec.command = vec!["python3".into(), "-c".into(), script.into()];
    let mut process = arena::referee::BotProcess::spawn(&spec, &SpawnOptions::default()).unwrap();
    let line = process
        .read_line(tokio::time::Instant::now() + Duration::from_secs(10))
        .await;
    // SAFETY: closing the descriptor this test made.
    unsafe {
        libc::close(FD);
    }
    assert_eq!(
        line,
        arena::referee::ReadLine::Line(b"False".to_vec()),
        "{}",
        process.stderr_tail()
    );
    process.kill().await;
}

/// Pipes, env, cwd and rlimits reach a bot through bwrap, and a limit death
/// (bwrap reports signal N as exit code 128+N) keeps its reason.
#[tokio::test]
async fn limits_env_and_cwd_work_through_the_sandbox() {
    if !sandbox_works() {
        return;
    }
    use arena::protocol::FailureReason;
    use arena::referee::BotProcess;
    let arena = Arena::new();
    let mut spec = arena.spec("good_bot", &[], true);
    spec.command = vec![
        "sh".into(),
        "-c".into(),
        "echo \"$ARENA_X $(pwd) $(ulimit -v)\"".into(),
    ];
    spec.env.insert("ARENA_X".into(), "x-value".into());
    spec.limits.memory_mb = Some(300);
    let mut p = BotProcess::spawn(&spec, &SpawnOptions::default()).unwrap();
    let line = p
        .read_line(tokio::time::Instant::now() + Duration::from_secs(10))
        .await;
    let expected = format!("x-value {} {}", arena.dir.display(), 300 * 1024);
    assert_eq!(line, arena::referee::ReadLine::Line(expected.into_bytes()));
    p.kill().await;

    for (name, limits, reason) in [
        ("cpu_burn", (None, Some(1)), FailureReason::Cpu),
        ("memory_hog", (Some(200), None), FailureReason::Memory),
    ] {
        let mut spec = arena.spec(name, &[], true);
        (spec.limits.memory_mb, spec.limits.cpu_seconds) = limits;
        let mut white = Seat::new(spec, SpawnOptions::default());
        let mut black = Seat::new(arena.spec("good_bot", &[], true), SpawnOptions::default());
        let config = GameConfig::new(
            "g",
            Variant::by_id("qango6").unwrap(),
            TimeControl::PerMove { move_ms: 20_000 },
        );
        let record = play_bots(&mut white, &mut black, &config).await.unwrap();
        white.shutdown().await;
        black.shutdown().await;
        assert_eq!(
            record.reason.failure(),
            Some(reason),
            "{name}: {}",
            record.message
        );
        assert_eq!(record.loser(), Some(Color::White));
    }
}

/// `arena check-bot --sandbox` tells an author whether their bot works in
/// the sandbox, and what usually breaks there.
#[test]
fn check_bot_sandbox_says_whether_the_bot_works_there() {
    if !sandbox_works() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = common::bot_script("writes_own_dir").display().to_string();
    let check = |sandbox: bool| {
        let mut cmd = common::arena();
        cmd.current_dir(dir.path())
            .args(["check-bot", "--games", "1", "--variants", "qango6"]);
        if sandbox {
            cmd.arg("--sandbox");
        }
        let out = cmd.args(["--", "python3", &script]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, text) = check(false);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = check(true);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("Read-only file system"), "{text}");
    assert!(text.contains("writable"), "{text}");
}

/// The referee is killed (SIGKILL, no clean-up) in the middle of a game in
/// which a sandboxed bot has left a `setsid` daemon: the bots and the
/// daemon die with it.
#[tokio::test]
async fn sandboxed_bots_and_their_daemons_die_with_the_referee() {
    if !sandbox_works() {
        return;
    }
    let attacker_tag = unique_tag("daemon");
    let hang_tag = unique_tag("hang");
    let white = format!(
        "python3 {} setsid_daemon {attacker_tag}",
        common::bot_script("hostile_bot").display()
    );
    let black = format!(
        "python3 {} {hang_tag}",
        common::bot_script("hang").display()
    );
    let mut referee = common::arena()
        .args(["play", "qango6", &white, &black, "--quiet", "--sandbox"])
        .args(["--tc", "per-move=60000"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // bwrap, its namespace's init, the bot and its daemon carry the tag.
    let started = eventually(Duration::from_secs(20), || {
        live_processes_with_arg(&attacker_tag).len() >= 4
            && !live_processes_with_arg(&hang_tag).is_empty()
    })
    .await;
    referee.kill().unwrap();
    referee.wait().unwrap();
    assert!(started, "{:?}", live_processes_with_arg(&attacker_tag));
    assert_gone(&[&attacker_tag, &hang_tag]).await;
}
