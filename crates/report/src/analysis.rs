//! A run's decisions against perfect play: the rows of `analysis.csv` (one
//! per move a bot chose, with the solver's value of the position before and
//! after it, from the mover's point of view), reading and writing them, and
//! the per-bot summary (`analysis_bots.csv`, the terminal table and the
//! report's section) computed from the rows alone.
//!
//! `arena analyse` computes the rows (src/cli/analyse.rs); `arena report`
//! reads them back for its section and the viewer's value strip.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::Path;

use anyhow::{anyhow, bail, Context};

use arena_files::write_atomically_with;
use arena_referee::game_id::{game_id, number_of};
use arena_rules::games::Color;
use arena_solver::Value;

/// The per-move file, in the run's directory.
pub const ANALYSIS_CSV: &str = "analysis.csv";
/// The per-bot summary, in the run's directory.
pub const ANALYSIS_BOTS_CSV: &str = "analysis_bots.csv";

/// The columns of `analysis.csv`, in order.
pub const COLUMNS: [&str; 10] = [
    "game_id",
    "ply",
    "mover",
    "color",
    "move",
    "value_before",
    "value_after",
    "mistake",
    "mover_result",
    "nodes",
];

/// One move a bot chose, judged by the solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyRow {
    /// The game's number in the run, written as its id `gN` (the
    /// `game_id` of games.csv and games.jsonl).
    pub game_id: u64,
    /// The ply this move produced: move N (counted from 1, the opening's
    /// first) leads to ply N, the position after N moves, which the viewer
    /// shows as "ply N" (see docs/REFERENCE.md). Files of older versions
    /// (their `game_id` a bare number) held the move's 0-based index,
    /// N - 1; they are read as N.
    pub ply: u32,
    pub mover: String,
    pub color: Color,
    pub mv: String,
    /// The position's value before the move, for the mover (`None`: not
    /// proven within the budget).
    pub before: Option<Value>,
    /// The value after it, for the mover (a finished game: its result).
    pub after: Option<Value>,
    /// The game's result for the mover.
    pub result: Value,
    /// Nodes the solver searched for the position before the move.
    pub nodes: u64,
}

impl PlyRow {
    /// The move made the mover's value worse (win → draw or loss, draw →
    /// loss); `None` when either value is unknown.
    pub fn mistake(&self) -> Option<bool> {
        Some(self.after? < self.before?)
    }
}

/// `win`, `draw`, `loss` or `unknown`.
pub fn value_word(v: Option<Value>) -> &'static str {
    v.map_or("unknown", Value::word)
}

fn parse_value(text: &str) -> Result<Option<Value>, String> {
    match text {
        "win" => Ok(Some(Value::Win)),
        "draw" => Ok(Some(Value::Draw)),
        "loss" => Ok(Some(Value::Loss)),
        "unknown" => Ok(None),
        other => Err(format!(
            "{other:?} is not a value (win, draw, loss or unknown)"
        )),
    }
}

/// Writes `rows` as `path` (a temporary file renamed over it).
pub fn write_analysis_csv(path: &Path, rows: &[PlyRow]) -> anyhow::Result<()> {
    write_atomically_with(path, |w| {
        writeln!(w, "{}", COLUMNS.join(","))?;
        w.write_all(&rows_csv(rows)?)?;
        Ok(())
    })
}

/// `rows` as lines of `analysis.csv` (no header).
pub fn rows_csv(rows: &[PlyRow]) -> anyhow::Result<Vec<u8>> {
    let mut csv = csv::Writer::from_writer(Vec::new());
    for r in rows {
        let mistake = match r.mistake() {
            Some(true) => "true",
            Some(false) => "false",
            None => "",
        };
        csv.write_record([
            game_id(r.game_id).as_str(),
            &r.ply.to_string(),
            &r.mover,
            r.color.name(),
            &r.mv,
            value_word(r.before),
            value_word(r.after),
            mistake,
            r.result.word(),
            &r.nodes.to_string(),
        ])?;
    }
    csv.into_inner().map_err(|e| anyhow!("{e}"))
}

/// Reads an `analysis.csv`; errors name the file, line and field.
pub fn read_analysis_csv(path: &Path) -> anyhow::Result<Vec<PlyRow>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot open {}", path.display()))?;
    read_analysis_rows(&bytes, &path.display().to_string())
}

/// The rows of `bytes`, an `analysis.csv` read from `source` (errors name
/// it, the line and the field).
pub fn read_analysis_rows(bytes: &[u8], source: &str) -> anyhow::Result<Vec<PlyRow>> {
    let mut csv = csv::Reader::from_reader(bytes);
    let headers = csv.headers().map_err(|e| anyhow!("{source}: {e}"))?.clone();
    let mut at = HashMap::new();
    for column in COLUMNS {
        let Some(i) = headers.iter().position(|h| h == column) else {
            bail!(
                "{source}: line 1: missing column `{column}` (expected {}); rewrite it with \
                 `arena analyse`",
                COLUMNS.join(",")
            );
        };
        at.insert(column, i);
    }
    let mut rows = Vec::new();
    for record in csv.records() {
        let record = record.map_err(|e| anyhow!("{source}: {e}"))?;
        rows.push(row_of(&record, &at, source)?);
    }
    Ok(rows)
}

/// One record of `analysis.csv` as its row.
fn row_of(
    record: &csv::StringRecord,
    at: &HashMap<&str, usize>,
    source: &str,
) -> anyhow::Result<PlyRow> {
    let line = record.position().map_or(0, |p| p.line());
    let field = |name: &str| record.get(at[name]).unwrap_or("");
    let fail =
        |name: &str, problem: String| anyhow!("{source}: line {line}, field `{name}`: {problem}");
    let number = |name: &str| {
        field(name)
            .parse::<u64>()
            .map_err(|_| fail(name, format!("{:?} is not a number", field(name))))
    };
    let value = |name: &str| parse_value(field(name)).map_err(|e| fail(name, e));
    let color = match field("color") {
        "white" => Color::White,
        "black" => Color::Black,
        other => return Err(fail("color", format!("{other:?} is not white or black"))),
    };
    let id = field("game_id");
    // Older files: a bare number, and plies counted from 0.
    let old = !id.starts_with('g');
    let ply = number("ply")? as u32 + u32::from(old);
    if ply == 0 {
        return Err(fail("ply", "plies of moves count from 1".into()));
    }
    Ok(PlyRow {
        game_id: number_of(id).map_err(|e| fail("game_id", e))?,
        ply,
        mover: field("mover").to_string(),
        color,
        mv: field("move").to_string(),
        before: value("value_before")?,
        after: value("value_after")?,
        result: value("mover_result")?
            .ok_or_else(|| fail("mover_result", "a game's result is known".into()))?,
        nodes: number("nodes")?,
    })
}

/// One bot's decisions against perfect play. Of the moves from a proven
/// position (`decided`), each is counted in one of four: it `kept` the
/// value, it lost a win (`lost_win`: to a draw or a loss), it lost a draw
/// (`lost_draw`), or the value after it stayed unknown (`unknown_after`:
/// neither kept nor lost as far as the analysis knows).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BotDecisions {
    pub bot: String,
    /// Moves the bot chose (the opening's are not its).
    pub moves: u64,
    /// Of those, positions whose value the solver proved.
    pub decided: u64,
    pub kept: u64,
    pub lost_win: u64,
    pub lost_draw: u64,
    pub unknown_after: u64,
    /// Games in which the bot had a proven win and did not win.
    pub won_not_converted: u64,
    /// Games with at least one mistake, and the plies of each one's first.
    pub first_mistakes: Vec<u32>,
}

impl BotDecisions {
    /// Moves that made the mover's value worse: lost wins and lost draws.
    pub fn mistakes(&self) -> u64 {
        self.lost_win + self.lost_draw
    }

    /// Share of value-keeping moves among the decided moves whose value
    /// after is known too (a move into an unknown position is neither).
    pub fn accuracy(&self) -> Option<f64> {
        let known = self.kept + self.mistakes();
        (known > 0).then(|| self.kept as f64 / known as f64)
    }

    pub fn first_mistake_mean(&self) -> Option<f64> {
        let n = self.first_mistakes.len();
        (n > 0).then(|| self.first_mistakes.iter().map(|&p| p as f64).sum::<f64>() / n as f64)
    }

    pub fn first_mistake_min(&self) -> Option<u32> {
        self.first_mistakes.iter().copied().min()
    }

    /// Counts one move from a proven position (`before`) to `after`.
    fn count_decided(&mut self, before: Value, after: Option<Value>) {
        self.decided += 1;
        match after {
            None => self.unknown_after += 1,
            Some(after) if after >= before => self.kept += 1,
            Some(_) if before == Value::Win => self.lost_win += 1,
            Some(_) => self.lost_draw += 1,
        }
    }
}

/// The per-bot summary of `rows` (of any number of games), by bot name.
pub fn summarise<'a>(rows: impl IntoIterator<Item = &'a PlyRow>) -> Vec<BotDecisions> {
    let mut bots: BTreeMap<&str, BotDecisions> = BTreeMap::new();
    // Per (game, bot): had a proven win, the game's result, the first mistake.
    let mut games: BTreeMap<(u64, &str), (bool, Value, Option<u32>)> = BTreeMap::new();
    for r in rows {
        let b = bots.entry(&r.mover).or_insert_with(|| BotDecisions {
            bot: r.mover.clone(),
            ..BotDecisions::default()
        });
        b.moves += 1;
        let game = games
            .entry((r.game_id, &r.mover))
            .or_insert((false, r.result, None));
        if let Some(before) = r.before {
            b.count_decided(before, r.after);
        }
        game.0 |= r.before == Some(Value::Win);
        if r.mistake() == Some(true) {
            game.2 = Some(game.2.map_or(r.ply, |p| p.min(r.ply)));
        }
    }
    for ((_, bot), (had_win, result, first)) in games {
        let b = bots.get_mut(bot).expect("every game's bot is counted");
        if had_win && result != Value::Win {
            b.won_not_converted += 1;
        }
        b.first_mistakes.extend(first);
    }
    bots.into_values().collect()
}

/// The columns of `analysis_bots.csv` and of the table, in order.
pub const BOT_COLUMNS: [&str; 12] = [
    "bot",
    "moves",
    "decided",
    "kept",
    "mistakes",
    "lost_win",
    "lost_draw",
    "unknown_after",
    "accuracy",
    "won_not_converted",
    "first_mistake_mean_ply",
    "first_mistake_min_ply",
];

/// Where `accuracy` is in [`BOT_COLUMNS`].
pub const ACCURACY_COLUMN: usize = 8;

/// A summary's cells as text, in [`BOT_COLUMNS`] order (empty where there is
/// nothing to say: no decided position, no mistake).
pub fn bot_cells(b: &BotDecisions) -> [String; BOT_COLUMNS.len()] {
    [
        b.bot.clone(),
        b.moves.to_string(),
        b.decided.to_string(),
        b.kept.to_string(),
        b.mistakes().to_string(),
        b.lost_win.to_string(),
        b.lost_draw.to_string(),
        b.unknown_after.to_string(),
        b.accuracy().map_or(String::new(), |a| format!("{a:.4}")),
        b.won_not_converted.to_string(),
        b.first_mistake_mean()
            .map_or(String::new(), |m| format!("{m:.1}")),
        b.first_mistake_min()
            .map_or(String::new(), |m| m.to_string()),
    ]
}

/// Writes `analysis_bots.csv` at `path` (a temporary file renamed over it).
pub fn write_bots_csv(path: &Path, bots: &[BotDecisions]) -> anyhow::Result<()> {
    write_atomically_with(path, |w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(BOT_COLUMNS)?;
        for b in bots {
            csv.write_record(bot_cells(b))?;
        }
        csv.flush()?;
        Ok(())
    })
}

/// The summary as an aligned text table (for the terminal).
pub fn bots_table(bots: &[BotDecisions]) -> String {
    let mut lines: Vec<[String; BOT_COLUMNS.len()]> = vec![BOT_COLUMNS.map(String::from)];
    lines.extend(bots.iter().map(|b| {
        let mut cells = bot_cells(b);
        if let Some(a) = b.accuracy() {
            cells[ACCURACY_COLUMN] = format!("{:.1}%", a * 100.0);
        }
        cells
    }));
    let widths: Vec<usize> = (0..BOT_COLUMNS.len())
        .map(|i| {
            lines
                .iter()
                .map(|l| l[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in &lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if i == 0 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// Each game's values as the viewer's strip: one character per position
/// (index p: ply p, after p moves), the value for white: `W` white wins,
/// `B` black wins, `D` draw, `?` unknown, `-` not analysed (the opening);
/// lowercase where the move into the position was a mistake.
pub fn strips<'a>(rows: impl IntoIterator<Item = &'a PlyRow>) -> HashMap<u64, String> {
    let mut cells: HashMap<u64, Vec<u8>> = HashMap::new();
    for r in rows {
        let strip = cells.entry(r.game_id).or_default();
        // The position before the move.
        let p = r.ply as usize - 1;
        if strip.len() < p + 2 {
            strip.resize(p + 2, b'-');
        }
        let for_white = |v: Option<Value>| match (v, r.color) {
            (None, _) => b'?',
            (Some(Value::Draw), _) => b'D',
            (Some(v), c) if (v == Value::Win) == (c == Color::White) => b'W',
            _ => b'B',
        };
        if strip[p] == b'-' {
            strip[p] = for_white(r.before);
        }
        strip[p + 1] = for_white(r.after);
        if r.mistake() == Some(true) {
            strip[p + 1] = strip[p + 1].to_ascii_lowercase();
        }
    }
    cells
        .into_iter()
        .map(|(id, s)| (id, String::from_utf8(s).expect("ASCII")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        game_id: u64,
        ply: u32,
        mover: &str,
        before: Option<Value>,
        after: Option<Value>,
        result: Value,
    ) -> PlyRow {
        PlyRow {
            game_id,
            ply,
            mover: mover.into(),
            // Move 1 is white's.
            color: if ply % 2 == 1 {
                Color::White
            } else {
                Color::Black
            },
            mv: "a1".into(),
            before,
            after,
            result,
            nodes: 3,
        }
    }

    use Value::*;

    #[test]
    fn the_summary_counts_mistakes_unconverted_wins_and_first_mistakes() {
        let rows = vec![
            row(0, 3, "a", Some(Win), Some(Win), Loss),
            row(0, 4, "b", Some(Loss), Some(Loss), Win),
            row(0, 5, "a", Some(Win), Some(Loss), Loss),
            row(0, 6, "b", Some(Win), Some(Win), Win),
            row(0, 7, "a", None, Some(Loss), Loss),
            row(1, 4, "a", Some(Draw), None, Draw),
            row(1, 6, "a", Some(Draw), Some(Loss), Draw),
        ];
        let bots = summarise(&rows);
        assert_eq!(bots.len(), 2);
        let a = &bots[0];
        // a: a kept win, a lost win, an unknown position (not decided), a
        // draw into the unknown, a lost draw.
        assert_eq!((a.moves, a.decided, a.kept, a.unknown_after), (5, 4, 1, 1));
        assert_eq!((a.lost_win, a.lost_draw, a.mistakes()), (1, 1, 2));
        assert_eq!(a.won_not_converted, 1);
        assert_eq!(a.first_mistakes, vec![5, 6]);
        assert_eq!(a.accuracy(), Some(1.0 / 3.0));
        assert_eq!(a.first_mistake_mean(), Some(5.5));
        let b = &bots[1];
        assert_eq!((b.moves, b.mistakes(), b.won_not_converted), (2, 0, 0));
        assert_eq!(b.accuracy(), Some(1.0));
        assert_eq!(b.first_mistake_min(), None);
    }

    #[test]
    fn a_win_that_goes_unknown_is_not_kept_and_not_a_mistake() {
        // The user's case: a proven win, then a move after which the value
        // stayed unknown, and the game not won.
        let rows = vec![
            row(0, 3, "a", Some(Win), None, Loss),
            row(0, 5, "a", None, Some(Loss), Loss),
        ];
        let a = &summarise(&rows)[0];
        assert_eq!(
            (a.decided, a.kept, a.unknown_after, a.mistakes()),
            (1, 0, 1, 0)
        );
        assert_eq!(a.won_not_converted, 1);
        assert_eq!(a.accuracy(), None, "no move whose effect is known");
        let cells = bot_cells(a);
        assert_eq!(cells[ACCURACY_COLUMN], "");
        assert_eq!(BOT_COLUMNS[ACCURACY_COLUMN], "accuracy");
    }

    #[test]
    fn rows_survive_the_file_and_strips_mark_mistakes() {
        let rows = vec![
            row(7, 2, "b", Some(Win), Some(Draw), Draw),
            row(7, 3, "a", Some(Draw), None, Draw),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ANALYSIS_CSV);
        write_analysis_csv(&path, &rows).unwrap();
        assert_eq!(read_analysis_csv(&path).unwrap(), rows);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\ng7,2,b,black,a1,win,draw,true,draw,3\n"),
            "{text}"
        );
        assert!(
            text.contains("\ng7,3,a,white,a1,draw,unknown,,draw,3\n"),
            "{text}"
        );
        // Ply 1 (before black's move 2) is a black win, ply 2 a draw reached
        // by a mistake, ply 3 unknown.
        assert_eq!(strips(&rows)[&7], "-Bd?");
        // The same rows as an older arena wrote them: a bare game number,
        // the move's 0-based index.
        let old = text
            .replace("\ng7,2,", "\n7,1,")
            .replace("\ng7,3,", "\n7,2,");
        std::fs::write(&path, old).unwrap();
        assert_eq!(read_analysis_csv(&path).unwrap(), rows);
        let zero = text.replace("\ng7,2,", "\ng7,0,");
        std::fs::write(&path, zero).unwrap();
        let err = read_analysis_csv(&path).unwrap_err().to_string();
        assert!(
            err.contains("line 2, field `ply`: plies of moves count from 1"),
            "{err}"
        );
    }

    #[test]
    fn a_bad_value_is_named_with_its_line_and_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ANALYSIS_CSV);
        std::fs::write(
            &path,
            format!(
                "{}\n0,1,b,black,a1,won,draw,true,draw,3\n",
                COLUMNS.join(",")
            ),
        )
        .unwrap();
        let err = read_analysis_csv(&path).unwrap_err().to_string();
        assert!(
            err.contains("line 2, field `value_before`: \"won\" is not a value"),
            "{err}"
        );
    }
}
