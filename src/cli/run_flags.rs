//! Flags shared by `arena tournament` and `arena sprt`: how the games are
//! played and where they are written. Both commands journal their games the
//! same way, so the flags mean the same in both and are declared once here.

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::tournament::config::Overrides;

#[derive(Debug, Default, clap::Args)]
pub struct RunFlags {
    /// Variant id (`arena games` lists them) [default: qango6]. A
    /// tournament also takes a comma list or `all`: the round robin is
    /// played in each variant.
    #[arg(long)]
    pub variant: Option<String>,
    /// Time control: `per-move=MS` or `BASE+INC` in seconds (e.g. 10+0.1)
    /// [default: per-move=1000].
    #[arg(long)]
    pub tc: Option<String>,
    /// Games played at the same time [default: number of cores].
    #[arg(short = 'j', long)]
    pub concurrency: Option<usize>,
    /// Seed for the openings [default: random, recorded in tournament.json].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output directory [default: arena-out/UTC-TIMESTAMP].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Allowance beyond each move's limit before a timeout, in ms [default: 100].
    #[arg(long)]
    pub grace_ms: Option<u64>,
    /// Sync the journal to disk at most every MS milliseconds, and at the
    /// end; 0 syncs after every game [default: 200].
    #[arg(long = "sync-ms", value_name = "MS")]
    pub sync_ms: Option<u64>,
    /// Stop starting a bot after this many start-up failures in a row; its
    /// remaining games are lost as `startup` (0: never) [default: 3].
    #[arg(long)]
    pub startup_failures: Option<u32>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Run every bot in the sandbox (bubblewrap; see README "Running
    /// untrusted bots"), whatever the config says.
    #[arg(long)]
    pub sandbox: bool,
    /// Opening suite file: one opening per line (moves in notation, `#`
    /// comments); replaces the random openings. Shipped suites: openings/.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Order of the suite's openings: `sequential` or `random` (one seeded
    /// shuffle) [default: sequential]. A short suite is cycled.
    #[arg(long, value_name = "ORDER")]
    pub openings_order: Option<String>,
    /// Index of the suite opening the first game pair plays [default: 0].
    #[arg(long, value_name = "N")]
    pub openings_start: Option<u64>,
}

impl RunFlags {
    /// A progress bar is drawn unless `--no-progress`, and only on a terminal
    /// (it would fill a redirected log with redraws).
    pub fn show_progress(&self) -> bool {
        !self.no_progress && std::io::stderr().is_terminal()
    }

    /// The config overrides these flags give, with the command's own
    /// settings (which differ in meaning or default between the commands).
    pub fn into_overrides(
        self,
        games_per_pairing: Option<u32>,
        opening_plies: Option<u32>,
        bots: Vec<String>,
    ) -> Overrides {
        Overrides {
            variant: self.variant,
            games_per_pairing,
            time_control: self.tc,
            concurrency: self.concurrency,
            seed: self.seed,
            out: self.out,
            opening_plies,
            grace_ms: self.grace_ms,
            sync_interval_ms: self.sync_ms,
            startup_failures: self.startup_failures,
            shard: None,
            bots,
            sandbox: self.sandbox,
            openings: self.openings,
            openings_order: self.openings_order,
            openings_start: self.openings_start,
            gauntlet: Vec::new(),
            rating_interval: None,
        }
    }
}
