//! Gauntlets, time odds and standings during a run, end to end with the
//! instant bot: who meets whom, how often, with which colours and openings
//! (expected games worked out by hand from the documented rotation), a
//! resume that finishes exactly the rest, per-bot time controls as the bots
//! see them on the wire, the `ready` answers in tournament.json and the game
//! records, and `--rating-interval`.

use crate::common;
use crate::common::INSTANT_BOT;

use std::path::{Path, PathBuf};

use arena::games::Variant;
use arena::referee::GameRow;
use arena::tournament::openings::random_opening;
use common::tournament::game_number;
use common::tournament::{csv_rows, jsonl_records, resume_tournament, run_arena, text};

/// A tournament file: `settings` under `[tournament]`, then one instant bot
/// per name, each with its `extra` TOML lines.
fn write_file(dir: &Path, settings: &str, bots: &[(&str, &str)]) -> PathBuf {
    let mut text = format!("[tournament]\n{settings}\n");
    for (name, extra) in bots {
        text.push_str(&format!(
            "\n[[bot]]\nname = {name:?}\ncommand = [{INSTANT_BOT:?}, {name:?}]\n{extra}\n"
        ));
    }
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `arena tournament FILE --out OUT --no-progress FLAGS` on a file of
/// `settings` and instant `bots` to a successful end; returns the temporary
/// directory (kept alive), the output directory and stdout.
fn play(
    settings: &str,
    bots: &[(&str, &str)],
    flags: &[&str],
) -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let config = write_file(dir.path(), settings, bots);
    let out_dir = dir.path().join("out");
    let mut args = vec![
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--no-progress",
    ];
    args.extend_from_slice(flags);
    let out = run_arena(&args);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (dir, out_dir, stdout)
}

/// The error of a file of `settings` and instant `bots` (exit status 2).
fn refused(settings: &str, bots: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let config = write_file(dir.path(), settings, bots);
    let out = run_arena(&["tournament", config.to_str().unwrap(), "--no-progress"]);
    assert_eq!(out.status.code(), Some(2), "{settings}: {}", text(&out));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// (white, black) of each row, in id order.
fn games(rows: &[GameRow]) -> Vec<(String, String)> {
    let mut rows = rows.to_vec();
    rows.sort_by_key(|r| r.id);
    rows.iter()
        .map(|r| (r.white.clone(), r.black.clone()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(w, b)| (w.to_string(), b.to_string()))
        .collect()
}

/// Seed `c` among a, b, c, d, 4 games per pairing: the others are a, b, d;
/// dealt in rotation with alternating first colours the pairings are c-a,
/// b-c, c-d; the second cycle turns each pair's colours round. 12 games,
/// all with c, each opponent 2 times white and 2 times black; a, b and d
/// never meet. Openings are the round robin's: pair p's seeded opening.
const SEED_C: [(&str, &str); 12] = [
    ("c", "a"),
    ("a", "c"),
    ("b", "c"),
    ("c", "b"),
    ("c", "d"),
    ("d", "c"),
    ("a", "c"),
    ("c", "a"),
    ("c", "b"),
    ("b", "c"),
    ("d", "c"),
    ("c", "d"),
];

const FOUR: [(&str, &str); 4] = [("a", ""), ("b", ""), ("c", ""), ("d", "")];

const GAUNTLET_SETTINGS: &str = "variant = \"qango6\"\nformat = \"gauntlet\"\nseeds = [\"c\"]\n\
games_per_pairing = 4\nopening_plies = 2\nseed = 11\nconcurrency = 2\ntime_control = \"per-move=2000\"";

fn assert_seed_c_schedule(out: &Path) {
    let rows = csv_rows(out);
    assert_eq!(games(&rows), pairs(&SEED_C));
    let variant = Variant::by_id("qango6").unwrap();
    for row in &rows {
        assert_eq!(row.pair, row.id / 2);
        assert_eq!(row.round, row.id / 6, "{row:?}");
        let opening = random_opening(variant, 2, 11, row.pair).unwrap();
        assert_eq!(row.opening, opening.join(" "), "{row:?}");
    }
}

#[test]
fn a_gauntlet_plays_only_the_seeds_games() {
    let (_dir, out_dir, stdout) = play(GAUNTLET_SETTINGS, &FOUR, &[]);
    assert_seed_c_schedule(&out_dir);
    assert!(stdout.contains("Gauntlet of c: 4 bots"), "{stdout}");
    // The seed's table: one line per opponent and the pool, 4 games each
    // (12 in all), from c's side.
    assert!(stdout.contains("Gauntlet of c (Elo difference"), "{stdout}");
    for opponent in ["a", "b", "d"] {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{opponent} ")) && l.contains('['))
            .unwrap_or_else(|| panic!("no line for {opponent}: {stdout}"));
        assert_eq!(line.split_whitespace().nth(1), Some("4"), "{line}");
    }
    let pool = stdout.lines().find(|l| l.contains("(all)")).unwrap();
    assert_eq!(pool.split_whitespace().nth(1), Some("12"), "{pool}");
    // tournament.json holds the seeds.
    let manifest = std::fs::read_to_string(out_dir.join("tournament.json")).unwrap();
    assert!(
        manifest.contains("\"seeds\": [\n      \"c\"\n    ]"),
        "{manifest}"
    );
}

#[test]
fn a_resumed_gauntlet_plays_exactly_the_rest() {
    let (_dir, out_dir, _) = play(GAUNTLET_SETTINGS, &FOUR, &[]);
    // As if killed after 5 games: the journal keeps games 0..5 (both files
    // agree), the rest are to be played again.
    let mut records = jsonl_records(&out_dir);
    records.sort_by_key(game_number);
    let first: Vec<String> = records[..5].iter().map(|r| r.to_string() + "\n").collect();
    std::fs::write(out_dir.join("games.jsonl"), first.concat()).unwrap();
    let mut rows = csv_rows(&out_dir);
    rows.sort_by_key(|r| r.id);
    let header = std::fs::read_to_string(out_dir.join("games.csv")).unwrap();
    let header = header.lines().next().unwrap().to_string();
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for row in &rows[..5] {
        writer.serialize(row).unwrap();
    }
    let body = String::from_utf8(writer.into_inner().unwrap()).unwrap();
    std::fs::write(out_dir.join("games.csv"), format!("{header}\n{body}")).unwrap();

    let resumed = resume_tournament(&out_dir);
    assert!(resumed.status.success(), "{}", text(&resumed));
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        stdout.contains("resume: 5 of 12 games already played"),
        "{stdout}"
    );
    // Seven game lines: the ones cut off, nothing twice.
    let played = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('g') && l.contains(" - "))
        .count();
    assert_eq!(played, 7, "{stdout}");
    assert_seed_c_schedule(&out_dir);
}

/// Seeds b and d among a, b, c, d (`--gauntlet b --gauntlet d`), 2 games per
/// pairing: the others are a and c; b meets a then c, d meets c then a, in
/// rotation, first colours alternating: b-a, c-d, c-b, d-a. The seeds do not
/// meet each other, nor do a and c.
#[test]
fn several_seeds_from_flags_play_every_other_bot_but_not_each_other() {
    let flags = ["--gauntlet", "b", "--gauntlet", "d", "-j", "2"];
    let (_dir, out_dir, stdout) = play("variant = \"qango6\"\nseed = 3", &FOUR, &flags);
    let expected = [
        ("b", "a"),
        ("a", "b"),
        ("c", "d"),
        ("d", "c"),
        ("c", "b"),
        ("b", "c"),
        ("d", "a"),
        ("a", "d"),
    ];
    assert_eq!(games(&csv_rows(&out_dir)), pairs(&expected));
    assert!(stdout.contains("Gauntlet of b (Elo"), "{stdout}");
    assert!(stdout.contains("Gauntlet of d (Elo"), "{stdout}");
}

#[test]
fn bad_seeds_are_refused_with_the_line() {
    let bots = [("a", ""), ("b", "")];
    for (settings, message) in [
        (
            "seeds = [\"x\"]",
            "t.toml:2:9: field `seeds`: seed \"x\" is not one of the bots (a, b)",
        ),
        (
            "seeds = [\"a\", \"b\"]",
            "t.toml:2:9: field `seeds`: every bot is a seed",
        ),
        (
            "seeds = [\"a\", \"a\"]",
            "t.toml:2:9: field `seeds`: seed \"a\" is named twice",
        ),
        (
            "format = \"round_robin\"\nseeds = [\"a\"]",
            "t.toml:3:9: field `seeds`: seeds are only for format = \"gauntlet\"",
        ),
        (
            "format = \"ladder\"",
            "t.toml:2:10: field `format`: expected one of \"round_robin\", \"gauntlet\", \"sprt\", \"swiss\", \"knockout\" or \"adaptive\", got \"ladder\"",
        ),
    ] {
        let stderr = refused(settings, &bots);
        assert!(stderr.contains(message), "{settings}: {stderr}");
    }
}

/// The lines of a wire trace, as JSON, that arena sent (`>`).
fn sent(trace: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(trace)
        .unwrap()
        .lines()
        .filter_map(|line| {
            let mut parts = line.trim_start().splitn(3, ' ');
            let _ms = parts.next()?;
            if parts.next()? != ">" {
                return None;
            }
            Some(serde_json::from_str(parts.next()?).unwrap())
        })
        .collect()
}

/// `fast` plays 150 ms per move against the tournament's clock of 2 s +
/// 0.5 s for `slow`: each bot's `new_game` names its own time control, each
/// turn shows white's and black's own clocks (a per-move side has none), and
/// the records and games.csv name both sides' time controls.
#[test]
fn per_bot_time_controls_reach_the_bots() {
    let bots = [
        ("fast", "trace = true\ntime_control = \"per-move=150\""),
        ("slow", "trace = true"),
    ];
    let settings =
        "variant = \"qango6\"\ngames_per_pairing = 2\nopening_plies = 2\ntime_control = \"2+0.5\"";
    let (_dir, out_dir, stdout) = play(settings, &bots, &[]);
    assert!(stdout.contains("time odds: fast per-move=150"), "{stdout}");
    let per_move = serde_json::json!({"type": "per_move", "move_ms": 150});
    let clock = serde_json::json!({"type": "clock", "base_ms": 2000, "increment_ms": 500});
    for record in jsonl_records(&out_dir) {
        let fast_color = if record["white"] == "fast" {
            "white"
        } else {
            "black"
        };
        let slow_color = if fast_color == "white" {
            "black"
        } else {
            "white"
        };
        assert_eq!(record[format!("{fast_color}_time_control")], per_move);
        assert_eq!(record[format!("{slow_color}_time_control")], clock);
        for (color, own) in [(fast_color, &per_move), (slow_color, &clock)] {
            let trace = out_dir.join(record[format!("{color}_trace")].as_str().unwrap());
            let lines = sent(&trace);
            let new_game = lines.iter().find(|l| l["type"] == "new_game").unwrap();
            assert_eq!(&new_game["time_control"], own, "{color}");
            let turns: Vec<_> = lines.iter().filter(|l| l["type"] == "turn").collect();
            assert!(!turns.is_empty());
            for turn in turns {
                let c = &turn["clock"];
                assert!(c[format!("{fast_color}_ms")].is_null(), "{turn}");
                let slow_ms = c[format!("{slow_color}_ms")].as_u64().unwrap();
                // The instant bot answers at once: the clock only grows
                // (by the increment) from its 2000 ms start, within a
                // game of at most 36 moves.
                assert!((1900..=2000 + 18 * 500).contains(&slow_ms), "{turn}");
                let move_ms = c["move_ms"].as_u64().unwrap();
                if color == fast_color {
                    assert_eq!(move_ms, 150, "{turn}");
                } else {
                    assert_eq!(move_ms, slow_ms, "{turn}");
                }
            }
        }
    }
    for row in csv_rows(&out_dir) {
        let (white_tc, black_tc) = if row.white == "fast" {
            ("per-move=150", "2+0.5")
        } else {
            ("2+0.5", "per-move=150")
        };
        assert_eq!(
            (row.white_tc.as_str(), row.black_tc.as_str()),
            (white_tc, black_tc)
        );
    }
}

#[test]
fn a_bad_bot_time_control_names_the_bot() {
    let stderr = refused("", &[("a", "time_control = \"fast\""), ("b", "")]);
    assert!(
        stderr.contains("bot \"a\": field `time_control`: time control \"fast\""),
        "{stderr}"
    );
}

/// `--rating-interval 2` over 6 games: standings after 2 and 4 games, not
/// after any other count (nor after the 6th: the final standings follow); the bots' `ready` answers (the instant
/// bot reports the name it is given) are in tournament.json and in every
/// game record.
#[test]
fn standings_every_n_games_and_ready_answers_recorded() {
    let settings =
        "variant = \"qango6\"\ngames_per_pairing = 6\nopening_plies = 2\nconcurrency = 1";
    let flags = ["--rating-interval", "2"];
    let (_dir, out_dir, stdout) = play(settings, &[("a", ""), ("b", "")], &flags);
    let due: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Standings after"))
        .collect();
    assert_eq!(
        due,
        ["Standings after 2 games:", "Standings after 4 games:"],
        "{stdout}"
    );
    // Each interim table counts the games so far: after 2 games, each bot
    // has played 2.
    let after_two = stdout.split("Standings after 2 games:").nth(1).unwrap();
    let table: Vec<&str> = after_two.lines().take(4).collect();
    assert!(
        table
            .iter()
            .filter(|l| l.split_whitespace().any(|w| w == "2"))
            .count()
            >= 2,
        "{table:?}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("tournament.json")).unwrap())
            .unwrap();
    for program in manifest["programs"].as_array().unwrap() {
        assert_eq!(program["ready"]["name"], program["bot"], "{program}");
        assert_eq!(program["ready"]["protocol"], 1, "{program}");
    }
    for record in jsonl_records(&out_dir) {
        assert_eq!(record["white_ready"]["name"], record["white"], "{record}");
        assert_eq!(record["black_ready"]["name"], record["black"], "{record}");
    }
}
