//! The fits of a set of games ([`Ratings`]: one per variant and, when
//! pooled, one over all; each a [`RatingReport`]) and the four rating files
//! they write: standings.csv, model.csv, pairwise.csv and crosstable.csv.

use std::path::{Path, PathBuf};

use anyhow::Context;

use arena_stats::{FitOptions, Tally};

use super::comparison::Crosstable;
use super::comparison::{CrosstableRow, CROSSTABLE_COLUMNS};
use super::gauntlet::{seed_results, SeedResult};
use super::pairwise::{pairwise_rows, PairwiseRow, PAIRWISE_COLUMNS};
use super::standings::{write_model_csv, write_rows, write_standings_csv, Standings};
use arena_referee::GameRow;
use arena_tournament::output_files::RATING_FILES;
use arena_tournament::tally::AddRow;

/// Whether games of several variants also get a pooled fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// Each variant's games alone (`arena rate` without `--pool`).
    Separate,
    /// Each variant alone, then all pooled (after a run; `arena rate --pool`).
    Pooled,
}

/// Every fit of one set of games: with one variant its fit, with several
/// each variant's own fit (in order of first appearance) and, when pooled,
/// the pooled fit last.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings {
    pub fits: Vec<RatingReport>,
}

impl Ratings {
    /// Rates the games of `tally`, pooling as asked, plus a gauntlet's
    /// `seeds` (bot names) against their opponents in the fit of every
    /// game; a fit that fails names its variant.
    pub fn from_tally(
        tally: &Tally,
        options: &FitOptions,
        pooling: Pooling,
        seeds: &[String],
    ) -> anyhow::Result<Ratings> {
        if tally.variant_count() <= 1 {
            let fit = RatingReport::from_tally(tally, options, seeds)?;
            return Ok(Ratings { fits: vec![fit] });
        }
        let mut fits = Vec::new();
        for (variant, games) in tally.by_variant() {
            let fit = RatingReport::from_tally(games, options, &[])
                .with_context(|| format!("rating the games of {variant}"))?;
            fits.push(fit);
        }
        if pooling == Pooling::Pooled {
            let pooled = RatingReport::from_tally(tally, options, seeds)
                .context("rating the games of all variants pooled")?;
            fits.push(pooled);
        }
        Ok(Ratings { fits })
    }

    /// The fit that rates every game: the pooled one, or the only one
    /// (`None` for variants rated separately).
    pub fn overall(&self) -> Option<&RatingReport> {
        match self.fits.as_slice() {
            [one] => Some(one),
            fits => fits.last().filter(|f| f.standings.model.len() > 1),
        }
    }

    /// Writes standings.csv, model.csv, pairwise.csv and crosstable.csv into
    /// `dir` (created if missing), every fit in each; returns the paths.
    pub fn write_files(&self, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        write_fits(dir, &self.fits.iter().collect::<Vec<_>>())
    }
}

/// Writes the rating files of `fits` into `dir`.
fn write_fits(dir: &Path, fits: &[&RatingReport]) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output directory {}", dir.display()))?;
    let [standings, model, pairwise, crosstable] = RATING_FILES.map(|name| dir.join(name));
    let tables: Vec<&Standings> = fits.iter().map(|f| &f.standings).collect();
    write_standings_csv(&standings, &tables)?;
    write_model_csv(&model, &tables)?;
    let pairwise_rows: Vec<(&str, &PairwiseRow)> = fits
        .iter()
        .flat_map(|f| f.pairwise.iter().map(|row| (f.standings.label(), row)))
        .collect();
    write_rows(&pairwise, &PAIRWISE_COLUMNS, &pairwise_rows)?;
    let crosstable_rows: Vec<(&str, CrosstableRow)> = fits
        .iter()
        .flat_map(|f| {
            let label = f.standings.label();
            f.crosstable.rows().into_iter().map(move |row| (label, row))
        })
        .collect();
    write_rows(&crosstable, &CROSSTABLE_COLUMNS, &crosstable_rows)?;
    Ok(vec![standings, model, pairwise, crosstable])
}

/// Standings and pairwise results of one fit of a set of games.
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
        let mut tally = Tally::new();
        for row in rows {
            tally.add_row(row)?;
        }
        RatingReport::from_tally(&tally, &FitOptions::default(), &[])
    }

    /// Rates the games of `tally` in one fit: with several variants the
    /// pooled fit (shared ratings, each variant's own first-player advantage
    /// and draw elo); plus the results of a gauntlet's `seeds` (bot names)
    /// against their opponents.
    pub fn from_tally(
        tally: &Tally,
        options: &FitOptions,
        seeds: &[String],
    ) -> anyhow::Result<RatingReport> {
        let counts = tally.counts();
        let mut standings = if counts.variant_counts.is_empty() {
            // No games: nothing to tell variants apart by.
            Standings::from_counts_with(&counts.bots, &counts.counts, options)?
        } else {
            Standings::from_variants(&counts.bots, &counts.variant_counts, options)?
        };
        standings.set_lost_by(&counts.lost_by);
        let pairwise = pairwise_rows(&counts, &standings.order);
        let crosstable = Crosstable::new(&counts.bots, &counts.counts, &standings.order);
        let gauntlet = seed_results(&counts, seeds, &standings.order);
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
        write_fits(dir, &[self])
    }
}
