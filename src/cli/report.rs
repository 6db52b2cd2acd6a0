//! `arena report DIR... [--out DIR]`: write report.html over the games of
//! one or more output directories (see [`crate::report::html`]).

use std::path::PathBuf;

use crate::report::html::write_report;

#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "One self-contained page (no network; open it from disk): settings, standings \
with an Elo plot, crosstable, first-player advantage, failures per bot, rating progression, game \
lengths, move times, the SPRT's LLR path, and every game in a viewer (#game=g17&ply=9 opens \
game g17 at ply 9). Several directories make one report over all their games."
)]
pub struct Args {
    /// Output directories of tournaments, SPRTs or `arena rate`.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where to write report.html. [default: the first DIR]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let out = args.out.clone().unwrap_or_else(|| args.dirs[0].clone());
    let path = write_report(&args.dirs, &out)?;
    outln!("Wrote {}.", path.display());
    Ok(0)
}
