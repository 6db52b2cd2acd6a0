//! A league's standings: every version of every bot rated in one joint fit
//! over all the league's games (`games.csv`, seats named `NAME@N`; several
//! variants pooled), then shown two ways: `standings.csv` and the terminal
//! table, the latest version of each name not retired (ranked among
//! themselves, the bot column `NAME@N`), and `versions.csv`, every version
//! with its name, number, whether it is the latest, retired, when it was
//! registered and its program.
//!
//! Reading is one pass over `games.csv` into a tally (memory grows with
//! the versions, not the games); the fit's cost grows with the versions.

use std::path::PathBuf;

use crate::fits::RatingReport;
use crate::standings::{standings_columns, StandingRow, Standings};
use arena_stats::{FitOptions, Tally};
use arena_tournament::games_reader::visit_numbered_games_csv;
use arena_tournament::journal::GAMES_CSV;
use arena_tournament::league::registry::{parse_label, Registry};
use arena_tournament::league::{League, VERSIONS_CSV};
use arena_tournament::output_files::STANDINGS_FILE;
use arena_tournament::rows_file::write_rows;
use arena_tournament::tally::AddRow;

/// A league's standings.
#[derive(Debug, Clone)]
pub struct LeagueStandings {
    /// Every version that played, best first.
    pub versions: Standings,
    /// The latest version of each name not retired, ranked among
    /// themselves (a version without games is not there).
    pub latest: Standings,
    pub games: u64,
}

/// The versions' columns of `versions.csv` before the standings' own.
const VERSION_COLUMNS: [&str; 6] = [
    "name",
    "version",
    "latest",
    "retired",
    "registered",
    "program",
];

/// One line of `versions.csv`: [`VERSION_COLUMNS`], then the standings'
/// (the fit's label, the row).
type VersionLine<'a> = (
    &'a str,
    u32,
    bool,
    bool,
    &'a str,
    &'a str,
    &'a str,
    &'a StandingRow,
);

impl LeagueStandings {
    /// Rates every game of `league` (`registry`: its versions).
    pub fn of(league: &League, registry: &Registry) -> anyhow::Result<LeagueStandings> {
        let path = league.dir().join(GAMES_CSV);
        let mut tally = Tally::new();
        visit_numbered_games_csv(&path, |line, row| {
            tally
                .add_row(&row)
                .map_err(|e| anyhow::anyhow!("{}: line {line}: {e}", path.display()))
        })?;
        let fit = RatingReport::from_tally(&tally, &FitOptions::default(), &[])?;
        Ok(LeagueStandings::from_versions(
            fit.standings,
            tally.games(),
            registry,
        ))
    }

    /// The standings whose every version `versions` rates (the fit of all
    /// the league's `games`, as [`LeagueStandings::of`] makes it; the
    /// report's page has it already).
    pub fn from_versions(versions: Standings, games: u64, registry: &Registry) -> LeagueStandings {
        let latest = latest_of(&versions, registry);
        LeagueStandings {
            games,
            versions,
            latest,
        }
    }

    /// Writes `standings.csv` (the latest versions) and `versions.csv`
    /// (every version) into the league; returns their paths.
    pub fn write(&self, league: &League, registry: &Registry) -> anyhow::Result<Vec<PathBuf>> {
        let standings = league.dir().join(STANDINGS_FILE);
        self.latest.write_csv(&standings)?;
        let versions = league.dir().join(VERSIONS_CSV);
        let label = self.versions.label().to_string();
        let lines: Vec<VersionLine> = self
            .versions
            .rows
            .iter()
            .filter_map(|row| {
                let v = registry.by_label(&row.bot)?;
                Some((
                    v.name.as_str(),
                    v.version,
                    registry.is_latest(v),
                    registry.retired.contains(&v.name),
                    v.at.as_str(),
                    v.program.as_str(),
                    label.as_str(),
                    row,
                ))
            })
            .collect();
        let columns: Vec<String> = VERSION_COLUMNS
            .iter()
            .map(|c| c.to_string())
            .chain(standings_columns())
            .collect();
        write_rows(&versions, &columns, &lines)?;
        Ok(vec![standings, versions])
    }
}

/// The rows of `all` that are the latest version of a name not retired,
/// ranked 1.. among themselves.
fn latest_of(all: &Standings, registry: &Registry) -> Standings {
    let mut latest = all.clone();
    let keep = |label: &str| {
        parse_label(label).is_some_and(|(name, n)| {
            !registry.retired.contains(name)
                && registry.latest(name).is_some_and(|v| v.version == n)
        })
    };
    let kept: Vec<usize> = (0..all.rows.len())
        .filter(|&k| keep(&all.rows[k].bot))
        .collect();
    latest.rows = kept.iter().map(|&k| all.rows[k].clone()).collect();
    latest.order = kept.iter().map(|&k| all.order[k]).collect();
    for (rank, row) in latest.rows.iter_mut().enumerate() {
        row.rank = rank + 1;
    }
    latest
}
