//! The names of the files in a tournament's output directory: the one list
//! that the code writing, reading and announcing them follows.
//!
//! ```text
//! tournament.json   settings and plan (for --resume)
//! games.jsonl       the journal: one full game record per finished game
//! games.csv         one row per finished game, derived from its record
//! logs/             each bot's stderr, per game
//! standings.csv, model.csv, pairwise.csv, crosstable.csv
//!                   ratings and results, written at the end
//! certificate.csv   an adaptive ranking's certificate, at the end
//! report.html       the HTML report (plots, game list, viewer), at the end
//! ```

pub const MANIFEST_FILE: &str = "tournament.json";
pub const GAMES_CSV: &str = "games.csv";
pub const GAMES_JSONL: &str = "games.jsonl";
/// A directory.
pub const LOGS_DIR: &str = "logs";
pub const STANDINGS_FILE: &str = "standings.csv";
pub const MODEL_FILE: &str = "model.csv";
pub const PAIRWISE_FILE: &str = "pairwise.csv";
pub const CROSSTABLE_FILE: &str = "crosstable.csv";
/// An adaptive ranking's certificate (`format = "adaptive"`).
pub const CERTIFICATE_FILE: &str = "certificate.csv";

/// What a run writes as it goes, in the order they are listed to the user.
pub const RUN_FILES: [&str; 4] = [GAMES_CSV, GAMES_JSONL, MANIFEST_FILE, LOGS_DIR];
/// What rating the finished games writes (at the end of a run, and
/// `arena rate`), in the order they are written.
pub const RATING_FILES: [&str; 4] = [STANDINGS_FILE, MODEL_FILE, PAIRWISE_FILE, CROSSTABLE_FILE];
/// The HTML report, written at the end of a run and by `arena report`.
pub const REPORT_FILE: &str = "report.html";

/// The first of a run's own files ([`RUN_FILES`]) that `dir` holds, if any:
/// such a directory is a run's, whose files only the run itself writes.
pub fn run_file_in(dir: &std::path::Path) -> Option<&'static str> {
    RUN_FILES
        .into_iter()
        .find(|name| dir.join(name).symlink_metadata().is_ok())
}
