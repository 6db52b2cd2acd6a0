//! Which games `arena rate` has already counted, so that a game given twice
//! (the same file twice, a copied tournament, an id repeated within a file)
//! is an error instead of silently doubling its weight.
//!
//! A game is identified by its tournament and its `id` column (the game's
//! number in the schedule, unique within a tournament). games.csv has no
//! tournament column, so a file's tournament is:
//! - when a readable `tournament.json` lies next to it: the output directory
//!   and seed recorded there (`config.out`, `config.seed`), which copies of the
//!   directory keep and a resumed run shares;
//! - otherwise the file itself (its canonical path), so only the same file
//!   given twice, or an id repeated inside a file, is recognised.
//!
//! Memory: one bit per id of each tournament (ids are dense schedule numbers),
//! with a hash set for ids too large for a bitset. The first place of a
//! repeated game is found by reading the files again, on the error path only.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use arena_tournament::games_reader::visit_numbered_games_csv;

/// Ids below this are kept in a bitset (at most 8 MiB per tournament).
const BITSET_IDS: u64 = 1 << 26;

/// What identifies the tournament a games file belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TournamentId {
    /// `config.out` and `config.seed` of the `tournament.json` beside the file.
    Manifest { out: String, seed: String },
    /// No usable tournament.json: the file's canonical path.
    File(PathBuf),
}

impl TournamentId {
    /// The identity of the games file at `path` (see the module docs).
    pub fn of_file(path: &Path) -> TournamentId {
        let manifest = path
            .parent()
            .map(|dir| dir.join("tournament.json"))
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
        if let Some(config) = manifest.as_ref().and_then(|m| m.get("config")) {
            if let (Some(out), Some(seed)) = (config.get("out"), config.get("seed")) {
                return TournamentId::Manifest {
                    out: out.to_string(),
                    seed: seed.to_string(),
                };
            }
        }
        TournamentId::File(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// Ids seen of one tournament.
#[derive(Debug, Default)]
struct SeenIds {
    bits: Vec<u64>,
    large: HashSet<u64>,
}

impl SeenIds {
    /// Marks `id` as seen; false if it was already.
    fn insert(&mut self, id: u64) -> bool {
        if id >= BITSET_IDS {
            return self.large.insert(id);
        }
        let (word, bit) = ((id / 64) as usize, 1u64 << (id % 64));
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let fresh = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        fresh
    }
}

/// Game ids seen so far, per tournament.
#[derive(Debug, Default)]
pub struct GameIds {
    tournaments: HashMap<TournamentId, SeenIds>,
}

impl GameIds {
    pub fn new() -> GameIds {
        GameIds::default()
    }

    /// Records game `id` of `tournament`; false if it was recorded before.
    pub fn insert(&mut self, tournament: &TournamentId, id: u64) -> bool {
        if let Some(seen) = self.tournaments.get_mut(tournament) {
            return seen.insert(id);
        }
        let mut seen = SeenIds::default();
        seen.insert(id);
        self.tournaments.insert(tournament.clone(), seen);
        true
    }
}

/// The first `(file, line)` among `files` holding game `id` of `tournament`
/// (files are read again; for the error message of a repeated game).
pub fn first_place(
    files: &[PathBuf],
    tournament: &TournamentId,
    id: u64,
) -> Option<(PathBuf, u64)> {
    for file in files {
        if TournamentId::of_file(file) != *tournament {
            continue;
        }
        let mut found = None;
        // Stop reading at the first match by returning an error.
        let _ = visit_numbered_games_csv(file, |line, row| {
            if row.id == id {
                found = Some(line);
                anyhow::bail!("found");
            }
            Ok(())
        });
        if let Some(line) = found {
            return Some((file.clone(), line));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_seen_once_per_tournament_small_and_large() {
        let mut ids = GameIds::new();
        let (a, b) = (
            TournamentId::File("a".into()),
            TournamentId::File("b".into()),
        );
        for id in [0, 63, 64, 5000, BITSET_IDS, u64::MAX] {
            assert!(ids.insert(&a, id), "{id}");
            assert!(!ids.insert(&a, id), "{id}");
            assert!(ids.insert(&b, id), "{id}");
        }
        assert!(ids.insert(&a, 1));
    }
}
