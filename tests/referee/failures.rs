//! The machine fails arena, with real processes (issue 10): descriptors
//! run out (EMFILE), processes run out (EAGAIN), the disk fills (ENOSPC)
//! under the journal or under the bot logs; bots have the longest names
//! allowed; and a round robin of many bots must stay within what `-j` needs.
//! In each, no game becomes a loss the referee caused, the run either stops
//! with one line that says what to fix and a non-zero exit or finishes
//! normally, and `--resume` once the cause is fixed plays exactly the
//! schedule.
//!
//! The shortages are imposed on arena's own process from outside, as a
//! crowded machine would: a hard `RLIMIT_NOFILE` set before exec, `prlimit`
//! on the running process, a pids cgroup (or, where none can be written,
//! `RLIMIT_NPROC` with arena run as `nobody` and other processes of that
//! user filling it), a tiny tmpfs. The last two need root (as CI runs);
//! elsewhere those tests say plainly that they skipped.
//! The bots are `arena-instant-bot`, so a game costs milliseconds.

use crate::common;

use std::ffi::CString;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use arena::protocol::Reason;
use arena::tournament::preflight::Needs;
use common::arena;
use common::tournament::*;

/// `n` instant bots named `{prefix}{i}`, each started as `wrapper`
/// followed by the instant bot and its name.
fn instant_bots(n: usize, prefix: &str, wrapper: &[&str]) -> Vec<String> {
    (1..=n)
        .map(|i| named_bot(&format!("{prefix}{i}"), wrapper))
        .collect()
}

fn named_bot(name: &str, wrapper: &[&str]) -> String {
    let mut command: Vec<String> = wrapper.iter().map(|w| w.to_string()).collect();
    command.extend([INSTANT_BOT.to_string(), name.to_string()]);
    bot_entry(name, &command, "")
}

/// A round robin of `bots` at `-j concurrency`, two games per pairing:
/// `bots * (bots - 1)` games.
fn round_robin(dir: &Path, concurrency: usize, bots: &[String]) -> PathBuf {
    write_config_entries(
        dir,
        &format!("games_per_pairing = 2\nconcurrency = {concurrency}\nseed = 17"),
        bots,
    )
}

fn tournament_args<'a>(config: &'a Path, out: &'a Path) -> Vec<&'a str> {
    vec![
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ]
}

fn resume_args(out: &Path) -> Vec<&str> {
    vec![
        "tournament",
        "--resume",
        out.to_str().unwrap(),
        "--no-progress",
    ]
}

/// Runs arena to completion with the command adjusted first.
fn run_with(args: &[&str], adjust: impl FnOnce(&mut Command)) -> Output {
    let mut command = arena();
    command.args(args);
    adjust(&mut command);
    command.output().expect("run arena")
}

/// Makes `limit` the soft and hard descriptor limit of the child, so that
/// arena's own raise to the hard limit cannot help.
fn descriptor_limit(command: &mut Command, limit: u64) {
    child_limit(command, libc::RLIMIT_NOFILE, limit);
}

/// Sets the child's soft and hard `resource` limit to `limit` before exec.
fn child_limit(command: &mut Command, resource: libc::__rlimit_resource_t, limit: u64) {
    // SAFETY: the closure runs in the child between fork and exec and makes
    // one async-signal-safe system call on a value on its stack.
    unsafe {
        command.pre_exec(move || {
            let rl = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(resource, &rl) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Lowers a running process's descriptor limit (soft and hard) to `limit`.
fn shrink_descriptor_limit(pid: u32, limit: u64) {
    let rl = libc::rlimit {
        rlim_cur: limit,
        rlim_max: limit,
    };
    // SAFETY: prlimit reads `rl` and writes nothing (null old limit).
    let rc = unsafe {
        libc::prlimit(
            pid as libc::pid_t,
            libc::RLIMIT_NOFILE,
            &rl,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(rc, 0, "prlimit: {}", std::io::Error::last_os_error());
}

/// Every game of the journal ended by the rules: instant bots never fail
/// by themselves, so any failure reason would be the referee's failure
/// recorded as a bot's loss.
fn assert_no_referee_loss(out: &Path) {
    for row in csv_rows(out) {
        assert!(matches!(row.reason, Reason::Rule(_)), "{row:?}");
    }
}

/// The run stopped with exit status `code`, its last words one line
/// containing each of `words`, and recorded fewer than `games` games, none
/// of them a loss the referee caused.
fn assert_stopped(status: Option<i32>, stdout: &str, stderr: &str, code: i32, words: &[&str]) {
    let all = format!("status {status:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
    assert_eq!(status, Some(code), "{all}");
    assert!(!stderr.contains("panicked"), "{all}");
    let last = if code == 2 { stderr } else { stdout };
    let last = last.trim_end().lines().last().unwrap_or_default();
    for word in words {
        assert!(last.contains(word), "{word:?} not in the last line:\n{all}");
    }
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_default()
}

/// `--resume` (with no limit) finishes the run: exit 0, exactly the
/// `games` scheduled games, each once, none lost to the referee.
fn resume_completes(out: &Path, games: u64) {
    let resumed = run_arena(&resume_args(out));
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    assert_exactly_games(out, games);
    assert_no_referee_loss(out);
}

/// Waits for the run in `dir` (output in `dir/out`), which must stop with
/// exit status 4 and `words` in its last line, having recorded fewer than
/// `games` games and none of them lost to the referee.
fn stops_for_the_referee(child: &mut std::process::Child, dir: &Path, games: u64, words: &[&str]) {
    let status = wait_exit(child, Duration::from_secs(30));
    let (stdout, stderr) = (read(dir, "arena.stdout"), read(dir, "arena.stderr"));
    assert_stopped(status.code(), &stdout, &stderr, 4, words);
    let out = dir.join("out");
    let recorded = assert_consistent(&out).len() as u64;
    assert!(recorded < games, "the run finished before the limit bit");
    assert_no_referee_loss(&out);
}

/// Waits for `rows` games in games.csv while the child runs.
fn wait_for_games(child: &mut std::process::Child, out: &Path, rows: usize, dir: &Path) {
    let end = Instant::now() + Duration::from_secs(30);
    while csv_rows_written(out) < rows {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "arena ended ({status}) before {rows} games:\n{}\n{}",
                read(dir, "arena.stdout"),
                read(dir, "arena.stderr")
            );
        }
        assert!(Instant::now() < end, "no {rows} games within 30 s");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn out_of_descriptors_at_start_and_during_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // 12 bots: after the first 4 games, the first round's next 8 games need
    // bots not started yet (the pool keeps those that ran), so the starts
    // that fail come in a row.
    let games = 12 * 11;
    let config = round_robin(dir.path(), 1, &instant_bots(12, "b", &[]));

    // A hard limit below what one game at a time needs: refused before the
    // first game, with the limit and the fix in one line.
    let refused = run_with(&tournament_args(&config, &out), |c| descriptor_limit(c, 32));
    assert_stopped(
        refused.status.code(),
        &String::from_utf8_lossy(&refused.stdout),
        &String::from_utf8_lossy(&refused.stderr),
        2,
        &["RLIMIT_NOFILE", "is 32", "raise the hard limit"],
    );
    assert_eq!(csv_rows_written(&out), 0);

    // Descriptors run out in the middle of the run (the limit drops under
    // what is open, as if something else took them): each new bot fails to
    // start with EMFILE, its game is not recorded, and the run stops.
    let mut child = spawn_arena_with(&resume_args(&out), dir.path(), |_| {});
    wait_for_games(&mut child, &out, 4, dir.path());
    shrink_descriptor_limit(child.id(), 12);
    stops_for_the_referee(
        &mut child,
        dir.path(),
        games,
        &[
            "Stopped: arena ran out of file descriptors (EMFILE) 5 times in a row",
            "raise `ulimit -n` (now 12, hard limit 12)",
            "--resume",
        ],
    );

    resume_completes(&out, games);
}

/// A pids cgroup of our own (v1 `pids` controller or v2), removed on drop.
struct PidsCgroup {
    dir: PathBuf,
}

impl PidsCgroup {
    /// `None` (with the reason) when no pids controller can be written.
    fn create(label: &str) -> Result<PidsCgroup, String> {
        let name = common::unique_tag(label);
        let mut why = Vec::new();
        for root in [
            "/sys/fs/cgroup/pids",
            "/sys/fs/cgroup/unified",
            "/sys/fs/cgroup",
        ] {
            let dir = Path::new(root).join(&name);
            match std::fs::create_dir(&dir) {
                Ok(()) if dir.join("pids.max").exists() => return Ok(PidsCgroup { dir }),
                Ok(()) => {
                    let _ = std::fs::remove_dir(&dir);
                    why.push(format!("{root}: no pids controller"));
                }
                Err(e) => why.push(format!("{root}: {e}")),
            }
        }
        Err(why.join("; "))
    }

    fn set_max(&self, max: &str) {
        std::fs::write(self.dir.join("pids.max"), max).unwrap();
    }

    fn current(&self) -> u64 {
        read(&self.dir, "pids.current").trim().parse().unwrap()
    }

    /// Makes the child join this cgroup before it runs arena, so arena and
    /// every bot it starts count against `pids.max`.
    fn enter(&self, command: &mut Command) {
        let procs = CString::new(self.dir.join("cgroup.procs").to_str().unwrap()).unwrap();
        // SAFETY: runs in the child between fork and exec; open, write and
        // close are async-signal-safe and use only `procs`, made before fork.
        unsafe {
            command.pre_exec(move || {
                let fd = libc::open(procs.as_ptr(), libc::O_WRONLY);
                // "0" is the writing process itself.
                if fd < 0 || libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::close(fd);
                Ok(())
            });
        }
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        // The bots may take a moment to be reaped after arena exits.
        for _ in 0..100 {
            if std::fs::remove_dir(&self.dir).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The user arena runs as under [`ProcessLimit::Nproc`]: `nobody`.
const NOBODY: u32 = 65534;

/// How a test limits arena's processes. Root ignores `RLIMIT_NPROC`, so
/// either arena joins a pids cgroup of its own, or (where no cgroup can be
/// written, as in many containers) it runs as `nobody` under
/// `RLIMIT_NPROC`, which then counts all of that user's tasks.
enum ProcessLimit {
    Cgroup(PidsCgroup),
    Nproc,
}

impl ProcessLimit {
    fn choose() -> Result<ProcessLimit, String> {
        match PidsCgroup::create("pids") {
            Ok(cgroup) => Ok(ProcessLimit::Cgroup(cgroup)),
            // SAFETY: geteuid has no preconditions.
            Err(_) if unsafe { libc::geteuid() } == 0 => Ok(ProcessLimit::Nproc),
            Err(why) => Err(format!(
                "no writable pids cgroup ({why}), and not root, so arena cannot run as another user under RLIMIT_NPROC"
            )),
        }
    }

    /// What arena's messages call this limit.
    fn name(&self) -> &'static str {
        match self {
            ProcessLimit::Cgroup(_) => "pids.max",
            ProcessLimit::Nproc => "RLIMIT_NPROC",
        }
    }

    /// Puts the child under the limit, `max` tasks (`None`: as many as a
    /// run at `-j 1` needs, with room).
    fn apply(&self, command: &mut Command, max: Option<u64>) {
        match self {
            ProcessLimit::Cgroup(cgroup) => {
                cgroup.set_max(&max.map_or("max".to_string(), |m| m.to_string()));
                cgroup.enter(command);
            }
            ProcessLimit::Nproc => {
                command.uid(NOBODY).gid(NOBODY);
                child_limit(command, libc::RLIMIT_NPROC, max.unwrap_or(NPROC_ROOM));
            }
        }
    }

    /// Takes every process left to the running child `pid`, so that no bot
    /// (and no further thread) can start: the cgroup's limit drops to the
    /// child's own threads, or other processes of `nobody` fill the user's
    /// `RLIMIT_NPROC` (a process's limit can be lowered only by its own
    /// user). The returned sleepers are ended when dropped.
    fn starve(&self, pid: u32) -> Sleepers {
        match self {
            ProcessLimit::Cgroup(cgroup) => {
                let threads: u64 = read(Path::new(&format!("/proc/{pid}")), "status")
                    .lines()
                    .find_map(|l| l.strip_prefix("Threads:"))
                    .and_then(|t| t.trim().parse().ok())
                    .unwrap();
                assert!(cgroup.current() > threads, "no bot in the cgroup");
                cgroup.set_max(&threads.to_string());
                Sleepers(Vec::new())
            }
            ProcessLimit::Nproc => {
                // Enough that the limit stays reached after the bots of
                // the game in flight and the idle ones have ended.
                let fill = NPROC_ROOM.saturating_sub(tasks_of(NOBODY)) + 4;
                let sleepers = (0..fill)
                    .map(|_| {
                        Command::new("sleep")
                            .arg("120")
                            .uid(NOBODY)
                            .gid(NOBODY)
                            .spawn()
                            .expect("start a sleeper")
                    })
                    .collect();
                Sleepers(sleepers)
            }
        }
    }
}

/// `RLIMIT_NPROC` for arena as `nobody`: what the preflight wants at
/// `-j 1` (its own threads counted generously), and a little more.
const NPROC_ROOM: u64 = 48;

/// Tasks (threads) whose real user is `uid`, which `RLIMIT_NPROC` counts.
fn tasks_of(uid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("status")).ok())
        .filter(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|u| u.split_whitespace().next()?.parse::<u32>().ok())
                == Some(uid)
        })
        .map(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(1)
        })
        .sum()
}

/// Processes this test started to use up a limit; killed on drop.
struct Sleepers(Vec<std::process::Child>);

impl Drop for Sleepers {
    fn drop(&mut self) {
        for sleeper in &mut self.0 {
            let _ = sleeper.kill();
            let _ = sleeper.wait();
        }
    }
}

#[test]
fn out_of_processes_at_start_and_during_the_run() {
    let limit = match ProcessLimit::choose() {
        Ok(limit) => limit,
        Err(why) => {
            println!("SKIPPED: cannot limit arena's processes for an EAGAIN test: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    // Written by `nobody` under RLIMIT_NPROC.
    std::fs::set_permissions(dir.path(), PermissionsExt::from_mode(0o777)).unwrap();
    let out = dir.path().join("out");
    // 12 bots: after the first 4 games, the first round's next 8 games need
    // bots not started yet (the pool keeps those that ran), so the starts
    // that fail come in a row.
    let games = 12 * 11;
    let config = round_robin(dir.path(), 1, &instant_bots(12, "b", &[]));

    // Too few processes for one game at a time: refused before the first
    // game, naming the limit.
    let refused = run_with(&tournament_args(&config, &out), |c| limit.apply(c, Some(3)));
    assert_stopped(
        refused.status.code(),
        &String::from_utf8_lossy(&refused.stdout),
        &String::from_utf8_lossy(&refused.stderr),
        2,
        &[limit.name(), "allows 3"],
    );
    assert_eq!(csv_rows_written(&out), 0);

    // Processes run out in the middle: the limit drops to what arena's own
    // threads use, so no bot (or thread) can start any more.
    let mut child = spawn_arena_with(&resume_args(&out), dir.path(), |c| limit.apply(c, None));
    wait_for_games(&mut child, &out, 4, dir.path());
    let sleepers = limit.starve(child.id());
    stops_for_the_referee(
        &mut child,
        dir.path(),
        games,
        &[
            "Stopped: arena could not start a process (EAGAIN) 5 times in a row",
            "raise the process limit",
            "--resume",
        ],
    );
    drop(sleepers);

    resume_completes(&out, games);
}

/// A tmpfs of `size` mounted over `dir` (created), unmounted on drop.
struct TinyDisk {
    dir: PathBuf,
}

impl TinyDisk {
    fn mount(dir: &Path, size: &str) -> Result<TinyDisk, String> {
        std::fs::create_dir_all(dir).unwrap();
        let target = CString::new(dir.to_str().unwrap()).unwrap();
        let options = CString::new(format!("size={size}")).unwrap();
        // SAFETY: all pointers are valid NUL-terminated strings.
        let rc = unsafe {
            libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                0,
                options.as_ptr().cast(),
            )
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error().to_string());
        }
        Ok(TinyDisk {
            dir: dir.to_path_buf(),
        })
    }

    /// Grows the filesystem in place, keeping what it holds.
    fn grow(&self, size: &str) {
        let target = CString::new(self.dir.to_str().unwrap()).unwrap();
        let options = CString::new(format!("size={size}")).unwrap();
        // SAFETY: as in `mount`; a remount takes no source or type.
        let rc = unsafe {
            libc::mount(
                std::ptr::null(),
                target.as_ptr(),
                std::ptr::null(),
                libc::MS_REMOUNT,
                options.as_ptr().cast(),
            )
        };
        assert_eq!(rc, 0, "remount: {}", std::io::Error::last_os_error());
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let target = CString::new(self.dir.to_str().unwrap()).unwrap();
        // SAFETY: a valid path; a lazy unmount cannot fail on a busy mount.
        unsafe { libc::umount2(target.as_ptr(), libc::MNT_DETACH) };
    }
}

#[test]
fn a_full_disk_under_the_journal_stops_the_run_and_resume_completes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let disk = match TinyDisk::mount(&out, "32k") {
        Ok(disk) => disk,
        Err(why) => {
            println!("SKIPPED: cannot mount a tmpfs for an ENOSPC test ({why})");
            return;
        }
    };
    // About 650 bytes a game: the disk fills after some 40 of 90 games.
    let games = 10 * 9;
    let config = round_robin(dir.path(), 2, &instant_bots(10, "b", &[]));
    let full = run_arena(&tournament_args(&config, &out));
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_stopped(
        full.status.code(),
        &String::from_utf8_lossy(&full.stdout),
        &stderr,
        2,
        &["No space left on device", out.to_str().unwrap()],
    );
    assert!(csv_rows_written(&out) > 0, "{}", text(&full));
    assert_no_referee_loss(&out);

    disk.grow("4m");
    resume_completes(&out, games);
}

#[test]
fn a_full_disk_under_the_logs_costs_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let _disk = match TinyDisk::mount(&out.join("logs"), "16k") {
        Ok(disk) => disk,
        Err(why) => {
            println!("SKIPPED: cannot mount a tmpfs for an ENOSPC test ({why})");
            return;
        }
    };
    // Each bot writes 6 KB to stderr as it starts: three logs fill the disk.
    let chatty = [
        "sh",
        "-c",
        "head -c 6000 /dev/zero | tr '\\0' x >&2; exec \"$@\"",
        "sh",
    ];
    let bots = instant_bots(6, "b", &chatty);
    let config = round_robin(dir.path(), 2, &bots);
    let finished = run_arena(&tournament_args(&config, &out));
    assert_eq!(finished.status.code(), Some(0), "{}", text(&finished));
    assert_exactly_games(&out, 6 * 5);
    assert_no_referee_loss(&out);
    let records = jsonl_records(&out);
    let kept_in_record = records
        .iter()
        .filter(|r| {
            r["warnings"]
                .to_string()
                .contains("No space left on device")
                && ["white_log_tail", "black_log_tail"]
                    .iter()
                    .any(|k| r[k].as_str().is_some_and(|t| t.contains("xxxx")))
        })
        .count();
    assert!(kept_in_record > 0, "no log fell back to the record");
}

#[test]
fn the_longest_names_play_and_get_their_logs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // The longest names allowed (64 characters): ASCII, and four-byte
    // characters whose UTF-8 alone (256 bytes) is longer than a file name
    // may be.
    let names = [
        "a".repeat(64),
        "𝔸".repeat(64),
        format!("{}z", "𝔸".repeat(63)),
    ];
    let hello = ["sh", "-c", "echo hello from \"$1\" >&2; exec \"$0\" \"$1\""];
    let bots: Vec<String> = names.iter().map(|n| named_bot(n, &hello)).collect();
    let config = round_robin(dir.path(), 2, &bots);
    let finished = run_arena(&tournament_args(&config, &out));
    assert_eq!(finished.status.code(), Some(0), "{}", text(&finished));
    assert_exactly_games(&out, 3 * 2);
    assert_no_referee_loss(&out);
    for record in jsonl_records(&out) {
        assert!(record.get("warnings").is_none(), "{record}");
        for colour in ["white", "black"] {
            let name = record[colour].as_str().unwrap();
            let Some(log) = record[format!("{colour}_log")].as_str() else {
                continue; // a reused process said hello in an earlier game
            };
            let text = std::fs::read_to_string(log).unwrap();
            assert!(text.contains(&format!("hello from {name}")), "{log}");
        }
    }
    // Every bot's first game has its log.
    let logs = std::fs::read_dir(out.join("logs")).unwrap().count();
    assert!(logs >= names.len(), "{logs} logs");
}

/// Live (non-zombie) children of `pid`.
fn live_children(pid: i32) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(common::proc_entry)
        .filter(|p| p.ppid == pid && p.state != 'Z')
        .count()
}

fn open_descriptors(pid: i32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0)
}

#[test]
fn many_bots_need_what_the_concurrency_needs_not_what_the_bots_do() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (bots, j) = (24, 2);
    let games = bots * (bots - 1);
    let config = round_robin(dir.path(), j, &instant_bots(bots, "b", &[]));
    // As much as the preflight says -j 2 needs, and not one more.
    let needs = Needs::at(j, false);
    let mut child = spawn_arena_with(&tournament_args(&config, &out), dir.path(), |c| {
        descriptor_limit(c, needs.descriptors + 16)
    });
    let pid = child.id() as i32;
    let (mut most_bots, mut most_fds, mut samples) = (0, 0, 0);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        most_bots = most_bots.max(live_children(pid));
        most_fds = most_fds.max(open_descriptors(pid));
        samples += 1;
        std::thread::sleep(Duration::from_millis(2));
    };
    let all = format!(
        "{status}\n{}\n{}",
        read(dir.path(), "arena.stdout"),
        read(dir.path(), "arena.stderr")
    );
    assert_eq!(status.code(), Some(0), "{all}");
    assert_exactly_games(&out, games as u64);
    assert_no_referee_loss(&out);
    println!("{bots} bots, -j {j}: at most {most_bots} bot processes and {most_fds} descriptors in {samples} samples");
    assert!(samples > 100, "{samples} samples");
    // Two bots playing and IDLE_PER_SLOT idle ones per game slot, and the
    // SHARED_IDLE ones: what the preflight counts on.
    assert!(
        most_bots as u64 <= needs.processes && most_bots >= 2,
        "{most_bots} bot processes at -j {j} with {bots} bots"
    );
    assert!(
        most_fds as u64 <= needs.descriptors,
        "{most_fds} descriptors open, the preflight counts on {}",
        needs.descriptors
    );
}
