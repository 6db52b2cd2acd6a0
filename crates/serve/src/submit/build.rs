//! An upload's language, told by its file's extension, the command that
//! builds it (C, C++, Java) and the command that runs it; and the build
//! itself, run in the sandbox (the league hidden but for the upload's own
//! directory, the only place it may write), bounded in time and in the
//! output kept.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

use arena_referee::sandbox::Sandbox;
use arena_referee::BotSpec;

/// The languages an upload may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Python,
    JavaScript,
    Perl,
    C,
    Cpp,
    Java,
}

/// The extensions taken, as the page and the errors list them.
pub const EXTENSIONS: &str =
    ".py (Python), .js (JavaScript), .pl (Perl), .c (C), .cpp or .cc (C++), .java (Java)";

/// The built program of a C or C++ upload, beside its source.
const BINARY: &str = "bot";

/// Bytes of a build's output kept (the rest is read and dropped).
pub const OUTPUT_KEPT: usize = 16 * 1024;

impl Language {
    /// The language of the file `name`, by its extension.
    pub fn of(name: &str) -> Option<Language> {
        let (_, ext) = name.rsplit_once('.')?;
        Some(match ext {
            "py" => Language::Python,
            "js" => Language::JavaScript,
            "pl" => Language::Perl,
            "c" => Language::C,
            "cpp" | "cc" => Language::Cpp,
            "java" => Language::Java,
            _ => return None,
        })
    }

    /// The command that builds `file` in its directory; `None`: it runs as
    /// it is.
    pub fn build(self, file: &str) -> Option<Vec<String>> {
        let argv: &[&str] = match self {
            Language::C => &["cc", "-O2", "-o", BINARY, file, "-lm"],
            Language::Cpp => &["g++", "-O2", "-o", BINARY, file],
            Language::Java => &["javac", "-d", ".", file],
            _ => return None,
        };
        Some(argv.iter().map(|w| w.to_string()).collect())
    }

    /// The bot's command line, run in the upload's directory.
    pub fn command(self, file: &str) -> Vec<String> {
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        let argv: Vec<&str> = match self {
            Language::Python => vec!["python3", file],
            Language::JavaScript => vec!["node", file],
            Language::Perl => vec!["perl", file],
            Language::C | Language::Cpp => vec!["./bot"],
            Language::Java => vec!["java", "-cp", ".", stem],
        };
        argv.into_iter().map(String::from).collect()
    }
}

/// Why a build failed: what the participant is told.
#[derive(Debug)]
pub struct BuildFailed(pub String);

/// Runs `argv` in `dir` in the sandbox, `hide` (the league) shown empty but
/// for `dir`, which it may write; stopped after `time`. `Err` with the
/// first part of its output (the first errors) when it fails.
pub async fn run(
    argv: &[String],
    dir: &Path,
    hide: &[PathBuf],
    time: Duration,
) -> Result<(), BuildFailed> {
    let mut spec = BotSpec::from_command_line("build", "build")
        .map_err(|e| BuildFailed(format!("cannot prepare the build: {e:#}")))?;
    spec.command = argv.to_vec();
    spec.cwd = Some(dir.to_path_buf());
    spec.writable = vec![PathBuf::from(".")];
    let sandbox = Sandbox::for_bot(&spec, hide)
        .map_err(|e| BuildFailed(format!("cannot prepare the build's sandbox: {e:#}")))?;
    let wrapped = sandbox.wrap(argv);
    let mut child = tokio::process::Command::new(&wrapped[0])
        .args(&wrapped[1..])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| BuildFailed(format!("cannot start {}: {e}", argv[0])))?;
    let (out, err) = (child.stdout.take(), child.stderr.take());
    let finished = async {
        let (out, err) = tokio::join!(kept(out), kept(err));
        (child.wait().await, out, err)
    };
    let Ok((status, out, err)) = tokio::time::timeout(time, finished).await else {
        return Err(BuildFailed(format!(
            "the build ({}) took longer than {} s and was stopped",
            argv.join(" "),
            time.as_secs()
        )));
    };
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(BuildFailed(format!(
            "the build ({}) failed ({s}): {}",
            argv.join(" "),
            first_part(&[err, out].concat())
        ))),
        Err(e) => Err(BuildFailed(format!("the build did not finish: {e}"))),
    }
}

/// The first [`OUTPUT_KEPT`] bytes of `stream`, the rest read and dropped.
async fn kept(stream: Option<impl AsyncRead + Unpin>) -> Vec<u8> {
    let Some(mut stream) = stream else {
        return Vec::new();
    };
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    while let Ok(n) = stream.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let room = OUTPUT_KEPT.saturating_sub(kept.len()).min(n);
        kept.extend_from_slice(&buf[..room]);
    }
    kept
}

/// The compiler's first lines, at most 2000 characters: what the author
/// needs to see first.
fn first_part(output: &[u8]) -> String {
    let text = String::from_utf8_lossy(output);
    let text = text.trim();
    match text.char_indices().nth(2000) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_says_its_language_and_how_it_is_built_and_run() {
        assert_eq!(Language::of("bot.py"), Some(Language::Python));
        assert_eq!(Language::of("a.b.cc"), Some(Language::Cpp));
        assert_eq!(Language::of("bot.rs"), None);
        assert_eq!(Language::of("py"), None);
        assert_eq!(Language::Python.build("bot.py"), None);
        assert_eq!(
            Language::C.build("x.c").unwrap(),
            ["cc", "-O2", "-o", "bot", "x.c", "-lm"]
        );
        assert_eq!(Language::C.command("x.c"), ["./bot"]);
        assert_eq!(
            Language::Java.command("RandomBot.java"),
            ["java", "-cp", ".", "RandomBot"]
        );
        assert_eq!(Language::Perl.command("b.pl"), ["perl", "b.pl"]);
    }
}
