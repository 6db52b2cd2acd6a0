//! `arena rate FILE... [--out DIR] [--variant ID] [--pool] [--no-prior]
//! [--allow-duplicates]`: recompute standings and pairwise tables from one or
//! more games.csv files and print them (writing files only to `--out`, never
//! into a run's directory), refusing files without games and games counted twice
//! (see [`crate::report::game_ids`] for what identifies a game). The files
//! are counted into one tally in one pass; the terminal, the tables and
//! report.html show the same fits of it. Games of several variants are rated
//! each variant apart, and pooled only with `--pool` (see
//! [`crate::report::rating`]). A bot name that stands for two programs
//! across the runs (their tournament.json) is warned about: its games are
//! rated as one bot's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::files::DirLock;
use crate::report::game_ids::{first_place, GameIds, TournamentId};
use crate::report::html::{write_rated_report, Fits};
use crate::report::rating::{Pooling, Ratings};
use crate::report::standings::POOLED;
use crate::stats::{FitOptions, Tally};
use crate::tournament::games_reader::visit_numbered_games_csv;
use crate::tournament::identity::recorded_program;
use crate::tournament::manifest::Manifest;
use crate::tournament::output_files::run_file_in;
use crate::tournament::tally::AddRow;

#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "Rates all games together (joint maximum-likelihood Elo with \
first-player advantage and 95% intervals) and prints the standings. It never changes a run's \
files: with --out DIR it writes standings.csv, model.csv, pairwise.csv, crosstable.csv and \
report.html there, and DIR must not be a run's directory (a run rates itself as it ends; \
`arena report DIR` redraws its page).\n\nA game is identified by \
its tournament (the out directory and seed in the tournament.json next to its file; \
without one, the file itself) and its id: a game given twice is an error unless \
--allow-duplicates.\n\nGames of several variants are rated each variant on its own (the \
first-player advantage and draw rate differ a lot between variants); --pool adds the \
pooled fit (variant `all` in the files): one rating per bot over every variant, each \
variant with its own first-player advantage and draw elo.\n\nGames are joined by bot name: \
a name that stands for two programs across the runs (by the programs their tournament.json \
records) is warned about on stderr, and rated as one bot; `arena league import` keeps them \
apart as versions."
)]
pub struct Args {
    /// games.csv files (a run's directory stands for its games.csv); their
    /// games are rated together.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write standings.csv, model.csv, pairwise.csv, crosstable.csv and report.html to DIR
    /// (created if missing; not a run's directory). Without it nothing is written.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Only rate games of this variant (e.g. qango6).
    #[arg(long, value_name = "ID")]
    pub variant: Option<String>,
    /// With games of several variants, also rate them all together: one
    /// rating per bot, each variant's own first-player advantage and draw elo.
    #[arg(long)]
    pub pool: bool,
    /// Pure maximum likelihood, without the prior that keeps perfect scores
    /// finite (to compare with Ordo); refuses where no maximum exists.
    #[arg(long)]
    pub no_prior: bool,
    /// Rate a game found twice (same tournament and id) twice instead of
    /// stopping with an error.
    #[arg(long)]
    pub allow_duplicates: bool,
}

/// Where the tables go: `--out DIR`, if given, locked against any other
/// arena writing it, and not a run's directory (whose files only the run
/// writes). Taken before any game is read; the lock lasts until the files
/// are written.
fn output_dir(args: &Args) -> anyhow::Result<Option<(&Path, DirLock)>> {
    let Some(dir) = args.out.as_deref() else {
        return Ok(None);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // The lock first: a run playing there is named as its holder.
    let lock = DirLock::acquire(dir)?;
    if let Some(why) = lock.not_held() {
        eprintln!("warning: {why}");
    }
    if let Some(file) = run_file_in(dir) {
        bail!(refuse_run_dir(dir, file));
    }
    Ok(Some((dir, lock)))
}

fn refuse_run_dir(dir: &Path, file: &str) -> String {
    format!(
        "--out {}: that directory holds a run (its {file}), and arena rate never changes a \
         run's files; give a new or empty directory (a run rates itself as it ends, and \
         `arena report DIR` redraws its page)",
        dir.display()
    )
}

pub fn run(mut args: Args) -> anyhow::Result<i32> {
    // A run's directory stands for its games.csv.
    for file in &mut args.files {
        if file.is_dir() {
            file.push(crate::tournament::output_files::GAMES_CSV);
        }
    }
    if args.files.is_empty() {
        bail!("no games files given (usage: arena rate FILE... [--out DIR])");
    }
    for warning in one_name_two_programs(&args.files) {
        eprintln!("{warning}");
    }
    let out = output_dir(&args)?;
    let read = read_files(&args)?;
    if let Some(variant) = &args.variant {
        if read.tally.games() == 0 {
            bail!("none of the {} games is of variant {variant:?}", read.rows);
        }
    }
    let rated = read.tally.games();
    let options = if args.no_prior {
        FitOptions::no_prior()
    } else {
        FitOptions::default()
    };
    let variants = read.tally.variant_count();
    let pooling = if args.pool {
        Pooling::Pooled
    } else {
        Pooling::Separate
    };
    let ratings = Ratings::from_tally(&read.tally, &options, pooling, &[])?;
    for fit in &ratings.fits {
        if ratings.fits.len() > 1 {
            let label = fit.standings.label();
            if label == POOLED {
                outln!("All {variants} variants pooled (--pool):");
            } else {
                outln!("{label}:");
            }
        }
        outln!("{}", fit.standings.render_table());
    }
    let files = args.files.len();
    let mut summary = format!(
        "Rated {rated} game{} from {files} file{}",
        plural(rated),
        plural(files as u64)
    );
    let unplayed = read.tally.unplayed();
    if rated + unplayed.games < read.rows {
        let skipped = read.rows - rated - unplayed.games;
        summary += &format!(" ({skipped} of other variants skipped)");
    }
    if let Some(line) = unplayed.line() {
        summary += &format!("; {line}");
    }
    if read.repeated > 0 {
        summary += &format!(
            "; {} game{} counted more than once (--allow-duplicates)",
            read.repeated,
            plural(read.repeated)
        );
    }
    if variants > 1 && !args.pool {
        summary += &format!(
            "; {variants} variants, each rated on its own (--pool to also rate them together)"
        );
    }
    if args.no_prior {
        summary += "; pure maximum likelihood (--no-prior)";
    }
    outln!("{summary}.");
    let Some((dir, _lock)) = out else {
        outln!("Nothing written (--out DIR writes the tables and report.html).");
        return Ok(0);
    };
    let mut written = ratings.write_files(dir)?;
    // The page is a view of the games and of these fits: failing to write
    // it is said, and the ratings stand.
    match write_rated_report(
        &game_dirs(&args.files),
        dir,
        args.variant.as_deref(),
        &read.tally,
        Fits::Rated(&ratings),
    ) {
        Ok(page) => written.push(page),
        Err(e) => eprintln!("warning: report.html not written: {e:#}"),
    }
    let names: Vec<String> = written.iter().map(|p| display(p)).collect();
    outln!("Wrote {}.", names.join(", "));
    Ok(0)
}

/// The directories holding the rated files (each once, in order), whose
/// games the report shows.
fn game_dirs(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for dir in file_dirs(files) {
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// One warning per bot name that stands for more than one program across
/// the files' runs (by the `programs` of the tournament.json beside each
/// file; a file without one is not checked): their games are rated as one
/// bot's.
fn one_name_two_programs(files: &[PathBuf]) -> Vec<String> {
    let mut seen: BTreeMap<String, Vec<(String, &Path)>> = BTreeMap::new();
    for (file, dir) in files.iter().zip(file_dirs(files)) {
        let Ok(manifest) = Manifest::read(&dir) else {
            continue;
        };
        for bot in &manifest.config.bots {
            if let Some(program) = recorded_program(bot, &manifest.programs) {
                seen.entry(bot.name.clone())
                    .or_default()
                    .push((program, file.as_path()));
            }
        }
    }
    seen.into_iter()
        .filter_map(|(name, runs)| {
            let mut programs: Vec<&str> = runs.iter().map(|(p, _)| p.as_str()).collect();
            programs.sort_unstable();
            programs.dedup();
            let count = match programs.len() {
                0 | 1 => return None,
                2 => "two".to_string(),
                n => n.to_string(),
            };
            let files: Vec<String> = runs.iter().map(|(_, f)| display(f)).collect();
            Some(format!(
                "warning: bot {name:?} is {count} programs in these runs ({}): they are rated as one; arena league import keeps them apart as versions",
                files.join(", ")
            ))
        })
        .collect()
}

/// The directory of each file.
fn file_dirs(files: &[PathBuf]) -> Vec<PathBuf> {
    files
        .iter()
        .map(|file| match file.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        })
        .collect()
}

/// The games of all files, counted.
struct ReadGames {
    tally: Tally,
    /// Rows read, of any variant.
    rows: u64,
    /// Rows whose game had been seen before (only with --allow-duplicates).
    repeated: u64,
}

/// Streams every file into one [`Tally`]: memory does not grow with the
/// number of games beyond a bit per game id. A file without games, or a game
/// seen before (unless allowed), is an error naming the places.
fn read_files(args: &Args) -> anyhow::Result<ReadGames> {
    let mut read = ReadGames {
        tally: Tally::new(),
        rows: 0,
        repeated: 0,
    };
    let mut ids = GameIds::new();
    for (index, file) in args.files.iter().enumerate() {
        let tournament = TournamentId::of_file(file);
        let mut in_file = 0u64;
        visit_numbered_games_csv(file, |line, row| {
            in_file += 1;
            if !ids.insert(&tournament, row.id) {
                if !args.allow_duplicates {
                    bail!(repeated_game(args, index, line, &tournament, row.id));
                }
                read.repeated += 1;
            }
            if args.variant.as_ref().is_none_or(|v| *v == row.variant) {
                read.tally
                    .add_row(&row)
                    .map_err(|e| anyhow::anyhow!("{}: line {line}: {e}", file.display()))?;
            }
            Ok(())
        })?;
        if in_file == 0 {
            bail!(
                "{}: no games (the file has no rows after its header)",
                file.display()
            );
        }
        read.rows += in_file;
    }
    Ok(read)
}

/// The error for game `id` found again at `line` of the file given as argument
/// `index`, naming where it was first seen.
fn repeated_game(
    args: &Args,
    index: usize,
    line: u64,
    tournament: &TournamentId,
    id: u64,
) -> String {
    let here = format!(
        "{}:{line} (file {} given)",
        args.files[index].display(),
        index + 1
    );
    let earlier = args.files[..=index].to_vec();
    let first = first_place(&earlier, tournament, id)
        .map(|(file, first_line)| {
            let given = args.files.iter().position(|f| *f == file).unwrap_or(0) + 1;
            format!("{}:{first_line} (file {given} given)", file.display())
        })
        .unwrap_or_else(|| "an earlier row".to_string());
    format!(
        "game g{id} of the same tournament appears twice: at {first} and at {here} \
         (rating it twice would double its weight; pass --allow-duplicates to rate it anyway)"
    )
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}
