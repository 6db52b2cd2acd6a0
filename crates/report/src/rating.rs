//! Everything `arena rate` and a run write after rating the tally of a set
//! of games ([`arena_stats::Tally`]): standings (with failure counts),
//! model parameters, head-to-head tables, the crosstable, and report.html
//! from the same fits.
//!
//! Games of several variants give several fits ([`Ratings`]): each
//! variant's games alone, and (by default after a run, with `arena rate
//! --pool`) all games pooled. Every rating file holds every fit, one block
//! of rows each: in standings.csv, pairwise.csv and crosstable.csv told
//! apart by the first column, `variant`: the variant whose games alone were
//! rated, or `all` for the pooled fit; in model.csv by `variant` and `fit`
//! (see [`super::standings`]). The pooled block's pairwise and crosstable
//! rows count the games of every variant together.

use std::path::{Path, PathBuf};

use anyhow::Context;

use arena_stats::{FitOptions, Tally};

pub use super::fits::{Pooling, RatingReport, Ratings};
use super::html::{self, Fits};

use arena_tournament::games_reader::visit_games_csv;
use arena_tournament::manifest::Manifest;
use arena_tournament::output_files::{GAMES_CSV, LOGS_DIR, RUN_FILES};
use arena_tournament::tally::AddRow;

/// What rating a run's directory gave: the report (`None` before any game
/// finished) and every file the directory holds, in the order they are listed
/// to the user.
#[derive(Debug)]
pub struct RunRatings {
    pub report: Option<Ratings>,
    pub files: Vec<PathBuf>,
    /// What went wrong writing views of the games that are not results
    /// (report.html): said to the user, never a failed run.
    pub warnings: Vec<String>,
    /// How many games neither bot played, which no rating counts
    /// ([`arena_stats::Unplayed::line`]); `None` when every game was played.
    pub unplayed: Option<String>,
}

/// Rates `tally`, the run's count of every finished game of the run in
/// `dir` (a gauntlet's `seeds` against their opponents too), and writes
/// standings.csv, model.csv, pairwise.csv, crosstable.csv and report.html
/// there, all from that one set of fits; the games files are read again
/// only for report.html's per-game sections. A run with no finished game
/// yet has no standings; that is not an error.
pub fn rate_run(dir: &Path, tally: &Tally, seeds: &[String]) -> anyhow::Result<RunRatings> {
    let mut files: Vec<PathBuf> = RUN_FILES
        .iter()
        .map(|&name| {
            let slash = if name == LOGS_DIR { "/" } else { "" };
            dir.join(format!("{name}{slash}"))
        })
        // A merged directory has no logs/ (they stay with the shards).
        .filter(|path| path.exists())
        .collect();
    let unplayed = tally.unplayed().line();
    if tally.games() == 0 {
        return Ok(RunRatings {
            report: None,
            files: Vec::new(),
            warnings: Vec::new(),
            unplayed,
        });
    }
    let report = Ratings::from_tally(tally, &FitOptions::default(), Pooling::Pooled, seeds)
        .context("rating the finished games")?;
    files.extend(report.write_files(dir)?);
    // The page is a view of the games: failing to write it is said, and the
    // run's results stand.
    let mut warnings = Vec::new();
    match html::write_rated_report(&[dir.to_path_buf()], dir, None, tally, Fits::Rated(&report)) {
        Ok(page) => files.push(page),
        Err(e) => warnings.push(format!("report.html not written: {e:#}")),
    }
    Ok(RunRatings {
        report: Some(report),
        files,
        warnings,
        unplayed,
    })
}

/// [`rate_run`] over the directory's `games.csv`, counted in one pass, for
/// a directory no driver ran (`arena merge` writes one), with a gauntlet's
/// seeds from its tournament.json (none without one).
pub fn rate_dir(dir: &Path) -> anyhow::Result<RunRatings> {
    let mut tally = Tally::new();
    visit_games_csv(&dir.join(GAMES_CSV), |row| Ok(tally.add_row(&row)?))
        .context("reading the finished games")?;
    let seeds = Manifest::read(dir)
        .map(|manifest| manifest.config.seeds)
        .unwrap_or_default();
    rate_run(dir, &tally, &seeds)
}
