//! How a bot process ended, and what the referee calls it in a game result.

use std::fmt;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use serde::Serialize;

use super::spec::BotLimits;
use arena_rules::protocol::FailureReason;

/// A bot's exit: code or signal, and whether the referee sent the signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ExitInfo {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    /// The referee killed the process (quit, timeout, game over), so a
    /// signal death is not the bot's own failure.
    pub killed_by_referee: bool,
}

impl ExitInfo {
    pub fn from_status(status: ExitStatus, killed_by_referee: bool) -> ExitInfo {
        ExitInfo {
            code: status.code(),
            signal: status.signal(),
            killed_by_referee,
        }
    }
}

impl fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.code, self.signal) {
            (Some(code), _) => write!(f, "exit code {code}"),
            (None, Some(sig)) => write!(f, "killed by signal {sig} ({})", signal_name(sig)),
            (None, None) => write!(f, "unknown exit status"),
        }
    }
}

/// Conventional name of a signal number, for messages.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => "signal",
    }
}

/// Words in stderr that runtimes print when an allocation fails. Checked only
/// when a memory limit was set, since only then does a failed allocation
/// mean "over the limit".
const OUT_OF_MEMORY_MARKERS: &[&str] = &[
    "MemoryError",          // Python
    "memory allocation of", // Rust's alloc error handler
    "std::bad_alloc",       // C++
    "out of memory",        // C, Go ("fatal error: runtime: out of memory")
    "Out of memory",
    "Cannot allocate memory",        // ENOMEM via strerror
    "JavaScript heap out of memory", // Node
    "OutOfMemoryError",              // JVM
];

/// Game-end reason for a bot that died on its own (`cpu`, `memory` or
/// `crash`), with a message that says how it ended and quotes the last
/// line of its stderr.
pub fn classify_death(
    exit: &ExitInfo,
    limits: &BotLimits,
    stderr_tail: &str,
) -> (FailureReason, String) {
    let last_words = stderr_tail
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("[arena:"))
        .map(|l| format!("; last stderr line: {}", truncate(l, 200)))
        .unwrap_or_default();
    if exit.signal == Some(libc::SIGXCPU) {
        return (
            FailureReason::Cpu,
            format!("exceeded its CPU-time limit ({exit}){last_words}"),
        );
    }
    if let (Some(secs), Some(libc::SIGKILL), false) =
        (limits.cpu_seconds, exit.signal, exit.killed_by_referee)
    {
        // The hard CPU limit is one second past the soft one: a bot that
        // ignored SIGXCPU dies by SIGKILL, which nobody else here sends.
        return (
            FailureReason::Cpu,
            format!("was killed by SIGKILL, not sent by the referee; presumably its {secs} s CPU-time hard limit{last_words}"),
        );
    }
    if limits.memory_mb.is_some()
        && OUT_OF_MEMORY_MARKERS
            .iter()
            .any(|m| stderr_tail.contains(m))
    {
        let mb = limits.memory_mb.unwrap_or_default();
        return (
            FailureReason::Memory,
            format!("ran out of memory under its {mb} MiB limit ({exit}){last_words}"),
        );
    }
    (
        FailureReason::Crash,
        format!("process ended: {exit}{last_words}"),
    )
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exited(code: i32) -> ExitInfo {
        ExitInfo {
            code: Some(code),
            signal: None,
            killed_by_referee: false,
        }
    }

    fn signalled(sig: i32) -> ExitInfo {
        ExitInfo {
            code: None,
            signal: Some(sig),
            killed_by_referee: false,
        }
    }

    #[test]
    fn display_names_code_or_signal() {
        assert_eq!(exited(3).to_string(), "exit code 3");
        assert_eq!(signalled(9).to_string(), "killed by signal 9 (SIGKILL)");
        assert_eq!(
            signalled(libc::SIGSEGV).to_string(),
            "killed by signal 11 (SIGSEGV)"
        );
    }

    #[test]
    fn crash_quotes_last_stderr_line() {
        let (reason, msg) = classify_death(&exited(3), &BotLimits::default(), "a\nboom here\n\n");
        assert_eq!(reason, FailureReason::Crash);
        assert_eq!(
            msg,
            "process ended: exit code 3; last stderr line: boom here"
        );
        let (_, msg) = classify_death(&exited(1), &BotLimits::default(), "");
        assert_eq!(msg, "process ended: exit code 1");
    }

    #[test]
    fn cpu_from_sigxcpu_or_unexplained_sigkill_under_cpu_limit() {
        let limited = BotLimits {
            cpu_seconds: Some(1),
            ..BotLimits::default()
        };
        assert_eq!(
            classify_death(&signalled(libc::SIGXCPU), &BotLimits::default(), "").0,
            FailureReason::Cpu
        );
        assert_eq!(
            classify_death(&signalled(libc::SIGKILL), &limited, "").0,
            FailureReason::Cpu
        );
        assert_eq!(
            classify_death(&signalled(libc::SIGKILL), &BotLimits::default(), "").0,
            FailureReason::Crash
        );
        let by_us = ExitInfo {
            killed_by_referee: true,
            ..signalled(libc::SIGKILL)
        };
        assert_eq!(classify_death(&by_us, &limited, "").0, FailureReason::Crash);
    }

    #[test]
    fn memory_only_with_a_limit_and_a_recognised_message() {
        let limited = BotLimits {
            memory_mb: Some(64),
            ..BotLimits::default()
        };
        let tail = "Traceback...\nMemoryError\n";
        assert_eq!(
            classify_death(&exited(1), &limited, tail).0,
            FailureReason::Memory
        );
        assert_eq!(
            classify_death(&exited(1), &BotLimits::default(), tail).0,
            FailureReason::Crash
        );
        assert_eq!(
            classify_death(&exited(1), &limited, "ValueError\n").0,
            FailureReason::Crash
        );
        let rust = "memory allocation of 1048576 bytes failed\n";
        assert_eq!(
            classify_death(&signalled(libc::SIGABRT), &limited, rust).0,
            FailureReason::Memory
        );
    }
}
