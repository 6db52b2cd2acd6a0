//! `arena merge OUT DIR...`: join the output directories of a tournament's
//! shards (`arena tournament --shard K/N`) into one directory, checked.

use std::path::PathBuf;

use crate::cli::output::Terminal;
use crate::report::rating::rate_dir;
use crate::tournament::merge::{self, MergeOutcome};
use crate::tournament::stage_shards::StagePosition;
use crate::tournament::text::Said;

/// Exit status when the merge was written but games are missing (a shard
/// not given, not finished, or stopped mid-game): resume those shards and
/// merge again.
pub const EXIT_INCOMPLETE: i32 = 3;
/// Exit status of a Swiss's or knockout's merge when a round is complete
/// and the next is to play: each shard plays it with `--after OUT`.
pub const EXIT_NEXT_ROUND: i32 = 5;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks that every DIR holds a shard of the same tournament \
(the identity in tournament.json: a hash of the settings and seed), that no shard and no \
game is given twice, and lists the games still missing. Writes OUT/games.csv and \
OUT/games.jsonl in game id order, an unsharded OUT/tournament.json, and standings.csv, \
model.csv, pairwise.csv, crosstable.csv and report.html. Bot logs stay in the shards' directories.\n\nExit status: 0 \
when every game of the tournament is merged, 3 when the merge was written but games are \
missing (resume the shards with `arena tournament --resume DIR`, then merge again, or \
`arena tournament --resume OUT` plays the missing games), 2 on an error (nothing is \
merged; also when another arena is writing OUT), 5 for a swiss or knockout when every game so far is merged and a round is to play (play it on every shard with `arena tournament --resume DIR --after OUT`, then merge again)."
)]
pub struct Args {
    /// Output directory (created; a previous merge of the same tournament
    /// there is replaced).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The shards' output directories.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Memory for sorting a shard's games.jsonl that is not in game id
    /// order, in KiB (larger: fewer temporary runs).
    #[arg(long, value_name = "KIB", default_value_t = merge::RUN_BYTES / 1024)]
    pub sort_kib: usize,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut terminal = Terminal::new(false);
    let outcome = merge::merge(&args.out, &args.dirs, args.sort_kib.max(1) * 1024)?;
    let rated = rate_dir(&outcome.dir)?;
    terminal.ratings(&outcome.dir, &rated);
    if let Some(tables) = &outcome.tables {
        terminal.say(&[
            Said::Line(String::new()),
            Said::Tables(tables.tables.clone()),
        ]);
        if let Some(note) = &tables.note {
            outln!("{note}");
        }
    }
    for line in summary(&outcome) {
        outln!("{line}");
    }
    Ok(if !outcome.complete() {
        EXIT_INCOMPLETE
    } else if !outcome.over() {
        EXIT_NEXT_ROUND
    } else {
        0
    })
}

/// What the user reads after a merge: notes, then what is missing, then
/// the count.
pub fn summary(outcome: &MergeOutcome) -> Vec<String> {
    let mut lines: Vec<String> = outcome.notes.iter().map(|n| format!("note: {n}")).collect();
    for (shard, games) in &outcome.absent {
        lines.push(format!(
            "missing: shard {shard} (no directory given, {games} games)"
        ));
    }
    for missing in &outcome.missing {
        lines.push(format!(
            "missing: shard {} ({}) lacks {} games: {}",
            missing.shard,
            missing.dir.display(),
            missing.games,
            missing.ranges_text()
        ));
    }
    let state = if outcome.complete() {
        "complete".to_string()
    } else {
        format!("INCOMPLETE, {} missing", outcome.missing_games())
    };
    lines.push(format!(
        "Merged {} of {} games into {} ({state})",
        outcome.games,
        outcome.total,
        outcome.dir.display()
    ));
    lines.extend(
        outcome
            .stage
            .as_ref()
            .map(|stage| stage_line(outcome, stage)),
    );
    lines
}

/// Where a Swiss or knockout stands after the merge.
fn stage_line(outcome: &MergeOutcome, stage: &StagePosition) -> String {
    let title = &stage.title;
    if !outcome.complete() {
        return format!("{title}: not complete; play the missing games on their shards (arena tournament --resume SHARD-DIR [--after MERGED]), then merge again");
    }
    if stage.over {
        return format!("{title} was the last: the tournament is over");
    }
    format!(
        "Next: {title} ({} games): play it on every shard with `arena tournament --resume SHARD-DIR --after {}`, then merge again",
        stage.games(),
        outcome.dir.display()
    )
}
