//! One running bot: a child process in its own process group, talked to over
//! line-based stdin/stdout, its stderr drained into a capped log.
//!
//! Bots are untrusted. Everything here has a bound: writes to the bot time
//! out (a bot that does not read cannot block the referee), reads have a
//! deadline and a line-size cap, the log has a size cap, and ending a bot
//! kills its whole process group, so helpers it forked die with it and stop
//! holding its pipes open. Dropping a `BotProcess` without calling
//! [`BotProcess::kill`] still SIGKILLs the group. The child dies with the
//! referee (`PR_SET_PDEATHSIG`) and inherits no descriptor but its three
//! pipes ([`ChildSetup`]); it is started without copying the referee
//! ([`super::spawn`]). A sandboxed bot ([`super::sandbox`]) runs under
//! `bwrap`, which then is the process (and group leader) seen here. A bot
//! may be stopped while it is not on move ([`BotProcess::suspend`]); every
//! method that talks to it, waits for it or ends it continues it first.

use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Once};
use std::time::Duration;

use anyhow::anyhow;
use thiserror::Error;
use tokio::io::AsyncWriteExt;
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};
use tokio::time::{Instant, Sleep};

use super::cgroup::BotCgroup;
use super::cpu_clock::{bot_process, CpuClock};
use super::direct_io;
use super::exit::{classify_death, ExitInfo};
use super::limits::{tree_cpu_time, ChildSetup};
use super::line_reader::{LineReader, ReadLine, DEFAULT_MAX_LINE};
use super::log::{GameLog, StderrLog, DEFAULT_LOG_CAP};
use super::referee_failure::{classify_spawn_error, FailureKind, RefereeFailure};
use super::run_queue;
use super::sandbox::{self, Sandbox};
use super::spawn::{self, BotChild, Launch};
use super::spec::{BotLimits, BotSpec};
use super::suspend::Suspension;
use super::trace::{Direction, Trace};
use arena_rules::protocol::FailureReason;

/// Time between SIGTERM and SIGKILL when ending a bot.
pub const DEFAULT_TERM_GRACE: Duration = Duration::from_millis(200);

/// After the bot process exits, how long to keep reading what it wrote
/// before it died. Bounded because a forked descendant may hold stdout open.
const EXIT_DRAIN: Duration = Duration::from_millis(50);

/// How long [`BotProcess::kill`] waits for the stderr log to reach
/// end-of-file after the group is dead.
const LOG_FINISH: Duration = Duration::from_millis(500);

/// How long to wait for the kernel to let us reap a SIGKILLed process.
const REAP_TIMEOUT: Duration = Duration::from_secs(5);

/// Least time between two reads of a bot's process tree for its CPU limit
/// (one read is a pass over `/proc`, too slow for every fast move).
const TREE_CPU_INTERVAL: Duration = Duration::from_millis(100);

/// How a bot process is started, beyond its [`BotSpec`].
#[derive(Debug, Clone)]
pub struct SpawnOptions {
    /// The log stderr goes to; if `None`, a log at `log_path`.
    pub log: Option<Arc<GameLog>>,
    /// Where stderr goes (appended, created on the first byte); with
    /// neither, only an in-memory tail is kept.
    pub log_path: Option<PathBuf>,
    /// Size cap of the log file in bytes.
    pub log_cap: u64,
    /// Longest accepted stdout line in bytes.
    pub max_line: usize,
    /// Time between SIGTERM and SIGKILL in [`BotProcess::kill`].
    pub term_grace: Duration,
    /// Header of the `log_path` log, after the referee's "started" line.
    pub log_header: String,
    /// Directories a sandboxed bot must not see (the output directory).
    pub sandbox_hide: Vec<PathBuf>,
    /// Give the bot a cgroup of its own where arena can ([`BotCgroup`]), so
    /// that [`BotProcess::cpu_used`] counts its whole process tree (the CPU
    /// clock, `clock = "cpu"`).
    pub cpu_tree: bool,
}

impl Default for SpawnOptions {
    fn default() -> SpawnOptions {
        SpawnOptions {
            log: None,
            log_path: None,
            log_cap: DEFAULT_LOG_CAP,
            max_line: DEFAULT_MAX_LINE,
            term_grace: DEFAULT_TERM_GRACE,
            log_header: String::new(),
            sandbox_hide: Vec::new(),
            cpu_tree: false,
        }
    }
}

/// Why a line could not be delivered to the bot.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SendError {
    #[error("bot did not read its input within {} ms", .0.as_millis())]
    Timeout(Duration),
    #[error("bot's input is closed ({0})")]
    Closed(String),
}

/// Why a bot could not be started: its own fault (a `startup` loss) or the
/// referee's (the game is not played; see [`super::referee_failure`]).
#[derive(Debug, Error)]
pub enum SpawnError {
    /// The bot's program is missing, not executable or not a valid
    /// executable, or its spec is invalid.
    #[error("{0:#}")]
    Bot(anyhow::Error),
    /// Not the bot's fault: out of descriptors, processes or memory, a log
    /// that cannot be created, a sandbox that cannot be set up.
    #[error(transparent)]
    Referee(#[from] RefereeFailure),
}

#[derive(Debug)]
pub struct BotProcess {
    name: String,
    /// Process id, and the id of the bot's process group.
    pid: i32,
    limits: BotLimits,
    child: BotChild,
    stdin: Option<ChildStdin>,
    stdout: LineReader<ChildStdout>,
    log: StderrLog,
    /// The stderr pipe's descriptor, owned by the drain task of `log`.
    stderr_fd: RawFd,
    /// Moves may be waited for in `poll` ([`direct_io`]): the process was
    /// started on a current-thread runtime, the one it is used on.
    direct_wait: bool,
    term_grace: Duration,
    started_at: Instant,
    exit: Option<ExitInfo>,
    exited_at: Option<Instant>,
    /// The referee signalled the bot, so its death is not its own failure.
    signalled: bool,
    /// The final SIGKILL went to the group and the leader was reaped.
    group_dead: bool,
    /// Runs under `bwrap` (whose exit code 128+N means signal N).
    sandboxed: bool,
    /// When the process tree's CPU time was last read.
    tree_checked_at: Option<Instant>,
    /// The bot's CPU-time clock, found on first use (after `ready`: in the
    /// sandbox the bot is a process below `bwrap`); `Some(None)` when it
    /// has none.
    cpu_clock: Option<Option<CpuClock>>,
    /// The bot's own cgroup, when it has one: the CPU time of its tree.
    cgroup: Option<BotCgroup>,
    /// The wire trace of the current game, when asked for.
    trace: Option<Trace>,
    /// The deadline of [`BotProcess::read_line`], kept from read to read:
    /// moving a registered timer to a later deadline is one atomic store,
    /// where a fresh timer per move is an insert into and a removal from
    /// the runtime's timer wheel, each under its lock.
    read_timer: Option<Pin<Box<Sleep>>>,
    /// Lines queued by [`BotProcess::queue_line`], each with its `\n`.
    queued: String,
    /// Stopped while not on move ([`BotProcess::suspend`]).
    suspension: Suspension,
}

/// Writing to a closed pipe must be an error (EPIPE), not a SIGPIPE that
/// kills the referee. Rust binaries ignore SIGPIPE already; this makes sure
/// of it for any other host. Children get the default disposition back
/// (the child resets it before exec: [`spawn`], or std after a fork).
fn ignore_sigpipe() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: setting a signal disposition to SIG_IGN has no handler to race with.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
    });
}

fn signal_group(pgid: i32, signal: i32) {
    // SAFETY: plain system call. ESRCH (group already gone) is fine.
    unsafe {
        libc::kill(-pgid, signal);
    }
}

/// The command line that starts `spec`'s bot: its own, or wrapped in the
/// sandbox (a sandbox that cannot start is the machine's failure).
fn launch_argv(spec: &BotSpec, opts: &SpawnOptions) -> Result<Vec<String>, SpawnError> {
    if spec.sandbox != Some(true) {
        return Ok(spec.argv());
    }
    let sandbox_failure = |e: anyhow::Error| {
        RefereeFailure::new(FailureKind::Sandbox, format!("bot {:?}: {e:#}", spec.name))
    };
    sandbox::check_available().map_err(sandbox_failure)?;
    Ok(Sandbox::for_bot(spec, &opts.sandbox_hide)
        .map_err(sandbox_failure)?
        .wrap(&spec.argv()))
}

/// Why `argv` could not start: the bot's fault (a missing program) or the
/// machine's (out of processes or descriptors).
fn start_error(spec: &BotSpec, argv: &[String], e: &std::io::Error) -> SpawnError {
    let cwd = spec
        .cwd
        .as_ref()
        .map(|d| format!(" in {}", d.display()))
        .unwrap_or_default();
    let message = format!("bot {:?}: cannot start {:?}{cwd}: {e}", spec.name, argv);
    match classify_spawn_error(e, message) {
        Ok(message) => SpawnError::Bot(anyhow!(message)),
        Err(failure) => SpawnError::Referee(failure),
    }
}

/// Why [`spawn_cloned`] or [`spawn_forked`] failed: the program could not
/// be started (classified by [`start_error`]), or its pipes could not be
/// set up (the referee's failure).
enum Started {
    Exec(std::io::Error),
    Pipes(std::io::Error),
}

type Pipes = (ChildStdin, ChildStdout, ChildStderr);

/// Starts the bot with [`spawn::spawn`] (nothing of the referee copied).
fn spawn_cloned(launch: &Launch<'_>) -> Result<(BotChild, i32, Pipes), Started> {
    let started = spawn::spawn(launch).map_err(Started::Exec)?;
    let pid = started.child.id();
    let guard = KillGroupOnError(pid);
    let pipes = (|| {
        Ok((
            ChildStdin::from_std(started.stdin.into())?,
            ChildStdout::from_std(started.stdout.into())?,
            ChildStderr::from_std(started.stderr.into())?,
        ))
    })()
    .map_err(Started::Pipes)?;
    std::mem::forget(guard);
    Ok((BotChild::Cloned(started.child), pid, pipes))
}

/// Starts the bot by a fork (where [`spawn::available`] says no).
fn spawn_forked(launch: &Launch<'_>) -> Result<(BotChild, i32, Pipes), Started> {
    let mut cmd = tokio::process::Command::new(&launch.argv[0]);
    cmd.args(&launch.argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .envs(launch.env)
        .process_group(0)
        .kill_on_drop(false);
    if let Some(cwd) = launch.cwd {
        cmd.current_dir(cwd);
    }
    let setup = launch.setup;
    let joiner = launch.joiner.clone();
    // SAFETY: the closure only makes system calls (async-signal-safe)
    // with values computed before the fork.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(joiner) = &joiner {
                joiner.join_in_child();
            }
            setup.apply_in_child()
        });
    }
    let mut child = cmd.spawn().map_err(Started::Exec)?;
    let missing = || Started::Pipes(std::io::Error::other("a pipe to the child is missing"));
    let untracked = || Started::Pipes(std::io::Error::other("exited before it could be tracked"));
    let pid = child.id().ok_or_else(untracked)? as i32;
    let guard = KillGroupOnError(pid);
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(missing());
    };
    std::mem::forget(guard);
    Ok((BotChild::Forked(child), pid, (stdin, stdout, stderr)))
}

impl BotProcess {
    /// Starts the bot. Fails with [`SpawnError::Bot`] when the program
    /// cannot be executed (not found, not executable, bad `cwd`), with
    /// [`SpawnError::Referee`] when the machine or the referee is at fault
    /// (no descriptors or processes left, the log cannot be opened, the
    /// sandbox cannot be set up); the error names the bot and the command.
    pub fn spawn(spec: &BotSpec, opts: &SpawnOptions) -> Result<BotProcess, SpawnError> {
        spec.check_command()
            .map_err(|m| SpawnError::Bot(anyhow::anyhow!(m)))?;
        ignore_sigpipe();
        let sandboxed = spec.sandbox == Some(true);
        let argv = launch_argv(spec, opts)?;
        let mut cgroup = if opts.cpu_tree {
            BotCgroup::create()
        } else {
            None
        };
        let launch = Launch {
            argv: &argv,
            env: &spec.env,
            cwd: spec.cwd.as_deref(),
            setup: ChildSetup::new(&spec.limits),
            joiner: cgroup.as_ref().map(BotCgroup::joiner),
        };
        let started = if spawn::available() {
            spawn_cloned(&launch)
        } else {
            spawn_forked(&launch)
        };
        let (child, pid, (stdin, stdout, stderr)) = match started {
            Ok(started) => started,
            Err(Started::Exec(e)) => return Err(start_error(spec, &argv, &e)),
            Err(Started::Pipes(e)) => {
                let message = format!("bot {:?}: {e}", spec.name);
                return Err(RefereeFailure::new(FailureKind::Other, message).into());
            }
        };
        // Past this point an early return must not leave the bot running.
        let guard = KillGroupOnError(pid);
        // A join that failed counts the bot's process alone.
        if cgroup.as_ref().is_some_and(|c| !c.holds(pid)) {
            cgroup = None;
        }
        let log = opts.log.clone().or_else(|| {
            let path = opts.log_path.as_ref()?;
            Some(GameLog::new(path, opts.log_header.clone()))
        });
        let started = format!("[arena: started {argv:?} as pid {pid}]\n");
        let stderr_fd = stderr.as_raw_fd();
        let log = StderrLog::start(stderr, log, opts.log_cap, &started);
        std::mem::forget(guard);
        Ok(BotProcess {
            name: spec.name.clone(),
            pid,
            limits: spec.limits,
            child,
            stdin: Some(stdin),
            stdout: LineReader::new(stdout, opts.max_line),
            log,
            stderr_fd,
            direct_wait: direct_io::allowed(),
            term_grace: opts.term_grace,
            started_at: Instant::now(),
            exit: None,
            exited_at: None,
            signalled: false,
            group_dead: false,
            sandboxed,
            tree_checked_at: None,
            cpu_clock: None,
            cgroup,
            trace: None,
            read_timer: None,
            queued: String::new(),
            suspension: Suspension::default(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Process id of the bot, which is also its process-group id.
    pub fn pid(&self) -> i32 {
        self.pid
    }

    pub fn started_at(&self) -> Instant {
        self.started_at
    }

    /// The current log's path (the file exists once the bot wrote to it).
    pub fn log_path(&self) -> Option<PathBuf> {
        self.log.path()
    }

    /// Sends the bot's stderr to `log` from now on (one log per game).
    pub fn switch_log(&mut self, log: Arc<GameLog>) {
        self.log.switch_to(log);
    }

    /// Traces every line exchanged from now on to `trace` (one per game);
    /// `None` stops tracing.
    pub fn set_trace(&mut self, trace: Option<Trace>) {
        self.trace = trace;
    }

    /// The file of the current wire trace, if tracing.
    pub fn trace_path(&self) -> Option<&Path> {
        self.trace.as_ref().and_then(Trace::path)
    }

    /// The last lines of the current wire trace (none when not tracing).
    pub fn trace_tail(&self) -> Vec<String> {
        self.trace.as_ref().map(Trace::tail).unwrap_or_default()
    }

    /// Notes a line read from the bot in the trace.
    fn traced(&mut self, read: ReadLine) -> ReadLine {
        if let Some(trace) = &mut self.trace {
            match &read {
                ReadLine::Line(line) => trace.line(Direction::FromBot, line),
                ReadLine::TooLong => trace.line(Direction::Note, b"a line over the size limit"),
                ReadLine::Eof => trace.line(Direction::Note, b"the bot's output ended"),
                ReadLine::Timeout => {}
            }
        }
        read
    }

    /// The last few KiB of the bot's stderr.
    pub fn stderr_tail(&self) -> String {
        self.log.tail()
    }

    /// The first line the bot wrote to stderr that is not blank, if any
    /// ([`StderrLog::first_line`]).
    pub fn stderr_first_line(&self) -> Option<String> {
        self.log.first_line()
    }

    /// Bytes the bot has written to stderr so far, logged or dropped.
    pub fn stderr_bytes(&self) -> u64 {
        self.log.total_bytes()
    }

    /// Bytes read from stdout but not yet returned as lines (bounded by the
    /// line cap plus one read chunk).
    pub fn buffered_stdout_bytes(&self) -> usize {
        self.stdout.buffered_len()
    }

    pub fn limits(&self) -> &BotLimits {
        &self.limits
    }

    /// Stops the bot's processes (`SIGSTOP`; see [`super::suspend`]) until
    /// the referee next writes to it, reads from it, waits for it or ends
    /// it, each of which continues it first ([`BotProcess::resume`]). For a
    /// bot that is not on move (`suspend_idle`). Nothing for a bot that has
    /// exited.
    pub fn suspend(&mut self) {
        if self.exit.is_none() && !self.group_dead {
            self.suspension.stop(self.pid, self.sandboxed);
        }
    }

    /// Continues a bot [`BotProcess::suspend`] stopped (`SIGCONT`); nothing
    /// when it is not stopped.
    #[inline]
    pub fn resume(&mut self) {
        if self.suspension.is_stopped() {
            self.suspension.resume();
        }
    }

    /// Whether the bot is stopped by [`BotProcess::suspend`].
    pub fn is_suspended(&self) -> bool {
        self.suspension.is_stopped()
    }

    /// Queues `line` (without its `\n`) to be written just before the next
    /// line sent, in the same write: a message that needs no answer and is
    /// followed at once by another (the first mover's `new_game`, then its
    /// first `turn`) then wakes the bot once, not twice.
    pub fn queue_line(&mut self, line: &str) {
        debug_assert!(
            !line.contains('\n'),
            "protocol lines must not contain newlines"
        );
        self.queued.push_str(line);
        self.queued.push('\n');
    }

    /// Writes the queued lines, `line` and a newline (unless `line` already
    /// ends with its newline, as encoded messages do: then, with nothing
    /// queued, it is written as it is, without a copy). A bot that does not
    /// read its input for `timeout` gets [`SendError::Timeout`]; after any
    /// error the input stays closed (a partial line cannot be taken back).
    pub async fn send_line(&mut self, line: &str, timeout: Duration) -> Result<(), SendError> {
        self.resume();
        let body = line.strip_suffix('\n').unwrap_or(line);
        debug_assert!(
            !body.contains('\n'),
            "protocol lines must not contain newlines"
        );
        let queued = std::mem::take(&mut self.queued);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| SendError::Closed("closed earlier".into()))?;
        let data: std::borrow::Cow<[u8]> = if queued.is_empty() && body.len() < line.len() {
            line.as_bytes().into()
        } else {
            let mut data = Vec::with_capacity(queued.len() + line.len() + 1);
            data.extend_from_slice(queued.as_bytes());
            data.extend_from_slice(body.as_bytes());
            data.push(b'\n');
            data.into()
        };
        // Straight into the pipe while it has room ([`direct_io`]); only
        // what it cannot take now waits through the runtime, with the
        // timeout (and the clock read that sets it).
        let result = match direct_io::write_now(stdin.as_fd(), &data) {
            Ok(n) if n == data.len() => Ok(Ok(())),
            Ok(n) => tokio::time::timeout(timeout, stdin.write_all(&data[n..])).await,
            Err(e) => Ok(Err(e)),
        };
        if let Some(trace) = &mut self.trace {
            for queued in queued.lines() {
                trace.line(Direction::ToBot, queued.as_bytes());
            }
            trace.line(Direction::ToBot, body.as_bytes());
        }
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => {
                self.stdin = None;
                Err(SendError::Closed(e.to_string()))
            }
            Err(_) => {
                self.stdin = None;
                Err(SendError::Timeout(timeout))
            }
        }
    }

    /// Writes arena's own note (`#`) into the trace, if the bot is traced.
    pub fn note(&mut self, text: &str) {
        if let Some(trace) = &mut self.trace {
            trace.line(Direction::Note, text.as_bytes());
        }
    }

    /// Closes the bot's stdin (it reads end-of-file).
    pub fn close_stdin(&mut self) {
        self.resume();
        if let (Some(trace), Some(_)) = (&mut self.trace, &self.stdin) {
            trace.line(Direction::Note, b"arena closed the bot's input");
        }
        self.stdin = None;
    }

    /// [`BotProcess::read_line`] for a move, which the game waits for
    /// alone. It reads the pipe once first: a bot on the same CPU has often
    /// answered before the turn's write returned (the write woke it and it
    /// ran first), and then there is nothing to wait for. On a
    /// current-thread runtime the wait starts in `poll(2)`, outside the
    /// runtime (see [`direct_io`] for why and when). What the bot wrote to
    /// stderr is logged when the wait sees it, or by
    /// [`BotProcess::settle_stderr`] at the game's end.
    pub async fn read_answer(&mut self, deadline: Instant) -> ReadLine {
        self.resume();
        self.stdout.fill_now();
        if self.direct_wait {
            while self.exited_at.is_none() && !self.stdout.at_eof() {
                if let Some(done) = self.stdout.take_buffered() {
                    return self.traced(done);
                }
                let Some(ready) = self.wait_directly(deadline) else {
                    break;
                };
                if ready.stderr {
                    // The drain task would run only after this one, and a
                    // full pipe would block the bot on the clock.
                    self.drain_stderr_now();
                }
                if ready.stdout {
                    self.stdout.fill_now();
                }
            }
        }
        self.read_line(deadline).await
    }

    /// Logs what the bot has written to stderr and its drain has not taken
    /// yet, so a game's record finds all of it in the game's log. Needed on
    /// a current-thread runtime only, where moves read outside the runtime
    /// can keep the drain task from running for a whole game; elsewhere the
    /// drain runs beside the game.
    pub fn settle_stderr(&self) {
        if self.direct_wait {
            self.drain_stderr_now();
        }
    }

    /// Logs what the bot's stderr pipe holds now (see
    /// [`StderrLog::drain_now`]). Current-thread runtime only.
    fn drain_stderr_now(&self) {
        if let Some(stderr) = self.stderr_if_draining() {
            self.log.drain_now(stderr);
        }
    }

    /// One wait of at most [`direct_io::SLICE`] for the bot's stdout or
    /// stderr; `None` when the runtime should take over.
    fn wait_directly(&mut self, deadline: Instant) -> Option<direct_io::Ready> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        let stderr = self.stderr_if_draining();
        direct_io::wait(self.stdout.fd(), stderr, left.min(direct_io::SLICE))
    }

    /// The stderr pipe, while its drain reads it; for a wait that returns
    /// before this task yields, on a current-thread runtime.
    fn stderr_if_draining(&self) -> Option<BorrowedFd<'_>> {
        debug_assert!(self.direct_wait, "the drain could end on another thread");
        // SAFETY: the drain task owns the descriptor and closes it only when
        // it ends; it has not, and on this (current-thread) runtime it cannot
        // run, let alone end, while this task runs without yielding, which
        // it does while the borrow (tied to `&self`) lives.
        self.log
            .draining()
            .then(|| unsafe { BorrowedFd::borrow_raw(self.stderr_fd) })
    }

    /// Reads one line from the bot's stdout, waiting until `deadline` at
    /// most. Returns [`ReadLine::Eof`] as soon as stdout is closed or the
    /// process has exited, even if a forked descendant still holds stdout
    /// open (what the bot wrote before it died is still returned first).
    pub async fn read_line(&mut self, deadline: Instant) -> ReadLine {
        self.resume();
        loop {
            if let Some(done) = self.stdout.take_buffered() {
                return self.traced(done);
            }
            if self.stdout.at_eof() {
                return self.traced(ReadLine::Eof);
            }
            if let Some(exited_at) = self.exited_at {
                let until = exited_at + EXIT_DRAIN;
                if tokio::time::timeout_at(until, self.stdout.fill())
                    .await
                    .is_err()
                {
                    return self.traced(ReadLine::Eof);
                }
                continue;
            }
            let timer = match &mut self.read_timer {
                Some(timer) => {
                    if timer.deadline() != deadline {
                        timer.as_mut().reset(deadline);
                    }
                    timer
                }
                None => self
                    .read_timer
                    .insert(Box::pin(tokio::time::sleep_until(deadline))),
            };
            tokio::select! {
                biased;
                _ = self.stdout.fill() => {}
                status = self.child.wait() => self.record_exit(status),
                _ = timer.as_mut() => return ReadLine::Timeout,
            }
        }
    }

    /// A line (or end of output) the bot has already written although
    /// nothing was asked, without waiting for one; `None` if there is none.
    ///
    /// This runs before every turn, so it must not touch the timer: a
    /// deadline of "now" is rounded up to the timer's next millisecond tick,
    /// which made every move wait up to 1 ms. Instead it reads the pipe
    /// without waiting and takes only what is already there.
    pub async fn poll_pending(&mut self) -> Option<ReadLine> {
        self.resume();
        loop {
            if let Some(done) = self.stdout.take_buffered() {
                return Some(self.traced(done));
            }
            if self.stdout.at_eof() {
                return Some(self.traced(ReadLine::Eof));
            }
            // A read of the pipe itself: the runtime's idea of whether it
            // has data is stale when moves are read outside it (direct_io).
            if self.stdout.fill_now().is_none() {
                break;
            }
        }
        if self.exited_at.is_none() {
            // One poll of the exit watch (no system call while the bot runs).
            let status = tokio::select! {
                biased;
                status = self.child.wait() => Some(status),
                _ = std::future::ready(()) => None,
            };
            if let Some(status) = status {
                self.record_exit(status);
            }
        }
        if self.exited_at.is_some() {
            // Dead: what it wrote before dying, or the end of its output.
            return Some(self.read_line(Instant::now()).await);
        }
        None
    }

    fn record_exit(&mut self, status: std::io::Result<ExitStatus>) {
        if self.exit.is_some() {
            return;
        }
        self.exit = Some(match status {
            Ok(status) => {
                let mut exit = ExitInfo::from_status(status, self.signalled);
                if let Some(signal) = exit
                    .code
                    .filter(|_| self.sandboxed)
                    .and_then(sandbox::unwrap_exit_code)
                {
                    exit.code = None;
                    exit.signal = Some(signal);
                }
                exit
            }
            // Reaped by someone else: the status is lost.
            Err(_) => ExitInfo {
                code: None,
                signal: None,
                killed_by_referee: self.signalled,
            },
        });
        self.exited_at = Some(Instant::now());
    }

    /// The exit status if the bot has exited (reaping it if needed).
    pub fn try_exit(&mut self) -> Option<ExitInfo> {
        self.resume();
        if self.exit.is_none() {
            match self.child.try_wait() {
                Ok(Some(status)) => self.record_exit(Ok(status)),
                Ok(None) => {}
                Err(e) => self.record_exit(Err(e)),
            }
        }
        self.exit
    }

    /// Waits up to `timeout` for the bot to exit on its own.
    pub async fn wait_exit(&mut self, timeout: Duration) -> Option<ExitInfo> {
        self.resume();
        if self.exit.is_none() {
            if let Ok(status) = tokio::time::timeout(timeout, self.child.wait()).await {
                self.record_exit(status);
            }
        }
        self.exit
    }

    /// Why the bot's process died, as a game-end reason (`crash`, `cpu`,
    /// `memory`) and a message. Waits up to `wait` for the exit (stdout
    /// closes a moment before the process can be reaped); `None` if the
    /// process is still running then.
    pub async fn death_reason(&mut self, wait: Duration) -> Option<(FailureReason, String)> {
        let exit = self.wait_exit(wait).await?;
        Some(classify_death(&exit, &self.limits, &self.log.tail()))
    }

    /// CPU time the bot has used so far: its whole process tree's when it
    /// has a cgroup ([`BotCgroup`]), else its process's (all its threads),
    /// by its CPU-time clock ([`CpuClock`]); `None` when it cannot be read
    /// (the process is gone).
    pub fn cpu_used(&mut self) -> Option<Duration> {
        if let Some(cgroup) = &self.cgroup {
            return cgroup.cpu_used();
        }
        let (pid, sandboxed) = (self.pid, self.sandboxed);
        let clock = *self
            .cpu_clock
            .get_or_insert_with(|| CpuClock::of(bot_process(pid, sandboxed)));
        clock?.read()
    }

    /// Where the bot's threads are: its cgroup's, when it has one, else
    /// those of its process tree ([`run_queue::Threads`]).
    fn threads(&self) -> run_queue::Threads<'_> {
        match &self.cgroup {
            Some(cgroup) => run_queue::Threads::Cgroup(cgroup.threads_file()),
            None => run_queue::Threads::Tree(self.pid),
        }
    }

    /// How long the bot has waited for a CPU since it started, as far as
    /// Linux has booked it ([`run_queue::bot_wait`]); `None` where it
    /// cannot be read.
    pub fn cpu_waited(&self) -> Option<Duration> {
        run_queue::bot_wait(self.threads())
    }

    /// [`BotProcess::cpu_waited`] through `watch`, which also counts what
    /// a thread waiting now has waited since the watch's last look, and
    /// whether that look could tell a waiting thread from a running one
    /// ([`run_queue::WaitWatch::unsure`]).
    pub fn cpu_waiting(&self, watch: &mut run_queue::WaitWatch) -> (Option<Duration>, bool) {
        let waited = watch.look(self.threads());
        (waited, watch.unsure())
    }

    /// `limits.cpu_seconds` for the whole process tree: the failure when the
    /// bot and everything it started ([`tree_cpu_time`]) used more CPU time
    /// together. Meant for each move; reads `/proc` at most every
    /// [`TREE_CPU_INTERVAL`], and only when the bot has a CPU limit.
    pub fn tree_cpu_exceeded(&mut self) -> Option<(FailureReason, String)> {
        let limit = Duration::from_secs(self.limits.cpu_seconds?);
        let now = Instant::now();
        if self
            .tree_checked_at
            .is_some_and(|at| now < at + TREE_CPU_INTERVAL)
        {
            return None;
        }
        self.tree_checked_at = Some(now);
        let used = tree_cpu_time(self.pid)?;
        (used > limit).then(|| {
            (
                FailureReason::Cpu,
                format!(
                    "its processes used {:.2} s of CPU time together, over its {} s limit",
                    used.as_secs_f64(),
                    limit.as_secs()
                ),
            )
        })
    }

    /// Ends the bot for good: SIGTERM to its process group, up to the term
    /// grace for the bot to exit, then SIGKILL to the group (which also takes
    /// any descendant that outlived it), reap it, and let the stderr log
    /// finish. Returns how the bot ended; calling it again returns the same.
    pub async fn kill(&mut self) -> ExitInfo {
        // A stopped process acts on no SIGTERM (and its processes outside
        // the group must not stay stopped).
        self.resume();
        self.stdin = None;
        if !self.group_dead {
            self.try_exit();
            if self.exit.is_none() {
                self.signalled = true;
                signal_group(self.pid, libc::SIGTERM);
                self.wait_exit(self.term_grace).await;
            }
            signal_group(self.pid, libc::SIGKILL);
            if self.exit.is_none() {
                self.signalled = true;
                self.wait_exit(REAP_TIMEOUT).await;
            }
            self.group_dead = true;
            self.log.finish(LOG_FINISH).await;
        }
        self.exit.unwrap_or(ExitInfo {
            code: None,
            signal: None,
            killed_by_referee: true,
        })
    }

    /// Polite end: sends `quit_line`, closes stdin, gives the bot `grace` to
    /// exit by itself, then [`kill`](Self::kill)s whatever is left.
    pub async fn shutdown(&mut self, quit_line: &str, grace: Duration) -> ExitInfo {
        if self.try_exit().is_none() && self.stdin.is_some() {
            let _ = self.send_line(quit_line, grace).await;
            self.close_stdin();
            self.wait_exit(grace).await;
        }
        self.kill().await
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if !self.group_dead {
            // Safety net for early returns and panics: the group dies now;
            // the dropped child is reaped later (by tokio, or at the next
            // spawn: [`spawn::PidfdChild`]).
            signal_group(self.pid, libc::SIGKILL);
        }
    }
}

/// Kills a freshly spawned bot's group if setting it up fails.
struct KillGroupOnError(i32);

impl Drop for KillGroupOnError {
    fn drop(&mut self) {
        signal_group(self.0, libc::SIGKILL);
    }
}
