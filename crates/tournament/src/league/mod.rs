//! A league: one directory that lasts (a course's term, a lab's history of
//! an engine), holding its bots with every version, every game ever played
//! in it, and its ratings. Its files:
//!
//! - `league.toml`: its settings, a tournament file's `[tournament]` table
//!   (variant or variants, time control, openings, sandbox, ...; no
//!   `[[bot]]`): every game is played as a tournament with it would play.
//! - `bots.jsonl`: the registry ([`registry`]), events appended: versions
//!   (a bot's program, by [`crate::identity::program_identity`]),
//!   retirements, participants' hashed tokens.
//! - `games.jsonl`, `games.csv`, `logs/`: the journal of every game, as a
//!   tournament's ([`crate::journal`]), the seats named `NAME@N`.
//! - `imports.jsonl`: the runs imported into it ([`imports`]): which games
//!   of which tournament it has.
//! - `standings.csv` (the latest versions) and `versions.csv` (every
//!   version), written by the report layer after games are played and by
//!   `arena league standings`.
//!
//! Adding a game or a version appends to a file; nothing that exists is
//! rewritten. A command that writes the league holds its lock
//! ([`arena_files::DirLock`]): a second one is refused at once, never
//! recording twice.
//!
//! - `registry`: `bots.jsonl`, the versions.
//! - `need`: which game pairs the league needs next.
//! - `play`: playing them as a tournament would (`arena league play`).
//! - `import`: importing finished runs (`arena league import`).
//! - `imports`: `imports.jsonl`, the runs imported.
//! - `shards`: a league played by several machines (`--shard K/N`), and
//!   their games collected.

pub mod import;
pub mod imports;
pub mod need;
pub mod play;
pub mod registry;
pub mod shards;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use arena_files::{write_atomically, DirLock};

use crate::journal::{Journal, GAMES_JSONL};
use registry::Registry;

/// The league's settings file.
pub const LEAGUE_TOML: &str = "league.toml";
/// The league's registry.
pub const BOTS_JSONL: &str = "bots.jsonl";
/// The runs imported into the league.
pub const IMPORTS_JSONL: &str = "imports.jsonl";
/// Every version's rating.
pub const VERSIONS_CSV: &str = "versions.csv";
/// Participants' uploads, each with its build and check.
pub const SUBMISSIONS_DIR: &str = "submissions";

/// A league's directory, opened.
#[derive(Debug)]
pub struct League {
    dir: PathBuf,
    /// Held by commands that write.
    lock: Option<DirLock>,
}

impl League {
    /// Makes `dir` a league with the settings `settings` (the text of a
    /// `[tournament]` table). Refuses a directory that is a league
    /// already or holds games.
    pub fn init(dir: &Path, settings: &str) -> anyhow::Result<League> {
        if dir.join(LEAGUE_TOML).exists() {
            bail!(
                "{} is a league already (arena league standings {} shows it)",
                dir.display(),
                dir.display()
            );
        }
        Journal::refuse_games(dir)?;
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the league directory {}", dir.display()))?;
        let mut league = League {
            dir: dir.to_path_buf(),
            lock: None,
        };
        league.lock()?;
        Journal::create(dir)?;
        write_atomically(&dir.join(BOTS_JSONL), b"")?;
        // Last: a directory with league.toml is a league.
        write_atomically(&dir.join(LEAGUE_TOML), settings.as_bytes())?;
        Ok(league)
    }

    /// The league at `dir`, to read (see [`League::lock`] to write).
    pub fn open(dir: &Path) -> anyhow::Result<League> {
        if !dir.join(LEAGUE_TOML).is_file() {
            bail!(
                "{} is not a league (no {LEAGUE_TOML}); make one with arena league init {}",
                dir.display(),
                dir.display()
            );
        }
        Ok(League {
            dir: dir.to_path_buf(),
            lock: None,
        })
    }

    /// Whether `dir` is a league.
    pub fn is_league(dir: &Path) -> bool {
        dir.join(LEAGUE_TOML).is_file()
    }

    /// Takes the league's lock, waiting up to `patience` while another
    /// arena holds it (a shard planning: it holds it a moment).
    pub fn lock_waiting(&mut self, patience: std::time::Duration) -> anyhow::Result<()> {
        let until = std::time::Instant::now() + patience;
        loop {
            match DirLock::acquire(&self.dir) {
                Ok(lock) => {
                    self.lock = Some(lock);
                    return Ok(());
                }
                Err(arena_files::LockError::InUse { .. }) if std::time::Instant::now() < until => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Gives the league's lock back (a shard, having made its plan).
    pub fn unlock(&mut self) {
        self.lock = None;
    }

    /// Takes the league's lock for writing; `Err` when another arena holds
    /// it.
    pub fn lock(&mut self) -> anyhow::Result<()> {
        if self.lock.is_none() {
            self.lock = Some(DirLock::acquire(&self.dir)?);
        }
        Ok(())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn settings_path(&self) -> PathBuf {
        self.dir.join(LEAGUE_TOML)
    }

    pub fn registry_path(&self) -> PathBuf {
        self.dir.join(BOTS_JSONL)
    }

    pub fn imports_path(&self) -> PathBuf {
        self.dir.join(IMPORTS_JSONL)
    }

    pub fn games_path(&self) -> PathBuf {
        self.dir.join(GAMES_JSONL)
    }

    /// The registry as it is on disk.
    pub fn registry(&self) -> anyhow::Result<Registry> {
        Registry::read(&self.registry_path())
    }
}

/// The settings of a new league: its variants and time control, the rest
/// a tournament's defaults (edit `league.toml` for more).
pub fn settings_text(variants: &[String], time_control: Option<&str>) -> String {
    let mut text = String::from(
        "# A league's settings: a tournament file's [tournament] table (docs/SETTINGS.md),\n\
         # used for every game the league plays. Bots are registered with `arena league add`.\n\
         [tournament]\n",
    );
    match variants {
        [] => {}
        [one] => text.push_str(&format!("variant = {one:?}\n")),
        many => text.push_str(&format!("variants = {many:?}\n")),
    }
    if let Some(tc) = time_control {
        text.push_str(&format!("time_control = {tc:?}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_league_is_made_once_and_opened_after() {
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join("l");
        let league = League::init(
            &at,
            &settings_text(&["qango6".into()], Some("per-move=100")),
        )
        .unwrap();
        assert!(League::is_league(league.dir()));
        drop(league);
        let again = League::init(&at, "").unwrap_err().to_string();
        assert!(again.contains("a league already"), "{again}");
        assert!(League::open(&at)
            .unwrap()
            .registry()
            .unwrap()
            .versions
            .is_empty());
        let not = League::open(dir.path()).unwrap_err().to_string();
        assert!(not.contains("is not a league"), "{not}");
    }
}
