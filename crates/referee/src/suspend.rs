//! Stopping a bot while it is not on move (`suspend_idle`), so that what it
//! keeps computing in the background (pondering, a runaway thread or child)
//! takes no CPU from its opponent: Piskvork's "suspend opponent's brain".
//!
//! [`Suspension::stop`] sends `SIGSTOP` to the bot's process group, one
//! system call that also reaches what the group forks meanwhile (a fork
//! racing a group signal is restarted by the kernel). In the sandbox the
//! bot is not in that group: `bwrap --new-session` makes the namespace's
//! init (the outer `bwrap`'s child) a session and group leader, and every
//! process of the bot is in that group unless it calls `setsid` itself; so
//! the group stopped is the init's, found by one read of the tree. The
//! outer `bwrap`, which only waits, is left running.
//!
//! Processes of the tree outside that group (a `setsid` child) are found by
//! a read of the tree from `/proc` ([`tree_members`], as for the CPU limit),
//! at most every [`WALK_INTERVAL`], and from then on stopped one by one
//! through a pidfd (so a pid reused by another process is never signalled).
//! In the sandbox that covers every process the bot has: the namespace's
//! orphans are re-parented to its init, in the tree. Outside it, a process
//! that left both the group and the tree (`setsid`, then its parent exited)
//! is not found and keeps running.
//!
//! [`Suspension::resume`] sends `SIGCONT` to the same processes. The owner
//! ([`super::process::BotProcess`]) resumes before anything that talks to
//! the bot, waits for it or ends it: a stopped process reads nothing, acts
//! on no `SIGTERM` and never exits by itself.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::Duration;

use tokio::time::Instant;

use super::limits::{member_now, tree_members};

/// Least time between two reads of the tree for processes outside the
/// stopped group (a read is a pass over `/proc`, about a millisecond).
pub const WALK_INTERVAL: Duration = Duration::from_millis(100);

/// Most processes outside the group stopped one by one (each holds a
/// descriptor of the referee's).
const MAX_OTHERS: usize = 64;

#[derive(Debug, Default)]
pub struct Suspension {
    stopped: bool,
    /// The group stopped with one signal: the bot's own, or in the sandbox
    /// the namespace init's. `None` until known.
    group: Option<i32>,
    /// The namespace init, whose life keeps `group`'s id from being reused
    /// (sandbox only).
    init: Option<OwnedFd>,
    /// Processes of the tree outside `group`, by pid, each with its pidfd.
    others: Vec<(i32, OwnedFd)>,
    walked_at: Option<Instant>,
}

impl Suspension {
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Stops the processes of the bot whose process (the referee's child,
    /// and group leader) is `root`, `bwrap` when `sandboxed`. The caller
    /// makes sure `root` has not been reaped.
    pub fn stop(&mut self, root: i32, sandboxed: bool) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        if !sandboxed {
            self.group = Some(root);
        }
        self.signal_group(libc::SIGSTOP);
        self.others
            .retain(|(_, fd)| pidfd_signal(fd, libc::SIGSTOP));
        let due = self
            .walked_at
            .is_none_or(|at| at.elapsed() >= WALK_INTERVAL);
        if due || (sandboxed && self.group.is_none()) {
            self.walked_at = Some(Instant::now());
            self.find_others(root, sandboxed);
        }
    }

    /// Continues what [`Suspension::stop`] stopped.
    pub fn resume(&mut self) {
        if !self.stopped {
            return;
        }
        self.stopped = false;
        self.signal_group(libc::SIGCONT);
        self.others
            .retain(|(_, fd)| pidfd_signal(fd, libc::SIGCONT));
    }

    fn signal_group(&self, signal: i32) {
        let Some(group) = self.group else { return };
        // In the sandbox the group's leader is not the referee's child: a
        // group id is only signalled while its leader lives, so it cannot
        // have passed to another process.
        if let Some(init) = &self.init {
            if !pidfd_signal(init, 0) {
                return;
            }
        }
        // SAFETY: plain system call; ESRCH (the group is gone) is fine.
        unsafe {
            libc::kill(-group, signal);
        }
    }

    /// One read of the tree: in the sandbox the init's group (stopped at
    /// once when first found), and the processes outside the group, each
    /// stopped and kept to be stopped again.
    fn find_others(&mut self, root: i32, sandboxed: bool) {
        let members = tree_members(root);
        if sandboxed && self.group.is_none() {
            let init = members.iter().find(|m| m.ppid == root && m.pid != root);
            if let Some(fd) = init.and_then(|m| verified_pidfd(m.pid, m.ppid, m.pgrp)) {
                self.group = init.map(|m| m.pgrp);
                self.init = Some(fd);
                self.signal_group(libc::SIGSTOP);
            }
        }
        for m in members {
            let outside = m.pid != root && Some(m.pgrp) != self.group;
            let known = self.others.iter().any(|(pid, _)| *pid == m.pid);
            if !outside || known || self.others.len() >= MAX_OTHERS {
                continue;
            }
            if let Some(fd) = verified_pidfd(m.pid, m.ppid, m.pgrp) {
                if pidfd_signal(&fd, libc::SIGSTOP) {
                    self.others.push((m.pid, fd));
                }
            }
        }
    }
}

impl Drop for Suspension {
    /// A bot dropped while stopped: what its group kill does not reach
    /// must not stay stopped for ever.
    fn drop(&mut self) {
        self.resume();
    }
}

/// A pidfd for `pid`, if it is still the process a read of `/proc` saw
/// (same parent and group), so the pid was not reused in between.
fn verified_pidfd(pid: i32, ppid: i32, pgrp: i32) -> Option<OwnedFd> {
    // SAFETY: plain system call; the result is a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: `fd` was just returned by pidfd_open and is owned by no one else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd as i32) };
    let now = member_now(pid)?;
    (now.ppid == ppid && now.pgrp == pgrp).then_some(fd)
}

/// Sends `signal` (0: only asks whether the process lives) through a pidfd;
/// false when the process is gone.
fn pidfd_signal(fd: &OwnedFd, signal: i32) -> bool {
    // SAFETY: plain system call on a descriptor we own.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            fd.as_raw_fd(),
            signal,
            std::ptr::null::<libc::siginfo_t>(),
            0,
        ) == 0
    }
}
