//! The settled table (crates/solver/src/settled.rs) under real use: threads
//! and `arena solve` processes writing one file at once, `arena analyse`
//! SIGKILLed while it writes, a torn, damaged or foreign file; after each,
//! every record of the file is checked against a fresh proof (a search
//! with an empty transposition table and no settled table). A second
//! analysis of a run takes its positions from the table, and an analysis
//! SIGKILLed mid-way and run again writes what an uninterrupted one writes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena::games::{Position, Variant};
use arena_solver::dfpn::{Search, StopAt};
use arena_solver::game::{Glance, Rules};
use arena_solver::qango::{QangoRules, State};
use arena_solver::settled::Settled;
use arena_solver::settled_file::{scan, Known, HEADER};
use arena_solver::table::Table;
use arena_solver::{Budget, Solver, Value};
use common::tournament::*;
use common::TABLE_DIR_ENV;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const VARIANT: &str = "qango6";

fn variant() -> &'static Variant {
    Variant::by_id(VARIANT).unwrap()
}

/// `count` positions of random games, `plies` to `plies + 5` moves in,
/// none over, as move lists.
fn random_positions(count: usize, plies: usize, seed: u64) -> Vec<Vec<String>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::new(variant());
        let mut moves = Vec::new();
        let length = plies + rng.gen_range(0..6);
        while moves.len() < length && !pos.is_over() {
            let legal = pos.legal_moves();
            let m = legal[rng.gen_range(0..legal.len())];
            pos.play(&m).unwrap();
            moves.push(m.to_string());
        }
        if !pos.is_over() {
            out.push(moves);
        }
    }
    out
}

fn position(moves: &[String]) -> Position {
    let mut pos = Position::new(variant());
    for m in moves {
        pos.play_str(m).unwrap();
    }
    pos
}

/// The value of the position of a key, for its mover, by a fresh proof.
fn fresh_value(rules: &QangoRules, key: u128) -> Value {
    let (w, b) = (key as u64, (key >> 64) as u64);
    let s = State {
        discs: [w, b],
        ply: (w | b).count_ones(),
        lost: false,
    };
    match rules.glance(&s) {
        Glance::Won => return Value::Win,
        Glance::Lost => return Value::Loss,
        Glance::Drawn => return Value::Draw,
        Glance::Open { .. } => {}
    }
    let mut table = Table::with_bytes(16 << 20);
    let mut search = Search::new(rules, &mut table, StopAt::default());
    let mover = rules.mover(&s).index();
    if search.prove(&s, mover).phi == 0 {
        return Value::Win;
    }
    if search.prove(&s, 1 - mover).phi == 0 {
        Value::Draw
    } else {
        Value::Loss
    }
}

/// Every record of the table file in `dir`, each checked against a fresh
/// proof; returns how many there are.
fn every_record_is_true(dir: &Path) -> usize {
    let bytes = std::fs::read(dir.join(format!("{VARIANT}.table"))).unwrap();
    let entries = scan(&bytes[HEADER..]).entries;
    let rules = QangoRules::new(variant());
    for e in &entries {
        let truth = fresh_value(&rules, e.key);
        let holds = match e.known {
            Known::Is(v) => v == truth,
            Known::NotLoss => truth != Value::Loss,
            Known::NotWin => truth != Value::Win,
        };
        assert!(
            holds,
            "key {:x}: the file says {:?}, a fresh proof {truth:?}",
            e.key, e.known
        );
    }
    entries.len()
}

fn solve_command(table: &Path, moves: &[String]) -> Command {
    let mut command = common::arena();
    command
        .args([
            "solve",
            VARIANT,
            "--moves",
            &moves.join(" "),
            "--budget-ms",
            "20000",
        ])
        .env(TABLE_DIR_ENV, table);
    command
}

fn json(output: &Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", text(output));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn threads_and_processes_writing_one_table_store_only_true_values() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("table");
    let positions = random_positions(24, 10, 11);
    let (by_process, by_threads) = positions.split_at(8);
    let children: Vec<Child> = by_process
        .iter()
        .map(|moves| {
            solve_command(&table, moves)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Two threads, each with its own open table (as two processes would
    // have), solving at the same time as the processes.
    let mut searched: Vec<&Vec<String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = by_threads
            .chunks(8)
            .map(|chunk| {
                let table = &table;
                scope.spawn(move || {
                    let settled = Arc::new(Settled::open(table, variant(), 1 << 20).unwrap());
                    let mut solver = Solver::new(variant(), 16 << 20).with_settled(Some(settled));
                    let mut searched = Vec::new();
                    for moves in chunk {
                        let s = solver.solve(&position(moves), Budget::millis(20_000));
                        assert!(s.value.is_some(), "{moves:?}");
                        if s.nodes > 0 {
                            searched.push(moves);
                        }
                    }
                    searched
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let answers: Vec<serde_json::Value> = children
        .into_iter()
        .map(|c| json(&c.wait_with_output().unwrap()))
        .collect();
    for (moves, answer) in by_process.iter().zip(&answers) {
        if answer["nodes"] != 0 {
            searched.push(moves);
        }
    }
    assert!(searched.len() >= 4, "{searched:?}");
    let records = every_record_is_true(&table);
    assert!(records >= searched.len());
    // Every position a search proved is in the table now, rightly.
    let settled = Settled::open(&table, variant(), 1 << 20).unwrap();
    let rules = QangoRules::new(variant());
    for moves in searched {
        let key = rules.key(&rules.state_of(&position(moves)));
        assert_eq!(
            settled.get(key),
            Some(fresh_value(&rules, key)),
            "{moves:?}"
        );
    }
    // And a process asking again finds it there: no search.
    let k = answers.iter().position(|a| a["nodes"] != 0).unwrap_or(0);
    let again = json(&solve_command(&table, &by_process[k]).output().unwrap());
    assert_eq!(again["nodes"], 0);
    assert_eq!(again["value"], answers[k]["value"]);
    assert!(again["best"].is_string(), "{again}");
}

#[test]
fn the_start_is_answered_from_the_stored_proof() {
    let dir = tempfile::tempdir().unwrap();
    let answer = json(&solve_command(&dir.path().join("t"), &[]).output().unwrap());
    assert_eq!(answer["value"], "win");
    assert_eq!(answer["nodes"], 0, "{answer}");
    assert!(answer["best"].is_string(), "{answer}");
}

#[test]
fn a_torn_damaged_or_foreign_file_is_said_in_one_line_and_never_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("table");
    let file = table.join(format!("{VARIANT}.table"));
    let positions = random_positions(40, 8, 12);
    let mut rest = positions.iter();
    let size = || std::fs::metadata(&file).map_or(0, |m| m.len() as usize);
    while size() < HEADER + 3 * 24 {
        let moves = rest.next().expect("three records from 30 positions");
        json(&solve_command(&table, moves).output().unwrap());
    }
    let whole = std::fs::read(&file).unwrap();
    // A write cut short: half a record, then another process appends (a
    // position its first look settles appends nothing: the next one).
    std::fs::write(&file, &whole[..whole.len() - 9]).unwrap();
    while size() < whole.len() + 3 * 24 {
        let moves = rest.next().expect("three records appended from the rest");
        json(&solve_command(&table, moves).output().unwrap());
    }
    let positions: Vec<&Vec<String>> = rest.take(2).collect();
    // Damage in the middle: said in one line, the rest still read.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[HEADER + 5..HEADER + 30].fill(0xFF);
    std::fs::write(&file, &bytes).unwrap();
    let damaged = solve_command(&table, positions[0]).output().unwrap();
    json(&damaged);
    let stderr = String::from_utf8_lossy(&damaged.stderr);
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.contains("damaged bytes"))
            .count(),
        1,
        "{stderr}"
    );
    assert!(every_record_is_true(&table) > 2);
    // A foreign file: moved aside in one line, a new table started.
    std::fs::write(&file, b"not a table at all\n").unwrap();
    let foreign = solve_command(&table, positions[1]).output().unwrap();
    let answer = json(&foreign);
    let stderr = String::from_utf8_lossy(&foreign.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("moved to"), "{stderr}");
    assert!(table.join(format!("{VARIANT}.table.corrupt")).exists());
    let rules = QangoRules::new(variant());
    let key = rules.key(&rules.state_of(&position(positions[1])));
    assert_eq!(answer["value"], fresh_value(&rules, key).word());
    every_record_is_true(&table);
}

/// A run of `games` instant-bot games of qango6 after a random opening of
/// `opening` plies, in `dir/run`.
fn instant_run(dir: &Path, games: usize, opening: usize) -> PathBuf {
    let config = write_instant_config(
        dir,
        &format!(
            "variant = \"{VARIANT}\"\nopening_plies = {opening}\ngames_per_pairing = {games}\nseed = 9"
        ),
        &["a", "b"],
    );
    let out = dir.join("run");
    let run = run_tournament(&config, &out);
    assert!(run.status.success(), "{}", text(&run));
    out
}

fn analyse(run: &Path, table: &str, extra: &[&str]) -> Output {
    let output = common::arena()
        .args(["analyse", run.to_str().unwrap(), "--no-progress"])
        .args(extra)
        .env(TABLE_DIR_ENV, table)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    output
}

/// The counts of the "Solver: ..." line: from the table, searched, at
/// once, unknown.
fn solver_counts(output: &Output) -> [u64; 4] {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Solver: "))
        .unwrap_or_else(|| panic!("no Solver line: {stdout}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    [numbers[0], numbers[1], numbers[2], numbers[3]]
}

#[test]
fn a_second_analysis_takes_its_positions_from_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let run = instant_run(dir.path(), 30, 10);
    let table = dir.path().join("table");
    let table = table.to_str().unwrap();
    let first = solver_counts(&analyse(&run, table, &["--budget-ms", "5000"]));
    let analysis = std::fs::read_to_string(run.join("analysis.csv")).unwrap();
    let second = solver_counts(&analyse(&run, table, &["--budget-ms", "5000"]));
    assert_eq!(first.iter().sum::<u64>(), second.iter().sum::<u64>());
    assert!(first[1] > 20, "{first:?}");
    // Nothing is searched again: every position the first analysis took
    // from the table or proved by a search comes from the table the second
    // time, and so may some it settled at once (the table, asked first, may
    // hold one since another worker's search); as many stay unknown.
    assert_eq!(second[1], 0, "{first:?} then {second:?}");
    assert_eq!(second[3], first[3], "{first:?} then {second:?}");
    assert!(
        second[0] >= first[0] + first[1],
        "{first:?} then {second:?}"
    );
    assert_eq!(
        second[0] + second[2],
        first[0] + first[1] + first[2],
        "{first:?} then {second:?}"
    );
    let values = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    let again = std::fs::read_to_string(run.join("analysis.csv")).unwrap();
    assert_eq!(values(&analysis), values(&again));
    every_record_is_true(Path::new(table));
}

fn kill(child: &mut Child) {
    signal(child, libc::SIGKILL);
    wait_exit(child, Duration::from_secs(10));
}

#[test]
fn analysis_writers_sigkilled_leave_a_table_of_true_values() {
    let dir = tempfile::tempdir().unwrap();
    let run = instant_run(dir.path(), 40, 8);
    let table = dir.path().join("table");
    for delay in [150, 400, 900] {
        let mut child = common::arena()
            .args(["analyse", run.to_str().unwrap(), "--no-progress", "-j", "2"])
            .env(TABLE_DIR_ENV, &table)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        kill(&mut child);
    }
    every_record_is_true(&table);
}

/// analysis.csv without its `nodes` column (the work a run did), and
/// analysis_bots.csv.
fn outputs(run: &Path) -> (Vec<String>, String) {
    let rows = std::fs::read_to_string(run.join("analysis.csv"))
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string())
        .collect();
    (
        rows,
        std::fs::read_to_string(run.join("analysis_bots.csv")).unwrap(),
    )
}

fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for name in ["games.jsonl", "games.csv", "tournament.json"] {
        std::fs::copy(from.join(name), to.join(name)).unwrap();
    }
}

#[test]
fn an_analysis_killed_and_run_again_writes_what_an_uninterrupted_one_writes() {
    let dir = tempfile::tempdir().unwrap();
    let run = instant_run(dir.path(), 150, 12);
    let whole = dir.path().join("whole");
    copy_run(&run, &whole);
    let args = ["--budget-ms", "20000", "-j", "2"];
    analyse(&whole, "off", &args);
    let expected = outputs(&whole);
    let partial = run.join("analysis.partial.csv");
    let mut child = common::arena()
        .args(["analyse", run.to_str().unwrap(), "--no-progress"])
        .args(args)
        .env(TABLE_DIR_ENV, "off")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&partial).map_or(0, |t| t.lines().count()) < 12 {
        assert!(Instant::now() < end, "no rows appended in a minute");
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    kill(&mut child);
    let killed_mid_way = partial.exists();
    let resumed = analyse(&run, "off", &args);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    if killed_mid_way {
        assert!(stdout.contains("Resuming: "), "{stdout}");
    }
    assert!(!partial.exists());
    assert_eq!(outputs(&run), expected);

    // A kill that tore a line: the torn game is analysed again.
    let rows = std::fs::read_to_string(whole.join("analysis.csv")).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    let half = lines.len() / 2;
    let mut text = format!(
        "# arena analyse --budget-ms 20000\n{}\n",
        lines[..half].join("\n")
    );
    text.push_str(&lines[half][..lines[half].len() / 2]);
    std::fs::write(whole.join("analysis.partial.csv"), text).unwrap();
    let resumed = analyse(&whole, "off", &args);
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("Resuming: "));
    assert_eq!(outputs(&whole), expected);
}

#[test]
fn a_table_past_its_cap_keeps_its_costliest_proofs_within_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let cap = (HEADER + 30 * 24) as u64;
    let settled = Settled::open(dir.path(), variant(), cap).unwrap();
    let rules = QangoRules::new(variant());
    let mut keys: Vec<u128> = random_positions(60, 10, 13)
        .iter()
        .map(|moves| rules.key(&rules.state_of(&position(moves))))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert!(keys.len() > 40);
    // The first added is the costliest.
    for (i, &key) in keys.iter().enumerate() {
        let known = Known::Is(fresh_value(&rules, key));
        let cost = (keys.len() - i) as u8;
        settled.add(&[arena_solver::settled_file::Entry { key, known, cost }]);
    }
    let file = dir.path().join(format!("{VARIANT}.table"));
    assert!(std::fs::metadata(&file).unwrap().len() <= cap);
    let kept = scan(&std::fs::read(&file).unwrap()[HEADER..]).entries;
    assert!(
        kept.iter().any(|e| e.key == keys[0]),
        "the costliest proof was dropped"
    );
    every_record_is_true(dir.path());
    // A process opening it now reads every record it holds.
    let again = Settled::open(dir.path(), variant(), cap).unwrap();
    assert_eq!(again.len(), kept.len());
}
