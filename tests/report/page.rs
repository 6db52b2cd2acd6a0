//! report.html of a real two-variant round robin with time odds, read as
//! HTML text and SVG: the Settings name every variant, every time control
//! (a bot's own too) and the format; every table lists the bots in the
//! rank order of the pooled standings (the crosstable heatmap, failures,
//! move times, the progression's legend); and one bot has one colour in
//! every plot (each Elo plot, the rating progression and the move times),
//! no two bots the same. The field is the golden one: an illegal-move bot,
//! the instant bot, and seeded greedy and random Python bots, listed so
//! that the config's order is not the rank order.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::tournament::*;

/// The HTML of `id`'s `<section>`.
fn section<'a>(page: &'a str, id: &str) -> &'a str {
    let start = page
        .find(&format!("<section id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = start + page[start..].find("</section>").unwrap();
    &page[start..end]
}

/// Every `<tag ...>` opening tag in `html`, in order.
fn tags<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag} ");
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(&open) {
        let end = at + rest[at..].find('>').unwrap();
        found.push(&rest[at..=end]);
        rest = &rest[end..];
    }
    found
}

/// The value of attribute `name` of the opening tag `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    Some(&tag[at..at + tag[at..].find('"')?])
}

fn number(tag: &str, name: &str) -> f64 {
    attr(tag, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} of {tag}"))
}

/// The texts between `<open ...>` and `</close>` in `html`, trimmed, in order.
fn texts(html: &str, open: &str, close: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(open) {
        let body = at + rest[at..].find('>').unwrap() + 1;
        let end = body + rest[body..].find(close).unwrap();
        found.push(rest[body..end].trim().to_string());
        rest = &rest[end..];
    }
    found
}

/// A text element of a plot: where it is, how it is anchored, what it says.
struct Label {
    x: f64,
    anchor: String,
    text: String,
}

fn labels(svg: &str) -> Vec<Label> {
    let mut found = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find("<text ") {
        let tag_end = at + rest[at..].find('>').unwrap();
        let end = tag_end + rest[tag_end..].find("</text>").unwrap();
        let tag = &rest[at..=tag_end];
        found.push(Label {
            x: number(tag, "x"),
            anchor: attr(tag, "text-anchor").unwrap_or("").to_string(),
            text: rest[tag_end + 1..end].trim().to_string(),
        });
        rest = &rest[end..];
    }
    found
}

/// The bot named under position `x` of a plot with bots along its x axis.
fn bot_at(labels: &[Label], x: f64, bots: &BTreeSet<String>) -> String {
    labels
        .iter()
        .find(|l| (l.x - x).abs() <= 1.0 && bots.contains(&l.text))
        .unwrap_or_else(|| panic!("no bot named under x = {x}"))
        .text
        .clone()
}

/// Bot -> colour in one plot, read the way the plot draws each kind.
fn plot_colours(svg: &str, bots: &BTreeSet<String>) -> (String, BTreeMap<String, String>) {
    let caption = labels(svg)[0].text.clone();
    let labels = labels(svg);
    let mut colours = BTreeMap::new();
    if caption.starts_with("Elo with") {
        // A point per bot, above its name.
        for circle in tags(svg, "circle") {
            let bot = bot_at(&labels, number(circle, "cx"), bots);
            colours.insert(bot, attr(circle, "fill").unwrap().to_string());
        }
    } else if caption.starts_with("Move time") {
        // A bar to the median per bot, centred above its name.
        for bar in tags(svg, "rect")
            .into_iter()
            .filter(|r| attr(r, "opacity") == Some("0.6"))
        {
            let centre = number(bar, "x") + number(bar, "width") / 2.0;
            let bot = bot_at(&labels, centre, bots);
            colours.insert(bot, attr(bar, "fill").unwrap().to_string());
        }
    } else if caption == "Rating progression" {
        // The legend: its names in order, and a short line of each colour.
        let names: Vec<&Label> = labels.iter().filter(|l| l.anchor == "start").collect();
        let marks: Vec<&str> = tags(svg, "polyline")
            .into_iter()
            .filter(|p| {
                let points: Vec<&str> = attr(p, "points").unwrap().split_whitespace().collect();
                let xy: Vec<(f64, f64)> = points
                    .iter()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                // A legend line: 16 pixels across, level.
                xy.len() == 2
                    && xy[1].0 - xy[0].0 == 16.0
                    && xy[0].1 == xy[1].1
                    && attr(p, "stroke-width") == Some("2")
            })
            .collect();
        assert_eq!(names.len(), marks.len(), "one legend line per name");
        for (name, mark) in names.iter().zip(marks) {
            colours.insert(name.text.clone(), attr(mark, "stroke").unwrap().to_string());
        }
    }
    (caption, colours)
}

#[test]
fn the_report_names_everything_and_keeps_one_order_and_one_colour_per_bot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = write_config_entries(
        dir.path(),
        "variants = [\"qango6\", \"quinque\"]\ngames_per_pairing = 2\n\
         time_control = \"per-move=2000\"\nconcurrency = 2\nseed = 5\nopening_plies = 2",
        &[
            bot_entry(
                "illegal",
                &[
                    "python3".into(),
                    repo_path("tests/bots/illegal.py").display().to_string(),
                ],
                "",
            ),
            bot_entry("inst", &[INSTANT_BOT.to_string()], ""),
            bot_entry(
                "greedy",
                &[
                    "python3".into(),
                    repo_path("bots/python/greedy_bot.py").display().to_string(),
                    "--seed".into(),
                    "7".into(),
                ],
                "",
            ),
            bot_entry(
                "rnd",
                &[
                    "python3".into(),
                    repo_path("bots/python/random_bot.py").display().to_string(),
                    "--seed".into(),
                    "11".into(),
                ],
                "time_control = \"per-move=1500\"",
            ),
        ],
    );
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();

    // Settings: every variant, every time control, the format.
    let settings = section(&page, "settings");
    for row in [
        "<tr><th>format</th><td>round robin, 24 games</td></tr>",
        "<tr><th>variant</th><td>qango6, quinque</td></tr>",
        "<tr><th>time control</th><td>per-move=2000; time odds: rnd per-move=1500</td></tr>",
    ] {
        assert!(settings.contains(row), "{row} not in {settings}");
    }

    // The bots' program files: each SHA-256 of tournament.json folded into
    // a <details> of its bot, the summary showing its first 12 digits.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap();
    let hashes: Vec<String> = manifest["programs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["files"].as_array().unwrap())
        .map(|f| f["sha256"].as_str().unwrap().to_string())
        .collect();
    assert!(!hashes.is_empty(), "the Python bots' files are identified");
    let folds = texts(settings, "<details class=\"hash\"", "</details>");
    let folded = folds.join("\n");
    for hash in &hashes {
        assert!(
            folded.contains(hash.as_str()),
            "{hash} folded away: {settings}"
        );
        let summary = texts(&folded, "<summary", "</summary>").join(" ");
        assert!(summary.contains(&format!("{}…", &hash[..12])), "{summary}");
    }
    let unfolded = folds.iter().fold(settings.to_string(), |page, fold| {
        page.replace(fold.as_str(), "")
    });
    for hash in &hashes {
        assert!(
            !unfolded.contains(hash.as_str()),
            "{hash} in full outside a fold"
        );
    }

    // Elo in whole numbers, as the terminal shows it (`+912`, `-5`, `0`),
    // in every standings table, equal to standings.csv's one-decimal value
    // rounded; `*` on the ratings that rest on the prior.
    let standings = section(&page, "standings");
    let csv = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (variant, bot, elo, low, high, prior) = (
        column("variant"),
        column("bot"),
        column("elo"),
        column("elo_low"),
        column("elo_high"),
        column("elo_prior"),
    );
    let whole = |text: &str| {
        let v: f64 = text.parse().unwrap();
        let r = format!("{v:+.0}");
        if r == "+0" || r == "-0" {
            "0".to_string()
        } else {
            r
        }
    };
    let shown: Vec<String> = texts(standings, "<tr><td>", "</tr>");
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // The tables in the page's order, by their titles (the pooled fit's
    // first), each in rank order.
    let blocks: Vec<String> = texts(standings, "<h3", "</h3>")
        .iter()
        .map(|title| match title.split_once(", its games alone") {
            Some((variant, _)) => variant.to_string(),
            None => {
                assert!(title.starts_with("All variants pooled"), "{title}");
                "all".to_string()
            }
        })
        .collect();
    assert_eq!(blocks[0], "all", "{blocks:?}");
    let mut sorted = blocks.clone();
    sorted.sort();
    assert_eq!(sorted, ["all", "qango6", "quinque"]);
    let mut expected = Vec::new();
    for block in blocks {
        for r in rows.iter().filter(|r| r[variant] == block.as_str()) {
            let mark = if r[prior] == "true" { "*" } else { "" };
            expected.push((
                r[bot].to_string(),
                format!("{}{mark}", whole(r[elo])),
                format!("[{}, {}]", whole(r[low]), whole(r[high])),
            ));
        }
    }
    assert_eq!(shown.len(), 12, "4 bots in 3 tables: {standings}");
    for (row, (bot, elo, interval)) in shown.iter().zip(&expected) {
        let cells: Vec<String> = texts(&format!("<td>{row}"), "<td", "</td>");
        let strip = |html: &str| {
            let mut text = String::new();
            let mut inside = false;
            for c in html.chars() {
                match c {
                    '<' => inside = true,
                    '>' => inside = false,
                    c if !inside => text.push(c),
                    _ => {}
                }
            }
            text
        };
        assert_eq!(&cells[1], bot);
        assert_eq!(&strip(&cells[7]), elo, "{row}");
        assert_eq!(&cells[8], interval, "{row}");
        let number = elo.trim_end_matches('*');
        assert!(
            number == "0"
                || (number.len() > 1
                    && number.starts_with(['+', '-'])
                    && number[1..].bytes().all(|b| b.is_ascii_digit())),
            "a whole number: {elo}"
        );
    }
    // The illegal-move bot lost every game (after the 2 opening plies it
    // plays on the last occupied cell), so
    // its rating rests on the prior in every table; the page says what that
    // means once, under the tables, and no row says "(prior)".
    assert!(expected
        .iter()
        .filter(|(bot, ..)| bot == "illegal")
        .all(|(_, elo, _)| elo.ends_with('*')));
    assert_eq!(page.matches("The rating rests on the prior.").count(), 1);
    assert_eq!(standings.matches("id=\"prior-note\"").count(), 1);
    assert!(!standings.contains("(prior)"), "{standings}");
    assert!(standings.contains("1 virtual win and 1 virtual loss"));

    // The pooled standings come first; their order is the page's.
    let standings = section(&page, "standings");
    let pooled = &standings[..standings.find("</table>").unwrap()];
    let ranked = texts(pooled, "<td class=\"name\"", "</td>");
    assert_eq!(ranked.len(), 4, "{pooled}");
    assert_ne!(
        ranked,
        ["illegal", "inst", "greedy", "rnd"],
        "pick bots whose rank is not their config order"
    );
    let crosstable = section(&page, "crosstable");
    let header = &crosstable[crosstable.find("<tr>").unwrap()..crosstable.find("</tr>").unwrap()];
    // The corner cell is empty.
    assert_eq!(
        texts(header, "<th>", "</th>")[1..],
        ranked,
        "crosstable columns"
    );
    assert_eq!(
        texts(crosstable, "<th class=\"name\"", "</th>"),
        ranked,
        "crosstable rows"
    );
    let failures = section(&page, "failures");
    assert_eq!(
        texts(failures, "<td class=\"name\"", "</td>"),
        ranked,
        "failure rows"
    );
    let times = section(&page, "times");
    let times_table = &times[..times.find("</table>").unwrap()];
    // The bots that made moves (the illegal-move bot's never count).
    let timed = texts(times_table, "<td class=\"name\"", "</td>");
    assert_eq!(timed.len(), 3, "{times_table}");
    let ranked_timed: Vec<&String> = ranked.iter().filter(|b| timed.contains(b)).collect();
    assert_eq!(
        timed.iter().collect::<Vec<_>>(),
        ranked_timed,
        "move-time rows"
    );

    // One colour per bot, in every plot that shows bots.
    let bots: BTreeSet<String> = ranked.iter().cloned().collect();
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut plots = Vec::new();
    for svg in texts(&page, "<svg ", "</svg>") {
        let (caption, colours) = plot_colours(&svg, &bots);
        if caption == "Rating progression" {
            let legend: Vec<&String> = colours.keys().collect();
            assert_eq!(legend.len(), 4, "every bot in the progression");
        }
        if !colours.is_empty() {
            plots.push(caption);
        }
        for (bot, colour) in colours {
            seen.entry(bot).or_default().insert(colour);
        }
    }
    // Three Elo plots (pooled, then each variant), progression, move times.
    assert_eq!(
        plots.iter().filter(|c| c.starts_with("Elo with")).count(),
        3,
        "{plots:?}"
    );
    assert!(
        plots.contains(&"Rating progression".to_string()),
        "{plots:?}"
    );
    assert!(
        plots.iter().any(|c| c.starts_with("Move time")),
        "{plots:?}"
    );
    assert_eq!(seen.keys().cloned().collect::<BTreeSet<_>>(), bots);
    for (bot, colours) in &seen {
        assert_eq!(colours.len(), 1, "{bot} is drawn in {colours:?}");
    }
    let distinct: BTreeSet<&String> = seen.values().flatten().collect();
    assert_eq!(distinct.len(), 4, "each bot its own colour: {seen:?}");
}
