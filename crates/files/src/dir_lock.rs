//! One writer per output directory: an exclusive `flock(2)` on
//! `DIR/.arena.lock`, held for as long as the [`DirLock`] lives.
//!
//! Two arena processes writing one directory (a run still going and a
//! `--resume` from another terminal, a cluster requeueing a shard whose
//! first run is alive, a merge into a directory being played) would each
//! append every game, so every command that writes a run's directory takes
//! the lock first and is refused at once when another process holds it.
//! Commands that only read a directory (`arena report`, `arena rate`
//! without `--out`, `arena show`) take nothing and work while a run holds
//! it.
//!
//! The kernel holds the lock, not the file: it is released when the process
//! ends in any way (SIGKILL, a crash, a machine reboot), so a lock file left
//! behind without a holder never blocks anyone. The file holds the holder's
//! pid, host and command line, for the refusal's message only. It is
//! removed when the lock is released normally; a taker checks that the
//! file it locked is still the one at the path, so removing it does not
//! let two processes hold the lock at once. The descriptor is close-on-exec,
//! so bots do not inherit the lock.
//!
//! On NFS, Linux turns `flock` into a lock of the whole file that the
//! server sees, so processes on different machines of a cluster exclude
//! each other too (as long as the server's lock manager runs).

use std::fmt;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The lock file's name inside a locked directory.
pub const LOCK_FILE: &str = ".arena.lock";

/// Longest command line kept in the lock file (the rest is cut off).
const COMMAND_CHARS: usize = 200;

/// An exclusive lock on a directory, held until dropped (or until the
/// process ends).
#[derive(Debug)]
pub struct DirLock {
    /// The locked lock file; `None` on a file system without locks.
    file: Option<File>,
    path: PathBuf,
    /// Why nothing is held, on a file system without locks.
    not_held: Option<String>,
}

/// Why a directory could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds the lock.
    InUse { dir: PathBuf, holder: Holder },
    /// The lock file could not be opened or locked (the directory is
    /// missing, read-only, ...).
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// Who holds a lock, as its lock file says (each part `None` when the file
/// did not say, e.g. written by a process that was killed mid-write).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Holder {
    pub pid: Option<u32>,
    pub host: Option<String>,
    pub command: Option<String>,
}

impl DirLock {
    /// Takes the lock of `dir`, which must exist, without waiting:
    /// [`LockError::InUse`] naming the holder when another process (or
    /// another `DirLock` of this process) has it.
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |error| LockError::Io {
            path: path.clone(),
            error,
        };
        // A holder that releases removes the file; a taker that locked the
        // removed file tries again with the new one.
        for _ in 0..100 {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    return Err(LockError::InUse {
                        dir: dir.to_path_buf(),
                        holder: Holder::read(file),
                    })
                }
                Err(TryLockError::Error(error)) if unsupported(&error) => {
                    // Refusing every run here would be worse than not
                    // noticing a second one: go on, and say so.
                    drop(file);
                    let _ = std::fs::remove_file(&path);
                    return Ok(DirLock {
                        file: None,
                        not_held: Some(format!(
                            "cannot lock {} ({error}): the file system does not support locks, \
                             so another arena writing this directory would not be noticed",
                            path.display()
                        )),
                        path,
                    });
                }
                Err(TryLockError::Error(error)) => return Err(io(error)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            let mut lock = DirLock {
                file: Some(file),
                path: path.clone(),
                not_held: None,
            };
            lock.write_holder().map_err(io)?;
            return Ok(lock);
        }
        Err(io(std::io::Error::other(
            "the lock file kept being replaced",
        )))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the directory is not actually locked: `Some` only on a file
    /// system without locks (some Lustre and old NFS mounts), where
    /// [`DirLock::acquire`] goes on rather than refuse every run. The
    /// caller shows it as a warning.
    pub fn not_held(&self) -> Option<&str> {
        self.not_held.as_deref()
    }

    fn write_holder(&mut self) -> std::io::Result<()> {
        let holder = Holder {
            pid: Some(std::process::id()),
            host: hostname(),
            command: Some(command_line()),
        };
        let Some(file) = self.file.as_mut() else {
            return Ok(());
        };
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(holder.to_text().as_bytes())
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Removed while still locked; the lock goes with the descriptor.
        if self.file.is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `error` from `flock` means the file system has no locks.
fn unsupported(error: &std::io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::ENOSYS | libc::EOPNOTSUPP | libc::ENOLCK)
    )
}

/// Whether `path` still names the file `file` is open on.
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

impl Holder {
    /// The holder named in a lock file that another process has locked. It
    /// writes the file just after it locked it, so an empty file is read
    /// again for a moment.
    fn read(mut file: File) -> Holder {
        let mut holder = Holder::default();
        for _ in 0..20 {
            let mut text = String::new();
            if file.rewind().is_ok() && file.read_to_string(&mut text).is_ok() {
                holder = Holder::parse(&text);
                if holder.pid.is_some() {
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        holder
    }

    fn to_text(&self) -> String {
        let mut text = String::new();
        if let Some(pid) = self.pid {
            text.push_str(&format!("pid {pid}\n"));
        }
        if let Some(host) = &self.host {
            text.push_str(&format!("host {host}\n"));
        }
        if let Some(command) = &self.command {
            text.push_str(&format!("command {command}\n"));
        }
        text
    }

    fn parse(text: &str) -> Holder {
        let mut holder = Holder::default();
        for line in text.lines() {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "pid" => holder.pid = value.parse().ok(),
                "host" => holder.host = Some(value.to_string()),
                "command" => holder.command = Some(value.to_string()),
                _ => {}
            }
        }
        holder
    }
}

impl fmt::Display for Holder {
    /// `pid 12345, "arena tournament t.toml"`, with ` on HOST` after the pid
    /// when it is another machine's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pid {
            Some(pid) => write!(f, "pid {pid}")?,
            None => write!(f, "pid unknown")?,
        }
        if let Some(host) = self
            .host
            .as_ref()
            .filter(|h| Some(*h) != hostname().as_ref())
        {
            write!(f, " on {host}")?;
        }
        if let Some(command) = &self.command {
            write!(f, ", {command:?}")?;
        }
        Ok(())
    }
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::InUse { dir, holder } => write!(
                f,
                "{} is in use by another arena ({holder}); wait for it to finish or stop it",
                dir.display()
            ),
            LockError::Io { path, error } => {
                write!(f, "cannot lock {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for LockError {}

/// This machine's name, for a lock held from another machine (NFS).
fn hostname() -> Option<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    Some(name.trim().to_string()).filter(|n| !n.is_empty())
}

/// `arena tournament --resume out`: this process's arguments, the program
/// by its file name, on one line and cut to [`COMMAND_CHARS`].
fn command_line() -> String {
    let mut args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
    let program = args
        .next()
        .map(|p| {
            Path::new(&p)
                .file_name()
                .map_or(p.clone(), |n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let words = std::iter::once(program).chain(args.map(|arg| {
        if arg.is_empty() || arg.contains(char::is_whitespace) {
            format!("'{arg}'")
        } else {
            arg
        }
    }));
    let line: String = words
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match line.char_indices().nth(COMMAND_CHARS) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = DirLock::acquire(dir.path()).unwrap();
        assert_eq!(first.path(), dir.path().join(LOCK_FILE));
        assert_eq!(first.not_held(), None);
        let error = DirLock::acquire(dir.path()).unwrap_err();
        let LockError::InUse { holder, .. } = &error else {
            panic!("{error}")
        };
        assert_eq!(holder.pid, Some(std::process::id()));
        let text = error.to_string();
        assert!(
            text.starts_with(&format!(
                "{} is in use by another arena (pid {}, \"",
                dir.path().display(),
                std::process::id()
            )) && text.ends_with("\"); wait for it to finish or stop it"),
            "{text}"
        );
        drop(first);
        assert!(!dir.path().join(LOCK_FILE).exists(), "removed on release");
        let again = DirLock::acquire(dir.path()).unwrap();
        drop(again);
    }

    #[test]
    fn a_lock_file_without_a_holder_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        // What a killed holder leaves behind.
        std::fs::write(dir.path().join(LOCK_FILE), "pid 1\ncommand arena x\n").unwrap();
        let lock = DirLock::acquire(dir.path()).unwrap();
        let text = std::fs::read_to_string(lock.path()).unwrap();
        assert!(
            text.starts_with(&format!("pid {}\n", std::process::id())),
            "{text}"
        );
    }

    #[test]
    fn a_missing_directory_is_an_io_error() {
        let dir = tempfile::tempdir().unwrap();
        let error = DirLock::acquire(&dir.path().join("nope")).unwrap_err();
        assert!(matches!(error, LockError::Io { .. }), "{error}");
        assert!(error.to_string().starts_with("cannot lock "), "{error}");
    }

    #[test]
    fn holders_read_back_and_show_another_host() {
        let holder = Holder {
            pid: Some(42),
            host: Some("elsewhere.invalid".into()),
            command: Some("arena tournament --resume 'my out'".into()),
        };
        assert_eq!(Holder::parse(&holder.to_text()), holder);
        assert_eq!(
            holder.to_string(),
            "pid 42 on elsewhere.invalid, \"arena tournament --resume 'my out'\""
        );
        assert_eq!(Holder::default().to_string(), "pid unknown");
    }
}
