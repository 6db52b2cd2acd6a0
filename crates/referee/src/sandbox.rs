//! The sandbox for untrusted bots: the bot's argv wrapped in bubblewrap
//! (`bwrap`, Debian package `bubblewrap`), a tool made for exactly this, so
//! arena holds no namespace code of its own.
//!
//! [`Sandbox::for_bot`] turns a [`BotSpec`] (its `cwd`, `writable` and
//! `network` fields) and the directories the referee writes (the
//! tournament's output directory) into a [`Sandbox`]; [`Sandbox::wrap`]
//! turns the bot's argv into `bwrap OPTIONS -- ARGV`. Inside, the bot:
//!
//! - has its own PID namespace with its own `/proc`: it sees only its own
//!   processes, so it cannot signal, trace or read the opponent, other bots
//!   or the referee;
//! - sees the whole file system read-only, its own directory included
//!   (except the `writable` paths), gets a private empty `/tmp` and
//!   `/dev/shm`, and sees the hidden directories (the output directory:
//!   journal, `tournament.json`, every bot's logs) as empty and read-only,
//!   also when they lie inside its own directory; a bot whose own
//!   directory lies inside a hidden one (an upload kept in its league)
//!   sees only that directory there (and its `writable` paths);
//! - has no network (a private network namespace with only loopback, and
//!   an empty `/run`, where system daemons keep their sockets) unless
//!   `network = true`;
//! - keeps no capabilities, has a separate IPC and UTS namespace, and no
//!   controlling terminal (its own session);
//! - dies with its whole tree when the outer `bwrap` dies
//!   (`--die-with-parent` on the namespace's init, whose death ends every
//!   process in the namespace, `setsid` or not). The outer `bwrap` is the
//!   referee's child and leads the bot's process group, so the referee's
//!   group kill, and its own death (`PR_SET_PDEATHSIG`), end it all.
//!
//! stdin/stdout/stderr, `env` and rlimits pass through `bwrap` unchanged
//! (rlimits are set on `bwrap` before exec and inherited). Two differences:
//! `bwrap` reports a bot killed by signal N as exit code 128+N, which
//! [`unwrap_exit_code`] turns back into the signal; and the referee's
//! SIGTERM ends `bwrap` and so the whole namespace at once (no grace).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{bail, Context};

use super::spec::BotSpec;

/// The program run as the sandbox.
pub const BWRAP: &str = "bwrap";

/// How one bot is sandboxed: absolute, canonical paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    /// The bot's directory (its cwd), visible read-only.
    pub dir: PathBuf,
    /// Paths the bot may write (bound read-write over the read-only view).
    pub writable: Vec<PathBuf>,
    /// Directories the bot sees as empty (an empty tmpfs over each).
    pub hidden: Vec<PathBuf>,
    /// Keep the host's network namespace.
    pub network: bool,
    /// Directories of the files its command names (`python3 /tmp/x/bot.py`)
    /// that lie under `/tmp` outside its directory: the sandbox's private
    /// `/tmp` would hide them, so they are bound again, read-only.
    pub program_dirs: Vec<PathBuf>,
}

impl Sandbox {
    /// The sandbox for `spec`, hiding the existing directories in `hide`.
    /// Errors name the bot and the field: a `writable` path that does not
    /// exist, or a bot directory inside a hidden one.
    pub fn for_bot(spec: &BotSpec, hide: &[PathBuf]) -> anyhow::Result<Sandbox> {
        let dir = match &spec.cwd {
            Some(cwd) => cwd.clone(),
            None => std::env::current_dir().context("cannot read the current directory")?,
        };
        let dir = dir
            .canonicalize()
            .with_context(|| format!("bot {:?}: `cwd` {}", spec.name, dir.display()))?;
        let writable = spec
            .writable
            .iter()
            .map(|w| {
                dir.join(w).canonicalize().with_context(|| {
                    format!(
                        "bot {:?}: `writable` path {} (in {})",
                        spec.name,
                        w.display(),
                        dir.display()
                    )
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        if writable.iter().any(|w| w == Path::new("/")) {
            bail!(
                "bot {:?}: `writable` must not make the whole file system writable (\"/\")",
                spec.name
            );
        }
        let mut hidden = Vec::new();
        for h in hide {
            // A directory that does not exist yet has nothing to hide.
            let Ok(h) = h.canonicalize() else { continue };
            // Showing the bot its own directory would show all of it.
            if dir == h {
                bail!(
                    "bot {:?}: its directory {} is {}, which the sandbox hides from bots (give the bot a directory of its own)",
                    spec.name,
                    dir.display(),
                    h.display()
                );
            }
            hidden.push(h);
        }
        let program_dirs = program_dirs_under_tmp(spec, &dir);
        Ok(Sandbox {
            dir,
            writable,
            hidden,
            network: spec.network,
            program_dirs,
        })
    }

    /// `bwrap OPTIONS -- ARGV`: `argv` run in the sandbox, in the bot's
    /// directory. Order matters: later mounts cover earlier ones.
    pub fn wrap(&self, argv: &[String]) -> Vec<String> {
        let mut out: Vec<String> = [
            BWRAP,
            "--die-with-parent",
            // No controlling terminal: no keystrokes pushed into the
            // operator's shell (TIOCSTI).
            "--new-session",
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-drop",
            "ALL",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--tmpfs",
            "/dev/shm",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
        ]
        .map(String::from)
        .into();
        if !self.network {
            out.extend(["--unshare-net", "--tmpfs", "/run"].map(String::from));
        }
        let mut mount = |op: &str, path: &Path| {
            let p = path.display().to_string();
            out.push(op.into());
            if op == "--ro-bind" || op == "--bind" {
                out.push(p.clone());
            }
            out.push(p);
        };
        // Again after the empty /tmp, for a bot that lives under /tmp (not
        // /tmp itself: that would give back the host's /tmp; elsewhere the
        // root bind shows it already).
        if self.dir.starts_with("/tmp") && self.dir != Path::new("/tmp") {
            mount("--ro-bind", &self.dir);
        }
        for d in &self.program_dirs {
            mount("--ro-bind", d);
        }
        for w in &self.writable {
            mount("--bind", w);
        }
        for h in &self.hidden {
            mount("--tmpfs", h);
            // A bot that lives inside a hidden directory (an upload kept
            // in its league) sees its own directory there, nothing else.
            if self.dir.starts_with(h) {
                mount("--ro-bind", &self.dir);
                for w in self.writable.iter().filter(|w| w.starts_with(h)) {
                    mount("--bind", w);
                }
            }
            mount("--remount-ro", h);
        }
        out.extend(["--chdir".into(), self.dir.display().to_string()]);
        out.push("--".into());
        out.extend(argv.iter().cloned());
        out
    }
}

/// The directories of the existing files `spec`'s command names (relative
/// to `dir`, the bot's directory), strictly under `/tmp` and outside `dir`:
/// what the private `/tmp` would otherwise hide from the bot.
fn program_dirs_under_tmp(spec: &BotSpec, dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for word in &spec.command {
        let Ok(file) = dir.join(word).canonicalize() else {
            continue;
        };
        let Some(parent) = file.parent().filter(|_| file.is_file()) else {
            continue;
        };
        let hidden = parent.starts_with("/tmp") && parent != Path::new("/tmp");
        if hidden && !parent.starts_with(dir) && !dirs.iter().any(|d| d == parent) {
            dirs.push(parent.to_path_buf());
        }
    }
    dirs
}

/// Whether `bwrap` is installed and can build a sandbox on this machine
/// (it may be missing, or the kernel may refuse namespaces). Tried once per
/// process; the error says what to do.
pub fn check_available() -> anyhow::Result<()> {
    static RESULT: OnceLock<Result<(), String>> = OnceLock::new();
    RESULT
        .get_or_init(|| {
            let out = std::process::Command::new(BWRAP)
                .args(["--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "true"])
                .stdin(std::process::Stdio::null())
                .output();
            match out {
                Ok(out) if out.status.success() => Ok(()),
                Ok(out) => Err(format!(
                    "the sandbox does not work here: `bwrap` failed ({}): {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                )),
                Err(e) => Err(format!(
                    "the sandbox needs `bwrap`, which cannot be run ({e}); install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"
                )),
            }
        })
        .clone()
        .map_err(anyhow::Error::msg)
}

/// `bwrap` exits with 128+N when the sandboxed program was killed by signal
/// N; this gives back the signal (`None` for an ordinary exit code).
pub fn unwrap_exit_code(code: i32) -> Option<i32> {
    (129..=128 + 64).contains(&code).then(|| code - 128)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(dir: &Path) -> BotSpec {
        let mut spec = BotSpec::from_command_line("b", "python3 bot.py").unwrap();
        spec.cwd = Some(dir.to_path_buf());
        spec
    }

    /// A program file under /tmp outside the bot's directory (a checkout
    /// in /tmp, the bot run from elsewhere) stays visible: its directory is
    /// bound again after the private /tmp; files in the bot's directory and
    /// words that are no files add nothing.
    #[test]
    fn program_files_under_tmp_stay_visible() {
        let bot_dir = tempfile::tempdir_in("/tmp").unwrap();
        let elsewhere = tempfile::tempdir_in("/tmp").unwrap();
        let dir = bot_dir.path().canonicalize().unwrap();
        let programs = elsewhere.path().canonicalize().unwrap();
        std::fs::write(programs.join("bot.py"), "").unwrap();
        std::fs::write(dir.join("own.py"), "").unwrap();
        let mut spec = spec(&dir);
        spec.command = vec![
            "python3".into(),
            programs.join("bot.py").display().to_string(),
            "own.py".into(),
            "--depth".into(),
        ];
        let sandbox = Sandbox::for_bot(&spec, &[]).unwrap();
        assert_eq!(sandbox.program_dirs, vec![programs.clone()]);
        let line = sandbox.wrap(&spec.argv()).join(" ");
        let p = programs.display();
        assert!(
            line.find(&format!("--ro-bind {p} {p}")) > line.find("--tmpfs /tmp"),
            "{line}"
        );
    }

    #[test]
    fn wraps_the_argv_and_hides_an_output_dir_inside_the_bot_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(dir.join("out")).unwrap();
        std::fs::create_dir_all(dir.join("data")).unwrap();
        let mut spec = spec(&dir);
        spec.writable = vec!["data".into()];
        let sandbox = Sandbox::for_bot(&spec, &[dir.join("out"), dir.join("not-yet")]).unwrap();
        let argv = sandbox.wrap(&spec.argv());
        let line = argv.join(" ");
        let d = dir.display();
        assert_eq!(argv[0], "bwrap");
        assert!(argv.ends_with(&["--".into(), "python3".into(), "bot.py".into()]));
        for part in [
            "--unshare-pid".to_string(),
            "--die-with-parent".into(),
            "--unshare-net".into(),
            "--ro-bind / /".into(),
            "--tmpfs /tmp".into(),
            format!("--ro-bind {d} {d}"),
            format!("--bind {d}/data {d}/data"),
            format!("--tmpfs {d}/out --remount-ro {d}/out"),
            format!("--chdir {d}"),
        ] {
            assert!(line.contains(&part), "{part:?} missing in {line}");
        }
        // The mask comes after the bot's directory is bound, so it covers it.
        assert!(line.find(&format!("--tmpfs {d}/out")) > line.find(&format!("--ro-bind {d}")));
        assert!(!line.contains("not-yet"));
        spec.network = true;
        let line = Sandbox::for_bot(&spec, &[])
            .unwrap()
            .wrap(&spec.argv())
            .join(" ");
        assert!(!line.contains("--unshare-net"), "{line}");
    }

    #[test]
    fn bad_paths_are_errors_naming_the_bot_and_field() {
        let tmp = tempfile::tempdir().unwrap();
        let mut spec = spec(tmp.path());
        spec.writable = vec!["missing".into()];
        let err = format!("{:#}", Sandbox::for_bot(&spec, &[]).unwrap_err());
        assert!(err.contains("\"b\"") && err.contains("writable"), "{err}");
        spec.writable = vec!["/".into()];
        let err = format!("{:#}", Sandbox::for_bot(&spec, &[]).unwrap_err());
        assert!(err.contains("whole file system"), "{err}");
        spec.writable.clear();
        let err = format!(
            "{:#}",
            Sandbox::for_bot(&spec, &[tmp.path().into()]).unwrap_err()
        );
        assert!(err.contains("hides"), "{err}");
    }

    /// A bot inside a hidden directory (an upload in its league) sees
    /// that directory empty but for its own, bound after the mask and
    /// before the mask is made read-only; its writable paths stay so.
    #[test]
    fn a_bot_inside_a_hidden_directory_sees_only_its_own_there() {
        let tmp = tempfile::tempdir().unwrap();
        let league = tmp.path().canonicalize().unwrap();
        let dir = league.join("submissions/ada/1");
        std::fs::create_dir_all(dir.join("cache")).unwrap();
        let mut spec = spec(&dir);
        spec.writable = vec!["cache".into()];
        let line = Sandbox::for_bot(&spec, std::slice::from_ref(&league))
            .unwrap()
            .wrap(&spec.argv())
            .join(" ");
        let (l, d) = (league.display(), dir.display());
        let order = [
            format!("--tmpfs {l} "),
            format!("--ro-bind {d} {d}"),
            format!("--bind {d}/cache {d}/cache --remount-ro {l} "),
        ];
        let at: Vec<usize> = order
            .iter()
            .map(|part| {
                line.rfind(part)
                    .unwrap_or_else(|| panic!("{part} in {line}"))
            })
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{line}");
    }

    #[test]
    fn the_bot_directory_is_bound_again_only_strictly_under_tmp() {
        let line = |dir: &str| {
            Sandbox {
                dir: dir.into(),
                writable: Vec::new(),
                hidden: Vec::new(),
                network: false,
                program_dirs: Vec::new(),
            }
            .wrap(&["bot".into()])
            .join(" ")
        };
        assert!(line("/tmp/x").contains("--ro-bind /tmp/x /tmp/x"));
        assert!(!line("/tmp").contains("--ro-bind /tmp /tmp"));
        assert!(!line("/work/x").contains("--ro-bind /work/x"));
        assert_eq!(
            line("/").matches("--ro-bind").count(),
            1,
            "only the root bind"
        );
    }

    #[test]
    fn exit_codes_of_signalled_programs() {
        assert_eq!(unwrap_exit_code(137), Some(libc::SIGKILL));
        assert_eq!(unwrap_exit_code(152), Some(libc::SIGXCPU));
        assert_eq!(unwrap_exit_code(1), None);
        assert_eq!(unwrap_exit_code(128), None);
    }
}
