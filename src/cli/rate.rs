//! `arena rate FILE... [--out DIR] [--variant ID]`: recompute standings and
//! pairwise tables from one or more games.csv files.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::report::games_reader::visit_games_csv;
use crate::report::rating::RatingReport;
use crate::report::rating_input::RatingInput;

#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "Rates all games together (joint maximum-likelihood Elo with \
first-player advantage and 95% intervals), prints the standings and writes \
standings.csv, model.csv and pairwise.csv.\n\nWithout --out the files go next to the \
first FILE, where a tournament keeps them, so rating a tournament's games.csv refreshes \
its tables in place. Give --out to keep merged ratings apart."
)]
pub struct Args {
    /// games.csv files; their games are rated together.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Directory for standings.csv, model.csv and pairwise.csv (created if
    /// missing). [default: the directory of the first FILE]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Only rate games of this variant (e.g. qango6).
    #[arg(long, value_name = "ID")]
    pub variant: Option<String>,
}

/// Where the tables go: `--out`, else next to the first file.
fn output_dir(args: &Args) -> PathBuf {
    if let Some(out) = &args.out {
        return out.clone();
    }
    match args.files[0].parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.files.is_empty() {
        bail!("no games files given (usage: arena rate FILE... [--out DIR])");
    }
    // Rows stream into the aggregates one at a time: memory does not grow
    // with the number of games.
    let mut input = RatingInput::new();
    let mut read = 0u64;
    for file in &args.files {
        visit_games_csv(file, |row| {
            read += 1;
            if args.variant.as_ref().is_none_or(|v| *v == row.variant) {
                input.add(&row)?;
            }
            Ok(())
        })?;
    }
    if let Some(variant) = &args.variant {
        if input.games() == 0 && read > 0 {
            bail!("none of the {read} games is of variant {variant:?}");
        }
    }
    let report = RatingReport::from_input(input)?;
    print!("{}", report.standings.render_table());
    let dir = output_dir(&args);
    let written = report.write_files(&dir)?;
    let names: Vec<String> = written.iter().map(|p| display(p)).collect();
    println!("Wrote {}.", names.join(", "));
    Ok(0)
}

fn display(path: &Path) -> String {
    path.display().to_string()
}
