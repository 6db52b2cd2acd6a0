//! A move's pipe I/O done with plain system calls instead of through the
//! async runtime, where that is safe.
//!
//! Waking a task through tokio (the I/O driver's `epoll_wait`, readiness
//! bookkeeping, the scheduler, the timer wheel) and writing through its
//! registered pipes cost about half a pipe round trip again on every move.
//! A `write`, a `poll` on the bot's stdout and one `read` cost a tenth of
//! one (`cargo bench --bench referee_overhead`); for instant bots that is
//! the difference between a referee at 2x the floor and at 2.5x.
//!
//! **Writing** ([`write_now`]) never blocks: the descriptor is nonblocking,
//! so a line the pipe has room for goes out in one `write`, and the rest (a
//! bot that does not read) waits through the runtime with its timeout. It
//! is used on every runtime.
//!
//! **Waiting** ([`wait`]) blocks the thread, which is only fair when nothing
//! else needs it: on a current-thread runtime, the one [`crate::tournament`]
//! uses at `-j 1` and that `arena play` and `check-bot` use, the game's task
//! is the only one with work while a bot thinks. The other tasks there are
//! the bots' stderr drains, the signal watch and the journal's
//! acknowledgements. So:
//!
//! - the bot's stderr is in the poll set: output there is logged at once,
//!   as the drain task would (which would run only after the game's task),
//!   before the move is read. So everything a bot wrote to stderr before
//!   its answer is in the log when the answer is taken, and a pipe full of
//!   stderr never blocks a bot on the clock;
//! - each direct wait lasts at most [`SLICE`]; a bot still thinking after
//!   it is waited for by the runtime as before, so a signal or the other
//!   tasks wait at most that long;
//! - on a multi-threaded runtime (`-j 2` and up) the direct wait is off:
//!   blocking a worker would hold up the other games on it.
//!
//! Only [`super::process::BotProcess::read_answer`] waits directly, for a
//! move, which the game waits for alone; reads that run beside others (the
//! two bots' start-up, at once) stay on the runtime.

use std::os::fd::{AsRawFd, BorrowedFd};
use std::time::Duration;

use tokio::runtime::{Handle, RuntimeFlavor};

/// Longest single wait outside the runtime.
pub const SLICE: Duration = Duration::from_millis(2);

/// Whether the calling thread runs a current-thread runtime, on which a
/// game may wait for its bot in `poll` (see the module notes).
pub fn allowed() -> bool {
    Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::CurrentThread)
}

/// Writes as much of `data` as the pipe takes now, without waiting;
/// returns how much that was. An error is the pipe's (`EPIPE`: the bot
/// closed its input).
pub fn write_now(fd: BorrowedFd<'_>, data: &[u8]) -> std::io::Result<usize> {
    let mut written = 0;
    while written < data.len() {
        let rest = &data[written..];
        // SAFETY: `rest` is readable for its length and the descriptor is
        // borrowed, so open, for the call.
        let n = unsafe { libc::write(fd.as_raw_fd(), rest.as_ptr().cast(), rest.len()) };
        if n > 0 {
            written += n as usize;
            continue;
        }
        if n == 0 {
            break; // Not for a pipe; but never a loop without progress.
        }
        let error = std::io::Error::last_os_error();
        match error.kind() {
            std::io::ErrorKind::Interrupted => {}
            std::io::ErrorKind::WouldBlock => break,
            _ => return Err(error),
        }
    }
    Ok(written)
}

/// One read of what `fd` holds now into `buf`, without waiting (the
/// descriptor is nonblocking): `Ok(0)` at end of file, an error of kind
/// `WouldBlock` when there is nothing yet. Interrupted reads are retried.
pub fn read_now(fd: BorrowedFd<'_>, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        // SAFETY: `buf` is writable for its length and the descriptor is
        // borrowed, so open, for the call.
        let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n >= 0 {
            return Ok(n as usize);
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Which of the bot's pipes have something to read (or are closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ready {
    pub stdout: bool,
    pub stderr: bool,
}

/// Waits up to `timeout` for `stdout` or `stderr` to be readable (data, end
/// of file or an error: a read will not block). `None` when the time ran
/// out or a signal interrupted the wait: the caller then waits through the
/// runtime.
pub fn wait(
    stdout: BorrowedFd<'_>,
    stderr: Option<BorrowedFd<'_>>,
    timeout: Duration,
) -> Option<Ready> {
    let mut fds = [
        libc::pollfd {
            fd: stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            // A negative descriptor is skipped by poll.
            fd: stderr.map_or(-1, |fd| fd.as_raw_fd()),
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    let timeout = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `fds` is a valid array of two pollfd for the call's duration,
    // both descriptors are borrowed (open) for it, the timeout is a valid
    // timespec and the signal mask pointer is null (the mask is unchanged).
    let ready = unsafe { libc::ppoll(fds.as_mut_ptr(), 2, &timeout, std::ptr::null()) };
    (ready > 0).then_some(Ready {
        stdout: fds[0].revents != 0,
        stderr: fds[1].revents != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::time::Instant;

    fn pipe() -> (std::fs::File, std::fs::File) {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe writes.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: both descriptors were just opened and are owned here only.
        unsafe {
            use std::os::fd::FromRawFd;
            (
                std::fs::File::from_raw_fd(fds[0]),
                std::fs::File::from_raw_fd(fds[1]),
            )
        }
    }

    #[test]
    fn sees_a_line_and_the_end_of_the_stream() {
        let (out_r, mut out_w) = pipe();
        let (err_r, _err_w) = pipe();
        let wait = Duration::from_secs(5);
        out_w.write_all(b"line\n").unwrap();
        let only_stdout = Ready {
            stdout: true,
            stderr: false,
        };
        assert_eq!(
            super::wait(out_r.as_fd(), Some(err_r.as_fd()), wait),
            Some(only_stdout)
        );
        let (out_r, out_w) = pipe();
        drop(out_w);
        assert_eq!(
            super::wait(out_r.as_fd(), None, wait),
            Some(only_stdout),
            "end of file"
        );
    }

    #[test]
    fn sees_stderr_output_and_gives_up_after_the_timeout() {
        let (out_r, mut out_w) = pipe();
        let (err_r, mut err_w) = pipe();
        err_w.write_all(b"log\n").unwrap();
        let only_stderr = Ready {
            stdout: false,
            stderr: true,
        };
        let long = Duration::from_secs(5);
        assert_eq!(
            super::wait(out_r.as_fd(), Some(err_r.as_fd()), long),
            Some(only_stderr)
        );
        out_w.write_all(b"line\n").unwrap();
        let both = Ready {
            stdout: true,
            stderr: true,
        };
        assert_eq!(
            super::wait(out_r.as_fd(), Some(err_r.as_fd()), long),
            Some(both)
        );
        let (out_r, _out_w) = pipe();
        let began = Instant::now();
        assert_eq!(
            super::wait(out_r.as_fd(), None, Duration::from_millis(30)),
            None
        );
        assert!(began.elapsed() >= Duration::from_millis(30));
    }

    #[test]
    fn writes_what_the_pipe_takes_and_reports_a_closed_one() {
        let (out_r, out_w) = pipe();
        // SAFETY: out_w is open; setting O_NONBLOCK as tokio does.
        unsafe { libc::fcntl(out_w.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
        assert_eq!(write_now(out_w.as_fd(), b"line\n").unwrap(), 5);
        let big = vec![b'x'; 1 << 20];
        let taken = write_now(out_w.as_fd(), &big).unwrap();
        assert!(
            taken > 0 && taken < big.len(),
            "a full pipe takes part: {taken}"
        );
        assert_eq!(write_now(out_w.as_fd(), b"more").unwrap(), 0);
        drop(out_r);
        let err = write_now(out_w.as_fd(), b"line\n").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe);
    }

    #[test]
    fn is_allowed_on_a_current_thread_runtime_only() {
        assert!(!allowed(), "outside a runtime");
        let current = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        assert!(current.block_on(async { allowed() }));
        let multi = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        assert!(!multi.block_on(async { allowed() }));
    }
}
