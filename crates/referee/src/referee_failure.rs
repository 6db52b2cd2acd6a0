//! Failures of the referee itself, as opposed to a bot's: the machine ran
//! out of descriptors, processes, memory or disk, a log file could not be
//! created, the sandbox could not be set up. Such a failure is never a game
//! result: the game is left unrecorded (`--resume` plays it again), and a
//! tournament that keeps hitting one stops with [`RepeatedFailure::line`],
//! which says what to fix.
//!
//! [`classify_spawn_error`] draws the line for starting a bot: only the
//! bot's own program being missing, not executable or not a valid
//! executable (and the like, see [`is_bots_own_errno`]) is the bot's
//! `startup` failure; every other reason a start fails is the referee's.

use std::io;

/// What ran out or broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// EMFILE / ENFILE: no file descriptor for a pipe or a file.
    Descriptors,
    /// EAGAIN from fork/clone: the process or thread limit.
    Processes,
    /// ENOMEM.
    Memory,
    /// ENOSPC / EDQUOT: no space or inodes for a log file.
    Disk,
    /// ENAMETOOLONG: a file the referee creates has too long a name.
    NameTooLong,
    /// A log file that could not be created or written for another reason.
    Log,
    /// The sandbox (bubblewrap) could not be set up.
    Sandbox,
    /// Any other error of the machine.
    Other,
}

/// One failure of the referee: what kind, the errno when there is one, and
/// a message naming the bot and what the referee was doing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RefereeFailure {
    pub kind: FailureKind,
    pub errno: Option<i32>,
    pub message: String,
}

impl RefereeFailure {
    pub fn new(kind: FailureKind, message: impl Into<String>) -> RefereeFailure {
        RefereeFailure {
            kind,
            errno: None,
            message: message.into(),
        }
    }

    /// A failure from an OS error number; `other` is the kind when the
    /// number says nothing more specific (e.g. [`FailureKind::Log`]).
    pub fn from_errno(errno: Option<i32>, other: FailureKind, message: String) -> RefereeFailure {
        let kind = match errno {
            Some(libc::EMFILE | libc::ENFILE) => FailureKind::Descriptors,
            Some(libc::EAGAIN) => FailureKind::Processes,
            Some(libc::ENOMEM) => FailureKind::Memory,
            Some(libc::ENOSPC | libc::EDQUOT) => FailureKind::Disk,
            Some(libc::ENAMETOOLONG) => FailureKind::NameTooLong,
            _ => other,
        };
        RefereeFailure {
            kind,
            errno,
            message,
        }
    }

    /// The referee failure somewhere in an error's chain, if any.
    pub fn find(error: &anyhow::Error) -> Option<&RefereeFailure> {
        error
            .chain()
            .find_map(|e| e.downcast_ref::<RefereeFailure>())
    }

    /// What went wrong, worded to follow "arena": "ran out of file
    /// descriptors (EMFILE)".
    pub fn what(&self) -> String {
        let errno = self
            .errno
            .map(|n| format!(" ({})", errno_name(n)))
            .unwrap_or_default();
        let what = match self.kind {
            FailureKind::Descriptors => "ran out of file descriptors",
            FailureKind::Processes => "could not start a process",
            FailureKind::Memory => "ran out of memory",
            FailureKind::Disk => "ran out of disk space for bot logs",
            FailureKind::NameTooLong => "could not create a bot log (name too long)",
            FailureKind::Log => "could not create or write a bot log",
            FailureKind::Sandbox => "could not set up the sandbox",
            FailureKind::Other => "could not start a bot",
        };
        format!("{what}{errno}")
    }

    /// What to do about it, as one clause.
    pub fn remedy(&self) -> String {
        match self.kind {
            FailureKind::Descriptors => {
                let (soft, hard) = limit(libc::RLIMIT_NOFILE);
                format!("raise `ulimit -n` (now {soft}, hard limit {hard}) or lower -j")
            }
            FailureKind::Processes => {
                let (soft, _) = limit(libc::RLIMIT_NPROC);
                format!(
                    "raise the process limit (`ulimit -u`, now {soft}, or the cgroup's pids.max) or lower -j"
                )
            }
            FailureKind::Memory => "free memory or lower -j".into(),
            FailureKind::Disk => "free space (or inodes) in the output directory".into(),
            FailureKind::NameTooLong => "choose a shorter --out path".into(),
            FailureKind::Log | FailureKind::Other => format!("fix the cause: {}", self.message),
            FailureKind::Sandbox => format!("fix the sandbox: {}", self.message),
        }
    }
}

/// The same referee failure `times` times in a row: why a run stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepeatedFailure {
    pub failure: RefereeFailure,
    pub times: u32,
}

impl RepeatedFailure {
    /// One line: what happened, how often, and what to fix.
    pub fn line(&self) -> String {
        format!(
            "arena {} {} times in a row: {}",
            self.failure.what(),
            self.times,
            self.failure.remedy()
        )
    }
}

/// Whether a failed exec with this errno is the bot's own fault: its
/// program (or `cwd`) is missing, not executable or not a valid executable.
pub fn is_bots_own_errno(errno: i32) -> bool {
    matches!(
        errno,
        libc::ENOENT
            | libc::EACCES
            | libc::ENOEXEC
            | libc::ENOTDIR
            | libc::EISDIR
            | libc::ELOOP
            | libc::EPERM
            | libc::E2BIG
            | libc::ELIBBAD
    )
}

/// Sorts an error from starting a bot process: `Ok(error)` when it is the
/// bot's own (see [`is_bots_own_errno`]), `Err(failure)` when it is the
/// referee's (any other OS error: descriptors, processes, memory...).
pub fn classify_spawn_error(error: &io::Error, message: String) -> Result<String, RefereeFailure> {
    match error.raw_os_error() {
        Some(errno) if is_bots_own_errno(errno) => Ok(message),
        errno => Err(RefereeFailure::from_errno(
            errno,
            FailureKind::Other,
            message,
        )),
    }
}

/// The OS error number in an error's chain: an `io::Error` in it, else the
/// "(os error N)" that `io::Error` writes into messages built from it.
pub fn errno_in(error: &anyhow::Error) -> Option<i32> {
    if let Some(n) = error
        .chain()
        .find_map(|e| e.downcast_ref::<io::Error>())
        .and_then(io::Error::raw_os_error)
    {
        return Some(n);
    }
    let text = format!("{error:#}");
    let start = text.rfind("(os error ")? + "(os error ".len();
    let digits: String = text[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn errno_name(errno: i32) -> String {
    let name = match errno {
        libc::EMFILE => "EMFILE",
        libc::ENFILE => "ENFILE",
        libc::EAGAIN => "EAGAIN",
        libc::ENOMEM => "ENOMEM",
        libc::ENOSPC => "ENOSPC",
        libc::EDQUOT => "EDQUOT",
        libc::ENAMETOOLONG => "ENAMETOOLONG",
        libc::ETXTBSY => "ETXTBSY",
        libc::EIO => "EIO",
        libc::EROFS => "EROFS",
        _ => return format!("os error {errno}"),
    };
    name.to_string()
}

/// A resource limit of this process (soft, hard), `unlimited` spelled out.
fn limit(resource: libc::__rlimit_resource_t) -> (String, String) {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct we pass.
    if unsafe { libc::getrlimit(resource, &mut rl) } != 0 {
        return ("unknown".into(), "unknown".into());
    }
    let text = |v: libc::rlim_t| {
        if v == libc::RLIM_INFINITY {
            "unlimited".to_string()
        } else {
            v.to_string()
        }
    };
    (text(rl.rlim_cur), text(rl.rlim_max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_bots_own_program_is_the_bots_fault() {
        for errno in [libc::ENOENT, libc::EACCES, libc::ENOEXEC] {
            let e = io::Error::from_raw_os_error(errno);
            assert!(classify_spawn_error(&e, "m".into()).is_ok(), "{errno}");
        }
        let cases = [
            (libc::EMFILE, FailureKind::Descriptors),
            (libc::ENFILE, FailureKind::Descriptors),
            (libc::EAGAIN, FailureKind::Processes),
            (libc::ENOMEM, FailureKind::Memory),
            (libc::ETXTBSY, FailureKind::Other),
        ];
        for (errno, kind) in cases {
            let e = io::Error::from_raw_os_error(errno);
            let failure = classify_spawn_error(&e, "m".into()).unwrap_err();
            assert_eq!((failure.kind, failure.errno), (kind, Some(errno)));
        }
    }

    #[test]
    fn the_errno_is_found_in_wrapped_errors_and_in_their_text() {
        let io = io::Error::from_raw_os_error(libc::ENOSPC);
        let wrapped = anyhow::Error::new(io).context("writing");
        assert_eq!(errno_in(&wrapped), Some(libc::ENOSPC));
        let text = anyhow::anyhow!(
            "cannot open bot log x: {}",
            io::Error::from_raw_os_error(libc::ENAMETOOLONG)
        );
        assert_eq!(errno_in(&text), Some(libc::ENAMETOOLONG));
        assert_eq!(errno_in(&anyhow::anyhow!("no number")), None);
    }

    #[test]
    fn the_stop_line_says_what_ran_out_and_what_to_fix() {
        let failure = RefereeFailure::from_errno(
            Some(libc::EMFILE),
            FailureKind::Other,
            "bot \"a\": cannot start".into(),
        );
        let line = RepeatedFailure { failure, times: 5 }.line();
        assert!(
            line.starts_with("arena ran out of file descriptors (EMFILE) 5 times in a row: raise `ulimit -n` (now "),
            "{line}"
        );
        assert!(line.ends_with("or lower -j"), "{line}");
        assert!(!line.contains('\n'));
    }
}
