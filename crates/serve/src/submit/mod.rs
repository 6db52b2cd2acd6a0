//! `arena serve DIR --submissions`: participants of the league DIR upload
//! their bot, one source file, with their token (`arena league token`);
//! it is built if needed, checked by `arena check-bot` in the sandbox, and
//! admitted as the participant's next version only if compliant.
//!
//! Each upload is kept in `DIR/submissions/NAME/K/` (K counts NAME's
//! uploads, admitted or not; the answer is beside it in `K.json`, the
//! bot's stderr of each game of its check in `K.logs/`): its file, under
//! its own base name, and what its build made. Nothing else
//! is written but the registry's line of an admitted version. The bot runs
//! there in the sandbox (forced on in its `[[bot]]`), which shows the
//! league empty but for that directory, read-only: no upload reads
//! another's, the league's logs, or writes anything.
//!
//! One upload of a participant is worked on at a time (another is refused
//! while it is), and at most `at_once` of all of them. The league's lock is
//! taken only to append the version (`arena league play` may hold it
//! while it plays: then a few tries, then "busy").
//!
//! - `build`: an upload's language, its build in the sandbox.
//! - `http`: the answers under `/submit` (the page, and the upload).

pub mod build;
pub mod http;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use axum::http::StatusCode;
use tokio::sync::Semaphore;

use arena_referee::BotSpec;
use arena_tournament::league::registry::{check_participant, Registered};
use arena_tournament::league::League;

use build::Language;

pub use arena_tournament::league::SUBMISSIONS_DIR;

/// How an upload is checked: `arena check-bot` on the bot (in the sandbox,
/// the directories given hidden, the bot's stderr of each game kept in
/// the directory given last), `Ok(None)` when it is compliant, else
/// `Ok(Some(why))`, its first failed check. Run on a thread of its own.
pub type Checker =
    Arc<dyn Fn(BotSpec, Vec<PathBuf>, PathBuf) -> anyhow::Result<Option<String>> + Send + Sync>;

/// What the server takes.
#[derive(Debug, Clone)]
pub struct SubmitOptions {
    /// The league's directory.
    pub league: PathBuf,
    /// The longest file taken, in bytes.
    pub max_bytes: usize,
    /// Uploads built and checked at once at most.
    pub at_once: usize,
    /// A build's time at most.
    pub build_time: Duration,
    /// Requests may name any host (`--bind` beyond loopback).
    pub any_host: bool,
}

/// The longest file taken unless said otherwise.
pub const MAX_BYTES: usize = 256 * 1024;

/// How long an admission waits for the league's lock.
const LOCK_TRIES: u32 = 50;
const LOCK_WAIT: Duration = Duration::from_millis(100);

/// What became of an upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Admitted as `bot` (`NAME@N`); `unchanged` when it is the program of
    /// the participant's latest version already.
    Admitted { bot: String, unchanged: bool },
    /// Refused: the status and the reason.
    Refused(StatusCode, String),
}

/// The server's side of submissions.
pub struct Submissions {
    options: SubmitOptions,
    checker: Checker,
    /// Participants whose upload is being worked on.
    working: Mutex<BTreeSet<String>>,
    slots: Semaphore,
}

impl Submissions {
    /// Submissions to the league at `options.league`.
    pub fn open(mut options: SubmitOptions, checker: Checker) -> anyhow::Result<Submissions> {
        let league = League::open(&options.league)?;
        options.league = league
            .dir()
            .canonicalize()
            .with_context(|| format!("cannot find {}", league.dir().display()))?;
        let slots = Semaphore::new(options.at_once.max(1));
        Ok(Submissions {
            options,
            checker,
            working: Mutex::new(BTreeSet::new()),
            slots,
        })
    }

    pub fn options(&self) -> &SubmitOptions {
        &self.options
    }

    /// The participant whose token is `token` (the registry read now, so
    /// a token made while the server runs works at once).
    pub fn participant(&self, token: &str) -> anyhow::Result<Option<String>> {
        let registry = League::open(&self.options.league)?.registry()?;
        Ok(registry.token_owner(token).map(String::from))
    }

    /// Builds, checks and admits the file `file` (its base name, checked by
    /// [`upload_name`]) of the participant `name`.
    pub async fn submit(&self, name: &str, file: &str, bytes: &[u8]) -> Outcome {
        let language = match upload_name(file) {
            Ok(language) => language,
            Err(why) => return Outcome::Refused(StatusCode::BAD_REQUEST, why),
        };
        if let Err(e) = check_participant(name) {
            return Outcome::Refused(StatusCode::FORBIDDEN, format!("{e:#}"));
        }
        let Some(_turn) = Turn::take(&self.working, name) else {
            return Outcome::Refused(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "an upload of {name} is being checked: wait for its answer, then send again"
                ),
            );
        };
        let Ok(_slot) = self.slots.acquire().await else {
            return Outcome::Refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is stopping".into(),
            );
        };
        let (dir, k) = match self.store(name, file, bytes) {
            Ok(stored) => stored,
            Err(e) => return Outcome::Refused(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
        };
        let outcome = self.admit(name, language, file, (&dir, k), bytes).await;
        self.note(name, k, &outcome);
        outcome
    }

    /// Build, check, register.
    async fn admit(
        &self,
        name: &str,
        language: Language,
        file: &str,
        (dir, k): (&Path, u32),
        bytes: &[u8],
    ) -> Outcome {
        let hide = vec![self.options.league.clone()];
        let logs = dir.with_file_name(format!("{k}.logs"));
        if let Some(argv) = language.build(file) {
            if let Err(failed) = build::run(&argv, dir, &hide, self.options.build_time).await {
                return Outcome::Refused(StatusCode::UNPROCESSABLE_ENTITY, failed.0);
            }
        }
        let bot = bot_of(name, language, file, dir, bytes);
        let checker = Arc::clone(&self.checker);
        let checked = bot.clone();
        match tokio::task::spawn_blocking(move || checker(checked, hide, logs)).await {
            Ok(Ok(None)) => {}
            Ok(Ok(Some(why))) => {
                return Outcome::Refused(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("not compliant: {why}"),
                )
            }
            Ok(Err(e)) => {
                return Outcome::Refused(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the check could not run: {e:#}"),
                )
            }
            Err(e) => {
                return Outcome::Refused(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the check failed: {e}"),
                )
            }
        }
        self.register(bot).await
    }

    /// Appends `bot` to the registry, holding the league's lock for that
    /// moment only; "busy" when another arena holds it throughout.
    async fn register(&self, bot: BotSpec) -> Outcome {
        let mut league = match League::open(&self.options.league) {
            Ok(league) => league,
            Err(e) => return Outcome::Refused(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
        };
        for _ in 0..LOCK_TRIES {
            if league.lock().is_ok() {
                let registered = league
                    .registry()
                    .and_then(|mut r| r.register(&league.registry_path(), bot));
                return match registered {
                    Ok(Registered::Unchanged(bot)) => Outcome::Admitted {
                        bot,
                        unchanged: true,
                    },
                    Ok(Registered::New(bot) | Registered::NewVersion(bot)) => Outcome::Admitted {
                        bot,
                        unchanged: false,
                    },
                    Err(e) => Outcome::Refused(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
                };
            }
            tokio::time::sleep(LOCK_WAIT).await;
        }
        Outcome::Refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "the league is busy: try again".into(),
        )
    }

    /// Keeps `bytes` as `DIR/submissions/NAME/K/FILE`, K the next number
    /// of NAME's uploads: the directory (canonical) and K.
    fn store(&self, name: &str, file: &str, bytes: &[u8]) -> anyhow::Result<(PathBuf, u32)> {
        let mine = self.options.league.join(SUBMISSIONS_DIR).join(name);
        std::fs::create_dir_all(&mine)
            .with_context(|| format!("cannot create {}", mine.display()))?;
        let mut k = uploads(&mine) + 1;
        // Made, not found: two uploads never share a directory.
        let dir = loop {
            let dir = mine.join(k.to_string());
            match std::fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => k += 1,
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot create {}", dir.display()))
                }
            }
        };
        let path = dir.join(file);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok((dir, k))
    }

    /// Writes the answer beside the upload, `K.json` (for the teacher).
    fn note(&self, name: &str, k: u32, outcome: &Outcome) {
        let path = self
            .options
            .league
            .join(SUBMISSIONS_DIR)
            .join(name)
            .join(format!("{k}.json"));
        let mut line = outcome.json().to_string();
        line.push('\n');
        let _ = arena_files::write_atomically(&path, line.as_bytes());
    }
}

impl Outcome {
    /// The answer's body.
    pub fn json(&self) -> serde_json::Value {
        match self {
            Outcome::Admitted { bot, unchanged } => {
                let mut answer = serde_json::json!({"admitted": true, "bot": bot});
                if *unchanged {
                    answer["unchanged"] = true.into();
                }
                answer
            }
            Outcome::Refused(_, reason) => serde_json::json!({"admitted": false, "reason": reason}),
        }
    }
}

/// The number of uploads kept in `dir` (its numbered directories' largest).
fn uploads(dir: &Path) -> u32 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0)
}

/// The bot an upload is: its command in its directory, always in the
/// sandbox, its source's SHA-256 in its environment (so its version
/// follows its source, also where the command names no file of it: Java).
fn bot_of(name: &str, language: Language, file: &str, dir: &Path, bytes: &[u8]) -> BotSpec {
    let mut bot = BotSpec::from_command_line(name, "bot").expect("one word");
    bot.command = language.command(file);
    bot.cwd = Some(dir.to_path_buf());
    bot.sandbox = Some(true);
    bot.env
        .insert("ARENA_SOURCE_SHA256".into(), arena_files::sha256_hex(bytes));
    bot
}

/// The language of an upload named `file`, if the name is a base name of
/// `A-Z a-z 0-9 _ . -` (not starting with a dot) with a known extension.
pub fn upload_name(file: &str) -> Result<Language, String> {
    let plain = file
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    if file.is_empty() || !plain || file.starts_with('.') || file.len() > 100 {
        return Err(format!(
            "file name {file:?}: give the file's own name only, of letters, digits, '_', '.' and '-' (no path), e.g. my_bot.py"
        ));
    }
    Language::of(file).ok_or_else(|| {
        format!(
            "file name {file:?}: its extension says its language; taken: {}",
            build::EXTENSIONS
        )
    })
}

/// A participant's upload being worked on: their name in the set until
/// dropped.
struct Turn<'a> {
    working: &'a Mutex<BTreeSet<String>>,
    name: String,
}

impl<'a> Turn<'a> {
    fn take(working: &'a Mutex<BTreeSet<String>>, name: &str) -> Option<Turn<'a>> {
        let mut set = working.lock().unwrap_or_else(|e| e.into_inner());
        set.insert(name.to_string()).then(|| Turn {
            working,
            name: name.to_string(),
        })
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut set = self.working.lock().unwrap_or_else(|e| e.into_inner());
        set.remove(&self.name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_base_names_with_a_known_extension_are_taken() {
        assert_eq!(upload_name("my_bot-2.py"), Ok(Language::Python));
        assert_eq!(upload_name("Bot.java"), Ok(Language::Java));
        for bad in [
            "../x.py", "a/b.py", "a\\b.py", ".py", "", "a b.py", "x.py\0", "é.py",
        ] {
            assert!(upload_name(bad).unwrap_err().contains("no path"), "{bad}");
        }
        assert!(upload_name("bot.rs").unwrap_err().contains("extension"));
    }

    #[test]
    fn one_upload_of_a_participant_at_a_time() {
        let working = Mutex::new(BTreeSet::new());
        let first = Turn::take(&working, "ada").unwrap();
        assert!(Turn::take(&working, "ada").is_none());
        assert!(Turn::take(&working, "bob").is_some());
        drop(first);
        assert!(Turn::take(&working, "ada").is_some());
    }
}
