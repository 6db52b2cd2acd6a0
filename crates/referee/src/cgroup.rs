//! A cgroup (v2) per bot process, where arena may make one: the exact CPU
//! time of the bot's whole process tree (`cpu.stat`'s `usage_usec`, which
//! counts every process the bot starts, forked workers and daemons alike,
//! for as long as they live), for the CPU clock (`clock = "cpu"`).
//!
//! arena makes the bot's cgroup in its own (`arena-PID-N` in the cgroup
//! v2 directory of the referee), and the child joins it before it
//! runs the bot's program (`pre_exec`); everything the bot starts is born
//! inside. The directory is removed when the bot has ended (what is still
//! in it is killed first, `cgroup.kill`). Where there is no writable
//! cgroup v2 directory (an unprivileged user without a delegated subtree),
//! or a controller setup that forbids processes beside children, there is
//! none, and the CPU clock falls back to the bot's process
//! ([`crate::cpu_clock`]); `tournament.json` says which was used.

use std::ffi::CString;
use std::fs::File;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// The cgroup v2 directory the referee runs in, when arena can make bot
/// cgroups in it (checked once, by making and removing one).
fn home() -> Option<&'static Path> {
    static HOME: OnceLock<Option<PathBuf>> = OnceLock::new();
    HOME.get_or_init(find_home).as_deref()
}

fn find_home() -> Option<PathBuf> {
    let mount = cgroup2_mount()?;
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = mount.join(path.trim_start_matches('/'));
    // Processes may join a child only where no controller is enabled for
    // the children (the "no internal processes" rule).
    let subtree = std::fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
    if !subtree.trim().is_empty() {
        return None;
    }
    let probe = dir.join(format!("arena-{}-probe", std::process::id()));
    std::fs::create_dir(&probe).ok()?;
    let usable = probe.join("cpu.stat").is_file() && probe.join("cgroup.procs").is_file();
    let _ = std::fs::remove_dir(&probe);
    usable.then_some(dir)
}

/// Where cgroup2 is mounted (`/proc/self/mountinfo`).
fn cgroup2_mount() -> Option<PathBuf> {
    let info = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    info.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let fstype = right.split_whitespace().next()?;
        let mount_point = left.split_whitespace().nth(4)?;
        (fstype == "cgroup2").then(|| PathBuf::from(mount_point))
    })
}

/// Whether bots get cgroups here.
pub fn available() -> bool {
    home().is_some()
}

/// One bot process's cgroup.
#[derive(Debug)]
pub struct BotCgroup {
    dir: PathBuf,
    /// `cgroup.procs`, for the child to join (opened in the child).
    procs: CString,
    /// `cpu.stat`, read with `pread` for each CPU sample.
    stat: File,
    /// `cgroup.threads`, where the bot's threads are listed.
    threads: PathBuf,
}

impl BotCgroup {
    /// A new cgroup for a bot about to be spawned; `None` where there are
    /// none ([`available`]) or it cannot be made.
    pub fn create() -> Option<BotCgroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let home = home()?;
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = home.join(format!("arena-{}-{n}", std::process::id()));
        std::fs::create_dir(&dir).ok()?;
        let made = || -> Option<BotCgroup> {
            let procs = CString::new(dir.join("cgroup.procs").as_os_str().as_bytes()).ok()?;
            let stat = File::open(dir.join("cpu.stat")).ok()?;
            Some(BotCgroup {
                dir: dir.clone(),
                procs,
                stat,
                threads: dir.join("cgroup.threads"),
            })
        };
        let cgroup = made();
        if cgroup.is_none() {
            let _ = std::fs::remove_dir(&dir);
        }
        cgroup
    }

    /// What the child needs to join the cgroup before exec.
    pub fn joiner(&self) -> Joiner {
        Joiner(self.procs.clone())
    }

    /// Whether process `pid` is in this cgroup (checked once after the
    /// spawn: a join that failed falls back to the process's clock).
    pub fn holds(&self, pid: i32) -> bool {
        std::fs::read_to_string(self.dir.join("cgroup.procs"))
            .is_ok_and(|text| text.lines().any(|l| l.trim() == pid.to_string()))
    }

    /// CPU time used by every process that has been in the cgroup.
    pub fn cpu_used(&self) -> Option<Duration> {
        let mut buf = [0u8; 256];
        let n = self.stat.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        let usec = text
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))?
            .trim()
            .parse()
            .ok()?;
        Some(Duration::from_micros(usec))
    }

    /// The cgroup's `cgroup.threads`: every thread of every process in
    /// it ([`crate::run_queue::Threads::Cgroup`]).
    pub fn threads_file(&self) -> &Path {
        &self.threads
    }
}

/// The path of a cgroup's `cgroup.procs`, for a child to join it.
#[derive(Debug, Clone)]
pub struct Joiner(CString);

impl Joiner {
    /// Runs in the child before exec: moves it into the cgroup, so that it
    /// and everything it starts are counted. A failure leaves the child
    /// where it was (its process's clock is then all that counts).
    pub fn join_in_child(&self) {
        // SAFETY: open, write and close are async-signal-safe; the path and
        // the digits are on the stack or were allocated before the child started.
        unsafe {
            let fd = libc::open(self.0.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
            if fd < 0 {
                return;
            }
            let mut digits = [0u8; 20];
            let mut pid = libc::getpid() as u64;
            let mut start = digits.len();
            loop {
                start -= 1;
                digits[start] = b'0' + (pid % 10) as u8;
                pid /= 10;
                if pid == 0 {
                    break;
                }
            }
            let _ = libc::write(fd, digits[start..].as_ptr().cast(), digits.len() - start);
            libc::close(fd);
        }
    }
}

impl Drop for BotCgroup {
    /// Removes the cgroup; what still lives in it (a daemon the bot left)
    /// is killed first.
    fn drop(&mut self) {
        if std::fs::remove_dir(&self.dir).is_ok() {
            return;
        }
        let _ = std::fs::write(self.dir.join("cgroup.kill"), "1");
        for _ in 0..50 {
            if std::fs::remove_dir(&self.dir).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// A shell that starts a child spinning on the CPU and waits for it:
    /// the cgroup counts the child's time, the shell's own clock does not.
    #[test]
    fn the_cgroup_counts_what_the_bot_starts() {
        let Some(cgroup) = BotCgroup::create() else {
            eprintln!("SKIPPED: no writable cgroup v2 here");
            return;
        };
        let joiner = cgroup.joiner();
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'; exec sleep 5",
        ]);
        // SAFETY: the closure only makes async-signal-safe system calls.
        unsafe {
            command.pre_exec(move || {
                joiner.join_in_child();
                Ok(())
            });
        }
        let mut child = command.spawn().unwrap();
        let pid = child.id() as i32;
        assert!(cgroup.holds(pid));
        let clock = crate::cpu_clock::CpuClock::of(pid).unwrap();
        // The spinning grandchild ends well within 5 s.
        let mut used = Duration::ZERO;
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(50));
            used = cgroup.cpu_used().unwrap();
            if used > Duration::from_millis(100)
                && std::fs::read_to_string(cgroup.dir.join("cgroup.procs"))
                    .unwrap()
                    .lines()
                    .count()
                    == 1
            {
                break;
            }
        }
        let own = clock.read().unwrap();
        assert!(used > Duration::from_millis(100), "{used:?}");
        assert!(own < used / 4, "the shell's own {own:?} of {used:?}");
        child.kill().unwrap();
        child.wait().unwrap();
        let dir = cgroup.dir.clone();
        drop(cgroup);
        assert!(!dir.exists());
    }
}
