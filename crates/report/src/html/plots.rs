//! The report's plots as SVG text, drawn by the `plotters` crate (its SVG
//! backend): arena renders them, the page embeds them, nothing is fetched.
//! Each function takes the section's data and returns one `<svg>` element;
//! a bot is drawn in its one colour of the page ([`BotColours`]) in every
//! plot.

use std::collections::HashMap;

use plotters::prelude::*;

use super::data::{Checkpoint, TimeSummary};
use crate::standings::elo_text;

const WIDTH: u32 = 760;

fn color(i: usize) -> RGBColor {
    let c = Palette99::pick(i).to_rgba();
    RGBColor(c.0, c.1, c.2)
}

/// What plots draw that is no bot's (game lengths, the LLR): a grey blue
/// that is not in the palette, so a palette colour always means one bot.
const NEUTRAL: RGBColor = RGBColor(90, 110, 140);

/// One colour per bot for every plot of a page: the palette's colour at the
/// bot's place in the page's one bot order.
#[derive(Debug, Clone)]
pub struct BotColours {
    places: HashMap<String, usize>,
}

impl BotColours {
    /// Colours for `bots`, in the page's order.
    pub fn new(bots: &[String]) -> BotColours {
        BotColours {
            places: bots
                .iter()
                .enumerate()
                .map(|(i, bot)| (bot.clone(), i))
                .collect(),
        }
    }

    /// The colour of `bot` (a bot the page does not list gets the one after
    /// all of them).
    pub fn of(&self, bot: &str) -> RGBColor {
        color(self.places.get(bot).copied().unwrap_or(self.places.len()))
    }
}

/// Draws with `draw` on an SVG of `height` pixels; a drawing error gives an
/// SVG saying so rather than no page.
fn svg(
    height: u32,
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> String {
    let mut out = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|_| draw(&root));
        drawn.and_then(|_| root.present().map_err(|e| e.to_string()))
    };
    match result {
        Ok(()) => out,
        Err(e) => format!("<p class=\"error\">plot not drawn: {e}</p>"),
    }
}

/// The name under tick `x` of a chart with one bot per integer position.
fn bot_label(x: &f64, n: usize, name: impl Fn(usize) -> String) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
        name(i as usize)
    } else {
        String::new()
    }
}

fn padded(low: f64, high: f64) -> (f64, f64) {
    let span = (high - low).abs().max(1.0);
    (low - span * 0.08, high + span * 0.08)
}

/// Elo point and whiskers (interval) per bot, best first, left to right.
pub fn elo_intervals(bots: &[(String, f64, f64, f64)], colours: &BotColours) -> String {
    let low = bots.iter().map(|b| b.2).fold(f64::INFINITY, f64::min);
    let high = bots.iter().map(|b| b.3).fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = padded(low.min(0.0), high.max(0.0));
    let n = bots.len();
    svg(320, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .caption("Elo with 95% interval", ("sans-serif", 16))
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), low..high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_labels(n.max(1))
            .x_label_formatter(&|x| bot_label(x, n, |i| bots[i].0.clone()))
            .y_label_formatter(&|y| elo_text(*y))
            .y_desc("Elo")
            .disable_x_mesh()
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(bots.iter().enumerate().map(|(i, b)| {
                ErrorBar::new_vertical(i as f64, b.2, b.1, b.3, colours.of(&b.0).filled(), 12)
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(
                bots.iter()
                    .enumerate()
                    .map(|(i, b)| Circle::new((i as f64, b.1), 5, colours.of(&b.0).filled())),
            )
            .map_err(|e| e.to_string())?;
        // Each point's Elo beside it, as the table shows it.
        chart
            .draw_series(bots.iter().enumerate().map(|(i, b)| {
                EmptyElement::at((i as f64, b.1))
                    + Text::new(elo_text(b.1), (10, -7), ("sans-serif", 13).into_font())
            }))
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// Each bot's Elo (line) and interval (thin lines) over the games played.
pub fn progression(checkpoints: &[Checkpoint], bots: &[String], colours: &BotColours) -> String {
    let max_games = checkpoints.last().map_or(1, |c| c.games).max(1) as f64;
    let all = checkpoints.iter().flat_map(|c| &c.ratings);
    let low = all.clone().map(|r| r.low).fold(0.0, f64::min).max(-1500.0);
    let high = all.map(|r| r.high).fold(0.0, f64::max).min(1500.0);
    let (low, high) = padded(low, high);
    svg(340, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .caption("Rating progression", ("sans-serif", 16))
            .build_cartesian_2d(0f64..max_games, low..high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("games")
            .y_desc("Elo")
            .y_label_formatter(&|y| elo_text(*y))
            .draw()
            .map_err(|e| e.to_string())?;
        for bot in bots {
            let point = |c: &Checkpoint| c.ratings.iter().find(|r| &r.bot == bot).cloned();
            let series: Vec<_> = checkpoints
                .iter()
                .filter_map(|c| point(c).map(|r| (c.games as f64, r)))
                .collect();
            let clamp = |v: f64| v.clamp(low, high);
            let style = colours.of(bot);
            for pick in [
                |r: &super::data::RatingPoint| r.low,
                |r: &super::data::RatingPoint| r.high,
            ] {
                chart
                    .draw_series(LineSeries::new(
                        series.iter().map(|(g, r)| (*g, clamp(pick(r)))),
                        style.mix(0.35),
                    ))
                    .map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(LineSeries::new(
                    series.iter().map(|(g, r)| (*g, clamp(r.elo))),
                    style.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label(bot.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], style.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// Games per length (plies) of one variant.
pub fn lengths(variant: &str, lengths: &std::collections::BTreeMap<u32, u64>) -> String {
    let max_plies = lengths.keys().next_back().copied().unwrap_or(1) + 1;
    let max_games = lengths.values().copied().max().unwrap_or(1);
    svg(260, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .caption(format!("Game length, {variant}"), ("sans-serif", 16))
            .build_cartesian_2d(0u32..max_plies, 0u64..max_games + max_games / 10 + 1)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("plies")
            .y_desc("games")
            .disable_x_mesh()
            .draw()
            .map_err(|e| e.to_string())?;
        // One bar per length, drawn in order (plotters' `Histogram` sums
        // its data in a `HashMap` and draws in its order, so the same games
        // gave a different page each time).
        let bars = lengths.iter().map(|(&plies, &games)| {
            let mut bar = Rectangle::new([(plies, games), (plies + 1, 0)], NEUTRAL.filled());
            bar.set_margin(0, 0, 1, 1);
            bar
        });
        chart.draw_series(bars).map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// Per bot: a bar to the median, a whisker to the maximum, a mark at p90,
/// and the per-move limit as a red line.
pub fn move_times(bots: &[(String, TimeSummary, Option<u64>)], colours: &BotColours) -> String {
    let n = bots.len();
    let top = bots
        .iter()
        .map(|b| b.1.max_ms.max(b.2.unwrap_or(0)))
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.1;
    svg(300, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .caption(
                "Move time: median (bar), p90 (mark), max (whisker), limit (red)",
                ("sans-serif", 15),
            )
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_labels(n.max(1))
            .x_label_formatter(&|x| bot_label(x, n, |i| bots[i].0.clone()))
            .y_desc("ms")
            .disable_x_mesh()
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (bot, t, limit)) in bots.iter().enumerate() {
            let x = i as f64;
            let c = colours.of(bot);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.25, 0.0), (x + 0.25, t.median_ms as f64)],
                    c.mix(0.6).filled(),
                )))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, t.median_ms as f64), (x, t.max_ms as f64)],
                    c.stroke_width(2),
                )))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x - 0.15, t.p90_ms as f64), (x + 0.15, t.p90_ms as f64)],
                    BLACK.stroke_width(3),
                )))
                .map_err(|e| e.to_string())?;
            if let Some(limit) = limit {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x - 0.4, *limit as f64), (x + 0.4, *limit as f64)],
                        RED.stroke_width(2),
                    )))
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    })
}

/// The LLR after each pair against the test's two bounds.
pub fn llr_path(points: &[(u64, f64)], bounds: (f64, f64)) -> String {
    let max_pairs = points.last().map_or(1, |p| p.0).max(1) as f64;
    let low = points.iter().map(|p| p.1).fold(bounds.0, f64::min);
    let high = points.iter().map(|p| p.1).fold(bounds.1, f64::max);
    let (low, high) = padded(low, high);
    svg(300, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .caption("SPRT log-likelihood ratio", ("sans-serif", 16))
            .build_cartesian_2d(0f64..max_pairs, low..high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("game pairs")
            .y_desc("LLR")
            .draw()
            .map_err(|e| e.to_string())?;
        for bound in [bounds.0, bounds.1] {
            chart
                .draw_series(LineSeries::new(
                    [(0.0, bound), (max_pairs, bound)],
                    RED.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?;
        }
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|&(p, l)| (p as f64, l)),
                NEUTRAL.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_keeps_its_colour_and_no_bot_has_the_neutral_one() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let colours = BotColours::new(&names(&["b", "a", "c"]));
        assert_eq!(colours.of("b"), color(0));
        assert_eq!(colours.of("c"), color(2));
        assert_eq!(colours.of("a"), color(1));
        // A bot the page does not list: the colour after all of them.
        assert_eq!(colours.of("d"), color(3));
        for i in 0..99 {
            assert_ne!(color(i), NEUTRAL, "palette colour {i}");
        }
    }
}
