//! The referee's time per move against the physical floor: one line to a
//! child process and one line back over pipes, measured in the same run.
//!
//! Run: `cargo bench --bench referee_overhead`.
//!
//! Five layers, measured in interleaved rounds so that both sides of the
//! ratio see the same machine load (the medians over the rounds are
//! reported):
//!
//! 1. `raw round trip`: blocking writes and reads to `arena-echo`, a child
//!    that writes back each line. The floor.
//! 2. `process round trip`: the same through the referee's [`BotProcess`]
//!    (tokio pipes, deadline, exit watch, capped line reader), read through
//!    the runtime as at `-j 2` and up (layers 3 and 4 read moves as the
//!    runtime allows, see below).
//! 3. `turn round trip`: one `turn` message through [`Seat::request_move`]
//!    to `arena-instant-bot`, which answers the first legal move (protocol
//!    encoding and decoding on both sides).
//! 4. `referee per move`: whole games between two instant bots through
//!    [`play_bots`] (bots kept across games, as in a tournament), wall time
//!    divided by the moves played: state and legal moves for each turn, the
//!    history, rules checks, clocks, `new_game` and `game_over`.
//!
//! 5. `referee per move, suspend_idle`: layer 4 with `suspend_idle` on
//!    (the bot not on move stopped and continued every ply); its excess
//!    over layer 4 is the cost of suspension per ply.
//!
//! The aim is layer 4 at most twice layer 1.
//!
//! Beside them, `CPU-time accounting`: the two reads of a bot's CPU-time
//! clock that every move makes (when the turn is written and when the
//! move is read, [`BotProcess::cpu_used`]), timed on their own against the
//! echo child, part of layers 3 and 4; and where arena can give a bot a
//! cgroup, the same two reads of its `cpu.stat` (what the CPU clock,
//! `clock = "cpu"`, uses to count the bot's whole process tree).
//!
//! The process and everything it starts run pinned to one CPU (see
//! [`pin_to_one_cpu`]; `ARENA_BENCH_PIN=0` turns that off).
//! The runtime is the current-thread one a tournament uses at `-j 1` (and
//! `arena play` and `check-bot`), where moves are waited for in `poll(2)`
//! ([`arena::referee::direct_io`]); `ARENA_BENCH_RUNTIME=multi` measures
//! the multi-threaded runtime of `-j 2` and up instead.
//!
//! `ARENA_BENCH_ROUNDS` and `ARENA_BENCH_VARIANTS` (comma-separated ids)
//! change the rounds and the variants played; `ARENA_BENCH_LAYERS=games` plays layer 4 only (for
//! counting a move's instructions under `valgrind --tool=callgrind`).

use std::time::{Duration, Instant};

use arena::games::{Color, Position, Variant};
use arena::protocol::{TimeControl, Turn, TurnClock};
use arena::referee::{play_bots, BotProcess, BotSpec, GameConfig, ReadLine, Seat, SpawnOptions};

#[path = "support/echo.rs"]
mod echo;
#[path = "support/pin.rs"]
mod pin;
use echo::RawEcho;
use pin::{pin_to_one_cpu, pinning_wanted};

const ECHO: &str = env!("CARGO_BIN_EXE_arena-echo");
const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");

/// Interleaved measurement rounds (after one warm-up round); the
/// environment variable `ARENA_BENCH_ROUNDS` overrides it (e.g. a short run
/// under `valgrind --tool=callgrind`).
const ROUNDS: usize = 300;
/// Round trips per round for layers 1 to 3, each timed on its own.
const ROUND_TRIPS: usize = 100;
/// Games per round and variant for layer 4, each timed on its own.
const GAMES: usize = 4;
/// Variants played in layer 4: a small board and the largest move lists.
/// `ARENA_BENCH_VARIANTS` (comma-separated ids) overrides it.
const VARIANTS: &str = "qango6,quinque";

fn spec(name: &str, program: &str) -> BotSpec {
    let mut spec = BotSpec::from_command_line(name, "placeholder").expect("spec");
    spec.command = vec![program.to_string()];
    spec
}

/// Layer 2: the same echo child through the referee's process layer.
async fn process_round_trips(
    process: &mut BotProcess,
    line: &str,
    count: usize,
    samples: &mut Vec<Duration>,
) {
    for _ in 0..count {
        let began = Instant::now();
        process
            .send_line(line, Duration::from_secs(5))
            .await
            .expect("echo through BotProcess");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        match process.read_line(deadline).await {
            ReadLine::Line(answer) => assert_eq!(answer.len(), line.len()),
            other => panic!("echo through BotProcess: {other:?}"),
        }
        samples.push(began.elapsed());
    }
}

/// A `turn` from the middle of a Qango 6 game.
fn sample_turn() -> Turn {
    let variant = Variant::by_id("qango6").expect("qango6");
    let mut pos = Position::new(variant);
    let mut history = Vec::new();
    for _ in 0..8 {
        let m = pos.legal_moves()[0];
        pos.play(&m).expect("legal");
        history.push(m.to_string());
    }
    Turn {
        game_id: "bench".into(),
        variant: variant.id.into(),
        color: Color::White,
        ply: pos.ply(),
        state: pos.state_json(),
        history,
        legal_moves: pos.legal_moves().iter().map(ToString::to_string).collect(),
        clock: TurnClock {
            white_ms: None,
            black_ms: None,
            move_ms: 5000,
            basis: Default::default(),
        },
    }
}

/// Layer 3: `turn` to the instant bot and its `move` back.
async fn turn_round_trips(seat: &mut Seat, turn: &Turn, count: usize, samples: &mut Vec<Duration>) {
    for _ in 0..count {
        let began = Instant::now();
        let (answer, _) = seat
            .request_move(turn, Duration::from_secs(5))
            .await
            .expect("instant bot answers");
        samples.push(began.elapsed());
        assert_eq!(answer.mv, turn.legal_moves[0]);
    }
}

/// `count` times a move's CPU-time accounting: two reads of the bot's
/// CPU-time clock.
fn cpu_clock_reads(process: &mut BotProcess, count: usize, samples: &mut Vec<Duration>) {
    for _ in 0..count {
        let began = Instant::now();
        let before = process.cpu_used();
        let after = process.cpu_used();
        samples.push(began.elapsed());
        assert!(
            before.is_some() && after >= before,
            "the echo child's CPU clock"
        );
    }
}

/// Layer 4: `count` whole games; each game's wall time per move.
#[allow(clippy::too_many_arguments)]
async fn referee_per_move(
    white: &mut Seat,
    black: &mut Seat,
    variant: &'static Variant,
    suspend_idle: bool,
    count: usize,
    next_id: &mut u64,
    samples: &mut Vec<Duration>,
) {
    for _ in 0..count {
        *next_id += 1;
        let mut config = GameConfig::new(
            &format!("g{next_id}"),
            variant,
            TimeControl::PerMove { move_ms: 5000 },
        );
        config.suspend_idle = suspend_idle;
        let began = Instant::now();
        let record = play_bots(white, black, &config)
            .await
            .expect("game between instant bots");
        samples.push(began.elapsed() / record.plies.max(1));
        assert!(
            record.reason.is_rule(),
            "instant bots must finish by the rules, got {}: {}",
            record.reason,
            record.message
        );
    }
}

/// The `q` quantile (0..=1) of the samples.
fn quantile(values: &mut [Duration], q: f64) -> Duration {
    values.sort_unstable();
    values[((values.len() - 1) as f64 * q).round() as usize]
}

fn micros(d: Duration) -> String {
    format!("{:.2}us", d.as_secs_f64() * 1e6)
}

fn main() {
    let pin = pinning_wanted();
    if pin {
        match pin_to_one_cpu() {
            Some(cpu) => println!(
                "pinned to CPU {cpu} with the bots (ARENA_BENCH_PIN=0: leave placement to the OS)"
            ),
            None => println!("could not pin to one CPU; placement left to the OS"),
        }
    } else {
        println!("not pinned: placement left to the OS");
    }
    // As in a tournament at `-j 1`: a current-thread runtime, the games in a
    // spawned task. `ARENA_BENCH_RUNTIME=multi`: as at `-j 2` and up.
    let current = std::env::var("ARENA_BENCH_RUNTIME").map_or(true, |r| r != "multi");
    let runtime = if current {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
    }
    .expect("tokio runtime");
    println!(
        "tokio runtime: {}",
        if current {
            "current_thread"
        } else {
            "multi_thread, 2 workers"
        }
    );
    runtime.block_on(async { tokio::spawn(run()).await.expect("benchmark task") });
}

async fn run() {
    // A line the size of a bot's answer; the turn layer sends real turns.
    let short = r#"{"type":"move","move":"c3"}"#;
    let short_line = format!("{short}\n");
    let turn = sample_turn();
    let turn_line = arena::protocol::RefereeMessage::Turn(turn.clone()).to_line();

    let mut raw = RawEcho::start();
    let mut process =
        BotProcess::spawn(&spec("echo", ECHO), &SpawnOptions::default()).expect("spawn echo");
    let mut seat = Seat::new(spec("instant", INSTANT_BOT), SpawnOptions::default());
    seat.prepare(None).await.expect("instant bot starts");
    let mut white = Seat::new(spec("white", INSTANT_BOT), SpawnOptions::default());
    let mut black = Seat::new(spec("black", INSTANT_BOT), SpawnOptions::default());
    let variants: Vec<&'static Variant> = std::env::var("ARENA_BENCH_VARIANTS")
        .unwrap_or_else(|_| VARIANTS.to_string())
        .split(',')
        .map(|id| Variant::by_id(id.trim()).unwrap_or_else(|| panic!("unknown variant {id:?}")))
        .collect();

    let mut raw_short = Vec::new();
    let mut raw_turn = Vec::new();
    let mut proc_short = Vec::new();
    let mut turns = Vec::new();
    let mut cpu_reads = Vec::new();
    let mut cgroup_reads = Vec::new();
    // The same echo child in a cgroup of its own (the CPU clock's tree
    // measure), where arena can make one.
    let mut in_cgroup = arena::referee::cgroup::available().then(|| {
        let options = SpawnOptions {
            cpu_tree: true,
            ..SpawnOptions::default()
        };
        BotProcess::spawn(&spec("echo", ECHO), &options).expect("spawn echo")
    });
    let mut per_move: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
    let mut suspended: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
    let mut next_id = 0;
    let rounds = std::env::var("ARENA_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS);
    let games_only = std::env::var("ARENA_BENCH_LAYERS").is_ok_and(|l| l == "games");
    for round in 0..=rounds {
        if round == 1 {
            // Round 0 was the warm-up.
            for samples in [
                &mut raw_short,
                &mut raw_turn,
                &mut proc_short,
                &mut turns,
                &mut cpu_reads,
                &mut cgroup_reads,
            ] {
                samples.clear();
            }
            per_move.iter_mut().for_each(Vec::clear);
            suspended.iter_mut().for_each(Vec::clear);
        }
        if !games_only {
            raw.round_trips(&short_line, ROUND_TRIPS, &mut raw_short);
            raw.round_trips(&turn_line, ROUND_TRIPS, &mut raw_turn);
            process_round_trips(&mut process, short, ROUND_TRIPS, &mut proc_short).await;
            turn_round_trips(&mut seat, &turn, ROUND_TRIPS, &mut turns).await;
            cpu_clock_reads(&mut process, ROUND_TRIPS, &mut cpu_reads);
            if let Some(p) = in_cgroup.as_mut() {
                cpu_clock_reads(p, ROUND_TRIPS, &mut cgroup_reads);
            }
        }
        for (&variant, samples) in variants.iter().zip(per_move.iter_mut()) {
            referee_per_move(
                &mut white,
                &mut black,
                variant,
                false,
                GAMES,
                &mut next_id,
                samples,
            )
            .await;
        }
        if !games_only {
            for (&variant, samples) in variants.iter().zip(suspended.iter_mut()) {
                referee_per_move(
                    &mut white,
                    &mut black,
                    variant,
                    true,
                    GAMES,
                    &mut next_id,
                    samples,
                )
                .await;
            }
        }
    }
    seat.shutdown().await;
    white.shutdown().await;
    black.shutdown().await;
    process.kill().await;
    if let Some(mut p) = in_cgroup {
        p.kill().await;
    }

    if games_only {
        for (variant, samples) in variants.iter().zip(per_move.iter_mut()) {
            println!(
                "  referee per move, {} games: median {}",
                variant.id,
                micros(quantile(samples, 0.5))
            );
        }
        return;
    }
    let floor = quantile(&mut raw_short, 0.5);
    println!(
        "referee overhead: {rounds} interleaved rounds ({ROUND_TRIPS} timed round trips per \
         layer, {GAMES} timed games per variant each)"
    );
    println!(
        "  {:<46} {:>9} {:>9} {:>9}   {:>10}",
        "", "p10", "median", "p90", "median/raw"
    );
    let row = |what: &str, samples: &mut Vec<Duration>| {
        let median = quantile(samples, 0.5);
        println!(
            "  {what:<46} {:>9} {:>9} {:>9}   {:>9.2}x",
            micros(quantile(samples, 0.1)),
            micros(median),
            micros(quantile(samples, 0.9)),
            median.as_secs_f64() / floor.as_secs_f64()
        );
    };
    row(
        &format!("raw round trip, {} B line", short_line.len()),
        &mut raw_short,
    );
    row(
        &format!("raw round trip, {} B line (a turn)", turn_line.len()),
        &mut raw_turn,
    );
    row("BotProcess round trip (tokio), short line", &mut proc_short);
    row("turn -> move round trip (Seat, instant bot)", &mut turns);
    row("CPU-time accounting (2 clock reads a move)", &mut cpu_reads);
    if !cgroup_reads.is_empty() {
        row(
            "CPU clock's tree (2 cgroup cpu.stat reads)",
            &mut cgroup_reads,
        );
    }
    for (variant, samples) in variants.iter().zip(per_move.iter_mut()) {
        row(&format!("referee per move, {} games", variant.id), samples);
    }
    for (variant, samples) in variants.iter().zip(suspended.iter_mut()) {
        row(
            &format!("referee per move, {} games, suspend_idle", variant.id),
            samples,
        );
    }
    for (i, variant) in variants.iter().enumerate() {
        let plain = quantile(&mut per_move[i], 0.5);
        let with = quantile(&mut suspended[i], 0.5);
        let cost = with.saturating_sub(plain);
        println!(
            "  suspension's cost per ply, {}: {} ({:.2}x the raw round trip)",
            variant.id,
            micros(cost),
            cost.as_secs_f64() / floor.as_secs_f64()
        );
    }
}
