//! Everything `arena rate` and the tournament write after rating a set of games:
//! standings (with failure counts), model parameters, head-to-head tables
//! and the crosstable.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::stats::FitOptions;

use super::comparison::Crosstable;
use super::gauntlet::{seed_results, SeedResult};
use super::pairwise::{pairwise_rows, write_pairwise_csv, PairwiseRow};
use super::rating_input::RatingInput;
use super::standings::Standings;
use crate::referee::GameRow;

use crate::tournament::games_reader::visit_games_csv;
use crate::tournament::manifest::Manifest;
use crate::tournament::output_files::{GAMES_CSV, LOGS_DIR, RATING_FILES, RUN_FILES};

/// What rating a run's directory gave: the report (`None` before any game
/// finished) and every file the directory holds, in the order they are listed
/// to the user.
#[derive(Debug)]
pub struct RunRatings {
    pub report: Option<RatingReport>,
    pub files: Vec<PathBuf>,
    /// What went wrong writing views of the games that are not results
    /// (report.html): said to the user, never a failed run.
    pub warnings: Vec<String>,
}

/// Rates every finished game of the run in `dir` (streamed from `games.csv`
/// into the aggregates of [`RatingInput`]) and writes standings.csv,
/// model.csv, pairwise.csv, crosstable.csv and report.html there. A run with
/// no finished game yet has no standings; that is not an error.
pub fn rate_run(dir: &Path) -> anyhow::Result<RunRatings> {
    let mut input = RatingInput::new();
    visit_games_csv(&dir.join(GAMES_CSV), |row| Ok(input.add(&row)?))
        .context("reading the finished games")?;
    let mut files: Vec<PathBuf> = RUN_FILES
        .iter()
        .map(|&name| {
            let slash = if name == LOGS_DIR { "/" } else { "" };
            dir.join(format!("{name}{slash}"))
        })
        // A merged directory has no logs/ (they stay with the shards).
        .filter(|path| path.exists())
        .collect();
    if input.games() == 0 {
        return Ok(RunRatings {
            report: None,
            files: Vec::new(),
            warnings: Vec::new(),
        });
    }
    // A gauntlet's seeds, from its settings (none when the directory has
    // no tournament.json, e.g. a folder of games.csv for `arena rate`).
    let seeds = Manifest::read(dir)
        .map(|manifest| manifest.config.seeds)
        .unwrap_or_default();
    let report = RatingReport::from_input_for(input, &FitOptions::default(), &seeds)
        .context("rating the finished games")?;
    files.extend(report.write_files(dir)?);
    // The page is a view of the games: failing to write it is said, and the
    // run's results stand.
    let mut warnings = Vec::new();
    match super::html::write_report(&[dir.to_path_buf()], dir) {
        Ok(page) => files.push(page),
        Err(e) => warnings.push(format!("report.html not written: {e:#}")),
    }
    Ok(RunRatings {
        report: Some(report),
        files,
        warnings,
    })
}

/// Standings and pairwise results of one set of games.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingReport {
    pub standings: Standings,
    pub pairwise: Vec<PairwiseRow>,
    pub crosstable: Crosstable,
    /// A gauntlet's seeds against their opponents (empty otherwise).
    pub gauntlet: Vec<SeedResult>,
}

impl RatingReport {
    /// Rates `rows`. Fails only on rows with an unknown result or a bot playing
    /// itself (naming the game id).
    pub fn from_rows(rows: &[GameRow]) -> anyhow::Result<RatingReport> {
        let mut input = RatingInput::new();
        for row in rows {
            input.add(row)?;
        }
        RatingReport::from_input(input)
    }

    /// Rates the games aggregated in `input` (the one code path of `arena
    /// rate` and the tournament).
    pub fn from_input(input: RatingInput) -> anyhow::Result<RatingReport> {
        RatingReport::from_input_with(input, &FitOptions::default())
    }

    /// [`RatingReport::from_input`] with other fit settings (`--no-prior`).
    pub fn from_input_with(
        input: RatingInput,
        options: &FitOptions,
    ) -> anyhow::Result<RatingReport> {
        RatingReport::from_input_for(input, options, &[])
    }

    /// [`RatingReport::from_input_with`], plus the results of a gauntlet's
    /// `seeds` (bot names) against their opponents.
    pub fn from_input_for(
        input: RatingInput,
        options: &FitOptions,
        seeds: &[String],
    ) -> anyhow::Result<RatingReport> {
        let rated = input.finish();
        let mut standings = Standings::from_counts_with(&rated.bots, &rated.counts, options)?;
        standings.set_lost_by(&rated.lost_by);
        let pairwise = pairwise_rows(&rated, &standings.order);
        let crosstable = Crosstable::new(&rated.bots, &rated.counts, &standings.order);
        let gauntlet = seed_results(&rated, seeds, &standings.order);
        Ok(RatingReport {
            standings,
            pairwise,
            crosstable,
            gauntlet,
        })
    }

    /// Writes standings.csv, model.csv, pairwise.csv and crosstable.csv into
    /// `dir` (created if missing); returns the paths written.
    pub fn write_files(&self, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        let [standings, model, pairwise, crosstable] = RATING_FILES.map(|name| dir.join(name));
        self.standings.write_csv(&standings)?;
        self.standings.write_model_csv(&model)?;
        write_pairwise_csv(&pairwise, &self.pairwise)?;
        self.crosstable.write_csv(&crosstable)?;
        Ok(vec![standings, model, pairwise, crosstable])
    }
}
