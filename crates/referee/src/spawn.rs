//! Starting a bot's process without copying the referee.
//!
//! `fork` copies the referee's page tables (an entry for every page it has
//! touched) only for the child to throw them away at `execve`, so a fork
//! costs more the more memory the referee holds: at 100 instant bots it
//! was the largest share of a run's CPU in `perf`, and a run serving a
//! live page (which holds every game for the page) paid more for it.
//!
//! [`spawn`] starts the child the way `posix_spawn` does, with
//! `clone(CLONE_VM | CLONE_VFORK)`: the child runs on a stack of its own
//! inside the referee's memory, the calling thread waits until the child
//! has called `execve` (or failed to), and nothing is copied. In between
//! the child does what a forked one did in `pre_exec` ([`ChildSetup`], the
//! cgroup [`Joiner`]) plus its own plumbing (signal dispositions, process
//! group, pipes, directory), and makes only system calls: it must not
//! allocate, lock or touch memory other threads use. The referee then
//! waits for the exit through a pidfd ([`PidfdChild`]).
//!
//! Used where the kernel has `pidfd_open` (Linux 5.3); elsewhere, or with
//! `ARENA_SPAWN=fork` in the environment (to compare the two), bots are
//! forked by `std`/tokio as before. [`BotChild`] is either kind.

use std::collections::BTreeMap;
use std::ffi::{CString, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::{Mutex, OnceLock};

use tokio::io::unix::AsyncFd;
use tokio::io::Interest;

use super::cgroup::Joiner;
use super::limits::ChildSetup;

/// The child's stack. It runs a few system-call wrappers; the rest is a
/// guard page below, so an overflow faults instead of writing into the
/// referee's memory.
const STACK_BYTES: usize = 256 * 1024;

/// Whether bots are started by [`spawn`] (checked once): the kernel has
/// pidfds and `ARENA_SPAWN` is not `fork`.
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        if std::env::var_os("ARENA_SPAWN").is_some_and(|v| v == "fork") {
            return false;
        }
        // SAFETY: getpid has no preconditions.
        pidfd_open(unsafe { libc::getpid() }).is_ok()
    })
}

/// What to start: the command line, the environment entries set on top of
/// the referee's, the working directory.
pub struct Launch<'a> {
    pub argv: &'a [String],
    pub env: &'a BTreeMap<String, String>,
    pub cwd: Option<&'a Path>,
    pub setup: ChildSetup,
    pub joiner: Option<Joiner>,
}

/// A started child: its pid, its exit watch and the referee's ends of its
/// three pipes (close-on-exec).
pub struct Spawned {
    pub child: PidfdChild,
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

/// Starts `launch` in a process group of its own, its stdin, stdout and
/// stderr pipes to the referee. The error is the one `execve` (or a step
/// before it) failed with, as `std::process::Command::spawn` gives it.
pub fn spawn(launch: &Launch<'_>) -> io::Result<Spawned> {
    reap_orphans();
    let prepared = Prepared::new(launch)?;
    let (stdin_child, stdin) = pipe()?;
    let (stdout, stdout_child) = pipe()?;
    let (stderr, stderr_child) = pipe()?;
    let mut args = ChildArgs {
        prepared: &prepared,
        stdio: [
            stdin_child.as_raw_fd(),
            stdout_child.as_raw_fd(),
            stderr_child.as_raw_fd(),
        ],
        setup: &launch.setup,
        joiner: launch.joiner.as_ref(),
        err: 0,
    };
    let pid = clone_vfork(&mut args)?;
    // SAFETY: the child wrote `err` (if at all) before it exec'd or exited,
    // and `clone` returned only after that; volatile because the write
    // came from outside this thread's view of the frame.
    let err = unsafe { std::ptr::read_volatile(&args.err) };
    if err != 0 {
        reap_blocking(pid);
        return Err(io::Error::from_raw_os_error(err));
    }
    let pidfd = match pidfd_open(pid) {
        Ok(fd) => fd,
        Err(e) => {
            // SAFETY: plain system call on our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            reap_blocking(pid);
            return Err(e);
        }
    };
    // SAFETY: the AsyncFd owns the descriptor, which stays open and the
    // same until it is dropped.
    let pidfd = unsafe { AsyncFd::register_with_interest(pidfd, Interest::READABLE) }
        .map_err(|e| e.into_parts().1)?;
    Ok(Spawned {
        child: PidfdChild {
            pid,
            pidfd,
            status: None,
        },
        stdin,
        stdout,
        stderr,
    })
}

/// Everything the child needs, allocated before the clone.
struct Prepared {
    /// The paths to try in turn (the program, or each `PATH` entry joined
    /// with it), as `execvp` does.
    candidates: Vec<CString>,
    _argv: Vec<CString>,
    argv_ptrs: Vec<*const libc::c_char>,
    _envp: Vec<CString>,
    envp_ptrs: Vec<*const libc::c_char>,
    cwd: Option<CString>,
}

impl Prepared {
    fn new(launch: &Launch<'_>) -> io::Result<Prepared> {
        let argv = launch
            .argv
            .iter()
            .map(|a| c_string(a.as_bytes().to_vec()))
            .collect::<io::Result<Vec<_>>>()?;
        let program = launch
            .argv
            .first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command line"))?;
        let mut env: BTreeMap<OsString, OsString> = std::env::vars_os().collect();
        for (k, v) in launch.env {
            env.insert(k.into(), v.into());
        }
        let candidates = candidates(program, env.get(std::ffi::OsStr::new("PATH")))?;
        let envp = env
            .into_iter()
            .map(|(k, v)| {
                let mut entry = k.into_vec();
                entry.push(b'=');
                entry.extend(v.into_vec());
                c_string(entry)
            })
            .collect::<io::Result<Vec<_>>>()?;
        let cwd = launch
            .cwd
            .map(|d| c_string(d.as_os_str().as_bytes().to_vec()))
            .transpose()?;
        let pointers = |strings: &[CString]| {
            let mut p: Vec<_> = strings.iter().map(|s| s.as_ptr()).collect();
            p.push(std::ptr::null());
            p
        };
        Ok(Prepared {
            candidates,
            argv_ptrs: pointers(&argv),
            _argv: argv,
            envp_ptrs: pointers(&envp),
            _envp: envp,
            cwd,
        })
    }
}

fn c_string(bytes: Vec<u8>) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "a NUL byte in the command line, environment or directory",
        )
    })
}

/// The paths `execvp` would try for `program`: itself when it names a
/// path, else each directory of `path` (the child's `PATH`, or the
/// default one) joined with it.
fn candidates(program: &str, path: Option<&OsString>) -> io::Result<Vec<CString>> {
    if program.contains('/') {
        return Ok(vec![c_string(program.as_bytes().to_vec())?]);
    }
    let dirs = path
        .map(|p| p.as_bytes().to_vec())
        .unwrap_or_else(|| b"/bin:/usr/bin".to_vec());
    dirs.split(|&b| b == b':')
        .map(|dir| {
            let mut full = if dir.is_empty() {
                b".".to_vec()
            } else {
                dir.to_vec()
            };
            full.push(b'/');
            full.extend_from_slice(program.as_bytes());
            c_string(full)
        })
        .collect()
}

/// A pipe whose two ends are close-on-exec and above 2 (so that the
/// child's `dup2` onto 0, 1 and 2 never meets one of them): (read, write).
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors are fresh and ours.
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    Ok((above_stdio(r)?, above_stdio(w)?))
}

fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC makes a new descriptor that we then own.
    let new = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `new` is a fresh descriptor.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// What the child reads (and the one thing it writes: `err`).
struct ChildArgs<'a> {
    prepared: &'a Prepared,
    /// The child's ends of its stdin, stdout and stderr pipes.
    stdio: [RawFd; 3],
    setup: &'a ChildSetup,
    joiner: Option<&'a Joiner>,
    /// The errno the child failed with (0: it exec'd).
    err: i32,
}

/// Clones a child that shares this process's memory until it execs, on a
/// fresh stack, with every signal blocked across the clone (so that no
/// handler of the referee's runs in the child). Returns the child's pid
/// once it has exec'd or exited.
fn clone_vfork(args: &mut ChildArgs<'_>) -> io::Result<i32> {
    let stack = Stack::new()?;
    // SAFETY: sigset_t is plain data, initialised by sigfillset; the masks
    // are this thread's and restored below.
    let pid = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut old);
        // SAFETY: the stack is mapped, writable and outlives the child's
        // use of it (CLONE_VFORK: this thread waits until the child execs
        // or exits); `args` lives in this frame, which also outlives it;
        // `child_main` only makes system calls (see its notes).
        let pid = libc::clone(
            child_main,
            stack.top(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (args as *mut ChildArgs<'_>).cast(),
        );
        let error = io::Error::last_os_error();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        if pid < 0 {
            return Err(error);
        }
        pid
    };
    Ok(pid)
}

/// The child's side: set up, exec; on failure record errno and exit.
///
/// It runs in the referee's memory on its own stack, with the calling
/// thread's thread-local storage, while the referee's other threads go on:
/// it only calls async-signal-safe system-call wrappers, allocates nothing,
/// takes no lock, and writes nothing but `err` (errno is the calling
/// thread's, which is suspended and does not read it).
extern "C" fn child_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `ChildArgs` that `clone_vfork` passed, alive
    // and not touched by the suspended parent thread.
    let args = unsafe { &mut *arg.cast::<ChildArgs<'_>>() };
    let err = run_child(args);
    // SAFETY: as above; volatile so the write is not elided before _exit.
    unsafe {
        std::ptr::write_volatile(&mut args.err, err);
        libc::_exit(127)
    }
}

/// Returns the errno of the step that failed (it returns only on failure).
fn run_child(args: &ChildArgs<'_>) -> i32 {
    // SAFETY: each call is a plain system call on values prepared before
    // the clone (see `child_main`).
    unsafe {
        default_signal_handlers();
        if libc::setpgid(0, 0) != 0 {
            return errno();
        }
        for (target, &fd) in args.stdio.iter().enumerate() {
            if libc::dup2(fd, target as RawFd) < 0 {
                return errno();
            }
        }
        if let Some(cwd) = &args.prepared.cwd {
            if libc::chdir(cwd.as_ptr()) != 0 {
                return errno();
            }
        }
        if let Some(joiner) = args.joiner {
            joiner.join_in_child();
        }
        if let Err(e) = args.setup.apply_in_child() {
            return e.raw_os_error().unwrap_or(libc::EINVAL);
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::pthread_sigmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        exec_first(args.prepared)
    }
}

/// Execs the first candidate that exists, as `execvp` does: a missing one
/// is skipped, a denied one remembered; returns the errno that stands.
///
/// # Safety
/// Only for the child of [`clone_vfork`].
unsafe fn exec_first(prepared: &Prepared) -> i32 {
    let mut err = libc::ENOENT;
    for path in &prepared.candidates {
        // SAFETY: the pointers are NUL-terminated arrays of live C strings.
        unsafe {
            libc::execve(
                path.as_ptr(),
                prepared.argv_ptrs.as_ptr(),
                prepared.envp_ptrs.as_ptr(),
            );
        }
        match errno() {
            libc::ENOENT | libc::ENOTDIR | libc::ESTALE => {}
            libc::EACCES => err = libc::EACCES,
            other => return other,
        }
    }
    err
}

/// Every caught signal back to its default action in the child (its table
/// of dispositions is its own: no CLONE_SIGHAND), and SIGPIPE too, which the
/// referee ignores and a bot must not inherit ignored. Ignored signals stay
/// ignored, as across a fork and exec.
///
/// # Safety
/// Only for the child of [`clone_vfork`].
unsafe fn default_signal_handlers() {
    for signal in 1..=libc::SIGRTMAX() {
        if signal == libc::SIGKILL || signal == libc::SIGSTOP {
            continue;
        }
        // SAFETY: sigaction reads into and from stack values.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 {
                continue;
            }
            let ignored = old.sa_sigaction == libc::SIG_IGN;
            if old.sa_sigaction != libc::SIG_DFL && (!ignored || signal == libc::SIGPIPE) {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &default, std::ptr::null_mut());
            }
        }
    }
}

fn errno() -> i32 {
    io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EINVAL)
}

/// The child's stack: an anonymous mapping with a guard page at its low end.
struct Stack {
    base: *mut libc::c_void,
}

impl Stack {
    const GUARD: usize = 4096;

    fn new() -> io::Result<Stack> {
        // SAFETY: a fresh anonymous mapping; the guard page is in it.
        unsafe {
            let base = libc::mmap(
                std::ptr::null_mut(),
                STACK_BYTES + Self::GUARD,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return Err(io::Error::last_os_error());
            }
            let stack = Stack { base };
            if libc::mprotect(base, Self::GUARD, libc::PROT_NONE) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(stack)
        }
    }

    /// The highest address (stacks grow down), 16-byte aligned.
    fn top(&self) -> *mut libc::c_void {
        // SAFETY: one past the mapping's end, which is page aligned.
        unsafe { self.base.cast::<u8>().add(STACK_BYTES + Self::GUARD).cast() }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, no longer used.
        unsafe {
            libc::munmap(self.base, STACK_BYTES + Self::GUARD);
        }
    }
}

fn pidfd_open(pid: i32) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor that we own.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// A child started by [`spawn`]: its pid, and a pidfd that becomes
/// readable when it exits. Dropped before it was reaped, it is reaped
/// later ([`reap_orphans`]), so no zombie stays.
#[derive(Debug)]
pub struct PidfdChild {
    pid: i32,
    pidfd: AsyncFd<OwnedFd>,
    status: Option<ExitStatus>,
}

impl PidfdChild {
    pub fn id(&self) -> i32 {
        self.pid
    }

    /// The exit status if the child has exited (reaping it).
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if self.status.is_none() {
            self.status = reap(self.pid)?;
        }
        Ok(self.status)
    }

    /// Waits for the child to exit. Cancel-safe: the status is kept once
    /// reaped.
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        loop {
            if let Some(status) = self.try_wait()? {
                return Ok(status);
            }
            let mut ready = self.pidfd.readable().await?;
            match reap(self.pid)? {
                Some(status) => {
                    self.status = Some(status);
                    return Ok(status);
                }
                None => ready.clear_ready(),
            }
        }
    }
}

impl Drop for PidfdChild {
    fn drop(&mut self) {
        if let Ok(None) = self.try_wait() {
            ORPHANS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(self.pid);
        }
    }
}

/// Children dropped while still running (their group was SIGKILLed),
/// reaped at the next spawn.
static ORPHANS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn reap_orphans() {
    let mut orphans = ORPHANS.lock().unwrap_or_else(|e| e.into_inner());
    orphans.retain(|&pid| matches!(reap(pid), Ok(None)));
}

/// `waitpid(pid, WNOHANG)`: the status if it exited, `None` if it runs.
fn reap(pid: i32) -> io::Result<Option<ExitStatus>> {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes into a stack value.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r > 0 {
            return Ok(Some(ExitStatus::from_raw(status)));
        }
        if r == 0 {
            return Ok(None);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reaps a child known to have exited or been killed.
fn reap_blocking(pid: i32) {
    let mut status = 0;
    // SAFETY: waitpid writes into a stack value; EINTR is retried.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

/// A bot's process, started either way.
#[derive(Debug)]
pub enum BotChild {
    Forked(tokio::process::Child),
    Cloned(PidfdChild),
}

impl BotChild {
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        match self {
            BotChild::Forked(c) => c.wait().await,
            BotChild::Cloned(c) => c.wait().await,
        }
    }

    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        match self {
            BotChild::Forked(c) => c.try_wait(),
            BotChild::Cloned(c) => c.try_wait(),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The child's state is read from the kernel (`/proc/self/...` of the
    //! program it became), not from this module.
    use super::*;
    use crate::spec::BotLimits;
    use std::io::Read;

    /// Runs `argv` to its end; its exit status and stdout.
    async fn run(argv: &[&str], env: &[(&str, &str)], cwd: Option<&Path>) -> (ExitStatus, String) {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        let env = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let limits = BotLimits {
            memory_mb: Some(512),
            ..BotLimits::default()
        };
        let launch = Launch {
            argv: &argv,
            env: &env,
            cwd,
            setup: ChildSetup::new(&limits),
            joiner: None,
        };
        let mut started = spawn(&launch).expect("spawn");
        drop(started.stdin);
        let mut out = String::new();
        std::fs::File::from(started.stdout)
            .read_to_string(&mut out)
            .unwrap();
        (started.child.wait().await.unwrap(), out)
    }

    fn field<'a>(status: &'a str, name: &str) -> &'a str {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
            .unwrap_or_else(|| panic!("no {name} in {status}"))
            .trim()
    }

    #[tokio::test]
    async fn the_child_has_its_own_group_no_blocked_signals_and_sigpipe_back() {
        // The referee ignores SIGPIPE and this thread blocks SIGUSR1.
        // SAFETY: dispositions and this thread's mask only.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGUSR1);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        }
        let (exit, status) = run(&["cat", "/proc/self/status"], &[], None).await;
        assert!(exit.success());
        assert_eq!(field(&status, "Pid"), field(&status, "NSpgid"), "own group");
        assert_eq!(u64::from_str_radix(field(&status, "SigBlk"), 16), Ok(0));
        let ignored = u64::from_str_radix(field(&status, "SigIgn"), 16).unwrap();
        assert_eq!(ignored & (1 << (libc::SIGPIPE - 1)), 0, "SIGPIPE ignored");
    }

    #[tokio::test]
    async fn the_child_gets_env_directory_limits_and_only_three_descriptors() {
        let dir = std::env::temp_dir();
        let script = "echo \"$ARENA_SPAWN_TEST\"; pwd; \
                      grep 'Max address space' /proc/self/limits; ls /proc/self/fd";
        let (exit, out) = run(
            &["sh", "-c", script],
            &[("ARENA_SPAWN_TEST", "a b")],
            Some(&dir),
        )
        .await;
        assert!(exit.success(), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "a b");
        assert_eq!(Path::new(lines[1]), dir.canonicalize().unwrap());
        assert!(
            lines[2].contains(&(512u64 << 20).to_string()),
            "{}",
            lines[2]
        );
        // ls's own: 0, 1, 2 and the directory it reads.
        assert_eq!(lines[3..], ["0", "1", "2", "3"]);
    }

    #[tokio::test]
    async fn exit_codes_and_signals_come_through_the_pidfd() {
        let (exit, _) = run(&["sh", "-c", "exit 7"], &[], None).await;
        assert_eq!(exit.code(), Some(7));
        let (exit, _) = run(&["sh", "-c", "kill -9 $$"], &[], None).await;
        assert_eq!(exit.signal(), Some(libc::SIGKILL));
    }

    #[tokio::test]
    async fn a_program_that_cannot_start_is_an_error_as_exec_gives_it() {
        let launch = |argv: &'static [&'static str], env: &[(&str, &str)], cwd: Option<&Path>| {
            let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
            let env: BTreeMap<String, String> = env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let launch = Launch {
                argv: &argv,
                env: &env,
                cwd,
                setup: ChildSetup::new(&BotLimits::default()),
                joiner: None,
            };
            spawn(&launch).map(|_| ()).unwrap_err().kind()
        };
        use io::ErrorKind::*;
        assert_eq!(launch(&["/nonexistent/bot"], &[], None), NotFound);
        // Found on the default PATH, not on the child's.
        assert_eq!(
            launch(&["cat"], &[("PATH", "/nonexistent")], None),
            NotFound
        );
        let nowhere = Path::new("/nonexistent/dir");
        assert_eq!(launch(&["cat"], &[], Some(nowhere)), NotFound);
        let dir = std::env::temp_dir().join(format!("arena-spawn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("not-executable"), "#!/bin/sh\n").unwrap();
        let path: &'static str = dir
            .join("not-executable")
            .to_str()
            .unwrap()
            .to_string()
            .leak();
        let denied = launch(Vec::leak(vec![path]), &[], None);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(denied, PermissionDenied);
        // Each failed child was reaped: this thread has no child left.
        match std::fs::read_to_string("/proc/thread-self/children") {
            Ok(children) => assert_eq!(children.trim(), ""),
            Err(e) => eprintln!("skipped the check for zombies: /proc/thread-self/children: {e}"),
        }
    }
}
