//! A league's leaderboard, the section the page shows on top when it shows
//! a league (`arena serve LEAGUE`): the latest version of each bot ranked
//! (rank, `NAME@N`, Elo with its interval, games, score), every version
//! (folded), each bot's history of versions with their ratings (what
//! `versions.csv` holds: name, version, registered, games, Elo), and the
//! most recent games, each a link that opens it in the page's viewer.
//!
//! Its numbers are [`LeagueStandings`]' (one joint fit of every version
//! over every game of the league: the fit the page's own standings show);
//! the recent games are the tail of the league's `games.csv`
//! ([`read_recent`]), read without reading the rest.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Context;
use serde::Serialize;

use crate::league::LeagueStandings;
use crate::standings::{elo_interval_text, elo_text, pct_text, StandingRow, Standings};
use arena_referee::game_id::game_id;
use arena_referee::GameRow;
use arena_tournament::games_reader::read_last_games_csv;
use arena_tournament::journal::GAMES_CSV;
use arena_tournament::league::registry::{Registry, Version};
use arena_tournament::league::League;

/// The registry of the league at `dir` and its last [`RECENT_GAMES`]
/// games, oldest first: what its leaderboard needs besides the ratings.
pub fn read_recent(dir: &Path) -> anyhow::Result<(Registry, Vec<GameRow>)> {
    let registry = League::open(dir)?.registry()?;
    let games = dir.join(GAMES_CSV);
    let recent = read_last_games_csv(&games, RECENT_GAMES)
        .with_context(|| format!("the recent games of the league {}", dir.display()))?;
    Ok((registry, recent))
}

/// Standings of no version (a league without games, or whose games could
/// not be rated).
pub fn no_standings() -> Standings {
    Standings {
        rows: Vec::new(),
        order: Vec::new(),
        model: Vec::new(),
        games: 0,
    }
}

/// Recent games the leaderboard lists.
pub const RECENT_GAMES: usize = 50;

/// Versions at most for the page's rating progression: each of its 50
/// checkpoints is a fit of every version, whose cost grows with the cube
/// of their number. Past it, each bot's versions are its progression.
pub const PROGRESSION_VERSIONS: usize = 100;

/// What the rating progression says on a league of `versions` versions
/// past [`PROGRESSION_VERSIONS`].
pub fn no_progression(versions: usize) -> String {
    format!(
        "Not drawn for a league of {versions} versions (more than {PROGRESSION_VERSIONS}: \
         each point would rate every version again); each bot's versions in the \
         leaderboard show how it progressed."
    )
}

/// What the leaderboard section shows.
#[derive(Debug, Serialize)]
pub struct Leaderboard {
    /// The league's directory, as given.
    pub dir: String,
    pub games: u64,
    /// Bots scheduled (not retired).
    pub bots: usize,
    /// Versions registered.
    pub versions: usize,
    /// The latest version of each bot not retired that has games, ranked.
    pub latest: Vec<BoardRow>,
    /// Every version that has games, ranked.
    pub every: Vec<BoardRow>,
    /// Each bot, in the order first registered, with its versions.
    pub histories: Vec<History>,
    /// The last games, newest first.
    pub recent: Vec<RecentGame>,
    /// Why the games could not be rated (the rankings are then empty).
    pub rating_error: Option<String>,
    /// Why the page has no rating progression, when it is the league's size.
    pub progression_note: Option<String>,
}

/// A version's line in a ranking.
#[derive(Debug, Clone, Serialize)]
pub struct BoardRow {
    pub rank: usize,
    /// `NAME@N`.
    pub bot: String,
    pub elo: String,
    pub interval: String,
    /// The rating rests on the prior (the report's `*`).
    pub prior: bool,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: String,
    /// Registered when (UTC), `-` for a name the registry lacks.
    pub registered: String,
    /// The latest version of its name.
    pub latest: bool,
}

/// One bot's versions, oldest first.
#[derive(Debug, Serialize)]
pub struct History {
    pub name: String,
    pub retired: bool,
    /// Its latest version's line (`None`: no games yet).
    pub now: Option<BoardRow>,
    pub versions: Vec<HistoryRow>,
}

/// A version of a bot as its history shows it.
#[derive(Debug, Serialize)]
pub struct HistoryRow {
    pub bot: String,
    pub version: u32,
    pub registered: String,
    pub games: u64,
    /// `-` without games.
    pub elo: String,
    pub interval: String,
    pub latest: bool,
}

/// A finished game, as the recent games list it.
#[derive(Debug, Serialize)]
pub struct RecentGame {
    /// `gN`: the page's key of the game (`#game=gN` opens it).
    pub key: String,
    pub variant: String,
    pub white: String,
    pub black: String,
    pub result: String,
    pub reason: String,
    pub plies: u32,
    /// When it ended (UTC, RFC 3339), and its time of day alone.
    pub ended: String,
    pub time: String,
}

impl Leaderboard {
    /// The leaderboard of `registry`'s versions rated in `standings`, with
    /// the `recent` games (oldest first).
    pub fn from_parts(
        dir: &Path,
        registry: &Registry,
        standings: &LeagueStandings,
        recent: &[GameRow],
    ) -> Leaderboard {
        let line = |row: &StandingRow| BoardRow::of(row, registry);
        let every: Vec<BoardRow> = standings.versions.rows.iter().map(line).collect();
        let rows: HashMap<&str, &StandingRow> = standings
            .versions
            .rows
            .iter()
            .map(|r| (r.bot.as_str(), r))
            .collect();
        Leaderboard {
            dir: dir.display().to_string(),
            games: standings.games,
            bots: registry.active().len(),
            versions: registry.versions.len(),
            latest: standings.latest.rows.iter().map(line).collect(),
            histories: histories(registry, &rows),
            every,
            recent: recent.iter().rev().map(RecentGame::of).collect(),
            rating_error: None,
            progression_note: None,
        }
    }

    /// The labels (`NAME@N`) of the latest versions, best first: the bots
    /// the page's crosstable shows.
    pub fn latest_labels(&self) -> Vec<String> {
        self.latest.iter().map(|r| r.bot.clone()).collect()
    }
}

impl BoardRow {
    fn of(row: &StandingRow, registry: &Registry) -> BoardRow {
        let version = registry.by_label(&row.bot);
        BoardRow {
            rank: row.rank,
            bot: row.bot.clone(),
            elo: elo_text(row.elo),
            interval: elo_interval_text(row.elo_low, row.elo_high),
            prior: row.elo_prior,
            games: row.games,
            wins: row.wins,
            draws: row.draws,
            losses: row.losses,
            score: pct_text(row.score_pct),
            registered: version.map_or("-".into(), |v| v.at.clone()),
            latest: version.is_some_and(|v| registry.is_latest(v)),
        }
    }
}

/// Each name's versions, in the order the names were first registered.
fn histories(registry: &Registry, rows: &HashMap<&str, &StandingRow>) -> Vec<History> {
    let mut names: Vec<&str> = Vec::new();
    let mut by_name: HashMap<&str, Vec<&Version>> = HashMap::new();
    for v in &registry.versions {
        if !by_name.contains_key(v.name.as_str()) {
            names.push(&v.name);
        }
        by_name.entry(&v.name).or_default().push(v);
    }
    names
        .into_iter()
        .map(|name| {
            let all = &by_name[name];
            let last = all.len() - 1;
            let versions: Vec<HistoryRow> = all
                .iter()
                .enumerate()
                .map(|(k, v)| HistoryRow::of(v, rows.get(v.label().as_str()).copied(), k == last))
                .collect();
            let now = registry
                .latest(name)
                .and_then(|v| rows.get(v.label().as_str()))
                .map(|row| BoardRow::of(row, registry));
            History {
                name: name.to_string(),
                retired: registry.retired.contains(name),
                now,
                versions,
            }
        })
        .collect()
}

impl HistoryRow {
    fn of(v: &Version, row: Option<&StandingRow>, latest: bool) -> HistoryRow {
        HistoryRow {
            bot: v.label(),
            version: v.version,
            registered: v.at.clone(),
            games: row.map_or(0, |r| r.games),
            elo: row.map_or("-".into(), |r| elo_text(r.elo)),
            interval: row.map_or(String::new(), |r| elo_interval_text(r.elo_low, r.elo_high)),
            latest,
        }
    }
}

impl RecentGame {
    fn of(row: &GameRow) -> RecentGame {
        RecentGame {
            key: game_id(row.id),
            variant: row.variant.clone(),
            white: row.white.clone(),
            black: row.black.clone(),
            result: row.result.to_string(),
            reason: row.reason.to_string(),
            plies: row.plies,
            time: row
                .ended_utc
                .get(11..19)
                .unwrap_or(&row.ended_utc)
                .to_string(),
            ended: row.ended_utc.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::BotSpec;
    use arena_stats::LostBy;

    fn version(name: &str, n: u32) -> Version {
        Version {
            name: name.into(),
            version: n,
            program: format!("{name}{n}"),
            bot: BotSpec::from_command_line(name, "bot").unwrap(),
            at: format!("2026120{n}-000000"),
        }
    }

    fn row(rank: usize, bot: &str, elo: f64, games: u64) -> StandingRow {
        StandingRow {
            rank,
            bot: bot.into(),
            games,
            wins: games / 2,
            draws: 0,
            losses: games - games / 2,
            score_pct: Some(50.0),
            elo,
            elo_low: elo - 100.0,
            elo_high: elo + 100.0,
            elo_prior: false,
            white_games: games / 2,
            white_score_pct: None,
            black_games: games - games / 2,
            black_score_pct: None,
            lost: LostBy::default(),
        }
    }

    /// ada has three versions, the last without games; bob is retired.
    #[test]
    fn histories_show_every_version_and_the_ranking_only_latest_ones() {
        let mut registry = Registry {
            versions: vec![
                version("ada", 1),
                version("bob", 1),
                version("ada", 2),
                version("ada", 3),
            ],
            ..Registry::default()
        };
        registry.retired.insert("bob".into());
        let mut versions = no_standings();
        versions.rows = vec![
            row(1, "ada@2", 50.0, 10),
            row(2, "bob@1", 0.0, 20),
            row(3, "ada@1", -50.0, 10),
        ];
        versions.order = vec![0, 1, 2];
        let standings = LeagueStandings::from_versions(versions, 20, &registry);
        let board = Leaderboard::from_parts(Path::new("l"), &registry, &standings, &[]);
        // ada's latest version has not played, bob is retired: no one ranked.
        assert!(board.latest.is_empty());
        assert_eq!((board.bots, board.versions, board.every.len()), (1, 4, 3));
        let ada = &board.histories[0];
        let rows: Vec<(&str, u64, &str, bool)> = ada
            .versions
            .iter()
            .map(|v| (v.bot.as_str(), v.games, v.elo.as_str(), v.latest))
            .collect();
        assert_eq!(
            rows,
            [
                ("ada@1", 10, "-50", false),
                ("ada@2", 10, "+50", false),
                ("ada@3", 0, "-", true)
            ]
        );
        assert!(ada.now.is_none() && !ada.retired);
        let bob = &board.histories[1];
        assert!(bob.retired);
        assert_eq!(bob.now.as_ref().map(|r| r.elo.as_str()), Some("0"));
        assert_eq!(board.every[0].registered, "20261202-000000");
    }
}
