//! `certificate.csv`: what an adaptive ranking (`format = "adaptive"`)
//! concludes, next to the standings (standings.csv keeps its columns):
//!
//! `confidence,certified,games,rank,upper,lower,elo_difference,elo_sd,z,needed_z,wealth,needed_wealth,separated`
//!
//! one row per two bots adjacent in the ranking (`rank` is the upper bot's
//! place, 1 = best), then any two bots not adjacent whose order is not
//! separated either (rare). `certified` (the same in every row) is `true`
//! when every pair is separated: the order is then wrong with at most `1 -
//! confidence` ([`arena_stats::adaptive`]). `z` is the difference over its
//! standard error, `needed_z` what the sequential boundary asks of it;
//! `wealth` is the head-to-head test's (the upper bot's bets on its own
//! game pairs against the lower), `needed_wealth` what it must reach; a
//! pair is separated when either reaches its mark. The
//! terminal and report.html say the same in one sentence
//! ([`certificate_sentence`]). Written by the adaptive format at the end of
//! its run ([`crate::adaptive`]).

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

pub use super::output_files::CERTIFICATE_FILE;
use super::rounded;
use super::rows_file::write_rows;
use arena_stats::Assessment;

/// The header of `certificate.csv`, in the field order of [`CertificateRow`].
pub const CERTIFICATE_COLUMNS: [&str; 13] = [
    "confidence",
    "certified",
    "games",
    "rank",
    "upper",
    "lower",
    "elo_difference",
    "elo_sd",
    "z",
    "needed_z",
    "wealth",
    "needed_wealth",
    "separated",
];

/// One line of `certificate.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CertificateRow {
    pub confidence: f64,
    pub certified: bool,
    pub games: u64,
    pub rank: usize,
    pub upper: String,
    pub lower: String,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo_difference: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo_sd: f64,
    #[serde(serialize_with = "rounded::dp2")]
    pub z: f64,
    #[serde(serialize_with = "rounded::dp2")]
    pub needed_z: f64,
    #[serde(serialize_with = "rounded::dp2")]
    pub wealth: f64,
    #[serde(serialize_with = "rounded::dp2")]
    pub needed_wealth: f64,
    pub separated: bool,
}

/// The rows of an adaptive ranking's `assessment` (none before any game)
/// at `confidence` after `games` games, `bots` naming its indices.
pub fn certificate_rows(
    confidence: f64,
    games: u64,
    bots: &[String],
    assessment: Option<&Assessment>,
) -> Vec<CertificateRow> {
    let Some(a) = assessment else {
        return Vec::new();
    };
    let rank_of = |bot: usize| a.order.iter().position(|&b| b == bot).unwrap_or(0) + 1;
    a.adjacent
        .iter()
        .chain(&a.others)
        .map(|c| CertificateRow {
            confidence,
            certified: a.certified,
            games,
            rank: rank_of(c.upper),
            upper: bots[c.upper].clone(),
            lower: bots[c.lower].clone(),
            elo_difference: c.difference,
            elo_sd: c.sd,
            z: c.z,
            needed_z: c.needed,
            wealth: c.wealth,
            needed_wealth: c.needed_wealth,
            separated: c.separated,
        })
        .collect()
}

/// Writes `rows` to `DIR/certificate.csv`; returns its path.
pub fn write_certificate(dir: &Path, rows: &[CertificateRow]) -> anyhow::Result<PathBuf> {
    let path = dir.join(CERTIFICATE_FILE);
    write_rows(&path, &CERTIFICATE_COLUMNS, rows)?;
    Ok(path)
}

/// The rows of `DIR/certificate.csv`, `None` when there is none.
pub fn read_certificate(dir: &Path) -> anyhow::Result<Option<Vec<CertificateRow>>> {
    let path = dir.join(CERTIFICATE_FILE);
    if !path.exists() {
        return Ok(None);
    }
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let rows = reader
        .deserialize()
        .collect::<Result<Vec<CertificateRow>, _>>()
        .with_context(|| format!("{} is not a certificate file", path.display()))?;
    Ok(Some(rows))
}

/// One sentence about the certificate of `rows`: certified at what
/// confidence after how many games, or which pairs are not separated.
pub fn certificate_sentence(rows: &[CertificateRow]) -> String {
    let Some(first) = rows.first() else {
        return "Ranking not certified: no games yet.".to_string();
    };
    let pct = format!("{}%", first.confidence * 100.0);
    if first.certified {
        return format!(
            "Ranking certified at {pct} confidence after {} games: every bot is separated from the next.",
            first.games
        );
    }
    let open: Vec<String> = rows
        .iter()
        .filter(|r| !r.separated)
        .map(|r| {
            format!(
                "{} > {} (z {:.2} of {:.2}, head to head {:.1} of {:.0})",
                r.upper, r.lower, r.z, r.needed_z, r.wealth, r.needed_wealth
            )
        })
        .collect();
    format!(
        "Ranking not certified at {pct} confidence after {} games; not separated: {}.",
        first.games,
        open.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(upper: &str, lower: &str, separated: bool, certified: bool) -> CertificateRow {
        CertificateRow {
            confidence: 0.95,
            certified,
            games: 40,
            rank: 1,
            upper: upper.into(),
            lower: lower.into(),
            elo_difference: 100.0,
            elo_sd: 60.0,
            z: 1.67,
            needed_z: 3.5,
            wealth: 2.5,
            needed_wealth: 80.0,
            separated,
        }
    }

    #[test]
    fn the_sentence_names_the_pairs_not_separated() {
        let open = [row("a", "b", true, false), row("b", "c", false, false)];
        let text = certificate_sentence(&open);
        assert!(
            text.starts_with("Ranking not certified at 95% confidence after 40 games"),
            "{text}"
        );
        assert!(
            text.contains("b > c (z 1.67 of 3.50, head to head 2.5 of 80)")
                && !text.contains("a > b"),
            "{text}"
        );
        let done = [row("a", "b", true, true)];
        assert!(certificate_sentence(&done)
            .starts_with("Ranking certified at 95% confidence after 40 games"));
    }

    #[test]
    fn rows_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let rows = vec![row("a", "b", true, true), row("b", "c", true, true)];
        write_rows(
            &dir.path().join(CERTIFICATE_FILE),
            &CERTIFICATE_COLUMNS,
            &rows,
        )
        .unwrap();
        assert_eq!(read_certificate(dir.path()).unwrap().unwrap(), rows);
        assert!(read_certificate(&dir.path().join("none"))
            .unwrap()
            .is_none());
    }
}
