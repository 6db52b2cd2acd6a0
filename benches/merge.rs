//! `arena merge` of synthetic shards: wall time and peak memory for 100,000
//! and 1,000,000 games, so that the ratio shows whether memory grows with
//! the number of games (it must not: the merge streams).
//!
//! Run: `cargo bench --bench merge` (`ARENA_BENCH_MERGE_GAMES=N1,N2,...`
//! replaces the sizes, multiples of 40; `ARENA_BENCH_MERGE_SORT_KIB` the
//! sort run size, as `arena merge --sort-kib`, default 32 MiB).
//!
//! For each size the parent writes 4 shard directories of one tournament
//! (5 bots, Qango 6, 2-ply openings, as many games a pairing as the size
//! needs) under `target/tmp`: `tournament.json` as `arena tournament
//! --shard K/4` writes it, and `games.jsonl` and `games.csv` with every
//! game of the shard, a plausible result and a 36-ply record (about 650
//! bytes a line). Each file is out of id order the way a shard with 8 games
//! in flight writes it (every block of 8 games in reverse), so the merge
//! takes its slow path: each journal is cut into sorted runs on disk and the
//! runs are merged (the shards' `games.csv` are not read: the merge writes
//! each row from its record). Then this benchmark executable is started
//! again as a child (`--child`) that does what `arena merge OUT DIR...`
//! does: the checked k-way merge ([`arena::tournament::merge::merge`]), then the
//! ratings and report ([`arena::report::rating::rate_dir`]). The child
//! reports the wall time of each phase and its peak RSS (`VmHWM`) after
//! each; the shards are written before it starts, so their writing is not
//! in its figures. The merge holds at most one sort run of lines at a time,
//! so its peak grows with the number of games only until every shard's
//! journal is longer than one run; a small run size shows the bound with
//! small files.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use arena::games::GameResult;
use arena::games::RuleReason;
use arena::protocol::TimeControl;
use arena::referee::record::record_with_result;
use arena::referee::GameRecord;
use arena::tournament::config::Defaults;
use arena::tournament::journal::{csv_header, format_row};
use arena::tournament::manifest::Manifest;
use arena::tournament::settings::load;
use arena::tournament::shard::Shard;
use arena::tournament::{Given, ScheduledGame};

#[path = "support/rss.rs"]
mod rss;
use rss::peak_rss_kib;

const DEFAULT_SIZES: &str = "100000,1000000";
const SHARDS: u64 = 4;
const BOTS: [&str; 5] = ["alpha", "beta", "gamma", "delta", "eps"];
/// Games written out of order in blocks of this many (like `-j 8`).
const IN_FLIGHT: u64 = 8;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        let sort_kib: usize = args[3].parse().expect("sort KiB");
        child(Path::new(&args[2]), sort_kib * 1024, &args[4..]);
        return;
    }
    let sizes: Vec<u64> = std::env::var("ARENA_BENCH_MERGE_GAMES")
        .unwrap_or_else(|_| DEFAULT_SIZES.to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("ARENA_BENCH_MERGE_GAMES: numbers"))
        .collect();
    let sort_kib: usize = std::env::var("ARENA_BENCH_MERGE_SORT_KIB")
        .map(|n| {
            n.trim()
                .parse()
                .expect("ARENA_BENCH_MERGE_SORT_KIB: a number")
        })
        .unwrap_or(arena::tournament::merge::RUN_BYTES / 1024);
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("merge-bench");
    println!(
        "merge: {SHARDS} synthetic shards (5 bots, qango6, files out of id order), sort runs of \
         {sort_kib} KiB, one fresh process per merge, files in {}",
        root.display()
    );
    println!(
        "  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}  {:>13}  {:>13}",
        "games", "input", "merge", "games/s", "rate", "RSS merge", "RSS total"
    );
    let mut results = Vec::new();
    for games in sizes {
        assert!(games % 40 == 0, "sizes are multiples of 40");
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let dirs = write_shards(&root, games);
        let input_bytes: u64 = dirs
            .iter()
            .flat_map(|d| ["games.csv", "games.jsonl"].map(|f| d.join(f)))
            .map(|f| std::fs::metadata(f).unwrap().len())
            .sum();
        let run = parent(&root.join("merged"), sort_kib, &dirs);
        println!(
            "  {:>9}  {:>6} MB  {:>8.2}s  {:>9.0}  {:>8.2}s  {:>9} KiB  {:>9} KiB",
            games,
            input_bytes >> 20,
            run.merge_s,
            games as f64 / run.merge_s,
            run.rate_s,
            run.merge_rss_kib,
            run.total_rss_kib
        );
        results.push((games, run));
        let _ = std::fs::remove_dir_all(&root);
    }
    if let [(small, a), .., (large, b)] = results.as_slice() {
        println!(
            "  {large} / {small} games: merge time x{:.1}, peak RSS of the merge x{:.2}, of merge and rating x{:.2}",
            b.merge_s / a.merge_s,
            b.merge_rss_kib as f64 / a.merge_rss_kib as f64,
            b.total_rss_kib as f64 / a.total_rss_kib as f64
        );
    }
}

/// What the child measured.
struct Run {
    merge_s: f64,
    rate_s: f64,
    merge_rss_kib: u64,
    total_rss_kib: u64,
}

fn parent(out: &Path, sort_kib: usize, dirs: &[PathBuf]) -> Run {
    let status = Command::new(std::env::current_exe().unwrap())
        .arg("--child")
        .arg(out)
        .arg(sort_kib.to_string())
        .args(dirs)
        .status()
        .expect("start the child");
    assert!(status.success(), "the merge child failed: {status}");
    let report = std::fs::read_to_string(out.join("bench-report")).unwrap();
    let numbers: Vec<f64> = report
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    Run {
        merge_s: numbers[0],
        rate_s: numbers[1],
        merge_rss_kib: numbers[2] as u64,
        total_rss_kib: numbers[3] as u64,
    }
}

fn child(out: &Path, run_bytes: usize, dirs: &[String]) {
    let dirs: Vec<PathBuf> = dirs.iter().map(PathBuf::from).collect();
    let start = Instant::now();
    let outcome = arena::tournament::merge::merge(out, &dirs, run_bytes).expect("merge");
    let merge_s = start.elapsed().as_secs_f64();
    let merge_rss = peak_rss_kib();
    assert!(outcome.complete(), "every game merged");
    let start = Instant::now();
    arena::report::rating::rate_dir(out).expect("rate");
    let rate_s = start.elapsed().as_secs_f64();
    let total_rss = peak_rss_kib();
    std::fs::write(
        out.join("bench-report"),
        format!("{merge_s} {rate_s} {merge_rss} {total_rss}"),
    )
    .unwrap();
}

/// Writes the shard directories of a `games`-game tournament under `root`.
fn write_shards(root: &Path, games: u64) -> Vec<PathBuf> {
    let pairings = (BOTS.len() * (BOTS.len() - 1) / 2) as u64;
    let mut toml = format!(
        "[tournament]\nvariant = \"qango6\"\ngames_per_pairing = {}\nseed = 1\nopening_plies = 2\n",
        games / pairings
    );
    for bot in BOTS {
        toml.push_str(&format!(
            "\n[[bot]]\nname = \"{bot}\"\ncommand = [\"/bin/true\"]\n"
        ));
    }
    let file = root.join("t.toml");
    std::fs::write(&file, toml).unwrap();
    let base = load(&file, &Given::new(), &Defaults::from_environment())
        .unwrap()
        .config;
    (1..=SHARDS)
        .map(|index| {
            let dir = root.join(format!("shard-{index}"));
            std::fs::create_dir_all(&dir).unwrap();
            let mut config = base.clone();
            config.shard = Some(Shard {
                index,
                count: SHARDS,
            });
            config.out = dir.clone();
            let manifest = Manifest::round_robin(config);
            manifest.write(&dir).unwrap();
            write_games(&manifest, &dir);
            dir
        })
        .collect()
}

fn write_games(manifest: &Manifest, dir: &Path) {
    let schedule = manifest.schedule().unwrap();
    let shard = manifest.shard();
    let names = manifest.config.bot_names();
    let ids: Vec<u64> = (0..schedule.len())
        .filter(|&id| shard.contains_game(id))
        .collect();
    let mut csv = BufWriter::new(std::fs::File::create(dir.join("games.csv")).unwrap());
    let mut jsonl = BufWriter::new(std::fs::File::create(dir.join("games.jsonl")).unwrap());
    csv.write_all(csv_header().as_bytes()).unwrap();
    for block in ids.chunks(IN_FLIGHT as usize) {
        for &id in block.iter().rev() {
            let game = schedule.game(id).unwrap().unwrap();
            let (white, black) = (&names[game.white], &names[game.black]);
            let record = record(id, &game, white, black);
            let row = record.to_games_row();
            csv.write_all(format_row(&row).unwrap().as_bytes()).unwrap();
            serde_json::to_writer(&mut jsonl, &record).unwrap();
            jsonl.write_all(b"\n").unwrap();
        }
    }
    csv.flush().unwrap();
    jsonl.flush().unwrap();
}

/// A result that depends on who plays whom (and the id), so the ratings differ.
fn outcome(id: u64, white: usize, black: usize) -> (GameResult, RuleReason) {
    let roll = (id.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 33) % 100;
    let edge = 8 * (black as u64 + 5 - white as u64);
    if roll < 20 + edge {
        (GameResult::WhiteWins, RuleReason::Line)
    } else if roll < 60 {
        (GameResult::Draw, RuleReason::Full)
    } else {
        (GameResult::BlackWins, RuleReason::Group)
    }
}

/// The record of game `id` (`game` of the schedule, between `white` and
/// `black`), of the size a 36-ply Qango 6 game has.
fn record(id: u64, game: &ScheduledGame, white: &str, black: &str) -> GameRecord {
    let (result, reason) = outcome(id, game.white, game.black);
    let mut record = record_with_result(id, game.pair, white, black, result);
    record.round = Some(game.round);
    record.time_control = TimeControl::PerMove { move_ms: 1000 };
    record.moves = ('a'..='f')
        .flat_map(|c| (1..=6).map(move |r| format!("{c}{r}")))
        .collect();
    record.opening = game.opening.clone();
    record.move_times_ms = vec![2; record.moves.len()];
    record.plies = record.moves.len() as u32;
    record.reason = reason.into();
    record.white_time_ms = 40 + id % 17;
    record.black_time_ms = 40 + id % 13;
    record.duration_ms = 90;
    record.ended_utc = "2026-12-01T00:00:00Z".into();
    record
}
