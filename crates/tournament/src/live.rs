//! The games a run is playing, move by move, for the live page of
//! `arena tournament --serve` (and `arena sprt --serve`): a small table in
//! memory that the runner writes and the in-process server reads.
//!
//! Only a run that serves has one (the runner holds an `Option` that is
//! `None` otherwise, and then plays as it always did). Bounded by
//! construction: a game is in it from its first move on the board to its
//! end (removed by a guard, also when its task is abandoned), so at most the
//! run's concurrency of games, each with at most the referee's ply cap of
//! moves. Each change bumps a version the server watches, so a page hears
//! of it without polling.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::watch;

/// One game being played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LiveGame {
    /// The game's number in the schedule; pages get its id, `gN` (the
    /// server adds it), not the number.
    #[serde(skip_serializing)]
    pub id: u64,
    /// Variant id, e.g. `qango6`.
    pub game: String,
    /// `qango` or `quinque`, and the board's size (for the page's board).
    pub family: &'static str,
    pub rows: u8,
    pub cols: u8,
    pub white: String,
    pub black: String,
    /// Every move on the board so far, opening included (as `moves` in
    /// games.jsonl once the game ends).
    pub moves: Vec<String>,
    /// How many of the first `moves` are the opening (not the bots' choice).
    pub opening: usize,
}

/// The games being played now, in the order of their ids.
#[derive(Debug)]
pub struct LiveGames {
    table: Mutex<BTreeMap<u64, LiveGame>>,
    version: watch::Sender<u64>,
}

impl Default for LiveGames {
    fn default() -> LiveGames {
        LiveGames {
            table: Mutex::new(BTreeMap::new()),
            version: watch::channel(0).0,
        }
    }
}

impl LiveGames {
    pub fn new() -> Arc<LiveGames> {
        Arc::new(LiveGames::default())
    }

    /// `game` is on the board (its opening played); it stays until the
    /// returned guard is dropped.
    pub fn begin(self: &Arc<LiveGames>, game: LiveGame) -> Playing {
        let id = game.id;
        self.change(|table| {
            table.insert(id, game);
        });
        Playing {
            games: Arc::clone(self),
            id,
        }
    }

    /// The games now, in the order of their ids.
    pub fn snapshot(&self) -> Vec<LiveGame> {
        self.lock().values().cloned().collect()
    }

    /// Hears of every change (the number only grows).
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    fn change(&self, edit: impl FnOnce(&mut BTreeMap<u64, LiveGame>)) {
        edit(&mut self.lock());
        self.version.send_modify(|v| *v += 1);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, LiveGame>> {
        // Each edit is one insert, push or remove: a panic elsewhere
        // leaves the table consistent.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A game in the table: adds its moves, and removes it when dropped.
#[derive(Debug)]
pub struct Playing {
    games: Arc<LiveGames>,
    id: u64,
}

impl Playing {
    /// The side to move played `notation`.
    pub fn moved(&self, notation: &str) {
        self.games.change(|table| {
            if let Some(game) = table.get_mut(&self.id) {
                game.moves.push(notation.to_string());
            }
        });
    }
}

impl Drop for Playing {
    fn drop(&mut self) {
        self.games.change(|table| {
            table.remove(&self.id);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: u64) -> LiveGame {
        LiveGame {
            id,
            game: "qango6".into(),
            family: "qango",
            rows: 6,
            cols: 6,
            white: "a".into(),
            black: "b".into(),
            moves: vec!["c3".into()],
            opening: 1,
        }
    }

    #[test]
    fn a_game_is_shown_with_its_moves_until_it_ends() {
        let games = LiveGames::new();
        let seen = games.subscribe();
        let second = games.begin(game(7));
        let first = games.begin(game(2));
        first.moved("d4");
        assert_eq!(
            games.snapshot().iter().map(|g| g.id).collect::<Vec<_>>(),
            [2, 7]
        );
        assert_eq!(games.snapshot()[0].moves, ["c3", "d4"]);
        assert!(seen.has_changed().unwrap());
        drop(first);
        assert_eq!(games.snapshot(), [game(7)]);
        drop(second);
        assert!(games.snapshot().is_empty());
    }
}
