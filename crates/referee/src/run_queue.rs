//! How long a bot waited for a CPU, so that a busy machine is never a
//! bot's loss: Linux keeps, for every thread, the time it was runnable but
//! not running (the run-queue wait, the second field of
//! `/proc/PID/task/TID/schedstat`), booked when the thread next gets a CPU
//! ([`WaitWatch`] counts a wait under way too).
//!
//! A bot's wait is the sum over its threads ([`bot_wait`]): those of its
//! cgroup where it has one ([`crate::cgroup`]), else those of its process
//! and of the processes below it. (A cgroup's `cpu.pressure` is no
//! substitute: its total is an average over the CPUs, weighted by how busy
//! the cgroup kept each, so a bot that ran on both of 2 CPUs shows about
//! half the time it waited.) The limits that count wall
//! time, the start-up limit (`startup_ms`, the time to `ready`) and a CPU
//! clock's wall-time cap, do not count it ([`Patience`]): their deadline
//! moves out by the time the bot waited, up to [`CEILING_FACTOR`] times the
//! limit, so that a bot cannot stall for ever. A wall clock still charges
//! the wait (it counts wall time on purpose).
//!
//! What was waited is added up for the run ([`machine_wait`]), which the
//! terminal says at the end. Where the waits cannot be read (no
//! `/proc/PID/schedstat`: not Linux, or a kernel without it) the limits
//! count wall time as before, and [`available`] says so.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use tokio::time::Instant;

/// However long a bot waited for a CPU, a limit that does not count the
/// wait ends after this many times its length of wall time.
pub const CEILING_FACTOR: u32 = 10;

/// The least time between two looks at a bot's wait while a deadline is
/// moved out (each look reads a few `/proc` files; a thread that runs has
/// used CPU time by then, at any tick rate of 100 Hz or more).
const LOOK_MIN: Duration = Duration::from_millis(10);

/// Most processes of a bot's tree whose threads are read.
const MAX_PROCESSES: usize = 64;

/// Whether this machine says how long threads wait for a CPU (checked
/// once, on the referee's own `/proc/self/schedstat`).
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::fs::read_to_string("/proc/self/schedstat").is_ok_and(|text| run_delay(&text).is_some())
    })
}

/// A thread's `schedstat` line, `cpu_ns wait_ns slices`: its CPU time
/// and its run-queue wait.
fn schedstat(text: &str) -> Option<(u64, u64)> {
    let mut fields = text.split_whitespace();
    let cpu = fields.next()?.parse().ok()?;
    let wait = fields.next()?.parse().ok()?;
    Some((cpu, wait))
}

fn run_delay(text: &str) -> Option<Duration> {
    schedstat(text).map(|(_, wait)| Duration::from_nanos(wait))
}

/// One thread of a bot as one look saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ThreadLook {
    cpu_ns: u64,
    wait_ns: u64,
    /// On a run queue (`R`): running, or waiting for a CPU.
    runnable: bool,
}

/// Where a bot's threads are: below its process (`/proc/PID/task`, and
/// the same for each child, at most [`MAX_PROCESSES`]), or in its cgroup
/// (`cgroup.threads`, every thread of every process the bot started).
#[derive(Debug, Clone, Copy)]
pub enum Threads<'a> {
    Tree(i32),
    Cgroup(&'a Path),
}

/// Calls `each` with every thread of the bot and its directory in
/// `/proc`; false when the bot is gone.
fn each_thread(threads: Threads<'_>, mut each: impl FnMut(i32, &Path)) -> bool {
    match threads {
        Threads::Tree(root) => each_in_tree(root, each),
        Threads::Cgroup(list) => {
            let Ok(text) = std::fs::read_to_string(list) else {
                return false;
            };
            for tid in text
                .split_whitespace()
                .filter_map(|t| t.parse::<i32>().ok())
            {
                each(tid, &PathBuf::from(format!("/proc/{tid}")));
            }
            true
        }
    }
}

/// [`each_thread`] of a process and the processes below it.
fn each_in_tree(root: i32, mut each: impl FnMut(i32, &Path)) -> bool {
    let mut stack = vec![root];
    let mut seen = 0;
    let mut root_seen = false;
    while let Some(pid) = stack.pop() {
        seen += 1;
        if seen > MAX_PROCESSES {
            break;
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        root_seen |= pid == root;
        for task in tasks.flatten() {
            let dir = task.path();
            if let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) {
                each(tid, &dir);
            }
            if let Ok(children) = std::fs::read_to_string(dir.join("children")) {
                stack.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok()),
                );
            }
        }
    }
    root_seen
}

/// The time the bot's threads have waited for a CPU, since each started,
/// as far as Linux has booked it: a wait is booked when the thread gets
/// its CPU, so a thread that is waiting now counts only its earlier waits
/// (see [`WaitWatch`]). `None` when the bot is gone or the waits cannot be
/// read. Threads that ended no longer count (a wait that shrinks is read
/// as none).
pub fn bot_wait(threads: Threads<'_>) -> Option<Duration> {
    if !available() {
        return None;
    }
    let mut total = Duration::ZERO;
    let found = each_thread(threads, |_, dir| {
        if let Ok(text) = std::fs::read_to_string(dir.join("schedstat")) {
            total += run_delay(&text).unwrap_or_default();
        }
    });
    found.then_some(total)
}

/// Each thread of a bot at one look (by thread id), with the wait it has
/// not had booked yet.
type Looks = HashMap<i32, (ThreadLook, Duration)>;

/// A bot's wait for a CPU over several looks, counting the wait of a
/// thread that is waiting now: Linux books a thread's wait only when the
/// thread gets a CPU, and on a busy machine one wait can last hundreds of
/// milliseconds. A thread that is on a run queue at two looks and used no
/// CPU time in between (nor had a wait booked) waited all that time.
#[derive(Debug, Default)]
pub struct WaitWatch {
    last: Option<(Instant, Looks)>,
    /// The last look saw a thread on a run queue without a look shortly
    /// before it to tell whether the thread runs or waits.
    unsure: bool,
}

impl WaitWatch {
    /// The bot's wait so far (its threads' booked waits, plus what they
    /// have been waiting since earlier looks without its being booked);
    /// `None` when the bot is gone or the waits cannot be read.
    pub fn look(&mut self, bot: Threads<'_>) -> Option<Duration> {
        if !available() {
            return None;
        }
        let now = Instant::now();
        let mut threads = Looks::new();
        let found = each_thread(bot, |tid, dir| {
            if let Some(look) = look_at(dir) {
                threads.insert(tid, (look, Duration::ZERO));
            }
        });
        if !found {
            return None;
        }
        let recent = |then: &Instant| now.saturating_duration_since(*then) <= 3 * LOOK_MIN;
        let runnable = threads.values().any(|(look, _)| look.runnable);
        self.unsure = runnable && !self.last.as_ref().is_some_and(|(then, _)| recent(then));
        if let Some((then, before)) = &self.last {
            for (tid, (look, unbooked)) in &mut threads {
                if let Some((earlier, so_far)) = before.get(tid) {
                    let stuck = look.runnable && earlier.runnable && look == earlier;
                    if stuck {
                        *unbooked = *so_far + now.saturating_duration_since(*then);
                    }
                }
            }
        }
        let total = threads
            .values()
            .map(|(look, unbooked)| Duration::from_nanos(look.wait_ns) + *unbooked)
            .sum();
        self.last = Some((now, threads));
        Some(total)
    }

    /// Whether the last look cannot tell a waiting thread from a running
    /// one: it saw a thread on a run queue, and no look came shortly
    /// before it. A limit is not over until a second look tells.
    pub fn unsure(&self) -> bool {
        self.unsure
    }
}

/// One thread's `schedstat` and state (`stat`).
fn look_at(dir: &Path) -> Option<ThreadLook> {
    let (cpu_ns, wait_ns) = schedstat(&std::fs::read_to_string(dir.join("schedstat")).ok()?)?;
    let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
    let state = stat[stat.rfind(')')? + 1..].split_whitespace().next()?;
    Some(ThreadLook {
        cpu_ns,
        wait_ns,
        runnable: state == "R",
    })
}

/// `after - before` of two readings of a bot's wait; none when either is
/// missing.
pub fn waited_since(before: Option<Duration>, after: Option<Duration>) -> Option<Duration> {
    Some(after?.saturating_sub(before?))
}

/// A limit of wall time, from `start`, that does not count the time the
/// bot waited for a CPU meanwhile.
#[derive(Debug, Clone, Copy)]
pub struct Patience {
    start: Instant,
    limit: Duration,
    /// The bot's wait at `start` (`None`: it cannot be read).
    waited_at_start: Option<Duration>,
}

/// Where a [`Patience`] stands when its deadline came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The bot waited for a CPU meanwhile: look again at this time.
    Until(Instant),
    /// The limit is used up.
    Over(Waited),
}

/// How long a bot whose limit ran out waited for a CPU meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waited {
    /// `None` where it cannot be read.
    pub wait: Option<Duration>,
    /// The limit ended at its ceiling ([`CEILING_FACTOR`] times its
    /// length) while the bot was still waiting for a CPU.
    pub at_ceiling: bool,
}

impl Waited {
    /// `, not counting the N ms it waited for a CPU` (empty when it
    /// waited less than 10 ms, or its wait cannot be read), for messages.
    pub fn not_counting(&self) -> String {
        match self.wait {
            Some(wait) if wait >= Duration::from_millis(10) => format!(
                ", not counting the {} ms it waited for a CPU",
                wait.as_millis()
            ),
            _ => String::new(),
        }
    }

    /// What to say of a limit that ran out at its ceiling (empty when it
    /// did not): the machine kept the bot waiting, and how long arena
    /// waits at most.
    pub fn ceiling_note(&self, limit: Duration) -> String {
        if !self.at_ceiling {
            return String::new();
        }
        format!(
            "; the machine kept it waiting for a CPU so long that arena stopped at {} ms, {CEILING_FACTOR} times the limit (run on a less busy machine, or raise the limit)",
            (limit * CEILING_FACTOR).as_millis()
        )
    }
}

impl Patience {
    /// A limit of `limit` from `start`; `waited_at_start` is the bot's
    /// wait at `start` (zero for a process started then).
    pub fn new(start: Instant, limit: Duration, waited_at_start: Option<Duration>) -> Patience {
        Patience {
            start,
            limit,
            waited_at_start,
        }
    }

    /// How long the bot waited for a CPU since the start, given its wait
    /// now (`None` where either cannot be read).
    pub fn waited(&self, waited_now: Option<Duration>) -> Option<Duration> {
        waited_since(self.waited_at_start, waited_now)
    }

    /// Wall time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The deadline if the bot waits for no CPU.
    pub fn first_deadline(&self) -> Instant {
        self.start + self.limit
    }

    /// The deadline it can never pass.
    pub fn ceiling(&self) -> Instant {
        self.start + self.limit.saturating_mul(CEILING_FACTOR)
    }

    /// At `now`, with the bot's wait read as `waited_now`: over, or the
    /// next time to look (when the limit would be used up if the bot
    /// waits no more). An `unsure` reading ([`WaitWatch::unsure`]) is
    /// never over: the next look is a moment later.
    pub fn check(&self, now: Instant, waited_now: Option<Duration>, unsure: bool) -> Verdict {
        let elapsed = now.saturating_duration_since(self.start);
        let wait = waited_since(self.waited_at_start, waited_now).map(|w| w.min(elapsed));
        let counted = elapsed - wait.unwrap_or_default();
        let over = |at_ceiling| Verdict::Over(Waited { wait, at_ceiling });
        if now >= self.ceiling() {
            return over(counted < self.limit);
        }
        if counted >= self.limit && !unsure {
            return over(false);
        }
        let next = (self.start + self.limit + wait.unwrap_or_default()).max(now + LOOK_MIN);
        let next = if unsure { now + LOOK_MIN } else { next };
        Verdict::Until(next.min(self.ceiling()))
    }
}

/// The run's waits so far, in µs, and how many games a wait past the
/// ceiling lost.
static MOVE_WAIT_US: AtomicU64 = AtomicU64::new(0);
static MOVE_TIME_US: AtomicU64 = AtomicU64::new(0);
static START_WAIT_US: AtomicU64 = AtomicU64::new(0);
static START_TIME_US: AtomicU64 = AtomicU64::new(0);
static AT_CEILING: AtomicU64 = AtomicU64::new(0);

fn add(counter: &AtomicU64, d: Duration) {
    counter.fetch_add(
        d.as_micros().min(u64::MAX as u128) as u64,
        Ordering::Relaxed,
    );
}

/// Notes a move on a CPU clock that took `time` of wall time, `wait` of it
/// waiting for a CPU.
pub fn note_move(wait: Duration, time: Duration) {
    add(&MOVE_WAIT_US, wait.min(time));
    add(&MOVE_TIME_US, time);
}

/// Notes a start-up (spawn to `ready`) that took `time`, `wait` of it
/// waiting for a CPU.
pub fn note_start(wait: Duration, time: Duration) {
    add(&START_WAIT_US, wait.min(time));
    add(&START_TIME_US, time);
}

/// Notes a limit that ran out at its ceiling (a game lost to the wait).
pub fn note_ceiling() {
    AT_CEILING.fetch_add(1, Ordering::Relaxed);
}

/// What the machine made this process's bots wait for a CPU so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MachineWait {
    /// On a CPU clock: the moves' wait, and their wall time.
    pub move_wait: Duration,
    pub move_time: Duration,
    /// Start-ups (any clock): their wait, and their wall time.
    pub start_wait: Duration,
    pub start_time: Duration,
    /// Limits that ran out at their ceiling while the bot was waiting.
    pub at_ceiling: u64,
}

/// The waits of every bot this process has run (see [`MachineWait`]).
pub fn machine_wait() -> MachineWait {
    let read = |c: &AtomicU64| Duration::from_micros(c.load(Ordering::Relaxed));
    MachineWait {
        move_wait: read(&MOVE_WAIT_US),
        move_time: read(&MOVE_TIME_US),
        start_wait: read(&START_WAIT_US),
        start_time: read(&START_TIME_US),
        at_ceiling: AT_CEILING.load(Ordering::Relaxed),
    }
}

/// Less waiting than this (or than [`WORTH_SHARE`] of the bots' time) is
/// not worth a line at the end of a run.
const WORTH_WAIT: Duration = Duration::from_millis(500);
const WORTH_SHARE: f64 = 0.05;

impl MachineWait {
    /// The end-of-run line, when the bots waited enough to be worth one:
    /// how long, what share of their time, and that no game was charged
    /// for it (or how many limits ran out all the same).
    pub fn summary(&self) -> Option<String> {
        let wait = self.move_wait + self.start_wait;
        let time = self.move_time + self.start_time;
        let share = wait.as_secs_f64() / time.as_secs_f64().max(1e-9);
        if wait < WORTH_WAIT || share < WORTH_SHARE {
            return None;
        }
        let what = if self.move_time.is_zero() {
            "while they started"
        } else {
            "in all"
        };
        let charged = match self.at_ceiling {
            0 => "no game was charged for it".to_string(),
            n => format!(
                "no game was charged for it but {n} whose wait passed {CEILING_FACTOR} times a limit"
            ),
        };
        Some(format!(
            "the machine kept bots waiting for a CPU {} {what} ({:.0}% of their time); {charged}",
            seconds(wait),
            100.0 * share
        ))
    }
}

/// `41 s`, `2.4 s` or `0.6 s`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 10.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

/// Said once, at the end of a run, where waits cannot be read.
pub const UNAVAILABLE: &str = "note: this machine does not say how long bots wait for a CPU (no /proc/PID/schedstat), so the start-up limit and a CPU clock's wall-time cap count that wait as wall time";

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_schedstat_line_gives_its_second_field() {
        assert_eq!(
            run_delay("279754883 120511976 54\n"),
            Some(ms(120) + Duration::from_nanos(511976))
        );
        assert_eq!(run_delay("12"), None);
    }

    /// A limit of 100 ms from `start`: waits move its deadline out, a bot
    /// that waited nothing is over at once, and nothing passes 10 times
    /// the limit.
    #[test]
    fn a_deadline_moves_out_by_the_wait_up_to_its_ceiling() {
        let start = Instant::now();
        let patience = Patience::new(start, ms(100), Some(ms(7)));
        assert_eq!(patience.first_deadline(), start + ms(100));
        let at = |t| start + ms(t);
        // Waited 60 ms of the 100: 40 counted, look again at 160.
        assert_eq!(
            patience.check(at(100), Some(ms(67)), false),
            Verdict::Until(at(160))
        );
        // By 160 it waited 10 more: look again at 170.
        assert_eq!(
            patience.check(at(160), Some(ms(77)), false),
            Verdict::Until(at(170))
        );
        // It waited no more: over, 70 ms not counted.
        let waited = |ms_waited, at_ceiling| {
            Verdict::Over(Waited {
                wait: Some(ms(ms_waited)),
                at_ceiling,
            })
        };
        assert_eq!(
            patience.check(at(170), Some(ms(77)), false),
            waited(70, false)
        );
        // Waiting all along: it ends at 10 times the limit.
        assert_eq!(
            patience.check(at(900), Some(ms(857)), false),
            Verdict::Until(at(950))
        );
        assert_eq!(
            patience.check(at(990), Some(ms(907)), false),
            Verdict::Until(at(1000))
        );
        assert_eq!(
            patience.check(at(1000), Some(ms(957)), false),
            waited(950, true)
        );
        // Unreadable: wall time, as without waits.
        let blind = Patience::new(start, ms(100), None);
        let over = Verdict::Over(Waited {
            wait: None,
            at_ceiling: false,
        });
        assert_eq!(blind.check(at(100), None, false), over);
        // Nearly done: the next look is at least 10 ms away.
        assert_eq!(
            patience.check(at(100), Some(ms(8)), false),
            Verdict::Until(at(110))
        );
        // Over, but unsure whether a thread waits: another look in 10 ms.
        assert_eq!(
            patience.check(at(170), Some(ms(77)), true),
            Verdict::Until(at(180))
        );
    }

    #[test]
    fn the_end_of_run_line_says_how_long_and_what_share() {
        let mut wait = MachineWait {
            move_wait: ms(40_000),
            move_time: ms(300_000),
            start_wait: ms(1_000),
            start_time: ms(40_000),
            at_ceiling: 0,
        };
        assert_eq!(
            wait.summary().unwrap(),
            "the machine kept bots waiting for a CPU 41 s in all (12% of their time); no game was charged for it"
        );
        wait.at_ceiling = 2;
        assert!(wait
            .summary()
            .unwrap()
            .ends_with("no game was charged for it but 2 whose wait passed 10 times a limit"));
        let starts = MachineWait {
            start_wait: ms(2_400),
            start_time: ms(6_000),
            ..MachineWait::default()
        };
        assert_eq!(
            starts.summary().unwrap(),
            "the machine kept bots waiting for a CPU 2.4 s while they started (40% of their time); no game was charged for it"
        );
        // Little waiting is not worth a line.
        let quiet = MachineWait {
            move_wait: ms(400),
            move_time: ms(1_000),
            ..MachineWait::default()
        };
        assert_eq!(quiet.summary(), None);
        let small_share = MachineWait {
            move_wait: ms(4_000),
            move_time: ms(100_000),
            ..MachineWait::default()
        };
        assert_eq!(small_share.summary(), None);
    }

    /// Children that spin, one more than there are cores, wait for a CPU;
    /// one that sleeps waits no more while it sleeps; a child that is gone
    /// has no wait.
    #[test]
    fn crowded_spinners_wait_and_a_sleeper_does_not() {
        use std::process::Command;
        if !available() {
            eprintln!("SKIPPED: no /proc/PID/schedstat here");
            return;
        }
        let cores = crate::start_slots::cores();
        let mut children: Vec<_> = (0..=cores)
            .map(|_| {
                Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .spawn()
                    .unwrap()
            })
            .collect();
        let sleeper = Command::new("sleep").arg("5").spawn().unwrap();
        let waited = |pid: u32| bot_wait(Threads::Tree(pid as i32)).unwrap();
        std::thread::sleep(ms(100));
        let all = |children: &[std::process::Child]| -> Duration {
            children.iter().map(|c| waited(c.id())).sum()
        };
        let (spun_before, slept_before) = (all(&children), waited(sleeper.id()));
        std::thread::sleep(ms(300));
        let spun = all(&children) - spun_before;
        let slept = waited(sleeper.id()) - slept_before;
        children.push(sleeper);
        let pid = children[0].id();
        for child in &mut children {
            child.kill().unwrap();
            child.wait().unwrap();
        }
        assert!(spun > ms(20), "{spun:?}");
        assert!(slept < ms(5), "{slept:?}");
        assert_eq!(bot_wait(Threads::Tree(pid as i32)), None);
    }
}
