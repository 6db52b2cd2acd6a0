//! The Settings section of `report.html`: per directory, what its
//! tournament.json says the run was: its format (round robin, a gauntlet
//! with its seeds, an SPRT with its bounds), every variant, every time
//! control (a bot's own, for time odds, too), openings, seed, arena
//! version, and each bot's command with the SHA-256 of its program files.

use serde::Serialize;

use super::Source;
use arena_referee::format_time_control;
use arena_tournament::config::TournamentConfig;
use arena_tournament::registry::Formats;
use arena_tournament::Manifest;

/// One directory's settings, as the page shows them.
#[derive(Serialize)]
pub(super) struct Setting {
    dir: String,
    format: String,
    variant: String,
    time_control: String,
    games_per_pairing: String,
    openings: String,
    /// The openings suite file's full SHA-256 (empty without a suite).
    openings_sha256: String,
    seed: String,
    arena_version: String,
    bots: Vec<BotSetting>,
}

/// A bot as the settings show it: its command and the SHA-256 of each
/// program file arena identified it by (tournament.json's `programs`).
#[derive(Serialize)]
struct BotSetting {
    name: String,
    command: String,
    identity: Vec<FileId>,
}

/// A program file and its SHA-256; the page shows the first
/// [`SHORT_HASH`] hex digits and folds the full hash away.
#[derive(Debug, Serialize, PartialEq)]
struct FileId {
    path: String,
    sha256: String,
    short: String,
}

/// Hex digits of a SHA-256 the page shows unfolded (as `git log --oneline`
/// shows a commit: enough to tell files apart at a glance).
pub(super) const SHORT_HASH: usize = 12;

/// The first [`SHORT_HASH`] characters of `hash`.
pub(super) fn short_hash(hash: &str) -> String {
    hash.chars().take(SHORT_HASH).collect()
}

/// The settings of each source, in order.
pub(super) fn settings(sources: &[Source]) -> Vec<Setting> {
    sources
        .iter()
        .map(|s| {
            let dir = s.dir.display().to_string();
            match &s.manifest {
                Some(m) => setting(dir, m, &s.dir),
                None => Setting {
                    dir,
                    format: "no tournament.json".into(),
                    variant: "-".into(),
                    time_control: "-".into(),
                    games_per_pairing: "-".into(),
                    openings: "-".into(),
                    openings_sha256: String::new(),
                    seed: "-".into(),
                    arena_version: "-".into(),
                    bots: Vec::new(),
                },
            }
        })
        .collect()
}

fn setting(dir: String, m: &Manifest, path: &std::path::Path) -> Setting {
    let c = &m.config;
    // The format in its own words, and games per pairing as it plays them
    // (or why this arena cannot open it).
    let (format, games_per_pairing) = match Formats::builtin().open(m) {
        Ok(format) => (format.describe(c, path), format.games_per_pairing(c)),
        Err(e) => (
            format!("{}: {e:#}", m.plan.kind()),
            c.games_per_pairing.to_string(),
        ),
    };
    Setting {
        dir,
        format,
        games_per_pairing,
        variant: c.variant_ids().join(", "),
        time_control: time_control_text(c),
        openings: openings_text(c),
        openings_sha256: c
            .openings
            .as_ref()
            .map_or(String::new(), |suite| suite.sha256.clone()),
        seed: c.seed.to_string(),
        arena_version: m.arena_version.clone(),
        bots: c
            .bots
            .iter()
            .map(|b| BotSetting {
                name: b.name.clone(),
                command: b.command.join(" "),
                identity: m
                    .programs
                    .iter()
                    .filter(|p| p.bot == b.name)
                    .flat_map(|p| &p.files)
                    .map(|f| FileId {
                        path: f.path.display().to_string(),
                        sha256: f.sha256.clone(),
                        short: short_hash(&f.sha256),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The run's time control, then each bot's own (time odds), as the
/// terminal says it: `per-move=2000; time odds: rnd per-move=1500`; and
/// `; idle bots suspended` with `suspend_idle`, which the move times owe
/// something to.
fn time_control_text(c: &TournamentConfig) -> String {
    let odds = c.time_odds();
    let all = format_time_control(&c.time_control);
    let text = if odds.is_empty() {
        all
    } else {
        format!("{all}; time odds: {}", odds.join(", "))
    };
    if c.suspend_idle {
        format!("{text}; idle bots suspended")
    } else {
        text
    }
}

/// Where the run's openings came from: a suite file (with its SHA-256,
/// size, order and start) or random legal plies.
fn openings_text(c: &TournamentConfig) -> String {
    match &c.openings {
        Some(suite) => format!(
            "suite {} (sha256 {}…): {} openings, {} order from index {}",
            suite.file.display(),
            short_hash(&suite.sha256),
            suite.openings.len(),
            suite.order.name(),
            suite.start
        ),
        None => format!("{} random legal plies per pair", c.opening_plies),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_rules::protocol::TimeControl;
    use arena_stats::EloModel;
    use arena_tournament::settings::defs::{GAMES_PER_PAIRING, SEEDS, TIME_CONTROL, VARIANT};
    use arena_tournament::settings::Given;
    use arena_tournament::testing::run_of;
    use arena_tournament::{Plan, SprtPlan};

    fn config(variant: &str, gauntlet: &[&str]) -> TournamentConfig {
        let mut given = Given::new()
            .with_bot("a=x")
            .with_bot("b=y")
            .with_bot("c=z")
            .with(&VARIANT, variant)
            .with(&GAMES_PER_PAIRING, "2")
            .with(&TIME_CONTROL, "per-move=2000");
        for seed in gauntlet {
            given.set(&SEEDS, *seed);
        }
        run_of(&given).config
    }

    fn shown(manifest: Manifest) -> Setting {
        setting("o".into(), &manifest, std::path::Path::new("o"))
    }

    #[test]
    fn every_variant_and_every_time_control_is_named() {
        let mut config = config("qango6,quinque", &[]);
        config.bots[1].time_control = Some(TimeControl::PerMove { move_ms: 1500 });
        config.bots[2].time_control = Some(TimeControl::Clock {
            base_ms: 5000,
            increment_ms: 50,
        });
        let s = shown(Manifest::round_robin(config));
        assert_eq!(s.variant, "qango6, quinque");
        assert_eq!(
            s.time_control,
            "per-move=2000; time odds: b per-move=1500, c 5+0.05"
        );
        assert_eq!(s.format, "round robin, 12 games");
        // Without time odds, the one time control.
        let s = shown(Manifest::round_robin(self::config("qango7", &[])));
        assert_eq!(
            (s.variant.as_str(), s.time_control.as_str()),
            ("qango7", "per-move=2000")
        );
        // Suspension is said with the time control.
        let mut config = self::config("qango7", &[]);
        config.suspend_idle = true;
        let s = shown(Manifest::round_robin(config));
        assert_eq!(s.time_control, "per-move=2000; idle bots suspended");
    }

    #[test]
    fn the_format_names_a_gauntlets_seeds_and_an_sprts_bounds() {
        let s = shown(Manifest::round_robin(config("qango6", &["a", "c"])));
        // Seeds a and c each meet b (only) twice.
        assert_eq!(s.format, "gauntlet of a, c, 4 games");
        let plan = SprtPlan {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
            max_pairs: None,
            model: EloModel::Normalized,
        };
        // An SPRT is between two bots.
        let mut config = config("qango6", &[]);
        config.bots.truncate(2);
        let s = shown(Manifest::new(config, Plan::of(&plan)));
        assert_eq!(
            s.format,
            "SPRT elo0=0 elo1=5 alpha=0.05 beta=0.1 (normalized)"
        );
    }
}
