//! `certificate.csv`: what an adaptive ranking (`format = "adaptive"`)
//! concludes, next to the standings (standings.csv keeps its columns):
//!
//! `confidence,certified,games,rank,upper,lower,elo_difference,elo_sd,z,needed_z,wealth,needed_wealth,separated,certify,adjacent,upper_tier,lower_tier,boundary`
//!
//! one row per two bots adjacent in the ranking (`adjacent` true; `rank` is
//! the upper bot's place, 1 = best), then, for each place where the two
//! adjacent bots are separated but no tier boundary lies, one pair across
//! it that is not separated (`adjacent` false: why there is no boundary).
//! `certified` (the same in every row) is `true` when every pair is
//! separated: the order is then wrong with at most `1 - confidence`
//! ([`arena_stats::adaptive`]). `z` is the difference over its standard
//! error, `needed_z` what the sequential boundary asks of it; `wealth` is
//! the head-to-head test's (the upper bot's bets on its own game pairs
//! against the lower), `needed_wealth` what it must reach; a pair is
//! separated when either reaches its mark. `certify` is the run's goal
//! (`order`, `top:K`, `tiers`); `upper_tier` and `lower_tier` the two bots'
//! certified tiers (1 = best; bots in different tiers are certified in
//! that order, [`arena_stats::certify`]), `boundary` whether a tier
//! boundary lies between them: for `top:K` the adjacent row of rank `K`
//! says whether the set of the top `K` is certified. The terminal and
//! report.html say it in one bounded sentence ([`certificate_sentence`]:
//! a few names, never every pair). Written by the adaptive format at the
//! end of its run ([`crate::adaptive`]).

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

pub use super::output_files::CERTIFICATE_FILE;
use super::rounded;
use super::rows_file::write_rows;
use arena_stats::{Assessment, Goal, PairCheck};

/// The header of `certificate.csv`, in the field order of [`CertificateRow`].
pub const CERTIFICATE_COLUMNS: [&str; 18] = [
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
    "certify",
    "adjacent",
    "upper_tier",
    "lower_tier",
    "boundary",
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
    /// Absent in a file from before the goals: the order.
    #[serde(default)]
    pub certify: Goal,
    #[serde(default = "yes")]
    pub adjacent: bool,
    #[serde(default)]
    pub upper_tier: usize,
    #[serde(default)]
    pub lower_tier: usize,
    #[serde(default)]
    pub boundary: bool,
}

fn yes() -> bool {
    true
}

/// The rows of an adaptive ranking's `assessment` (none before any game)
/// at `confidence` after `games` games certifying `goal`, `bots` naming
/// its indices.
pub fn certificate_rows(
    confidence: f64,
    games: u64,
    goal: Goal,
    bots: &[String],
    assessment: Option<&Assessment>,
) -> Vec<CertificateRow> {
    let Some(a) = assessment else {
        return Vec::new();
    };
    let mut tier = vec![0; bots.len()];
    for (t, members) in a.tiers().iter().enumerate() {
        for &bot in members {
            tier[bot] = t + 1;
        }
    }
    let rank_of = |bot: usize| a.order.iter().position(|&b| b == bot).unwrap_or(0) + 1;
    let row = |c: &PairCheck, adjacent: bool| CertificateRow {
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
        certify: goal,
        adjacent,
        upper_tier: tier[c.upper],
        lower_tier: tier[c.lower],
        boundary: tier[c.upper] != tier[c.lower],
    };
    let mut rows: Vec<CertificateRow> = a.adjacent.iter().map(|c| row(c, true)).collect();
    rows.extend(blockers(a).into_iter().map(|c| row(c, false)));
    rows
}

/// For each place whose adjacent pair is separated but has no tier
/// boundary, the pair across it that is least separated (lowest `z`
/// relative to its mark), once each.
fn blockers(a: &Assessment) -> Vec<&PairCheck> {
    let boundaries = a.boundaries();
    let place = |bot: usize| a.order.iter().position(|&b| b == bot).unwrap_or(0);
    let mut found: Vec<&PairCheck> = Vec::new();
    for (k, adjacent) in a.adjacent.iter().enumerate() {
        if boundaries[k] || !adjacent.separated {
            continue;
        }
        let across = a
            .others
            .iter()
            .filter(|c| place(c.upper) <= k && place(c.lower) > k)
            .min_by(|x, y| (x.z / x.needed).total_cmp(&(y.z / y.needed)));
        if let Some(c) = across {
            if !found.iter().any(|f| std::ptr::eq(*f, c)) {
                found.push(c);
            }
        }
    }
    found
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

/// Names shown at most in a sentence: the rest is in certificate.csv.
const NAMES_SHOWN: usize = 8;
/// Tiers shown at most in a sentence.
const TIERS_SHOWN: usize = 4;

/// One sentence about the certificate of `rows`, bounded whatever the
/// field (a few names, never every pair): certified at what confidence
/// after how many games, or how many adjacent pairs are not separated and
/// the closest; for `top:K` the top, for `tiers` the first tiers.
pub fn certificate_sentence(rows: &[CertificateRow]) -> String {
    let Some(first) = rows.first() else {
        return "Ranking not certified: no games yet.".to_string();
    };
    let at = format!(
        "at {}% confidence after {} games",
        first.confidence * 100.0,
        first.games
    );
    let adjacent: Vec<&CertificateRow> = rows.iter().filter(|r| r.adjacent).collect();
    let tiers = tiers_of(&adjacent);
    match first.certify {
        Goal::Top(k) => top_sentence(k, &at, &adjacent, &tiers),
        Goal::Tiers => format!(
            "{} {at}: {}; all in certificate.csv.",
            count(tiers.len(), "tier", "tiers"),
            tiers_text(&tiers)
        ),
        Goal::Order if first.certified => {
            format!("Ranking certified {at}: every bot is separated from the next.")
        }
        Goal::Order => order_sentence(&at, &adjacent, &tiers),
    }
}

/// The ranking not certified: how many adjacent pairs are open, the
/// closest of them, the tiers so far.
fn order_sentence(at: &str, adjacent: &[&CertificateRow], tiers: &[Vec<&str>]) -> String {
    let open: Vec<&&CertificateRow> = adjacent.iter().filter(|r| !r.separated).collect();
    let closest = open
        .iter()
        .max_by(|x, y| (x.z / x.needed_z).total_cmp(&(y.z / y.needed_z)))
        .map(|r| format!("; the closest: {}", pair_text(r)))
        .unwrap_or_default();
    let so_far = if tiers.len() > 1 {
        format!(
            "; certified so far: {}",
            count(tiers.len(), "tier", "tiers")
        )
    } else {
        String::new()
    };
    format!(
        "Ranking not certified {at}: {} of {} adjacent pairs not separated{closest}{so_far}; all in certificate.csv.",
        open.len(),
        adjacent.len()
    )
}

/// The top `k`: certified (its order where separable) or not (the pair at
/// its boundary).
fn top_sentence(k: usize, at: &str, adjacent: &[&CertificateRow], tiers: &[Vec<&str>]) -> String {
    let Some(edge) = adjacent.iter().find(|r| r.rank == k) else {
        return format!("Top {k}: the field has no place {k}.");
    };
    if edge.boundary {
        let mut seen = 0;
        let top: Vec<Vec<&str>> = tiers
            .iter()
            .take_while(|t| {
                seen += t.len();
                seen <= k
            })
            .cloned()
            .collect();
        return format!("Top {k} certified {at}: {}.", order_text(&top));
    }
    let nearest = tiers
        .first()
        .filter(|t| t.len() < adjacent.len() + 1)
        .map(|t| format!("the smallest certified top is the top {}", t.len()))
        .unwrap_or_else(|| "no tier boundary yet".to_string());
    format!(
        "Top {k} not certified {at}: places {k} and {}, {}, {}; {nearest}; all in certificate.csv.",
        k + 1,
        pair_text(edge),
        if edge.separated {
            "separated, but a pair across them is not"
        } else {
            "not separated"
        },
    )
}

/// `A > B (z 0.30 of 5.10, head to head 1.0 of 1160)`.
fn pair_text(r: &CertificateRow) -> String {
    format!(
        "{} > {} (z {:.2} of {:.2}, head to head {:.1} of {:.0})",
        r.upper, r.lower, r.z, r.needed_z, r.wealth, r.needed_wealth
    )
}

/// The bots of each tier, best first, from the adjacent rows in rank order.
fn tiers_of<'a>(adjacent: &[&'a CertificateRow]) -> Vec<Vec<&'a str>> {
    let mut tiers: Vec<Vec<&str>> = Vec::new();
    let Some(first) = adjacent.first() else {
        return tiers;
    };
    tiers.push(vec![&first.upper]);
    for r in adjacent {
        if r.boundary {
            tiers.push(Vec::new());
        }
        tiers.last_mut().expect("one tier at least").push(&r.lower);
    }
    tiers
}

/// `A > {B, C} > D`: tiers in order, a tier of several in braces; at most
/// [`NAMES_SHOWN`] names.
fn order_text(tiers: &[Vec<&str>]) -> String {
    let mut shown = 0;
    let mut parts = Vec::new();
    for tier in tiers {
        if shown >= NAMES_SHOWN {
            let rest: usize = tiers.iter().map(Vec::len).sum::<usize>() - shown;
            parts.push(format!("... ({rest} more)"));
            break;
        }
        shown += tier.len();
        parts.push(match tier.as_slice() {
            [one] => one.to_string(),
            many => format!("{{{}}}", names_text(many)),
        });
    }
    let braces = if tiers.iter().any(|t| t.len() > 1) {
        " (bots in braces not separated)"
    } else {
        ""
    };
    format!("{}{braces}", parts.join(" > "))
}

/// `1: A, B (2); 2: C, D, E, ... (12); ... and 3 more tiers`.
fn tiers_text(tiers: &[Vec<&str>]) -> String {
    let mut parts: Vec<String> = tiers
        .iter()
        .take(TIERS_SHOWN)
        .enumerate()
        .map(|(t, tier)| format!("{}: {} ({})", t + 1, names_text(tier), tier.len()))
        .collect();
    if tiers.len() > TIERS_SHOWN {
        parts.push(format!("... and {} more", tiers.len() - TIERS_SHOWN));
    }
    parts.join("; ")
}

/// Up to 4 names, then `...`.
fn names_text(names: &[&str]) -> String {
    let mut text = names.iter().take(4).copied().collect::<Vec<_>>().join(", ");
    if names.len() > 4 {
        text.push_str(", ...");
    }
    text
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
            certify: Goal::Order,
            adjacent: true,
            upper_tier: 1,
            lower_tier: 1 + usize::from(separated),
            boundary: separated,
        }
    }

    #[test]
    fn the_sentence_names_the_pairs_not_separated() {
        let open = [row("a", "b", true, false), row("b", "c", false, false)];
        let text = certificate_sentence(&open);
        assert_eq!(
            text,
            "Ranking not certified at 95% confidence after 40 games: 1 of 2 adjacent pairs not \
             separated; the closest: b > c (z 1.67 of 3.50, head to head 2.5 of 80); certified \
             so far: 2 tiers; all in certificate.csv."
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

    fn check(upper: usize, lower: usize, separated: bool) -> PairCheck {
        PairCheck {
            upper,
            lower,
            difference: 100.0,
            sd: 50.0,
            z: if separated { 6.0 } else { 0.5 },
            needed: 5.0,
            wealth: 1.0,
            needed_wealth: 100.0,
            separated,
        }
    }

    /// `n` bots b0 > b1 > ...: adjacent pairs separated where `split`, every
    /// other pair separated.
    fn assessment(n: usize, split: impl Fn(usize) -> bool) -> (Vec<String>, Assessment) {
        let names = (0..n).map(|k| format!("b{k}")).collect();
        let a = Assessment {
            order: (0..n).collect(),
            adjacent: (0..n - 1).map(|k| check(k, k + 1, split(k))).collect(),
            others: Vec::new(),
            certified: (0..n - 1).all(&split),
        };
        (names, a)
    }

    #[test]
    fn top_k_and_tiers_read_from_the_rows() {
        // b0 > b1 | b2 ~ b3 | b4 > ...: boundaries after places 1, 2 and 4.
        let (names, a) = assessment(6, |k| k != 2 && k != 4);
        let rows = certificate_rows(0.95, 80, Goal::Top(2), &names, Some(&a));
        assert_eq!(rows.len(), 5);
        assert_eq!(
            rows.iter().map(|r| r.upper_tier).collect::<Vec<_>>(),
            [1, 2, 3, 3, 4]
        );
        assert!(rows[1].boundary && !rows[2].boundary);
        assert_eq!(
            certificate_sentence(&rows),
            "Top 2 certified at 95% confidence after 80 games: b0 > b1."
        );
        let rows = certificate_rows(0.95, 80, Goal::Top(3), &names, Some(&a));
        assert!(certificate_sentence(&rows).starts_with(
            "Top 3 not certified at 95% confidence after 80 games: places 3 and 4, b2 > b3 (z 0.50 of 5.00"
        ));
        let rows = certificate_rows(0.95, 80, Goal::Tiers, &names, Some(&a));
        assert_eq!(
            certificate_sentence(&rows),
            "4 tiers at 95% confidence after 80 games: 1: b0 (1); 2: b1 (1); 3: b2, b3 (2); \
             4: b4, b5 (2); all in certificate.csv."
        );
    }

    #[test]
    fn the_sentence_stays_short_for_a_big_field() {
        let (names, a) = assessment(500, |k| k % 7 == 0);
        for goal in [Goal::Order, Goal::Top(3), Goal::Top(1), Goal::Tiers] {
            let rows = certificate_rows(0.95, 9_000, goal, &names, Some(&a));
            let text = certificate_sentence(&rows);
            assert!(text.len() < 400 && !text.contains('\n'), "{goal}: {text}");
        }
    }
}
