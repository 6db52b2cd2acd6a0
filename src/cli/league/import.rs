//! `arena league import DIR RUN_DIR...`: adds finished runs' games to a
//! league (see [`crate::tournament::league::import`]): one line per bot
//! (the version its games go to, a new one for a program its name has not
//! had), one on each run's games, then the league's standings files
//! written again.

use std::path::PathBuf;

use crate::report::league::LeagueStandings;
use crate::tournament::league::import::Importer;
use crate::tournament::league::League;

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The league's directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Output directories of runs (tournaments, SPRTs, merges): each with
    /// its tournament.json and games.jsonl.
    #[arg(value_name = "RUN_DIR", required = true)]
    pub runs: Vec<PathBuf>,
}

pub fn import(args: ImportArgs) -> anyhow::Result<i32> {
    let mut league = League::open(&args.dir)?;
    league.lock()?;
    let mut importer = Importer::open(&league)?;
    for repair in &importer.repairs {
        eprintln!("repaired the league's journal: {repair}");
    }
    let mut imported = 0;
    for run in &args.runs {
        let report = importer.import(run)?;
        outln!("{}:", run.display());
        for line in &report.lines {
            outln!("  {line}");
        }
        imported += report.imported;
    }
    drop(importer);
    let registry = league.registry()?;
    let standings = LeagueStandings::of(&league, &registry)?;
    standings.write(&league, &registry)?;
    outln!(
        "Imported {imported} game{} from {} run{}; the league has {} games (arena league standings {} shows them).",
        if imported == 1 { "" } else { "s" },
        args.runs.len(),
        if args.runs.len() == 1 { "" } else { "s" },
        standings.games,
        args.dir.display()
    );
    Ok(0)
}
