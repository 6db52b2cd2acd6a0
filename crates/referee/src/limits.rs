//! What binds a bot's resources.
//!
//! - [`ChildSetup`]: what the child does before exec (started by
//!   [`super::spawn`], or forked): rlimits
//!   (they bind the bot and anything it forks, each process on its own, and
//!   never the referee), death with the referee (`PR_SET_PDEATHSIG`), and no
//!   inherited descriptors beyond stdin/stdout/stderr.
//! - [`tree_cpu_time`]: CPU time of a bot's whole process tree read from
//!   `/proc`, so `limits.cpu_seconds` binds forked workers together too
//!   (`RLIMIT_CPU` counts each process separately).

use std::collections::HashMap;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::spec::BotLimits;

/// The `setrlimit` calls to make in the child, computed before it starts so the
/// child only has to make system calls (async-signal-safe).
#[derive(Debug, Clone, Copy, Default)]
pub struct RlimitPlan {
    /// `RLIMIT_AS` in bytes.
    address_space: Option<u64>,
    /// `RLIMIT_CPU` soft limit in seconds; the hard limit is one second more,
    /// so the bot first gets `SIGXCPU` (a signal we can name in the result)
    /// and only a bot that catches it is killed by `SIGKILL` a second later.
    cpu_seconds: Option<u64>,
}

impl RlimitPlan {
    pub fn new(limits: &BotLimits) -> RlimitPlan {
        RlimitPlan {
            address_space: limits.memory_mb.map(|mb| mb.saturating_mul(1024 * 1024)),
            cpu_seconds: limits.cpu_seconds,
        }
    }

    /// Applies the limits to the calling process. Meant for `pre_exec`: it
    /// allocates nothing and only calls `setrlimit`.
    pub fn apply_in_child(&self) -> io::Result<()> {
        if let Some(bytes) = self.address_space {
            set(libc::RLIMIT_AS, bytes, bytes)?;
        }
        if let Some(secs) = self.cpu_seconds {
            set(libc::RLIMIT_CPU, secs, secs.saturating_add(1))?;
        }
        Ok(())
    }
}

/// The soft `RLIMIT_NOFILE` bots get (0: whatever the referee has). The
/// referee raises its own soft limit to the hard one for a tournament
/// ([`raise_descriptor_limit`]); bots keep the one arena was started with,
/// since programs that use `select()` break above 1024 descriptors.
static BOT_NOFILE: AtomicU64 = AtomicU64::new(0);

/// Raises this process's soft `RLIMIT_NOFILE` to its hard limit, once;
/// children started from now on get the old soft limit back. Returns the
/// (soft, hard) limit now in force.
pub fn raise_descriptor_limit() -> io::Result<(u64, u64)> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into a stack value.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let (soft, hard) = (limit.rlim_cur, limit.rlim_max);
    if soft < hard {
        set(libc::RLIMIT_NOFILE, hard, hard)?;
        let _ = BOT_NOFILE.compare_exchange(0, soft, Ordering::SeqCst, Ordering::SeqCst);
    }
    Ok((hard, hard))
}

/// Everything the child does before exec, computed before it starts so the
/// child only makes system calls (async-signal-safe, no allocation).
#[derive(Debug, Clone, Copy)]
pub struct ChildSetup {
    rlimits: RlimitPlan,
    /// The referee's pid, to notice that it died before the death signal
    /// was armed.
    parent: libc::pid_t,
    /// The soft descriptor limit to restore (see [`raise_descriptor_limit`]).
    nofile: Option<u64>,
}

impl ChildSetup {
    pub fn new(limits: &BotLimits) -> ChildSetup {
        ChildSetup {
            rlimits: RlimitPlan::new(limits),
            // SAFETY: getpid has no preconditions.
            parent: unsafe { libc::getpid() },
            nofile: Some(BOT_NOFILE.load(Ordering::SeqCst)).filter(|&n| n > 0),
        }
    }

    /// Runs in the child (`pre_exec`): dies with the referee (strictly:
    /// with the thread that spawned it, which for bots is a runtime worker
    /// thread that lives as long as the runtime), marks every
    /// descriptor above 2 close-on-exec (those the referee itself inherited
    /// would otherwise pass to the bot; closing them outright would also
    /// close the pipe std uses to report a failed exec), sets the rlimits.
    pub fn apply_in_child(&self) -> io::Result<()> {
        // SAFETY: prctl and getppid are plain system calls.
        unsafe {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The referee died before the signal was armed: the bot must not run.
            if libc::getppid() != self.parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
        }
        cloexec_from_3();
        if let Some(soft) = self.nofile {
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit writes into a stack value (async-signal-safe).
            if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
                let hard = limit.rlim_max;
                set(libc::RLIMIT_NOFILE, soft.min(hard), hard)?;
            }
        }
        self.rlimits.apply_in_child()
    }
}

/// Marks descriptors 3 and up close-on-exec: `close_range` (Linux 5.11),
/// else one `fcntl` per possible descriptor number.
fn cloexec_from_3() {
    // SAFETY: close_range with CLOSE_RANGE_CLOEXEC only changes descriptor flags.
    let done = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC as libc::c_uint,
        )
    } == 0;
    if done {
        return;
    }
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into a stack value.
    let max = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur.min(1 << 16) as i32
    } else {
        1024
    };
    for fd in 3..max {
        // SAFETY: F_SETFD on a descriptor that may not be open (EBADF is fine).
        unsafe {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
}

/// Most processes counted in one tree (a fork bomb cannot make the walk
/// unbounded).
const MAX_TREE: usize = 4096;

/// CPU time (user + system) of the process `root`, every live descendant,
/// and every live process in `root`'s process group, plus what each of them
/// collected from children it reaped (`cutime` + `cstime`). Read from
/// `/proc` (one pass over its process list). A descendant that left both
/// the tree (its parent died, so init adopted it) and the group (`setsid`)
/// is not seen: the sandbox keeps such processes inside its namespace,
/// whose init is a descendant. `None` when `root` is gone.
pub fn tree_cpu_time(root: i32) -> Option<Duration> {
    let mut procs: HashMap<i32, ProcTimes> = HashMap::new();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if let Some(times) = read_stat(pid) {
            procs.insert(pid, times);
        }
    }
    procs.get(&root)?;
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for (&pid, t) in &procs {
        children.entry(t.ppid).or_default().push(pid);
    }
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<i32> = vec![root];
    stack.extend(
        procs
            .iter()
            .filter(|(_, t)| t.pgrp == root)
            .map(|(&p, _)| p),
    );
    let mut ticks = 0u64;
    while let Some(pid) = stack.pop() {
        if seen.len() >= MAX_TREE || !seen.insert(pid) {
            continue;
        }
        if let Some(t) = procs.get(&pid) {
            ticks = ticks.saturating_add(t.ticks);
        }
        stack.extend(children.get(&pid).into_iter().flatten());
    }
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(Duration::from_millis(ticks.saturating_mul(1000) / hz))
}

/// One process of a bot's tree, as [`tree_members`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeMember {
    pub pid: i32,
    pub ppid: i32,
    pub pgrp: i32,
}

/// The processes [`tree_cpu_time`] counts (`root`, its live descendants,
/// the live members of `root`'s group), `root` included, from one pass over
/// `/proc`; empty when `root` is gone. At most [`MAX_TREE`].
pub fn tree_members(root: i32) -> Vec<TreeMember> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut procs: HashMap<i32, TreeMember> = HashMap::new();
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if let Some(t) = read_stat(pid) {
            let (ppid, pgrp) = (t.ppid, t.pgrp);
            procs.insert(pid, TreeMember { pid, ppid, pgrp });
        }
    }
    if !procs.contains_key(&root) {
        return Vec::new();
    }
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for m in procs.values() {
        children.entry(m.ppid).or_default().push(m.pid);
    }
    let mut stack: Vec<i32> = vec![root];
    stack.extend(procs.values().filter(|m| m.pgrp == root).map(|m| m.pid));
    let mut seen = std::collections::HashSet::new();
    let mut members = Vec::new();
    while let Some(pid) = stack.pop() {
        if seen.len() >= MAX_TREE || !seen.insert(pid) {
            continue;
        }
        if let Some(m) = procs.get(&pid) {
            members.push(*m);
        }
        stack.extend(children.get(&pid).into_iter().flatten());
    }
    members
}

/// `pid` as `/proc` shows it now (`None` when it is gone).
pub fn member_now(pid: i32) -> Option<TreeMember> {
    let t = read_stat(pid)?;
    Some(TreeMember {
        pid,
        ppid: t.ppid,
        pgrp: t.pgrp,
    })
}

struct ProcTimes {
    ppid: i32,
    pgrp: i32,
    /// utime + stime + cutime + cstime, in clock ticks.
    ticks: u64,
}

/// Fields of `/proc/PID/stat` (after the parenthesised name, which may
/// contain spaces): state ppid pgrp session tty tpgid flags minflt cminflt
/// majflt cmajflt utime stime cutime cstime.
fn read_stat(pid: i32) -> Option<ProcTimes> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let num = |i: usize| fields.get(i)?.parse::<i64>().ok();
    let ticks = (11..=14).filter_map(num).map(|t| t.max(0) as u64).sum();
    Some(ProcTimes {
        ppid: num(1)? as i32,
        pgrp: num(2)? as i32,
        ticks,
    })
}

#[cfg(target_os = "linux")]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_os = "linux"))]
type Resource = libc::c_int;

fn set(resource: Resource, soft: u64, hard: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: plain system call with a pointer to a stack value.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_cpu_time_counts_a_forked_child() {
        // A parent that only sleeps and a child that spins for 0.3 s of CPU.
        let busy = "import os, time\nif os.fork() == 0:\n    while time.process_time() < 0.3: pass\n    os._exit(0)\ntime.sleep(10)";
        let mut child = std::process::Command::new("python3")
            .args(["-c", busy])
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let start = std::time::Instant::now();
        let mut tree = Duration::ZERO;
        while tree < Duration::from_millis(250) && start.elapsed() < Duration::from_secs(8) {
            std::thread::sleep(Duration::from_millis(50));
            tree = tree_cpu_time(pid).unwrap();
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(tree >= Duration::from_millis(250), "tree used {tree:?}");
        assert!(tree_cpu_time(pid).is_none());
    }
}
