//! `arena serve`: a web server that shows output directories, finished or
//! still running, as the report page (the report's own renderer,
//! [`arena_report::html::render_report`]) that updates itself as games end.
//!
//! It only reads: a watcher thread per run ([`run`]) polls the run's files
//! and re-renders the page when they change, while someone watches; the page hears of it over
//! Server-Sent Events and swaps the new sections in ([`http`]). The server
//! is its own process beside the tournament (which never waits for it).
//!
//! Bounded by construction ([`ServerLimits`]): at most so many connections (more
//! are closed at once), a request's headers must arrive within the idle
//! timeout and fit in a small buffer, a request with a body is refused (but
//! the play page's small actions and an upload to `/submit`, each under its
//! own bound), and
//! only the page and the runs' own files are served ([`http::file_under`]).
//!
//! Its threads run at a lower CPU priority ([`lower_priority`]): on a busy
//! machine the tournament's referee and bots get the CPU first.
//!
//! - `run`: one run as served, and its watcher thread.
//! - `page`: one rendering of a run's page, cut where its games start.
//! - `http`: the server's answers; `html_page`: a page's headers.
//! - `play`: the play page of `arena serve --play` (a person against a bot
//!   of a bots file), its games and their bots.
//! - `submit`: the uploads of `arena serve DIR --submissions` (a league's
//!   participants' bots: built, checked, admitted as versions), at
//!   `/submit`, the one place that takes a file in a request's body.

pub mod html_page;
pub mod http;
pub mod page;
pub mod play;
pub mod run;
pub mod submit;

/// The server's limits seen by real clients over TCP (`tests/limits.rs`).
#[cfg(test)]
mod tests {
    mod limits;
}

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

pub use http::Site;
pub use run::ServedRun;

/// What one server allows its clients.
#[derive(Debug, Clone, Copy)]
pub struct ServerLimits {
    /// Open connections at most (live pages hold one each); a connection
    /// past this is closed at once.
    pub connections: usize,
    /// Time a connection may take to send a request's headers, waiting
    /// included: an idle client is dropped after it.
    pub idle: Duration,
    /// Bytes of a request's line and headers at most.
    pub request_bytes: usize,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            connections: 256,
            idle: Duration::from_secs(20),
            request_bytes: 16 * 1024,
        }
    }
}

/// How much lower the server's threads run than the tournament (nice).
pub const NICENESS: i32 = 10;

/// Lowers the calling thread's CPU priority by [`NICENESS`]; the threads it
/// starts afterwards inherit it. A failure leaves the priority as it was.
pub fn lower_priority() {
    // SAFETY: gettid and setpriority take and keep no pointers; on Linux
    // the priority is the thread's own.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let now = libc::getpriority(libc::PRIO_PROCESS, tid);
        libc::setpriority(libc::PRIO_PROCESS, tid, now + NICENESS);
    }
}

/// Runs `work` on this thread at [`NICENESS`] below its priority, then
/// restores it (for the solver's work on a blocking thread of the play
/// page, which must not take the CPU from the bots it referees).
pub fn at_lower_priority<T>(work: impl FnOnce() -> T) -> T {
    // SAFETY: as in `lower_priority`.
    let (tid, before) = unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        (tid, libc::getpriority(libc::PRIO_PROCESS, tid))
    };
    // SAFETY: as in `lower_priority`.
    unsafe { libc::setpriority(libc::PRIO_PROCESS, tid, before + NICENESS) };
    let result = work();
    // SAFETY: as in `lower_priority`. Raising it back may need a privilege
    // a process lacks: then the thread stays lower, which is harmless.
    unsafe { libc::setpriority(libc::PRIO_PROCESS, tid, before) };
    result
}

/// Serves `site` on `listener` until the process ends: each connection on
/// its own task, at most `limits.connections` at once.
pub async fn serve(listener: TcpListener, site: Site, limits: ServerLimits) {
    let router = http::router(site);
    let open = Arc::new(Semaphore::new(limits.connections));
    loop {
        let (stream, _peer): (_, SocketAddr) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors and the like: wait, never spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.idle)
                .max_buf_size(limits.request_bytes.max(8192))
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}
