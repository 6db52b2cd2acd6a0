//! What the sandbox costs: a bot's start (spawn to `ready`) and one move
//! (`turn` out, `move` back), each with and without bubblewrap, measured in
//! interleaved rounds so both sides see the same machine load; plus one
//! read of a bot's process-tree CPU time from `/proc` (what the tree-wide
//! CPU limit costs, at most every 100 ms per bot); and a move of a bot
//! suspended before it (`suspend_idle`: stopped, then continued by the
//! turn), with and without bubblewrap.
//!
//! Run: `cargo bench --bench sandbox_cost` (`ARENA_BENCH_ROUNDS` changes the
//! rounds). Without a usable `bwrap` it says so and measures nothing.

use std::time::{Duration, Instant};

use arena::games::{Color, Position, Variant};
use arena::protocol::{Turn, TurnClock};
use arena::referee::limits::tree_cpu_time;
use arena::referee::{BotSpec, Seat, SpawnOptions};

#[path = "support/measure.rs"]
mod measure;
use measure::median;

const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");
/// Interleaved rounds (after one warm-up round).
const ROUNDS: usize = 40;
/// Timed moves per round and side.
const MOVES: usize = 200;

fn spec(sandbox: bool) -> BotSpec {
    let mut spec = BotSpec::from_command_line("instant", "placeholder").expect("spec");
    spec.command = vec![INSTANT_BOT.to_string()];
    spec.sandbox = Some(sandbox);
    spec
}

/// The first `turn` of a Qango 6 game (every cell legal).
fn first_turn() -> Turn {
    let variant = Variant::by_id("qango6").expect("qango6");
    let start = Position::new(variant);
    let legal_moves = start
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    Turn {
        game_id: "bench".into(),
        variant: variant.id.into(),
        color: Color::White,
        ply: 0,
        state: start.state_json(),
        history: Vec::new(),
        legal_moves,
        clock: TurnClock {
            white_ms: None,
            black_ms: None,
            move_ms: 5000,
            basis: Default::default(),
        },
    }
}

/// Spawn to `ready`, then a polite shutdown (not timed).
async fn start(sandbox: bool, samples: &mut Vec<Duration>) {
    let mut seat = Seat::new(spec(sandbox), SpawnOptions::default());
    let began = Instant::now();
    seat.prepare(None).await.expect("instant bot starts");
    samples.push(began.elapsed());
    seat.shutdown().await;
}

async fn moves(seat: &mut Seat, turn: &Turn, suspend: bool, samples: &mut Vec<Duration>) {
    for _ in 0..MOVES {
        let began = Instant::now();
        if suspend {
            seat.suspend();
        }
        seat.request_move(turn, Duration::from_secs(5))
            .await
            .expect("instant bot answers");
        samples.push(began.elapsed());
    }
}

fn main() {
    if let Err(e) = arena::referee::sandbox::check_available() {
        println!("sandbox_cost: nothing measured: {e:#}");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    runtime.block_on(async { tokio::spawn(run()).await.expect("benchmark task") });
}

async fn run() {
    let rounds = std::env::var("ARENA_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS);
    let turn = first_turn();
    let mut plain = Seat::new(spec(false), SpawnOptions::default());
    let mut boxed = Seat::new(spec(true), SpawnOptions::default());
    plain.prepare(None).await.expect("plain bot starts");
    boxed.prepare(None).await.expect("sandboxed bot starts");
    let pid = boxed.process().expect("running").pid();
    let (mut start_plain, mut start_boxed) = (Vec::new(), Vec::new());
    let (mut move_plain, mut move_boxed) = (Vec::new(), Vec::new());
    let (mut stopped_plain, mut stopped_boxed) = (Vec::new(), Vec::new());
    let mut tree = Vec::new();
    for round in 0..=rounds {
        if round == 1 {
            for s in [
                &mut start_plain,
                &mut start_boxed,
                &mut move_plain,
                &mut move_boxed,
                &mut stopped_plain,
                &mut stopped_boxed,
                &mut tree,
            ] {
                s.clear();
            }
        }
        // Which side goes first alternates, so neither gains from the order.
        if round % 2 == 0 {
            start(false, &mut start_plain).await;
            start(true, &mut start_boxed).await;
            moves(&mut plain, &turn, false, &mut move_plain).await;
            moves(&mut boxed, &turn, false, &mut move_boxed).await;
            moves(&mut plain, &turn, true, &mut stopped_plain).await;
            moves(&mut boxed, &turn, true, &mut stopped_boxed).await;
        } else {
            start(true, &mut start_boxed).await;
            start(false, &mut start_plain).await;
            moves(&mut boxed, &turn, true, &mut stopped_boxed).await;
            moves(&mut plain, &turn, true, &mut stopped_plain).await;
            moves(&mut boxed, &turn, false, &mut move_boxed).await;
            moves(&mut plain, &turn, false, &mut move_plain).await;
        }
        let began = Instant::now();
        tree_cpu_time(pid).expect("bot is running");
        tree.push(began.elapsed());
    }
    plain.shutdown().await;
    boxed.shutdown().await;

    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
    let us = |d: Duration| format!("{:.1} us", d.as_secs_f64() * 1e6);
    let (sp, sb) = (median(&mut start_plain), median(&mut start_boxed));
    let (mp, mb) = (median(&mut move_plain), median(&mut move_boxed));
    println!(
        "sandbox cost: medians over {rounds} interleaved rounds (1 start, {MOVES} moves each side)"
    );
    println!(
        "  start to ready   plain {:>10}   sandboxed {:>10}   +{} ({:.1}x)",
        ms(sp),
        ms(sb),
        ms(sb.saturating_sub(sp)),
        sb.as_secs_f64() / sp.as_secs_f64()
    );
    println!(
        "  move round trip  plain {:>10}   sandboxed {:>10}   ratio {:.2}",
        us(mp),
        us(mb),
        mb.as_secs_f64() / mp.as_secs_f64()
    );
    let (spl, sbx) = (median(&mut stopped_plain), median(&mut stopped_boxed));
    println!(
        "  suspended move   plain {:>10}   sandboxed {:>10}   (+{} / +{}: a stop and a continue)",
        us(spl),
        us(sbx),
        us(spl.saturating_sub(mp)),
        us(sbx.saturating_sub(mb))
    );
    println!(
        "  tree CPU read    {:>10} (one pass over /proc)",
        us(median(&mut tree))
    );
}
