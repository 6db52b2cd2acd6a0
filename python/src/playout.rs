//! Random games played natively (`Game.random_playout`, `Game.play_random`):
//! uniformly random legal moves to the end, with the rules crate's own
//! move generation and play, and no allocation per Qango move.

use std::cell::RefCell;

use arena_rules::games::qango::below;
use arena_rules::games::{Color, Move, Position, QangoState, QuinqueMove, QuinqueState};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

thread_local! {
    /// The generator of unseeded playouts, seeded once per thread from the
    /// operating system (a seed per call cost more than a Qango playout).
    static RNG: RefCell<SmallRng> = RefCell::new(SmallRng::from_entropy());
}

/// Calls `f` with a generator seeded with `seed`, or with this thread's.
pub fn with_rng<T>(seed: Option<u64>, f: impl FnOnce(&mut SmallRng) -> T) -> T {
    match seed {
        Some(seed) => f(&mut SmallRng::seed_from_u64(seed)),
        None => RNG.with(|rng| f(&mut rng.borrow_mut())),
    }
}

/// Plays `n` random playouts from `pos`; returns the wins of white and
/// black and the draws.
pub fn count(pos: &Position, n: u64, rng: &mut impl RngCore) -> [u64; 3] {
    let mut counts = [0u64; 3];
    for _ in 0..n {
        let k = match playout(pos, rng, |_| {}) {
            Some(Color::White) => 0,
            Some(Color::Black) => 1,
            None => 2,
        };
        counts[k] += 1;
    }
    counts
}

/// Plays random moves from `pos` to the end, passing each to `record`;
/// returns the winner (`None`: a draw). `pos` itself is not changed.
pub fn playout(pos: &Position, rng: &mut impl RngCore, record: impl FnMut(Move)) -> Option<Color> {
    match (pos.qango(), pos.quinque()) {
        (Some(s), _) => qango(*s, rng, record),
        (_, Some(s)) => quinque(s.clone(), rng, record),
        _ => unreachable!("a position is Qango or Quinque"),
    }
}

/// The `n`th set bit of `mask` (`n` below its count).
fn nth_bit(mut mask: u64, n: usize) -> usize {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

fn qango(mut s: QangoState, rng: &mut impl RngCore, mut record: impl FnMut(Move)) -> Option<Color> {
    let cols = s.geometry().cols;
    let mut place = |s: &mut QangoState, index: usize| {
        s.place_unchecked(index);
        record(Move::Qango(arena_rules::games::Cell::from_index(
            index, cols,
        )));
    };
    // The first move may be restricted (the opening rule): drawn from the
    // legal cells; after it every free cell is legal until the end.
    if s.ply == 0 && !s.is_over() {
        let legal = s.legal_mask();
        place(
            &mut s,
            nth_bit(legal, below(rng, legal.count_ones() as usize)),
        );
    }
    let mut free = [0u8; 64];
    let mut n = 0;
    let legal = s.legal_mask();
    for i in (0..64).filter(|&i| legal >> i & 1 == 1) {
        free[n] = i as u8;
        n += 1;
    }
    while !s.is_over() {
        let k = below(rng, n);
        let index = free[k] as usize;
        n -= 1;
        free[k] = free[n];
        place(&mut s, index);
    }
    s.win.map(|(winner, _)| winner)
}

fn quinque(
    mut s: QuinqueState,
    rng: &mut impl RngCore,
    mut record: impl FnMut(Move),
) -> Option<Color> {
    let mut moves: Vec<QuinqueMove> = Vec::with_capacity(128);
    while s.result.is_none() {
        moves.clear();
        s.for_each_legal_move(|m| moves.push(m));
        if moves.is_empty() {
            break; // the rules end such a game (no_moves) before: not reached
        }
        let m = moves[below(rng, moves.len())];
        s.apply_unchecked(&m);
        record(Move::Quinque(m));
    }
    s.result.map(|(winner, _, _)| winner)
}
