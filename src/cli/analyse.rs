//! `arena analyse DIR`: every move the bots of a finished run chose, judged
//! against perfect play ([`crate::report::analyse`]); writes DIR/analysis.csv and
//! DIR/analysis_bots.csv and prints the per-bot table.
//!
//! Each game's rows are appended to DIR/analysis.partial.csv as it ends,
//! so a run killed mid-way resumes where it was (`resume.rs`); the final
//! files are written from all the rows, in game order, at the end. The
//! solvers use the settled table (`--table-dir`), so a position proven
//! once is never searched again.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::report::analyse::{analyse_games, Counts, Game, Plan};
use crate::report::analysis::{
    bots_table, summarise, write_analysis_csv, write_bots_csv, ANALYSIS_BOTS_CSV, ANALYSIS_CSV,
};
use crate::report::html::{visit_source, Source};
use crate::tournament::output_files::{GAMES_CSV, GAMES_JSONL};
use arena_solver::settled::{self, Location};
use arena_solver::Budget;
use resume::Partial;

mod resume;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each position from the first move a bot chose (the opening's plies are \
not the bots') to the end of the game is proven by the solver within --budget-ms: win, draw or \
loss for the side to move, or unknown. DIR/analysis.csv has one row per bot move (game_id gN, ply \
= N for the game's Nth move, counted from 1 with the opening's, which leads to the viewer's ply N, mover, color, move, value_before, value_after, both for \
the mover, mistake = the move made the mover's value worse, mover_result = the game's result for the mover, \
nodes); DIR/analysis_bots.csv and the table printed have per bot: moves, decided (value before \
proven), kept, mistakes (lost_win: a win to a draw or loss, lost_draw: a draw to a loss), \
unknown_after (decided, value after unknown: neither kept nor lost), accuracy (kept among \
the decided moves whose value after is known), won_not_converted (games with a proven win that \
the bot did not win) and the mean and earliest ply of a game's first mistake. `arena report DIR` \
then shows them. Resumable: games are appended to DIR/analysis.partial.csv as they finish, and a \
rerun after a kill analyses only the others (the final files equal an uninterrupted run's but for \
`nodes`, the work this run did). Settled positions are kept in a table per variant \
(--table-dir, docs/SOLVED.md) that every analysis, `arena solve`, adjudication and the engine \
share: a position found there takes no search (nodes 0). Plies per second: docs/PERFORMANCE.md. \
Memory: each worker's solver table takes --memory-mib."
)]
pub struct Args {
    /// Output directory of a finished tournament or SPRT (with games.jsonl).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Time the solver may spend on each position, in ms.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub budget_ms: u64,
    /// Worker threads, one solver each. [default: the number of cores]
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Memory of each worker's solver table, in MiB (the solver's own
    /// default is 1024; workers share the machine).
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub memory_mib: usize,
    /// No progress bar on stderr.
    #[arg(long)]
    pub no_progress: bool,
    /// Directory of the settled tables (one file per variant), or `off`.
    /// [default: $ARENA_TABLE_DIR, else $XDG_CACHE_HOME/arena, else
    /// ~/.cache/arena]
    #[arg(long, value_name = "DIR")]
    pub table_dir: Option<String>,
}

/// The settled tables of this process: `--table-dir`, else the
/// environment's; capped by `$ARENA_TABLE_MIB`.
pub fn configure_table(table_dir: Option<&str>) {
    let location = table_dir.map_or_else(Location::from_env, Location::parse);
    settled::configure(location, settled::cap_from_env());
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let games = read_games(&args.dir)?;
    let jobs = match args.jobs {
        Some(0) => bail!("-j 0: give at least 1 worker"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if args.memory_mib == 0 {
        bail!("--memory-mib 0: the solver needs a table; give at least 1");
    }
    configure_table(args.table_dir.as_deref());
    let mut partial = Partial::open(&args.dir, &games, args.budget_ms)?;
    let todo: Vec<usize> = (0..games.len()).filter(|&i| !partial.has(i)).collect();
    if partial.resumed() > 0 {
        outln!(
            "Resuming: {} of {} games were analysed before ({}); analysing the other {}.",
            partial.resumed(),
            games.len(),
            partial.path().display(),
            todo.len()
        );
    }
    let to_analyse: Vec<Game> = todo.iter().map(|&i| games[i].clone()).collect();
    let plan = Plan {
        budget: Budget::millis(args.budget_ms),
        jobs: jobs.min(to_analyse.len()).max(1),
        memory: args.memory_mib << 20,
    };
    let total: usize = to_analyse.iter().map(Game::bot_plies).sum();
    let bar = (!args.no_progress).then(|| progress_bar(total as u64));
    let started = Instant::now();
    let counts = analyse_games(&to_analyse, plan, |k, rows| {
        if let Some(bar) = &bar {
            bar.inc(rows.len() as u64);
        }
        partial.add(todo[k], rows)
    })?;
    let elapsed = started.elapsed();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let rows = partial.rows();
    let bots = summarise(&rows);
    write_analysis_csv(&args.dir.join(ANALYSIS_CSV), &rows)?;
    write_bots_csv(&args.dir.join(ANALYSIS_BOTS_CSV), &bots)?;
    partial.finish();
    out!("{}", bots_table(&bots));
    summary(&args, &rows, counts, elapsed, plan, todo.len());
    Ok(0)
}

/// The last lines: how many moves, how fast, how they were settled.
fn summary(
    args: &Args,
    rows: &[crate::report::analysis::PlyRow],
    counts: Counts,
    elapsed: Duration,
    plan: Plan,
    games: usize,
) {
    let unknown = rows.iter().filter(|r| r.before.is_none()).count();
    let settled = rows.len() - unknown;
    outln!(
        "\n{} bot moves of {games} games in {:.1} s ({:.0} plies/s, {} worker{}, {} ms a \
         position); {settled} of {} positions settled ({:.1}%), {unknown} unknown within the \
         budget.",
        rows.len(),
        elapsed.as_secs_f64(),
        rows.len() as f64 / elapsed.as_secs_f64().max(1e-9),
        plan.jobs,
        if plan.jobs == 1 { "" } else { "s" },
        args.budget_ms,
        rows.len(),
        100.0 * settled as f64 / rows.len().max(1) as f64,
    );
    outln!(
        "Solver: {} positions from the settled table, {} proven by a search, {} at once (a \
         win or a loss in one), {} unknown.",
        counts.from_table,
        counts.searched,
        counts.at_once,
        counts.unknown
    );
    outln!(
        "Wrote {} and {}.",
        args.dir.join(ANALYSIS_CSV).display(),
        args.dir.join(ANALYSIS_BOTS_CSV).display()
    );
}

/// The games of the run in `dir`, in id order; a clear error when `dir` is
/// no run's directory or holds no finished game.
fn read_games(dir: &Path) -> anyhow::Result<Vec<Game>> {
    if !dir.is_dir() {
        bail!(
            "{} is not a directory: give the output directory of a tournament or SPRT",
            dir.display()
        );
    }
    if !dir.join(GAMES_JSONL).exists() {
        if dir.join(GAMES_CSV).exists() {
            bail!(
                "{} has {GAMES_CSV} but no {GAMES_JSONL}: the analysis needs each game's moves, \
                 which only the journal holds",
                dir.display()
            );
        }
        bail!(
            "{} has no {GAMES_JSONL}: not an arena run directory (give the --out directory of a \
             tournament or SPRT)",
            dir.display()
        );
    }
    let source = Source {
        dir: dir.to_path_buf(),
        manifest: None,
    };
    let mut games = Vec::new();
    visit_source(&source, None, |_, record| {
        if let Some(record) = record {
            games.push(
                Game::of_record(record)
                    .with_context(|| dir.join(GAMES_JSONL).display().to_string())?,
            );
        }
        Ok(())
    })?;
    if games.is_empty() {
        bail!(
            "{} holds no finished game: nothing to analyse (run the tournament first)",
            dir.join(GAMES_JSONL).display()
        );
    }
    games.sort_by_key(|g| g.id);
    Ok(games)
}

/// A bar over the bot moves to analyse, on stderr.
fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{bar:30.cyan/blue} {pos}/{len} plies  {elapsed_precise} ETA {eta}  {per_sec}",
    )
    .expect("valid template")
    .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
