//! Helpers for the tournament end-to-end tests (part of the one test
//! harness, `tests/common`): tournament files with test
//! bots, running `arena`, and reading back what a run wrote.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use arena::referee::GameRow;
use arena::tournament::games_reader::read_games_csv;
use arena::tournament::schedule::ScheduledGame;
use arena::tournament::{Manifest, RoundRobinPlan};

use super::{arena, live_processes_with_arg};

pub fn repo_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// One `[[bot]]`: a name, a Python script (relative to the repository) and
/// its arguments. `tag` goes to the interpreter as `-X TAG` (Python accepts
/// and ignores unknown `-X` options), so a test can find the bot's process
/// by its arguments without the script seeing an extra argument.
pub struct TestBot<'a> {
    pub name: &'a str,
    pub script: &'a str,
    pub args: Vec<String>,
    pub tag: Option<String>,
    /// Extra TOML lines for the entry (e.g. limits).
    pub extra: &'a str,
}

impl<'a> TestBot<'a> {
    pub fn new(name: &'a str, script: &'a str, args: &[&str]) -> TestBot<'a> {
        TestBot {
            name,
            script,
            args: args.iter().map(|a| a.to_string()).collect(),
            tag: None,
            extra: "",
        }
    }

    pub fn tagged(name: &'a str, script: &'a str, args: &[&str], tag: &str) -> TestBot<'a> {
        TestBot {
            tag: Some(tag.to_string()),
            ..TestBot::new(name, script, args)
        }
    }
}

/// Writes `dir/t.toml` with `settings` under `[tournament]` and the bots.
pub fn write_config(dir: &Path, settings: &str, bots: &[TestBot]) -> PathBuf {
    write_config_with(dir, settings, bots, "python3")
}

/// [`write_config`] with the bots' scripts run by `interpreter`.
pub fn write_config_with(
    dir: &Path,
    settings: &str,
    bots: &[TestBot],
    interpreter: &str,
) -> PathBuf {
    let entries: Vec<String> = bots
        .iter()
        .map(|bot| {
            let mut command = vec![interpreter.to_string()];
            if let Some(tag) = &bot.tag {
                command.extend(["-X".to_string(), tag.clone()]);
            }
            command.push(repo_path(bot.script).display().to_string());
            command.extend(bot.args.iter().cloned());
            bot_entry(bot.name, &command, bot.extra)
        })
        .collect();
    write_config_entries(dir, settings, &entries)
}

/// One `[[bot]]` entry running `command` (any program), with `extra` TOML
/// lines.
pub fn bot_entry(name: &str, command: &[String], extra: &str) -> String {
    let command: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
    format!(
        "\n[[bot]]\nname = {name:?}\ncommand = [{}]\n{extra}\n",
        command.join(", ")
    )
}

/// Writes `dir/t.toml` with `settings` under `[tournament]` and the bot
/// entries made by [`bot_entry`].
pub fn write_config_entries(dir: &Path, settings: &str, entries: &[String]) -> PathBuf {
    let mut text = format!("[tournament]\n{settings}\n");
    for entry in entries {
        text.push_str(entry);
    }
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `arena tournament CONFIG --out OUT --no-progress` to completion.
pub fn run_tournament(config: &Path, out: &Path) -> Output {
    run_arena(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ])
}

/// `--bot a=... --bot b=...`: two `arena-instant-bot`s, for runs whose
/// games only need to happen fast.
pub fn instant_bot_flags() -> [String; 4] {
    [
        "--bot".into(),
        format!("a={INSTANT_BOT}"),
        "--bot".into(),
        format!("b={INSTANT_BOT}"),
    ]
}

/// Runs arena with `args` to completion.
pub fn run_arena(args: &[&str]) -> Output {
    arena().args(args).output().expect("run arena")
}

pub fn text(output: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Starts `arena tournament CONFIG --out OUT --no-progress` in the
/// background, its output going to files in `dir` (see [`spawn_arena`]).
pub fn spawn_tournament(config: &Path, out: &Path, dir: &Path) -> Child {
    spawn_arena(
        &[
            "tournament",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-progress",
        ],
        dir,
    )
}

/// Starts arena in the background, its output going to files in `dir`.
pub fn spawn_arena(args: &[&str], dir: &Path) -> Child {
    spawn_arena_with(args, dir, |_| {})
}

/// [`spawn_arena`] with the command adjusted first (e.g. limits set for
/// the child before it runs arena).
pub fn spawn_arena_with(args: &[&str], dir: &Path, adjust: impl FnOnce(&mut Command)) -> Child {
    let stdout = std::fs::File::create(dir.join("arena.stdout")).unwrap();
    let stderr = std::fs::File::create(dir.join("arena.stderr")).unwrap();
    let mut command = arena();
    command.args(args).stdout(stdout).stderr(stderr);
    adjust(&mut command);
    command.spawn().expect("start arena")
}

/// Runs the tournament of `config` into `out` until `rows` games are
/// recorded, then SIGKILLs arena (a crash mid-run) and waits for it to end.
pub fn kill_after_rows(config: &Path, out: &Path, dir: &Path, rows: usize) {
    let mut child = spawn_tournament(config, out, dir);
    wait_for_rows(out, rows, Duration::from_secs(30));
    signal(&child, libc::SIGKILL);
    wait_exit(&mut child, Duration::from_secs(5));
}

/// Complete data rows in games.csv (0 while the file does not exist).
pub fn csv_rows_written(out: &Path) -> usize {
    std::fs::read_to_string(out.join("games.csv"))
        .map(|t| t.matches('\n').count().saturating_sub(1))
        .unwrap_or(0)
}

/// Polls until games.csv has at least `rows` rows; panics after `limit`.
pub fn wait_for_rows(out: &Path, rows: usize, limit: Duration) {
    let end = Instant::now() + limit;
    while csv_rows_written(out) < rows {
        assert!(
            Instant::now() < end,
            "games.csv did not reach {rows} rows in {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for the child to exit; panics after `limit`.
pub fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let end = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("arena did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn signal(child: &Child, signal: i32) {
    // SAFETY: plain system call on our own child's pid.
    let rc = unsafe { libc::kill(child.id() as i32, signal) };
    assert_eq!(rc, 0, "kill failed");
}

pub fn csv_rows(out: &Path) -> Vec<GameRow> {
    read_games_csv(&out.join("games.csv")).unwrap()
}

/// The JSON records of games.jsonl, one per line.
pub fn jsonl_records(out: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The game number of a games.jsonl record: that of its `game_id`, `gN`
/// (a record of today's journal has no numeric `id`).
pub fn game_number(record: &serde_json::Value) -> u64 {
    assert!(record.get("id").is_none(), "a numeric id: {record}");
    let id = record["game_id"].as_str().expect("a game_id");
    arena::referee::game_id::number_of(id).unwrap()
}

/// Checks that games.csv holds exactly game ids `0..games`, each once, and
/// games.jsonl the same ids, each once.
pub fn assert_exactly_games(out: &Path, games: u64) {
    let rows = csv_rows(out);
    let mut ids: Vec<u64> = rows.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..games).collect::<Vec<_>>(), "games.csv ids");
    let records = jsonl_records(out);
    let mut record_ids: Vec<u64> = records.iter().map(game_number).collect();
    record_ids.sort_unstable();
    assert_eq!(record_ids, ids, "games.jsonl ids");
}

/// games.csv and games.jsonl name the same games, each once.
pub fn assert_consistent(out: &Path) -> BTreeSet<u64> {
    let rows = csv_rows(out);
    let ids: BTreeSet<u64> = rows.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), rows.len(), "duplicate ids in games.csv");
    let records = jsonl_records(out);
    let record_ids: BTreeSet<u64> = records.iter().map(game_number).collect();
    assert_eq!(
        record_ids.len(),
        records.len(),
        "duplicate ids in games.jsonl"
    );
    assert_eq!(ids, record_ids);
    ids
}

/// Lines of a CSV file, header included.
pub fn line_count(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .count()
}

/// The games `out/tournament.json` schedules, and the bot names its indices
/// refer to. Checks that the file holds the settings, not a list of games
/// (each game is computed from them), and that the computed schedule has as
/// many games as the plan says.
pub fn round_robin_schedule(out: &Path) -> (Vec<ScheduledGame>, Vec<String>) {
    let manifest = Manifest::read(out).unwrap();
    let RoundRobinPlan { games, .. } = manifest.plan.read().expect("a round robin");
    let schedule: Vec<_> = manifest
        .schedule()
        .unwrap()
        .games()
        .collect::<anyhow::Result<_>>()
        .unwrap();
    assert_eq!(schedule.len() as u64, games);
    let manifest_text = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    assert!(!manifest_text.contains("\"opening\":"), "{manifest_text}");
    (schedule, manifest.config.bot_names())
}

/// Each row has the variant, bots and opening its scheduled game has.
pub fn assert_rows_follow_schedule(rows: &[GameRow], schedule: &[ScheduledGame], names: &[String]) {
    for row in rows {
        let game = &schedule[row.id as usize];
        assert_eq!(
            (
                row.variant.as_str(),
                row.white.as_str(),
                row.black.as_str(),
                row.opening.clone()
            ),
            (
                game.variant_id,
                names[game.white].as_str(),
                names[game.black].as_str(),
                game.opening.join(" ")
            ),
            "{row:?}"
        );
    }
}

/// Waits up to 5 s for every process with `tag` among its arguments to end:
/// bots whose input closed must exit by themselves.
pub fn wait_until_gone(tag: &str) {
    let end = Instant::now() + Duration::from_secs(5);
    while !live_processes_with_arg(tag).is_empty() {
        assert!(
            Instant::now() < end,
            "bot processes left behind: {:?}",
            live_processes_with_arg(tag)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `arena tournament --resume OUT --no-progress`, to completion.
pub fn resume_tournament(out: &Path) -> Output {
    run_arena(&[
        "tournament",
        "--resume",
        out.to_str().unwrap(),
        "--no-progress",
    ])
}

pub use super::INSTANT_BOT;

/// Writes `dir/t.toml`: `settings` under `[tournament]` and one
/// `arena-instant-bot` per name (deterministic: same settings and seed,
/// same games).
pub fn write_instant_config(dir: &Path, settings: &str, names: &[&str]) -> PathBuf {
    let mut text = format!("[tournament]\n{settings}\n");
    for name in names {
        text.push_str(&format!(
            "\n[[bot]]\nname = {name:?}\ncommand = [{INSTANT_BOT:?}, {name:?}]\n"
        ));
    }
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Columns of games.csv that say when and how fast a game was played, not
/// what happened in it.
const CSV_TIMING: [&str; 3] = ["white_time_ms", "black_time_ms", "ended_utc"];
/// Fields of a games.jsonl record that say when and how fast.
const JSONL_TIMING: [&str; 6] = [
    "white_time_ms",
    "black_time_ms",
    "ended_utc",
    "duration_ms",
    "move_times_ms",
    "move_cpu_ms",
];

/// `out`'s games.csv without its timing columns: the header, then the rows
/// sorted by game id. Two runs of deterministic bots with the same settings
/// and seed give the same list, in whatever order they finished.
pub fn games_csv_without_timing(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !CSV_TIMING.contains(&header[i]))
        .collect();
    let pick = |line: &str| {
        let fields: Vec<&str> = line.split(',').collect();
        keep.iter()
            .map(|&i| fields[i])
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut rows: Vec<(u64, String)> = lines
        .map(|line| {
            let id = line.split(',').next().unwrap();
            (arena::referee::game_id::number_of(id).unwrap(), pick(line))
        })
        .collect();
    rows.sort();
    std::iter::once(pick(&header.join(",")))
        .chain(rows.into_iter().map(|(_, row)| row))
        .collect()
}

/// `out`'s games.jsonl records without their timing fields, sorted by id.
pub fn games_jsonl_without_timing(out: &Path) -> Vec<serde_json::Value> {
    let mut records = jsonl_records(out);
    for record in &mut records {
        let object = record.as_object_mut().expect("a record is an object");
        for field in JSONL_TIMING {
            object.remove(field);
        }
    }
    records.sort_by_key(game_number);
    records
}

/// Asserts that `merged` holds the same games as `single` (timing aside)
/// and the same standings, pairwise, model and crosstable files, byte for
/// byte.
pub fn assert_same_games(merged: &Path, single: &Path) {
    assert_same_game_records(merged, single);
    for file in [
        "standings.csv",
        "pairwise.csv",
        "model.csv",
        "crosstable.csv",
    ] {
        let read = |dir: &Path| {
            std::fs::read_to_string(dir.join(file))
                .unwrap_or_else(|e| panic!("{}/{file}: {e}", dir.display()))
        };
        assert_eq!(read(merged), read(single), "{file}");
    }
}

/// The numbers of the `pair N:` lines of an SPRT's output, in order.
pub fn pair_numbers(stdout: &str) -> Vec<u64> {
    stdout
        .lines()
        .filter_map(|l| {
            l.strip_prefix("pair ")?
                .split(':')
                .next()?
                .trim()
                .parse()
                .ok()
        })
        .collect()
}

/// A shell bot that answers `ready`, then plays a move off the board (`z99`)
/// on every turn: it loses every game at once, costing a shell's start.
pub const LOSING_SH: &str = "while read -r l; do case $l in *'\"hello\"'*) echo '{\"type\":\"ready\",\"name\":\"lose\",\"protocol\":1}';; *'\"turn\"'*) echo '{\"type\":\"move\",\"move\":\"z99\"}';; *'\"quit\"'*) exit;; esac; done";

/// Asserts that `merged` holds the same games as `single`, timing aside:
/// games.csv and games.jsonl.
pub fn assert_same_game_records(merged: &Path, single: &Path) {
    assert_eq!(
        games_csv_without_timing(merged),
        games_csv_without_timing(single),
        "games.csv of {} and {}",
        merged.display(),
        single.display()
    );
    assert_eq!(
        games_jsonl_without_timing(merged),
        games_jsonl_without_timing(single),
        "games.jsonl of {} and {}",
        merged.display(),
        single.display()
    );
}
