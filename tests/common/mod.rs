//! The one harness shared by integration tests: the `arena` binary, the
//! referee's bad bots under `tests/bots/`, process-table checks through
//! `/proc`, simulated games under BayesElo's model for the statistics
//! tests, and (in [`tournament`]) tournament files and their output.
#![allow(dead_code)]

pub mod browser;
pub mod coverage;
#[allow(unused_imports)]
pub use coverage::play;
pub mod serve;
pub mod tournament;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use arena::referee::BotSpec;

/// The `arena` binary built for these tests, with stdin closed unless the
/// test pipes it.
pub fn arena() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
    command.stdin(Stdio::null());
    // No settled table unless a test gives one (`.env(TABLE_DIR_ENV, dir)`):
    // tests must not read or fill the user's cache.
    command.env(TABLE_DIR_ENV, "off");
    command
}

/// The environment variable naming the settled tables' directory.
pub const TABLE_DIR_ENV: &str = arena_solver::settled::DIR_ENV;

/// The `arena-instant-bot` built for these tests: a bot that plays the
/// first legal move at once, for runs whose games only need to happen.
pub const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");

/// Absolute path of a test bot script.
pub fn bot_script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bots")
        .join(format!("{name}.py"))
}

/// Spec that runs `tests/bots/<name>.py` with `args`.
pub fn bot(name: &str, args: &[&str]) -> BotSpec {
    let mut command = vec![
        "python3".to_string(),
        bot_script(name).display().to_string(),
    ];
    command.extend(args.iter().map(|a| a.to_string()));
    let mut spec = BotSpec::from_command_line(name, "python3").unwrap();
    spec.command = command;
    spec
}

/// One process as seen in `/proc/<pid>/stat`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcEntry {
    pub pid: i32,
    pub state: char,
    pub ppid: i32,
    pub pgrp: i32,
}

pub fn proc_entry(pid: i32) -> Option<ProcEntry> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may itself contain them.
    let after = &text[text.rfind(')')? + 1..];
    let mut fields = after.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some(ProcEntry {
        pid,
        state,
        ppid,
        pgrp,
    })
}

/// Processes whose process group is `pgid`, zombies included.
pub fn group_members(pgid: i32) -> Vec<ProcEntry> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(proc_entry)
        .filter(|p| p.pgrp == pgid)
        .collect()
}

/// Members of group `pgid` that are still running. Zombies are dead: on
/// this machine orphans are reparented to an init that may never reap
/// them, so they are not counted.
pub fn live_group_members(pgid: i32) -> Vec<ProcEntry> {
    group_members(pgid)
        .into_iter()
        .filter(|p| p.state != 'Z')
        .collect()
}

/// Bytes written (to files, pipes and sockets) by the live processes of
/// group `pgid`, from `/proc/<pid>/io`.
pub fn group_bytes_written(pgid: i32) -> u64 {
    live_group_members(pgid)
        .iter()
        .filter_map(|p| {
            let io = std::fs::read_to_string(format!("/proc/{}/io", p.pid)).ok()?;
            io.lines()
                .find_map(|l| l.strip_prefix("wchar:"))?
                .trim()
                .parse::<u64>()
                .ok()
        })
        .sum()
}

/// True when `pid` is gone entirely or a zombie not parented to us.
pub fn is_dead(pid: i32) -> bool {
    match proc_entry(pid) {
        None => true,
        Some(p) => p.state == 'Z' && p.ppid != std::process::id() as i32,
    }
}

/// Polls `check` every 10 ms for up to `limit`, letting the runtime run
/// (tokio reaps dropped children in the background).
pub async fn eventually(limit: Duration, mut check: impl FnMut() -> bool) -> bool {
    let end = std::time::Instant::now() + limit;
    loop {
        if check() {
            return true;
        }
        if std::time::Instant::now() > end {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// `1 / (1 + 10^(-x/400))`.
pub fn f(x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-x / 400.0))
}

/// A unique word to append to a bot's command line, so a test can find
/// every process it started (forked children included) in `/proc`.
pub fn unique_tag(label: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "arena-test-{label}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Running (non-zombie) processes with `word` as one of their arguments.
pub fn live_processes_with_arg(word: &str) -> Vec<ProcEntry> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| c.split(|&b| b == 0).any(|arg| arg == word.as_bytes()))
                .unwrap_or(false)
        })
        .filter_map(proc_entry)
        .filter(|p| p.state != 'Z')
        .collect()
}

/// The stdout of a process that must have exited with status 0; if it did
/// not, fails showing both of its output streams.
pub fn stdout_of_success(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Runs `command` with `input` on its stdin (then closed, as at the end of
/// a person's typing) and returns its output.
pub fn output_with_stdin(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// False (after saying so) when the sandbox cannot run here.
pub fn sandbox_works() -> bool {
    match arena::referee::sandbox::check_available() {
        Ok(()) => true,
        Err(e) => {
            eprintln!("SKIPPED: bwrap not installed or not usable here: {e:#}");
            false
        }
    }
}

/// Checks that the generated page `page` (a path from the repository's
/// root) is `generated`, after writing it there with `ARENA_WRITE_DOCS=1`;
/// the failure names the test that regenerates it and what it follows.
pub fn assert_page_is_current(page: &str, generated: &str, test: &str, source: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(page);
    if std::env::var_os("ARENA_WRITE_DOCS").is_some() {
        std::fs::write(&path, generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "{page} differs from {source}: run `ARENA_WRITE_DOCS=1 cargo test --test docs {test}` and commit it"
    );
}

/// Busy loops outside arena, as another user's jobs on a shared machine:
/// `per_core` spinning shells per core, each in a process group of its
/// own. Dropping the hog (a panicking test does too) kills them; `timeout`
/// ends them after two minutes whatever happens to the test.
pub struct CpuHog {
    loops: Vec<std::process::Child>,
}

impl CpuHog {
    pub fn per_core(per_core: usize) -> CpuHog {
        use std::os::unix::process::CommandExt;
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let loops = (0..per_core * cores)
            .map(|_| {
                Command::new("timeout")
                    .args(["120", "sh", "-c", "while :; do :; done"])
                    .process_group(0)
                    .spawn()
                    .expect("start a busy loop")
            })
            .collect();
        CpuHog { loops }
    }
}

impl Drop for CpuHog {
    fn drop(&mut self) {
        for busy in &mut self.loops {
            // SAFETY: a plain system call; the group is the loop's own.
            unsafe {
                libc::kill(-(busy.id() as i32), libc::SIGKILL);
            }
            let _ = busy.wait();
        }
    }
}
