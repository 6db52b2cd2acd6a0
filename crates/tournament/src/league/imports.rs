//! A league's record of the runs imported into it, `imports.jsonl`: one
//! event a line, appended, never rewritten (a torn last line, a crash's, is
//! left out and cut off before the next append). It is how an import knows
//! which games of a run the league has already, so that importing a run
//! twice (or its shards and then their merge, or a run that went on since)
//! adds each game once.
//!
//! An import of a run writes two lines around its games:
//!
//! - `begin` (synced before the first game is appended): the run's
//!   tournament identity, the ids of the games it is about to append (as
//!   ranges), the league id the first gets (`first`; the k-th smallest
//!   source id becomes `g{first + k}`), the offset added to the run's game
//!   pairs and each seat's `NAME@N`: everything that says what each league
//!   record of the import will be.
//! - `done` (after the games are appended and synced): the source ids that
//!   are in the league.
//!
//! The games of a run that the league has are those of its tournament's
//! `done` lines whose league record is the one the run's game gives (two
//! runs of the same settings and seed in two directories are one
//! tournament, but their games may differ: each is imported). A `begin` without its `done` is an import a crash cut
//! short: some of its games may be in the journal. The next import of a run
//! of that tournament that has all of them compares each expected record
//! with the league's record at its id, and writes the `done` of the ones
//! found; the others are imported anew. (Comparing, not counting: after the
//! crash another command may have appended games at ids the cut import had
//! reserved.)

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::registry::append_line;
use crate::lines::visit_jsonl;

/// Game ids as sorted, disjoint, inclusive ranges `[first, last]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct IdRanges(Vec<[u64; 2]>);

impl IdRanges {
    /// The ranges of `ids`, which must come in increasing order.
    pub fn from_sorted(ids: impl IntoIterator<Item = u64>) -> IdRanges {
        let mut ranges: Vec<[u64; 2]> = Vec::new();
        for id in ids {
            match ranges.last_mut() {
                Some(last) if last[1] + 1 == id => last[1] = id,
                _ => ranges.push([id, id]),
            }
        }
        IdRanges(ranges)
    }

    /// How many ids.
    pub fn len(&self) -> u64 {
        self.0.iter().map(|[a, b]| b - a + 1).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().flat_map(|&[a, b]| a..=b)
    }

    /// The number of ids smaller than `id`, when `id` is one of them.
    pub fn rank(&self, id: u64) -> Option<u64> {
        let mut before = 0;
        for &[a, b] in &self.0 {
            if id < a {
                return None;
            }
            if id <= b {
                return Some(before + id - a);
            }
            before += b - a + 1;
        }
        None
    }
}

/// An import about to append its games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Begin {
    /// The run's tournament identity (`tournament.json`'s `identity`).
    pub identity: String,
    /// The run's directory, as given.
    pub run: String,
    /// The league id of the smallest source id.
    pub first: u64,
    /// Added to each game's `pair`, so that pairs of several runs stay
    /// apart.
    pub pair_offset: u64,
    /// Each bot of the run: its `NAME@N` in the league.
    pub bots: BTreeMap<String, String>,
    /// How many games.
    pub games: u64,
    /// Their ids in the run.
    pub ids: IdRanges,
    pub at: String,
}

/// The games of an import that are in the league.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Done {
    pub identity: String,
    pub run: String,
    /// Its `begin`'s `first`.
    pub first: u64,
    pub games: u64,
    pub ids: IdRanges,
    pub at: String,
}

/// One line of `imports.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Begin(Begin),
    Done(Done),
}

/// Every import of a league, read.
#[derive(Debug, Clone, Default)]
pub struct Imports {
    events: Vec<Event>,
}

impl Imports {
    /// Reads `path` (missing: empty). A torn last line is left out; any
    /// other line that is no event is an error naming it.
    pub fn read(path: &Path) -> anyhow::Result<Imports> {
        let mut imports = Imports::default();
        visit_jsonl(path, "an import event", |event| imports.events.push(event))?;
        Ok(imports)
    }

    /// Appends `event` (one write, synced) and keeps it.
    pub fn append(&mut self, path: &Path, event: Event) -> anyhow::Result<()> {
        let line = serde_json::to_vec(&event).context("encoding an import event")?;
        append_line(path, line)?;
        self.events.push(event);
        Ok(())
    }

    /// The finished imports of tournament `identity`: each `begin` (which
    /// says each game's league id) with the ids its `done` found in the
    /// league.
    pub fn imported(&self, identity: &str) -> Vec<(Begin, IdRanges)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Done(d) if d.identity == identity => {
                    let begin = self.events.iter().find_map(|e| match e {
                        Event::Begin(b) if b.identity == identity && b.first == d.first => {
                            Some(b.clone())
                        }
                        _ => None,
                    })?;
                    Some((begin, d.ids.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// The imports of tournament `identity` that a crash cut short: each
    /// `begin` without its `done`.
    pub fn pending(&self, identity: &str) -> Vec<Begin> {
        let done = |first: u64| {
            self.events
                .iter()
                .any(|e| matches!(e, Event::Done(d) if d.identity == identity && d.first == first))
        };
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Begin(b) if b.identity == identity && !done(b.first) => Some(b.clone()),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_count_and_rank_their_ids() {
        let ids = IdRanges::from_sorted([0, 1, 2, 5, 7, 8]);
        assert_eq!(ids, IdRanges(vec![[0, 2], [5, 5], [7, 8]]));
        assert_eq!(ids.len(), 6);
        assert_eq!(ids.iter().collect::<Vec<_>>(), [0, 1, 2, 5, 7, 8]);
        assert_eq!(
            [0, 2, 5, 7, 8].map(|id| ids.rank(id)),
            [0, 2, 3, 4, 5].map(Some)
        );
        assert_eq!([3, 6, 9].map(|id| ids.rank(id)), [None; 3]);
        assert_eq!(serde_json::to_string(&ids).unwrap(), "[[0,2],[5,5],[7,8]]");
    }

    #[test]
    fn a_begin_without_its_done_is_pending_and_dones_are_imported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("imports.jsonl");
        let begin = |first: u64, ids: &[u64]| Begin {
            identity: "t".into(),
            run: "r".into(),
            first,
            pair_offset: 0,
            bots: BTreeMap::new(),
            games: ids.len() as u64,
            ids: IdRanges::from_sorted(ids.iter().copied()),
            at: String::new(),
        };
        let done = |b: &Begin| Done {
            identity: b.identity.clone(),
            run: b.run.clone(),
            first: b.first,
            games: b.games,
            ids: b.ids.clone(),
            at: String::new(),
        };
        let mut imports = Imports::default();
        let (one, two) = (begin(0, &[0, 1]), begin(2, &[2, 3]));
        for event in [
            Event::Begin(one.clone()),
            Event::Done(done(&one)),
            Event::Begin(two.clone()),
        ] {
            imports.append(&path, event).unwrap();
        }
        let read = Imports::read(&path).unwrap();
        assert_eq!(read.pending("t"), [two]);
        let imported = read.imported("t");
        assert_eq!(imported.len(), 1);
        assert_eq!(imported[0].0, one);
        assert_eq!(imported[0].1.iter().collect::<Vec<_>>(), [0, 1]);
        assert!(read.pending("other").is_empty());
    }
}
