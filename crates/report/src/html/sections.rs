//! The page: the sections' data turned into template values and plots, and
//! `page.html` rendered by minijinja (auto-escaping, so bot names and
//! messages cannot inject markup). The game table is not rendered here: the
//! caller streams it where [`GAMES_MARKER`] stands.

use minijinja::{context, Environment};
use serde::Serialize;

use super::data::{failure_index, ReportData};
use super::moves::FIELDS;
use super::{plots, Source};
use crate::rating::{Pooling, Ratings};
use crate::standings::{Standings, POOLED};
use arena_referee::format_time_control;
use arena_referee::lines::variant_info_json;
use arena_rules::games::{render::letter_of, Cell, Variant};
use arena_rules::protocol::FailureReason;
use arena_stats::{FitOptions, Tally};
use arena_tournament::openings::OpeningOrder;
use arena_tournament::Plan;

/// Where the game lines go in the rendered page.
pub const GAMES_MARKER: &str = "@@ARENA_GAME_LINES@@";

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("viewer.js");

#[derive(Serialize)]
struct Setting {
    dir: String,
    kind: String,
    variant: String,
    time_control: String,
    games_per_pairing: String,
    openings: String,
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
    identity: Vec<String>,
}

#[derive(Serialize)]
struct Cell2 {
    text: String,
    background: String,
}

#[derive(Serialize)]
struct CrossRow {
    bot: String,
    cells: Vec<Cell2>,
}

#[derive(Serialize)]
struct FailureRow {
    bot: String,
    counts: Vec<(u64, String)>,
    total: u64,
}

#[derive(Serialize)]
struct VariantRow {
    variant: String,
    games: u64,
    white_pct: String,
    draw_pct: String,
    black_pct: String,
    svg: String,
}

#[derive(Serialize)]
struct TimeRow {
    bot: String,
    moves: u64,
    median: u64,
    p90: u64,
    max: u64,
    limit: String,
}

/// Percent-encoding for a value in the page's `#...` links.
fn url_part(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A red (0) to white (0.5) to green (1) background for a score.
pub fn heat(score: f64) -> String {
    let s = score.clamp(0.0, 1.0);
    let (r, g, b) = if s < 0.5 {
        let t = s / 0.5;
        (230.0 + 25.0 * t, 110.0 + 145.0 * t, 110.0 + 145.0 * t)
    } else {
        let t = (s - 0.5) / 0.5;
        (255.0 - 145.0 * t, 255.0 - 50.0 * t, 255.0 - 145.0 * t)
    };
    format!("rgb({},{},{})", r as u8, g as u8, b as u8)
}

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// Where the run's openings came from: a suite file (with its SHA-256,
/// size, order and start) or random legal plies.
fn openings_text(c: &arena_tournament::config::TournamentConfig) -> String {
    match &c.openings {
        Some(suite) => format!(
            "suite {} (sha256 {}): {} openings, {} order from index {}",
            suite.file.display(),
            suite.sha256,
            suite.openings.len(),
            match suite.order {
                OpeningOrder::Sequential => "sequential",
                OpeningOrder::Random => "random",
            },
            suite.start
        ),
        None => format!("{} random legal plies per pair", c.opening_plies),
    }
}

fn settings(sources: &[Source]) -> Vec<Setting> {
    sources
        .iter()
        .map(|s| {
            let dir = s.dir.display().to_string();
            match &s.manifest {
                Some(m) => {
                    let c = &m.config;
                    let kind = match &m.plan {
                        Plan::RoundRobin { games, .. } => format!("round robin, {games} games"),
                        Plan::Sprt(p) => format!(
                            "SPRT elo0={} elo1={} alpha={} beta={} ({})",
                            p.elo0,
                            p.elo1,
                            p.alpha,
                            p.beta,
                            p.model.name()
                        ),
                    };
                    Setting {
                        dir,
                        kind,
                        variant: c.variant.clone(),
                        time_control: format_time_control(&c.time_control),
                        games_per_pairing: c.games_per_pairing.to_string(),
                        openings: openings_text(c),
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
                                    .map(|f| format!("{} sha256 {}", f.path.display(), f.sha256))
                                    .collect(),
                            })
                            .collect(),
                    }
                }
                None => Setting {
                    dir,
                    kind: "no tournament.json".into(),
                    variant: "-".into(),
                    time_control: "-".into(),
                    games_per_pairing: "-".into(),
                    openings: "-".into(),
                    seed: "-".into(),
                    arena_version: "-".into(),
                    bots: Vec::new(),
                },
            }
        })
        .collect()
}

/// What the viewer needs: bots, directories' time controls, and per variant
/// the rules engine's VARIANT_INFO plus each cell's colour-group letter.
fn page_data(sources: &[Source], data: &ReportData) -> String {
    let variants: serde_json::Map<String, serde_json::Value> = data
        .variants
        .keys()
        .filter_map(|id| Variant::by_id(id))
        .map(|v| {
            let info: serde_json::Value =
                serde_json::from_str(&variant_info_json(v)).expect("VARIANT_INFO is JSON");
            let letters: String = (0..v.rows())
                .flat_map(|r| (0..v.cols()).map(move |c| Cell::new(r, c)))
                .map(|cell| letter_of(v, cell).unwrap_or(' '))
                .collect();
            (
                v.id.to_string(),
                serde_json::json!({ "info": info, "letters": letters }),
            )
        })
        .collect();
    let dirs: Vec<_> = sources
        .iter()
        .map(|s| {
            serde_json::json!({
                "dir": s.dir.display().to_string(),
                "time_control": s.manifest.as_ref().map(|m| m.config.time_control),
            })
        })
        .collect();
    let json = serde_json::json!({
        "bots": data.bots,
        "dirs": dirs,
        "variants": variants,
        "fields": FIELDS,
        "failures": FailureReason::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
    });
    // `</` cannot close the script element: JSON allows `<\/`.
    json.to_string().replace("</", "<\\/")
}

/// Point and whiskers of each bot's Elo, in standings order.
fn elo_plot(standings: &Standings) -> String {
    let bots: Vec<_> = standings
        .rows
        .iter()
        .map(|r| (r.bot.clone(), r.elo, r.elo_low, r.elo_high))
        .collect();
    plots::elo_intervals(&bots)
}

/// Renders the page, with [`GAMES_MARKER`] where the game lines go.
pub fn render(sources: &[Source], data: &ReportData, tally: &Tally) -> anyhow::Result<String> {
    let ratings = if tally.games() > 0 {
        Some(Ratings::from_tally(
            tally,
            &FitOptions::default(),
            Pooling::Pooled,
            &[],
        ))
    } else {
        None
    };
    let (ratings, rating_error) = match ratings {
        Some(Ok(r)) => (Some(r), None),
        Some(Err(e)) => (None, Some(format!("{e:#}"))),
        None => (None, None),
    };
    let standings = ratings
        .as_ref()
        .and_then(Ratings::overall)
        .map(|r| &r.standings);
    // With several variants: the pooled table, then each variant's own.
    let tables: Vec<_> = ratings
        .iter()
        .flat_map(|r| {
            let several = r.fits.len() > 1;
            r.fits.iter().rev().map(move |fit| {
                let title = match fit.standings.label() {
                    _ if !several => String::new(),
                    POOLED => "All variants pooled: one rating per bot, each variant's own first-player advantage and draw elo".to_string(),
                    variant => format!("{variant}, its games alone"),
                };
                context! {
                    title => title,
                    rows => fit.standings.rows.clone(),
                    svg => elo_plot(&fit.standings),
                }
            })
        })
        .collect();
    let order = data.order_like(standings);

    let cross: Vec<CrossRow> = order
        .iter()
        .map(|&a| CrossRow {
            bot: data.bots[a].clone(),
            cells: order
                .iter()
                .map(|&b| {
                    match data
                        .cross
                        .get(&(a, b))
                        .and_then(|c| c.score().map(|s| (c, s)))
                    {
                        Some((c, s)) => Cell2 {
                            text: format!("{:.1}/{}", c.half_points as f64 / 2.0, c.games),
                            background: heat(s),
                        },
                        None => Cell2 {
                            text: if a == b { "" } else { "-" }.into(),
                            background: if a == b { "#ddd" } else { "#fff" }.into(),
                        },
                    }
                })
                .collect(),
        })
        .collect();
    let failures: Vec<FailureRow> = order
        .iter()
        .map(|&i| {
            let bot = &data.bots[i];
            let counts: Vec<(u64, String)> = FailureReason::ALL
                .iter()
                .map(|&r| {
                    (
                        data.failures[i][failure_index(r)],
                        format!(
                            "#list&bot={}&result=loss&reason={}",
                            url_part(bot),
                            r.as_str()
                        ),
                    )
                })
                .collect();
            FailureRow {
                bot: bot.clone(),
                total: counts.iter().map(|c| c.0).sum(),
                counts,
            }
        })
        .collect();
    let variants: Vec<VariantRow> = data
        .variants
        .iter()
        .map(|(id, v)| VariantRow {
            variant: id.clone(),
            games: v.games,
            white_pct: pct(v.results[0], v.games),
            draw_pct: pct(v.results[1], v.games),
            black_pct: pct(v.results[2], v.games),
            svg: plots::lengths(id, &v.lengths),
        })
        .collect();
    let times: Vec<(String, super::data::TimeSummary, Option<u64>)> = order
        .iter()
        .filter_map(|&i| {
            let t = &data.move_times[i];
            t.summary()
                .map(|s| (data.bots[i].clone(), s, t.move_limit_ms))
        })
        .collect();
    let time_rows: Vec<TimeRow> = times
        .iter()
        .map(|(bot, s, limit)| TimeRow {
            bot: bot.clone(),
            moves: s.moves,
            median: s.median_ms,
            p90: s.p90_ms,
            max: s.max_ms,
            limit: match (limit, data.move_times.iter().find_map(|t| t.clock_base_ms)) {
                (Some(l), _) => format!("{l} ms per move"),
                (None, Some(base)) => format!("clock {base} ms"),
                _ => "-".into(),
            },
        })
        .collect();
    let times_svg = (!times.is_empty()).then(|| plots::move_times(&times));
    let progression_svg = (data.progression.len() > 1).then(|| {
        let bots: Vec<String> = order.iter().map(|&i| data.bots[i].clone()).collect();
        plots::progression(&data.progression, &bots)
    });
    let llr: Vec<_> = data
        .llr
        .iter()
        .map(|(&k, path)| {
            let (low, high) = path.bounds();
            context! {
                dir => sources[k].dir.display().to_string(),
                bots => format!("{} vs {}", path.bot_a, path.bot_b),
                bounds => format!("[{low:.2}, {high:.2}]"),
                last => format!("{:.2}", path.points.last().map_or(0.0, |p| p.1)),
                svg => plots::llr_path(&path.points, (low, high)),
            }
        })
        .collect();
    let model = standings.map(|s| {
        let e =
            |e: &arena_stats::Estimate| format!("{:.1} [{:.1}, {:.1}]", e.value, e.low(), e.high());
        let variants: Vec<_> = s
            .model
            .iter()
            .map(|m| {
                context! {
                    variant => m.variant.clone(),
                    white_advantage => e(&m.white_advantage),
                    draw_elo => e(&m.draw_elo),
                }
            })
            .collect();
        context! {
            variants => variants,
            on_prior => s.parameters_on_prior(),
        }
    });

    let mut env = Environment::new();
    env.add_template("page.html", TEMPLATE)?;
    let page = env.get_template("page.html")?.render(context! {
        title => format!("arena report: {} games", data.games),
        version => env!("CARGO_PKG_VERSION"),
        games => data.games,
        settings => settings(sources),
        standings => tables,
        rating_error => rating_error,
        cross => cross,
        failure_names => FailureReason::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
        failures => failures,
        model => model,
        variants => variants,
        progression_svg => progression_svg,
        times => time_rows,
        times_svg => times_svg,
        llr => llr,
        style => STYLE,
        script => SCRIPT,
        page_data => page_data(sources, data),
        games_marker => GAMES_MARKER,
    })?;
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_runs_from_red_through_white_to_green() {
        assert_eq!(heat(0.5), "rgb(255,255,255)");
        assert_eq!(heat(0.0), "rgb(230,110,110)");
        assert_eq!(heat(1.0), "rgb(110,205,110)");
    }

    #[test]
    fn link_values_are_percent_encoded() {
        assert_eq!(url_part("a b&c=d"), "a%20b%26c%3Dd");
    }
}
