//! A bot's seat at the table: the protocol side of one bot process.
//!
//! A [`Seat`] starts its bot on demand, does the `hello`/`ready` handshake,
//! sends messages and asks for moves, and turns every way a bot can go wrong
//! into a [`Failure`] with the game-end reason and a message for the bot's
//! author. A process that finished its last game cleanly is kept for the next
//! game (no startup cost); after any failure it is killed, and the next game
//! starts a fresh one. [`BotPool`] keeps idle seats between games.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::clock::limit_text;
use super::line_reader::ReadLine;
use super::log::GameLog;
use super::process::{BotProcess, SendError, SpawnError, SpawnOptions};
use super::referee_failure::RefereeFailure;
use super::run_queue::{self, Patience, Verdict, WaitWatch, Waited};
use super::spec::BotSpec;
use super::start_slots::start_slot;
use super::trace::{trace_path_for, Trace, TRACE_CAP};
use super::turn_lines::{NewGameRef, TurnRef, TurnText};
use arena_rules::games::Color;
use arena_rules::protocol::{
    decode_bot_line, BotMessage, BotMove, FailureReason, Hello, Ready, RefereeMessage, Turn,
    MAX_LINE_BYTES, PROTOCOL_VERSION,
};

/// How long a bot gets to take `new_game` or `game_over` off its pipe.
pub const CONTROL_SEND_TIMEOUT: Duration = Duration::from_secs(2);

/// How long to wait for the exit status after a bot's stdout closed.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// How long a bot gets to exit by itself after `quit`.
pub const QUIT_GRACE: Duration = Duration::from_millis(300);

/// The `referee` field of `hello`.
pub fn referee_name() -> String {
    format!("arena {}", env!("CARGO_PKG_VERSION"))
}

/// A bot failed: the game-end reason and what exactly went wrong, worded to
/// follow the bot's name (e.g. "did not answer within 300 ms").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub reason: FailureReason,
    pub message: String,
}

impl Failure {
    pub fn new(reason: FailureReason, message: impl Into<String>) -> Failure {
        Failure {
            reason,
            message: message.into(),
        }
    }
}

/// Why [`Seat::prepare`] has no bot ready: the bot failed (its `startup`
/// loss, or whatever its handshake did wrong), or the referee did (out of
/// descriptors or processes, a log it cannot open...: not the bot's fault,
/// the game must not be played or recorded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    Bot(Failure),
    Referee(RefereeFailure),
}

impl StartError {
    /// What went wrong, for messages.
    pub fn message(&self) -> &str {
        match self {
            StartError::Bot(failure) => &failure.message,
            StartError::Referee(failure) => &failure.message,
        }
    }
}

impl From<Failure> for StartError {
    fn from(failure: Failure) -> StartError {
        StartError::Bot(failure)
    }
}

#[derive(Debug)]
pub struct Seat {
    spec: BotSpec,
    options: SpawnOptions,
    process: Option<BotProcess>,
    ready: Option<Ready>,
    starts: u32,
    /// stderr bytes of the processes this seat has already ended.
    ended_stderr_bytes: u64,
    /// Between `begin_game` and `finish_game`: if a game was abandoned midway
    /// (its future dropped), the bot may still owe an answer, so the next
    /// `prepare` starts a fresh process instead of reusing it.
    in_game: bool,
    /// The trace tail of the last process that ended.
    ended_trace_tail: Vec<String>,
    /// Why this bot is not started any more (a tournament's start-up
    /// circuit breaker); `prepare` then fails at once.
    disabled: Option<String>,
    /// The first line on stderr of the last start that failed, if it wrote
    /// one ([`Seat::failed_start_stderr`]).
    failed_start_stderr: Option<String>,
    /// The last `turn` line sent, kept as the buffer for the next one.
    turn_line: String,
}

impl Seat {
    /// A seat for `spec`; no process is started until [`Seat::prepare`].
    /// `options.log` and `options.log_path` are ignored: each game names its own log.
    pub fn new(spec: BotSpec, options: SpawnOptions) -> Seat {
        Seat {
            spec,
            options,
            process: None,
            ready: None,
            starts: 0,
            ended_stderr_bytes: 0,
            in_game: false,
            disabled: None,
            failed_start_stderr: None,
            ended_trace_tail: Vec::new(),
            turn_line: String::new(),
        }
    }

    /// From now on [`Seat::prepare`] fails with `startup` and `why`
    /// instead of starting the bot.
    pub fn disable(&mut self, why: &str) {
        self.disabled = Some(why.to_string());
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn spec(&self) -> &BotSpec {
        &self.spec
    }

    /// Whether a process that completed the handshake is kept.
    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    /// The running process, if any (for tests and diagnostics).
    pub fn process(&self) -> Option<&BotProcess> {
        self.process.as_ref()
    }

    /// The running process, to talk to it outside the game protocol (the
    /// compliance check sends it unknown message types and watches it exit).
    pub fn process_mut(&mut self) -> Option<&mut BotProcess> {
        self.process.as_mut()
    }

    /// Bytes written to stderr by every process this seat has started.
    pub fn stderr_bytes(&self) -> u64 {
        self.ended_stderr_bytes + self.process.as_ref().map_or(0, BotProcess::stderr_bytes)
    }

    /// What the bot said about itself in `ready`.
    pub fn ready_info(&self) -> Option<&Ready> {
        self.ready.as_ref()
    }

    /// How many processes this seat has started so far.
    pub fn process_starts(&self) -> u32 {
        self.starts
    }

    /// Makes sure a bot process that has answered `hello` is running, with
    /// its stderr going to `log` from now on. A kept process is reused
    /// unless it has exited or wrote something nobody asked for since its
    /// last game; then (or when there is none) a new one is started and must
    /// answer `ready` within its startup limit. A start that fails for a
    /// reason that is not the bot's is [`StartError::Referee`]; a kept
    /// process then stays kept.
    pub async fn prepare(&mut self, log: Option<Arc<GameLog>>) -> Result<(), StartError> {
        if self.in_game {
            self.discard().await;
        }
        if let Some(why) = &self.disabled {
            return Err(StartError::Bot(Failure::new(
                FailureReason::Startup,
                format!("not started: {why}"),
            )));
        }
        let trace = self.trace_for(log.as_deref().map(GameLog::path));
        if let Some(process) = self.process.as_mut() {
            let healthy = process.try_exit().is_none() && process.poll_pending().await.is_none();
            if healthy {
                if let Some(log) = log {
                    process.switch_log(log);
                }
                process.set_trace(trace);
                return Ok(());
            }
            self.discard().await;
        }
        let mut options = self.options.clone();
        options.log = log;
        options.log_path = None;
        self.starts += 1;
        // The wait for a slot comes before the spawn: the start-up limit,
        // counted from the spawn, measures the bot and not the queue.
        let _slot = start_slot().await;
        let mut process = BotProcess::spawn(&self.spec, &options).map_err(|e| match e {
            SpawnError::Bot(e) => StartError::Bot(Failure::new(
                FailureReason::Startup,
                format!("could not be started: {e:#}"),
            )),
            SpawnError::Referee(failure) => StartError::Referee(failure),
        })?;
        process.set_trace(trace);
        match handshake(&mut process).await {
            Ok(ready) => {
                self.ready = Some(ready);
                self.process = Some(process);
                Ok(())
            }
            Err(mut failure) => {
                process.kill().await;
                self.ended_trace_tail = process.trace_tail();
                self.ended_stderr_bytes += process.stderr_bytes();
                self.failed_start_stderr = process.stderr_first_line();
                if let Some(line) = &self.failed_start_stderr {
                    quote_first_stderr_line(&mut failure.message, line);
                }
                Err(failure.into())
            }
        }
    }

    /// The first line the bot wrote on stderr in its last start that
    /// failed (its handshake), if it wrote one: usually why it cannot start
    /// (`Can't open perl script ...`). The failure's message quotes it too.
    pub fn failed_start_stderr(&self) -> Option<&str> {
        self.failed_start_stderr.as_deref()
    }

    /// The wire trace for a game whose stderr log is `log_path`, if this
    /// bot is traced: the same name with `.trace`, or in memory only when
    /// there is no log.
    fn trace_for(&self, log_path: Option<&Path>) -> Option<Trace> {
        if !self.spec.trace {
            return None;
        }
        Some(match log_path {
            Some(path) => Trace::new(trace_path_for(path), TRACE_CAP),
            None => Trace::in_memory(),
        })
    }

    /// The last lines exchanged with the bot (its current process, or the
    /// last one that ended), when it is traced.
    pub fn trace_tail(&self) -> Vec<String> {
        match &self.process {
            Some(process) => process.trace_tail(),
            None => self.ended_trace_tail.clone(),
        }
    }

    /// Sends a message that expects no answer (`new_game`, `game_over`).
    pub async fn send(&mut self, msg: &RefereeMessage) -> Result<(), Failure> {
        self.send_within(msg, CONTROL_SEND_TIMEOUT).await
    }

    /// Sends `new_game` (encoded from borrowed parts).
    pub async fn send_new_game(&mut self, msg: &NewGameRef<'_>) -> Result<(), Failure> {
        let process = self.running()?;
        send_line(process, &msg.to_line(), CONTROL_SEND_TIMEOUT).await
    }

    /// [`Seat::send_new_game`] for the side that moves first: the line goes
    /// out with its first `turn` (or whatever is sent next), in one write.
    pub fn queue_new_game(&mut self, msg: &NewGameRef<'_>) -> Result<(), Failure> {
        let process = self.running()?;
        process.queue_line(msg.to_line().trim_end());
        Ok(())
    }

    /// [`Seat::send`] with a chosen timeout.
    pub async fn send_within(
        &mut self,
        msg: &RefereeMessage,
        timeout: Duration,
    ) -> Result<(), Failure> {
        let process = self.running()?;
        send_message(process, msg, timeout).await
    }

    /// Sends `turn` and waits up to `wait` for the bot's `move`. Returns the
    /// move (not yet checked against the rules) and the time from having
    /// written the turn to having read the answer.
    pub async fn request_move(
        &mut self,
        turn: &Turn,
        wait: Duration,
    ) -> Result<(BotMove, MoveTime), Failure> {
        let text = TurnText::of(turn);
        self.request_turn(&text.turn_ref(turn), wait, None).await
    }

    /// [`Seat::request_move`] for a turn that borrows the game's data (no
    /// copies of the history, state and move list on every move).
    ///
    /// `wall_cap` is `None` on a wall clock, where `wait` is the wall time
    /// the move may take. On a CPU clock it is the wall time the move may
    /// take at most, and `wait` the CPU time: the move ends as soon as the
    /// bot's process used more ([`Seat::await_answer`]).
    pub async fn request_turn(
        &mut self,
        turn: &TurnRef<'_>,
        wait: Duration,
        wall_cap: Option<Duration>,
    ) -> Result<(BotMove, MoveTime), Failure> {
        let limit_ms = turn.clock.move_ms;
        let process = self.process.as_mut().ok_or_else(no_process)?;
        // Anything already waiting was written when nothing was asked.
        if let Some(pending) = process.poll_pending().await {
            return Err(match pending {
                ReadLine::Line(line) => Failure::new(
                    FailureReason::ProtocolError,
                    format!(
                        "sent a line when no answer was expected (write exactly one move per turn, nothing else): {}",
                        quote(&line)
                    ),
                ),
                ReadLine::TooLong => too_long(),
                ReadLine::Eof | ReadLine::Timeout => output_ended(process).await,
            });
        }
        self.turn_line.clear();
        turn.write_line(&mut self.turn_line);
        send_line(process, &self.turn_line, wait).await?;
        // Both clocks start here, so a move's CPU time is never more than
        // its wall time. On a CPU clock, the wall-time cap does not count
        // the time the bot waited for a CPU.
        let sent = Instant::now();
        let cpu_before = process.cpu_used();
        let patience = wall_cap.map(|cap| Patience::new(sent, cap, process.cpu_waited()));
        let (read, waited) = match patience {
            None => (process.read_answer(sent + wait).await, None),
            Some(patience) => {
                let (read, waited) = await_answer(process, patience, cpu_before, wait).await?;
                (read, Some(waited))
            }
        };
        match read {
            ReadLine::Line(line) => {
                let used = MoveTime {
                    wall: sent.elapsed(),
                    cpu: cpu_before
                        .zip(process.cpu_used())
                        .map(|(before, after)| after.saturating_sub(before)),
                };
                if let Some(patience) = patience {
                    if let Some(wait) = patience.waited(process.cpu_waited()) {
                        run_queue::note_move(wait, used.wall);
                    }
                }
                match decode_answer(&line) {
                    // The CPU limit binds the bot's whole process tree.
                    Ok(BotMessage::Move(m)) => match process.tree_cpu_exceeded() {
                        Some((reason, message)) => Err(Failure::new(reason, message)),
                        None => Ok((m, used)),
                    },
                    Ok(BotMessage::Ready(_)) => Err(Failure::new(
                        FailureReason::ProtocolError,
                        "answered a turn with \"ready\" instead of \"move\" (ready answers hello only)",
                    )),
                    Err(e) => Err(Failure::new(
                        FailureReason::ProtocolError,
                        format!("answered a turn with a line that is not a move: {e} (stdout carries protocol lines only; write logs to stderr)"),
                    )),
                }
            }
            ReadLine::Timeout if wall_cap.is_some() => {
                let cap = wall_cap.unwrap_or_default();
                let used = cpu_since(process, cpu_before).as_millis();
                let waited = waited.unwrap_or(NOT_WAITED);
                let limit = cap_text(cap, used, turn.clock.move_ms, waited);
                Err(diagnose_late_move(process, sent, &limit, cap).await)
            }
            ReadLine::Timeout => {
                let on_clock = match turn.color {
                    Color::White => turn.clock.white_ms.is_some(),
                    Color::Black => turn.clock.black_ms.is_some(),
                };
                let grace = wait.saturating_sub(Duration::from_millis(limit_ms));
                let limit = limit_text(limit_ms, grace, on_clock);
                Err(diagnose_late_move(process, sent, &limit, wait).await)
            }
            ReadLine::TooLong => Err(too_long()),
            ReadLine::Eof => Err(output_ended(process).await),
        }
    }

    /// Marks the start of a game's conversation with the bot. Until
    /// [`Seat::finish_game`], the process is not trusted for another game.
    pub fn begin_game(&mut self) {
        self.in_game = true;
    }

    /// Logs what the bot wrote to stderr and was not logged yet (see
    /// [`BotProcess::settle_stderr`]), before the game's record is made.
    pub fn settle_log(&self) {
        if let Some(process) = &self.process {
            process.settle_stderr();
        }
    }

    /// Stops the bot while it is not on move (`suspend_idle`; see
    /// [`BotProcess::suspend`]): the next message to it continues it.
    pub fn suspend(&mut self) {
        if let Some(process) = self.process.as_mut() {
            process.suspend();
        }
    }

    /// Marks the game as properly ended: the process may be reused.
    pub fn finish_game(&mut self) {
        self.in_game = false;
    }

    /// Kills the process after a failure; the next game starts a new one.
    pub async fn discard(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill().await;
            self.ended_trace_tail = process.trace_tail();
            self.ended_stderr_bytes += process.stderr_bytes();
        }
        self.ready = None;
        self.in_game = false;
    }

    /// Ends the bot politely (`quit`, then kill whatever is left).
    pub async fn shutdown(&mut self) {
        if let Some(mut process) = self.process.take() {
            let quit = RefereeMessage::Quit.to_line();
            process.shutdown(quit.trim_end(), QUIT_GRACE).await;
            self.ended_stderr_bytes += process.stderr_bytes();
        }
        self.ready = None;
        self.in_game = false;
    }

    fn running(&mut self) -> Result<&mut BotProcess, Failure> {
        self.process.as_mut().ok_or_else(no_process)
    }
}

/// What a start-up failure's message adds to quote the bot's first line on
/// stderr (`line`), before the line.
pub const FIRST_STDERR_LINE: &str = "; its first line on stderr: ";

/// Appends [`FIRST_STDERR_LINE`] and `line` to `message`, unless it quotes
/// that line already (a crash quotes the last line, often the same).
fn quote_first_stderr_line(message: &mut String, line: &str) {
    if !message.contains(line) {
        message.push_str(FIRST_STDERR_LINE);
        message.push_str(line);
    }
}

fn no_process() -> Failure {
    Failure::new(FailureReason::Crash, "has no running process")
}

/// The CPU time the bot's process used since `before` (zero when either
/// reading is missing).
fn cpu_since(process: &mut BotProcess, before: Option<Duration>) -> Duration {
    before
        .zip(process.cpu_used())
        .map_or(Duration::ZERO, |(before, now)| now.saturating_sub(before))
}

/// Waits for the answer to a turn on a CPU clock: until the line comes,
/// the wall-time cap of `patience` runs out (not counting the bot's wait
/// for a CPU; then [`ReadLine::Timeout`] and how long it waited), or the
/// bot's process has used more than `budget` of CPU time since `before`
/// (then the timeout failure, at once). The CPU time is looked at whenever
/// the bot could have used up what was left of its budget (one thread
/// cannot use CPU time faster than wall time), so a bot that computes is
/// stopped within a few milliseconds of its budget.
async fn await_answer(
    process: &mut BotProcess,
    patience: Patience,
    before: Option<Duration>,
    budget: Duration,
) -> Result<(ReadLine, Waited), Failure> {
    let mut deadline = patience.first_deadline();
    let mut watch = WaitWatch::default();
    loop {
        let used = cpu_since(process, before);
        if used > budget {
            return Err(cpu_ran_out(used, budget));
        }
        let next = Instant::now() + (budget - used).max(CPU_CHECK_MIN);
        let read = process.read_answer(next.min(deadline)).await;
        let now = Instant::now();
        match read {
            ReadLine::Timeout if now < deadline => continue,
            ReadLine::Timeout => match check(process, &patience, &mut watch) {
                Verdict::Until(later) => deadline = later,
                Verdict::Over(waited) => {
                    if waited.at_ceiling {
                        run_queue::note_ceiling();
                    }
                    return Ok((ReadLine::Timeout, waited));
                }
            },
            read => return Ok((read, NOT_WAITED)),
        }
    }
}

/// Where `patience` stands now, by a look at the bot's wait.
fn check(process: &BotProcess, patience: &Patience, watch: &mut WaitWatch) -> Verdict {
    let (waited, unsure) = process.cpu_waiting(watch);
    patience.check(Instant::now(), waited, unsure)
}

/// No wait measured.
const NOT_WAITED: Waited = Waited {
    wait: None,
    at_ceiling: false,
};

/// A CPU clock's wall-time cap in words, for a bot that did not answer
/// within it: `used` ms of CPU of its `limit_ms`, and what it waited for a
/// CPU (which the cap did not count).
fn cap_text(cap: Duration, used: u128, limit_ms: u64, waited: Waited) -> String {
    let cap_ms = cap.as_millis();
    let clock =
        format!("its clock counts CPU time, of which it used {used} ms of a {limit_ms} ms limit");
    match waited.wait {
        None => format!(
            "the wall-time cap of {cap_ms} ms ({clock}: it was sleeping, blocked or waiting)"
        ),
        Some(_) if waited.at_ceiling => format!(
            "the wall-time cap of {cap_ms} ms{} ({clock}){}",
            waited.not_counting(),
            waited.ceiling_note(cap)
        ),
        Some(_) => format!(
            "the wall-time cap of {cap_ms} ms{} ({clock}: the rest of the time it was sleeping or blocked, not waiting for a CPU)",
            waited.not_counting()
        ),
    }
}

/// The shortest wait between two looks at a bot's CPU time on a CPU clock.
const CPU_CHECK_MIN: Duration = Duration::from_millis(2);

/// The timeout of a bot that used `used` of CPU time for a move whose
/// limit with grace was `budget`.
pub fn cpu_ran_out(used: Duration, budget: Duration) -> Failure {
    Failure::new(
        FailureReason::Timeout,
        format!(
            "used {} ms of CPU time for the move; its CPU-time limit was {} ms (grace included)",
            used.as_millis(),
            budget.as_millis()
        ),
    )
}

/// How long a move took: from writing the turn to reading the move (wall
/// time, what the clock charges), and the CPU time the bot's process used
/// meanwhile ([`crate::cpu_clock`]; `None` where it cannot be read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveTime {
    pub wall: Duration,
    pub cpu: Option<Duration>,
}

impl MoveTime {
    /// A move of a player whose CPU time is not measured.
    pub fn wall(wall: Duration) -> MoveTime {
        MoveTime { wall, cpu: None }
    }
}

/// `hello`, then one `ready` line with protocol 1 before the startup limit,
/// which counts from the spawn but not the time the bot waited for a CPU
/// ([`run_queue::Patience`]), nor the time arena took to write `hello`
/// (the bot cannot answer sooner; on a busy machine arena too waits for a
/// CPU).
async fn handshake(process: &mut BotProcess) -> Result<Ready, Failure> {
    let limit = process.limits().startup();
    let hello = RefereeMessage::Hello(Hello {
        protocol: PROTOCOL_VERSION,
        referee: referee_name(),
    });
    let startup = |message: String| Failure::new(FailureReason::Startup, message);
    let left = (process.started_at() + limit).saturating_duration_since(Instant::now());
    send_message(process, &hello, left)
        .await
        .map_err(|f| startup(format!("failed before ready: {}", f.message)))?;
    let patience = Patience::new(Instant::now(), limit, process.cpu_waited());
    let read = match read_within(process, patience).await {
        Ok(ReadLine::Timeout) => Err(NOT_WAITED),
        read => read,
    };
    match read {
        Err(waited) => Err(startup(diagnose_silence(process, limit, waited).await)),
        Ok(ReadLine::Line(line)) => {
            if let Some(wait) = patience.waited(process.cpu_waited()) {
                run_queue::note_start(wait, patience.elapsed());
            }
            check_ready(&line).map_err(startup)
        }
        Ok(ReadLine::TooLong) => Err(startup(format!(
            "answered hello with a line longer than {MAX_LINE_BYTES} bytes"
        ))),
        Ok(ReadLine::Timeout | ReadLine::Eof) => {
            let ended = output_ended(process).await;
            Err(startup(format!(
                "failed before ready (it must answer hello with one ready line): {}",
                ended.message
            )))
        }
    }
}

/// Reads one line within `patience`'s limit (which moves out while the
/// bot waits for a CPU); how long it waited when the limit ran out first
/// (so never [`ReadLine::Timeout`]).
async fn read_within(process: &mut BotProcess, patience: Patience) -> Result<ReadLine, Waited> {
    let mut deadline = patience.first_deadline();
    let mut watch = WaitWatch::default();
    loop {
        match process.read_line(deadline).await {
            ReadLine::Timeout => match check(process, &patience, &mut watch) {
                Verdict::Until(later) => deadline = later,
                Verdict::Over(waited) => {
                    if waited.at_ceiling {
                        run_queue::note_ceiling();
                    }
                    return Err(waited);
                }
            },
            read => return Ok(read),
        }
    }
}

/// A `ready` line with this referee's protocol version, or what is wrong
/// with the line in the bot author's terms.
fn check_ready(line: &[u8]) -> Result<Ready, String> {
    match decode_bot_line(line) {
        Ok(BotMessage::Ready(ready)) if ready.protocol == PROTOCOL_VERSION => Ok(ready),
        Ok(BotMessage::Ready(ready)) => Err(format!(
            "answered hello with protocol {}, but arena speaks protocol {PROTOCOL_VERSION}: send \"protocol\":{PROTOCOL_VERSION} in ready",
            ready.protocol
        )),
        Ok(BotMessage::Move(_)) => {
            Err("answered hello with \"move\"; the first line must be \"ready\"".into())
        }
        Err(e) => Err(format!("answered hello with an invalid ready: {e}")),
    }
}

/// After a deadline passes in silence (the startup limit, or a move's limit
/// plus grace), how long arena keeps listening (input open) to learn
/// whether the bot is merely slow: as long as the limit again, at least
/// [`LATE_LISTEN_MIN`] and at most [`LATE_LISTEN_MAX`]. It is per bot, in
/// its game's own task: other games go on meanwhile.
pub fn late_listen(limit: Duration) -> Duration {
    limit.clamp(LATE_LISTEN_MIN, LATE_LISTEN_MAX)
}

/// The least time [`late_listen`] gives: a bot on a 200 ms limit that
/// answers after a second is still told how late it was.
pub const LATE_LISTEN_MIN: Duration = Duration::from_millis(1000);

/// The most time [`late_listen`] gives, whatever the limit: a bot that hangs
/// costs its game at most this much more before it is killed.
pub const LATE_LISTEN_MAX: Duration = Duration::from_millis(2500);

/// After that, how long arena waits for a `ready` once the bot's input is
/// closed: output that appears only then was sitting in the bot's buffer.
pub const FLUSH_LISTEN: Duration = Duration::from_millis(500);

/// The one-line fix for a bot that does not flush, in common languages.
pub const FLUSH_FIX: &str = "Python print(..., flush=True); C fflush(stdout); C++ std::endl or std::flush; Java System.out.flush(); Go w.Flush() on the bufio.Writer; Rust io::stdout().flush() or a LineWriter; Perl $| = 1";

/// A bot that waited this long for a CPU while arena listened past its
/// limit was still working, not blocked on an unflushed line.
const STARVED: Duration = Duration::from_millis(10);

/// How long the bot waits for a CPU while `read` runs, when that is at
/// least [`STARVED`].
async fn starved_during<T>(
    process: &mut BotProcess,
    read: impl AsyncFnOnce(&mut BotProcess) -> T,
) -> (T, Option<Duration>) {
    let mut watch = WaitWatch::default();
    let (before, _) = process.cpu_waiting(&mut watch);
    let result = read(process).await;
    let (after, _) = process.cpu_waiting(&mut watch);
    let waited = run_queue::waited_since(before, after);
    (result, waited.filter(|w| *w >= STARVED))
}

/// Why `hello` got no answer within `limit` (not counting `waited`, the
/// bot's wait for a CPU meanwhile): the bot is slow (a ready comes soon
/// after), buffers its output (the ready comes only when its input closes
/// and it exits: never said of a bot that was waiting for a CPU), or never
/// answers at all.
async fn diagnose_silence(process: &mut BotProcess, limit: Duration, waited: Waited) -> String {
    let limit_ms = limit.as_millis();
    let late_ms = late_listen(limit);
    let not_counting = waited.not_counting();
    let ceiling = waited.ceiling_note(limit);
    let (late, starved) = starved_during(process, async |p: &mut BotProcess| {
        p.read_line(Instant::now() + late_ms).await
    })
    .await;
    if let ReadLine::Line(line) = &late {
        let after = process.started_at().elapsed().as_millis();
        return match check_ready(line) {
            Ok(_) if waited.at_ceiling => format!(
                "answered hello late: ready came after {after} ms, the limit is {limit_ms} ms{not_counting}{ceiling}"
            ),
            Ok(_) => format!(
                "answered hello late: ready came after {after} ms, the limit is {limit_ms} ms{not_counting}; make start-up faster or raise `startup_ms`"
            ),
            Err(problem) => format!("{problem} (and only after {after} ms; the limit is {limit_ms} ms{not_counting})"),
        };
    }
    if matches!(late, ReadLine::Eof) {
        let ended = output_ended(process).await;
        return format!(
            "failed before ready (no line within the {limit_ms} ms startup limit{not_counting}): {}",
            ended.message
        );
    }
    if let Some(starved) = starved {
        return format!(
            "no ready within the {limit_ms} ms startup limit{not_counting}, nor in the {} ms more that arena listened, during which it waited {} ms for a CPU: it was still starting{ceiling}",
            late_ms.as_millis(),
            starved.as_millis()
        );
    }
    if matches!(late, ReadLine::Timeout) {
        process.close_stdin();
        if let ReadLine::Line(line) = process.read_line(Instant::now() + FLUSH_LISTEN).await {
            let what = if check_ready(&line).is_ok() {
                "ready"
            } else {
                "its first line"
            };
            return format!(
                "wrote {what} only when its input closed: flush stdout after each line ({FLUSH_FIX})"
            );
        }
    }
    format!(
        "never answered hello: no line within the {limit_ms} ms startup limit{not_counting} (nor {} ms later, nor after its input closed); it must read hello from stdin and write one ready line, flushed",
        late_ms.as_millis()
    )
}

/// Why a move did not come within its time (`limit`, the move's limit and
/// grace in words; `wait`, the two together, counted from `sent`): arena
/// listens [`late_listen`] more. A move that comes then is not played (the
/// game is lost on time either way), but the message says how late it was;
/// only when nothing came does it suggest flushing. The trace notes where
/// the time ran out.
async fn diagnose_late_move(
    process: &mut BotProcess,
    sent: Instant,
    limit: &str,
    wait: Duration,
) -> Failure {
    let extra = late_listen(wait);
    process.note(&format!(
        "no move within {limit}; arena listens {} ms more",
        extra.as_millis()
    ));
    let (late, starved) = starved_during(process, async |p: &mut BotProcess| {
        p.read_answer(Instant::now() + extra).await
    })
    .await;
    let after = sent.elapsed().as_millis();
    let message = match late {
        ReadLine::Line(line) => match decode_answer(&line) {
            Ok(BotMessage::Move(_)) => format!("answered after {after} ms; the limit was {limit}"),
            Ok(BotMessage::Ready(_)) | Err(_) => format!(
                "answered after {after} ms, and not with a move: {}; the limit was {limit}",
                quote(&line)
            ),
        },
        ReadLine::TooLong => format!(
            "answered after {after} ms, with a line longer than {MAX_LINE_BYTES} bytes; the limit was {limit}"
        ),
        ReadLine::Eof => format!(
            "did not answer within {limit}, and then ended without a move: {}",
            output_ended(process).await.message
        ),
        ReadLine::Timeout if starved.is_some() => format!(
            "did not answer within {limit}, nor in the {} ms more that arena listened, during which it waited {} ms for a CPU: it was still working, far slower than its limit on this machine now",
            extra.as_millis(),
            starved.unwrap_or_default().as_millis()
        ),
        ReadLine::Timeout => format!(
            "did not answer within {limit}, nor in the {} ms more that arena listened: it is stuck or far slower than its limit, or its move sits in an unflushed output buffer (flush stdout after each line: {FLUSH_FIX})",
            extra.as_millis()
        ),
    };
    Failure::new(FailureReason::Timeout, message)
}

async fn send_message(
    process: &mut BotProcess,
    msg: &RefereeMessage,
    timeout: Duration,
) -> Result<(), Failure> {
    send_line(process, &msg.to_line(), timeout).await
}

/// Sends one encoded message line (with or without its `\n`).
async fn send_line(process: &mut BotProcess, line: &str, timeout: Duration) -> Result<(), Failure> {
    match process.send_line(line, timeout).await {
        Ok(()) => Ok(()),
        Err(SendError::Timeout(t)) => Err(Failure::new(
            FailureReason::Timeout,
            format!(
                "did not read its input for {} ms, so arena could not write to it (it must keep reading stdin)",
                t.as_millis()
            ),
        )),
        Err(SendError::Closed(_)) => Err(output_ended(process).await),
    }
}

/// The bot's output ended or its input broke: it died (crash, cpu, memory)
/// or, if it is still running, it closed its stdout (disconnect).
async fn output_ended(process: &mut BotProcess) -> Failure {
    match process.death_reason(EXIT_WAIT).await {
        Some((reason, message)) => Failure::new(reason, message),
        None => Failure::new(
            FailureReason::Disconnect,
            "closed its stdout (or stdin) while still running; keep both open until quit",
        ),
    }
}

fn too_long() -> Failure {
    Failure::new(
        FailureReason::ProtocolError,
        format!(
            "wrote a line longer than {MAX_LINE_BYTES} bytes, the protocol's limit for one line"
        ),
    )
}

/// Decodes a bot's answer to `turn`. The usual answer, a well-formed
/// `move`, is read straight into its fields; anything else goes through
/// [`decode_bot_line`] for the same result and the same error messages.
/// (Reading into a generic JSON map first cost as much as the whole rest of
/// the referee's work on a move.)
fn decode_answer(line: &[u8]) -> Result<BotMessage, arena_rules::protocol::ProtocolError> {
    #[derive(serde::Deserialize)]
    struct MoveLine<'a> {
        #[serde(rename = "type", borrow)]
        kind: std::borrow::Cow<'a, str>,
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        comment: Option<String>,
    }
    // The shape every bot library writes, read without a parser.
    if let Some(mv) = line
        .strip_prefix(b"{\"type\":\"move\",\"move\":\"")
        .and_then(|rest| rest.strip_suffix(b"\"}"))
    {
        let plain = mv.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\');
        if plain {
            if let Ok(mv) = std::str::from_utf8(mv) {
                return Ok(BotMessage::Move(BotMove {
                    mv: mv.to_string(),
                    comment: None,
                }));
            }
        }
    }
    // Objects only: serde would also read a struct from a JSON array.
    let is_object = line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if is_object && line.len() <= MAX_LINE_BYTES {
        if let Ok(answer) = serde_json::from_slice::<MoveLine>(line) {
            if answer.kind == "move" {
                return Ok(BotMessage::Move(BotMove {
                    mv: answer.mv,
                    comment: answer.comment,
                }));
            }
        }
    }
    decode_bot_line(line)
}

/// The start of an offending line, for messages: control characters
/// escaped so it stays on one line, quotes left as the bot wrote them.
fn quote(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let mut out = String::new();
    for c in text.chars().take(80) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if text.chars().count() > 80 {
        out.push_str("...");
    }
    out
}

/// Idle seats kept between games, by bot name, so the next game with a bot
/// reuses its running process. A seat is checked out by the game that plays
/// it and checked in afterwards; running several games at once simply keeps
/// several idle seats per bot.
///
/// With an idle cap ([`BotPool::with_idle_cap`]) at most that many idle
/// processes are kept, whatever the number of bots: checking in one more
/// hands back the least recently used, to be ended ([`Seat::shutdown`]).
/// So a tournament's processes and descriptors grow with its concurrency,
/// not with its number of bots.
#[derive(Debug, Default)]
pub struct BotPool {
    options: SpawnOptions,
    /// Idle seats by bot name, each with the tick it was checked in at.
    idle: HashMap<String, Vec<(u64, Seat)>>,
    max_idle: Option<usize>,
    tick: u64,
}

impl BotPool {
    /// A pool that keeps every idle process (see [`BotPool::with_idle_cap`]).
    pub fn new(options: SpawnOptions) -> BotPool {
        BotPool {
            options,
            ..BotPool::default()
        }
    }

    /// Keeps at most `max_idle` idle processes.
    pub fn with_idle_cap(mut self, max_idle: usize) -> BotPool {
        self.max_idle = Some(max_idle);
        self
    }

    /// An idle seat for `spec` (same name and same spec), or a new one.
    pub fn checkout(&mut self, spec: &BotSpec) -> Seat {
        if let Some(seats) = self.idle.get_mut(&spec.name) {
            if let Some(i) = seats.iter().position(|(_, s)| s.spec == *spec) {
                return seats.swap_remove(i).1;
            }
        }
        Seat::new(spec.clone(), self.options.clone())
    }

    /// Returns a seat after its game. A seat without a running process is
    /// dropped (its bot failed; the next checkout starts a fresh one).
    /// Returns the seats evicted to stay within the idle cap, least recently
    /// used first: the caller ends them ([`Seat::shutdown`]; dropping one
    /// kills its process group).
    #[must_use = "evicted seats should be shut down"]
    pub fn checkin(&mut self, seat: Seat) -> Vec<Seat> {
        if seat.is_running() {
            self.tick += 1;
            self.idle
                .entry(seat.spec.name.clone())
                .or_default()
                .push((self.tick, seat));
        }
        let mut evicted = Vec::new();
        while self.max_idle.is_some_and(|max| self.idle_count() > max) {
            let Some(seat) = self.take_least_recently_used() else {
                break;
            };
            evicted.push(seat);
        }
        evicted
    }

    /// The seat to end when over the cap: the least recently used spare
    /// process of a bot that has several idle (one left when its games ran
    /// at the same time), else the least recently used of all. Ending a
    /// bot's only process means starting it again for its next game, so
    /// spares go first.
    fn take_least_recently_used(&mut self) -> Option<Seat> {
        let spare = self.least_recently_used(|seats| seats.len() > 1);
        let (name, index) = spare.or_else(|| self.least_recently_used(|_| true))?;
        let seats = self.idle.get_mut(&name)?;
        let (_, seat) = seats.remove(index);
        if seats.is_empty() {
            self.idle.remove(&name);
        }
        Some(seat)
    }

    /// Bot name and index of the idle seat checked in longest ago, among
    /// the bots whose idle seats pass `among`.
    fn least_recently_used(
        &self,
        among: impl Fn(&[(u64, Seat)]) -> bool,
    ) -> Option<(String, usize)> {
        self.idle
            .iter()
            .filter(|(_, seats)| among(seats))
            .flat_map(|(name, seats)| {
                seats
                    .iter()
                    .enumerate()
                    .map(move |(i, (tick, _))| (*tick, name, i))
            })
            .min()
            .map(|(_, name, i)| (name.clone(), i))
    }

    /// Number of idle running processes.
    pub fn idle_count(&self) -> usize {
        self.idle.values().map(Vec::len).sum()
    }

    /// Sends `quit` to every idle bot and makes sure all of them are gone.
    pub async fn shutdown(&mut self) {
        let seats = self.idle.drain().flat_map(|(_, seats)| seats);
        shutdown_all(seats.map(|(_, seat)| seat)).await;
    }
}

/// Ends seats politely ([`Seat::shutdown`]), all at once.
pub async fn shutdown_all(seats: impl IntoIterator<Item = Seat>) {
    let mut tasks = tokio::task::JoinSet::new();
    for mut seat in seats {
        tasks.spawn(async move { seat.shutdown().await });
    }
    while tasks.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_decode_exactly_as_the_protocol_decoder_does() {
        let lines: &[&str] = &[
            r#"{"type":"move","move":"c3"}"#,
            r#"{"type":"move","move":""}"#,
            r#"{"type":"move","move":"é"}"#,
            r#"{"type":"move","move":"a"b"}"#,
            r#"{"type":"move","move":"a\"}"#,
            r#"{"type":"move","move":"c3"}}"#,
            r#"{"type":"move","move":"c3", "x":"}"#,
            "{\"type\":\"move\",\"move\":\"tab\there\"}",
            r#"  {"move":"capture d4 b2 e5","type":"move","comment":"eval +1","extra":[1,{"a":2}]}  "#,
            r#"{"type":"move","move":"c\u0033","comment":null}"#,
            r#"{"type":"move","move":"c3","move":"d4"}"#,
            r#"{"type":"move","type":"ready","move":"c3"}"#,
            r#"{"type":"move","move":3}"#,
            r#"{"type":"move","move":"c3","comment":5}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"ready","name":"x","protocol":1}"#,
            r#"{"type":"Move","move":"c3"}"#,
            r#"{"move":"c3"}"#,
            r#"["move","c3",null]"#,
            r#"{"type":"move","move":"c3"} trailing"#,
            r#"{"type":"move","move":"c3""#,
            "",
            "   ",
            "null",
        ];
        for line in lines {
            assert_eq!(
                decode_answer(line.as_bytes()),
                decode_bot_line(line.as_bytes()),
                "{line}"
            );
        }
        let mut long = br#"{"type":"move","move":"c3","comment":""#.to_vec();
        long.resize(MAX_LINE_BYTES + 10, b'x');
        long.extend_from_slice(br#""}"#);
        assert_eq!(decode_answer(&long), decode_bot_line(&long));
        let invalid_utf8 = b"{\"type\":\"move\",\"move\":\"c\xff3\"}";
        assert_eq!(decode_answer(invalid_utf8), decode_bot_line(invalid_utf8));
    }
}
