//! Resource limits applied inside the child between fork and exec, so they
//! bind the bot (and anything it forks) and never the referee.

use std::io;

use super::spec::Limits;

/// The `setrlimit` calls to make in the child, computed before forking so the
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
    pub fn new(limits: &Limits) -> RlimitPlan {
        RlimitPlan {
            address_space: limits.memory_mb.map(|mb| mb.saturating_mul(1024 * 1024)),
            cpu_seconds: limits.cpu_seconds,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.address_space.is_none() && self.cpu_seconds.is_none()
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
