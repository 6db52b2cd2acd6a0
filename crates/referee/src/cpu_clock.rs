//! The CPU time a bot uses for each move: the POSIX CPU-time clock of the
//! bot's process (`clock_getcpuclockid`), which counts every thread of the
//! process, user and system time, to the nanosecond, in one system call
//! (about 0.3 µs). Read when the turn is written and when the move is
//! read, so a move's CPU time is what the bot's process used in between,
//! whatever else the machine was doing: a bot waiting for a CPU held by
//! others is not charged.
//!
//! What it does not count: processes the bot starts (forked workers, a
//! shell's children) have clocks of their own. On a CPU clock a bot gets a
//! cgroup where arena can make one ([`crate::cgroup`]), which counts them;
//! elsewhere their time is bounded by the bot's `cpu_seconds` limit over
//! the whole tree (`limits.rs`) and the wall-time cap, not per move. In the sandbox the process arena spawns is `bwrap`, so the clock
//! is the one of the bot inside it (the first process below the `bwrap`
//! processes), found once, after the bot said `ready`.

use std::time::Duration;

/// A process's CPU-time clock (all its threads, user + system).
#[derive(Debug, Clone, Copy)]
pub struct CpuClock {
    id: libc::clockid_t,
}

impl CpuClock {
    /// The clock of process `pid`; `None` when there is no such process.
    pub fn of(pid: i32) -> Option<CpuClock> {
        let mut id: libc::clockid_t = 0;
        // SAFETY: `id` is a valid place for the clock id; the call has no
        // other preconditions.
        let rc = unsafe { libc::clock_getcpuclockid(pid, &mut id) };
        (rc == 0).then_some(CpuClock { id })
    }

    /// CPU time used so far; `None` once the process is gone (reaped).
    pub fn read(&self) -> Option<Duration> {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec to write to.
        let rc = unsafe { libc::clock_gettime(self.id, &mut now) };
        (rc == 0).then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
    }
}

/// The process that runs the bot's own program: `root` itself, or in the
/// sandbox the first process below `root`'s chain of `bwrap` processes
/// (the outer `bwrap`, then the namespace's init). `root` when the chain
/// cannot be followed.
pub fn bot_process(root: i32, sandboxed: bool) -> i32 {
    if !sandboxed {
        return root;
    }
    let mut pid = root;
    // bwrap, its init in the namespace, then the bot: a few steps at most.
    for _ in 0..4 {
        let Some(child) = first_child(pid) else {
            return pid;
        };
        if command_name(child).as_deref() != Some("bwrap") {
            return child;
        }
        pid = child;
    }
    pid
}

/// The first child of `pid` (`/proc/PID/task/PID/children`).
fn first_child(pid: i32) -> Option<i32> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn command_name(pid: i32) -> Option<String> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    Some(text.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    /// A child that spins for a while uses about that much CPU by its clock,
    /// and its clock ends with it. It says when it is done spinning, so the
    /// test holds however long a loaded machine makes the spin take.
    #[test]
    fn a_spinning_child_is_charged_its_cpu_time() {
        let mut child = Command::new("sh")
            .args([
                "-c",
                "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo spun; exec sleep 5",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let began = Instant::now();
        let clock = CpuClock::of(child.id() as i32).unwrap();
        let start = clock.read().unwrap();
        let mut said = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut said)
            .unwrap();
        assert_eq!(said, "spun\n");
        // The spin took CPU time (much of a second on a free core), never more
        // than the wall time it took (one thread).
        let spun = clock.read().unwrap() - start;
        assert!(spun > Duration::from_millis(5), "{spun:?}");
        assert!(
            spun <= began.elapsed() + Duration::from_millis(20),
            "{spun:?}"
        );
        // Then it sleeps: the clock stands still.
        std::thread::sleep(Duration::from_millis(100));
        let a = clock.read().unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let b = clock.read().unwrap();
        assert!(b - a < Duration::from_millis(5), "{:?}", b - a);
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(clock.read().is_none());
    }

    #[test]
    fn outside_the_sandbox_the_bot_is_the_process_arena_started() {
        assert_eq!(bot_process(12345, false), 12345);
    }
}
