//! Checks of the machine before the first game (whether each bot's program
//! can start is the referee's [`arena_referee::program_problem`]): that the
//! sandbox works for every sandboxed bot, since a sandbox that cannot start
//! is the machine's failure, not the bot's; and ([`check_resources`]) that
//! the descriptors and processes the run needs at its concurrency fit the
//! limits, after raising the soft descriptor limit to the hard one; and
//! ([`oversubscribed`]) whether more games run at once than there are cores.

use std::path::Path;

use anyhow::bail;

use super::runner::{IDLE_PER_SLOT, SHARED_IDLE};
use arena_referee::limits::raise_descriptor_limit;
use arena_referee::sandbox::{check_available, Sandbox};
use arena_referee::BotSpec;

/// Descriptors the referee uses whatever the concurrency (runtime, journal,
/// standard streams, `/proc` reads), with room to spare.
const BASE_DESCRIPTORS: u64 = 24;

/// Descriptors per live bot process: its three pipes and its log.
const DESCRIPTORS_PER_BOT: u64 = 4;

/// Descriptors a start holds for a moment (the child's pipe ends and the
/// exec-status pipe).
const DESCRIPTORS_PER_START: u64 = 5;

/// Threads of the referee itself (runtime workers, blocking pool, journal
/// writer), counted against a process limit.
const REFEREE_THREADS: u64 = 24;

/// What a run needs at one concurrency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    pub descriptors: u64,
    pub processes: u64,
}

impl Needs {
    /// Per game slot: its two bots, [`IDLE_PER_SLOT`] idle ones, and two
    /// starts at once; and the [`SHARED_IDLE`] idle bots of any run. A
    /// sandboxed bot is three processes (`bwrap`, the namespace's init, the
    /// bot); a bot's own children are not counted.
    pub fn at(concurrency: usize, sandboxed: bool) -> Needs {
        let slots = concurrency.max(1) as u64;
        let bots = slots * (2 + IDLE_PER_SLOT as u64) + SHARED_IDLE as u64;
        let per_bot = if sandboxed { 3 } else { 1 };
        Needs {
            descriptors: BASE_DESCRIPTORS
                + bots * DESCRIPTORS_PER_BOT
                + slots * 2 * DESCRIPTORS_PER_START,
            processes: bots * per_bot,
        }
    }

    /// The highest concurrency whose needs stay within `fits`.
    fn max_concurrency(sandboxed: bool, fits: impl Fn(Needs) -> bool) -> usize {
        (1..=4096)
            .take_while(|&j| fits(Needs::at(j, sandboxed)))
            .last()
            .unwrap_or(0)
    }
}

/// The warning for `concurrency` games at once on fewer `cores`: bots that
/// think at the same time share the CPUs, and a wall clock charges each
/// for the wait. `None` when every game can have a core (and on a CPU
/// clock, which does not charge the wait: the caller does not ask then).
pub fn oversubscribed(concurrency: usize, cores: usize) -> Option<String> {
    (concurrency > cores).then(|| {
        format!(
            "warning: -j {concurrency} plays {concurrency} games at once on {cores} core{}: bots that think at \
             the same time share the CPUs, and their move times include the wait, so they may \
             lose on time; use -j {cores} or less, or count CPU time (--clock cpu), for fair \
             clocks",
            if cores == 1 { "" } else { "s" }
        )
    })
}

/// Raises the soft descriptor limit to the hard one, then `Err` (stop
/// before the first game, one line naming the limit and the fix) when the
/// descriptors or processes that `concurrency` games at once need do not
/// fit: `RLIMIT_NOFILE` (less what is open now), `RLIMIT_NPROC` (less the
/// user's running tasks; it does not bind root) and the pids limit of the
/// run's cgroup.
pub fn check_resources(concurrency: usize, bots: &[BotSpec]) -> anyhow::Result<()> {
    let sandboxed = bots.iter().any(|b| b.sandbox == Some(true));
    let needs = Needs::at(concurrency, sandboxed);
    let (nofile, _) = raise_descriptor_limit()?;
    let open = count_entries("/proc/self/fd").unwrap_or(0);
    let free_fds = nofile.saturating_sub(open);
    if needs.descriptors > free_fds {
        let fit = Needs::max_concurrency(sandboxed, |n| n.descriptors <= free_fds);
        bail!(
            "-j {concurrency} needs about {} file descriptors, but the limit (RLIMIT_NOFILE, `ulimit -n`) is {nofile} with {open} open: raise the hard limit (`ulimit -Hn`, e.g. to {}) or lower -j{}",
            needs.descriptors,
            needs.descriptors + open,
            lower_j(fit)
        );
    }
    if let Some((limit, used, what)) = process_limit() {
        let free = limit.saturating_sub(used + REFEREE_THREADS);
        if needs.processes > free {
            let fit = Needs::max_concurrency(sandboxed, |n| n.processes <= free);
            bail!(
                "-j {concurrency} needs about {} bot processes, but {what} allows {limit} with {used} in use: raise it or lower -j{}",
                needs.processes,
                lower_j(fit)
            );
        }
    }
    Ok(())
}

fn lower_j(fit: usize) -> String {
    if fit == 0 {
        String::new()
    } else {
        format!(" to {fit}")
    }
}

/// The tightest process limit that binds this process: (limit, tasks in
/// use, its name).
fn process_limit() -> Option<(u64, u64, String)> {
    let mut limits = Vec::new();
    if let Some(limit) = cgroup_pids_limit() {
        limits.push(limit);
    }
    // SAFETY: geteuid and getuid have no preconditions.
    let (euid, uid) = unsafe { (libc::geteuid(), libc::getuid()) };
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into a stack value.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut rl) } == 0;
    if euid != 0 && got && rl.rlim_cur != libc::RLIM_INFINITY {
        let used = tasks_of_user(uid);
        limits.push((
            rl.rlim_cur,
            used,
            "the process limit (RLIMIT_NPROC, `ulimit -u`)".to_string(),
        ));
    }
    limits
        .into_iter()
        .min_by_key(|(limit, used, _)| limit.saturating_sub(*used))
}

/// `pids.max` and `pids.current` of this process's cgroup (v1 `pids`
/// controller or v2), when it has a limit.
fn cgroup_pids_limit() -> Option<(u64, u64, String)> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let dir = if controllers.split(',').any(|c| c == "pids") {
            format!("/sys/fs/cgroup/pids{path}")
        } else if controllers.is_empty() {
            format!("/sys/fs/cgroup{path}")
        } else {
            continue;
        };
        let read = |name: &str| std::fs::read_to_string(format!("{dir}/{name}")).ok();
        let (Some(max), Some(current)) = (read("pids.max"), read("pids.current")) else {
            continue;
        };
        let (Ok(max), Ok(current)) = (max.trim().parse(), current.trim().parse()) else {
            continue; // "max": no limit
        };
        return Some((max, current, format!("the cgroup's pids.max ({dir})")));
    }
    None
}

/// Tasks (threads) whose real user is `uid`: what `RLIMIT_NPROC` counts.
fn tasks_of_user(uid: libc::uid_t) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut tasks = 0;
    for entry in entries.flatten() {
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        };
        if field("Uid:") == Some(uid as u64) {
            tasks += field("Threads:").unwrap_or(1);
        }
    }
    tasks
}

fn count_entries(dir: &str) -> Option<u64> {
    Some(std::fs::read_dir(dir).ok()?.count() as u64)
}

/// `Err` (stop before the first game) when a bot runs in the sandbox and
/// `bwrap` is missing or unusable, or its `writable` paths or directory do
/// not fit (a missing path, a directory inside the output directory `out`).
pub fn check_sandbox(bots: &[BotSpec], out: &Path) -> anyhow::Result<()> {
    let sandboxed: Vec<&BotSpec> = bots.iter().filter(|b| b.sandbox == Some(true)).collect();
    if sandboxed.is_empty() {
        return Ok(());
    }
    check_available()?;
    for bot in sandboxed {
        Sandbox::for_bot(bot, &[out.to_path_buf()])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_games_than_cores_is_said_once_with_the_fix() {
        assert_eq!(oversubscribed(2, 2), None);
        assert_eq!(oversubscribed(1, 4), None);
        let text = oversubscribed(8, 2).unwrap();
        assert!(
            text.starts_with("warning: -j 8 plays 8 games at once on 2 cores:"),
            "{text}"
        );
        assert!(
            text.ends_with("use -j 2 or less, or count CPU time (--clock cpu), for fair clocks"),
            "{text}"
        );
        assert!(oversubscribed(2, 1).unwrap().contains("on 1 core:"));
    }

    #[test]
    fn needs_grow_with_concurrency_not_with_bots() {
        let one = Needs::at(1, false);
        let eight = Needs::at(8, false);
        // Per slot: 4 bots x 4 descriptors + 2 starts x 5; once: 24 and the
        // 16 shared idle bots x 4.
        assert_eq!(one.descriptors, 24 + 16 * 4 + 26);
        assert_eq!(eight.descriptors - one.descriptors, 7 * 26);
        assert_eq!(eight.processes, 8 * 4 + 16);
        assert_eq!(Needs::at(8, true).processes, 3 * (8 * 4 + 16));
        // -j 2 needs 24 + 64 + 2 x 26 = 140, -j 3 166.
        assert_eq!(Needs::max_concurrency(false, |n| n.descriptors <= 150), 2);
        assert_eq!(Needs::max_concurrency(false, |n| n.descriptors <= 100), 0);
    }

    #[test]
    fn sandbox_settings_that_cannot_work_stop_the_run() {
        let tmp = tempfile::tempdir().unwrap();
        let mut bot = BotSpec::from_command_line("b", "prog").unwrap();
        bot.cwd = Some(tmp.path().to_path_buf());
        bot.writable = vec!["missing".into()];
        // Not sandboxed: its sandbox settings do not matter.
        check_sandbox(std::slice::from_ref(&bot), tmp.path()).unwrap();
        bot.sandbox = Some(true);
        let err = format!(
            "{:#}",
            check_sandbox(&[bot], Path::new("/nonexistent")).unwrap_err()
        );
        assert!(err.contains("bwrap") || err.contains("writable"), "{err}");
    }
}
