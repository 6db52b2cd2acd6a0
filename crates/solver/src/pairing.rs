//! Pairings: a proof, found in a glance, that a side cannot win. Pairs of
//! free cells, no two sharing a cell, such that every pattern the side
//! can still complete holds one pair whole: whenever the side takes a cell
//! of a pair, its opponent takes the other, so every such pattern gets an
//! opponent's disc before the side fills it. The search's first look uses
//! them ([`crate::qango`]: a side facing a pairing cannot win), and a
//! "does not lose" strategy file stops where the side has a move leaving
//! its opponent one ([`crate::strategy`]); the verifier finds it again
//! from the rules crate alone.

use arena_rules::games::geometry::{bits, Geometry};

/// The most patterns a board has (Qango 7: 112).
const MAX_PATTERNS: usize = 128;
/// The most pairs a pairing has: half the cells of the largest board.
const MAX_PAIRS: usize = 32;

/// Steps a strategy file's search for a pairing may take (the verifier
/// allows ten times more, in the same order, so it finds every pairing
/// found here).
pub const STRATEGY_STEPS: u32 = 20_000;

/// A pairing against the patterns of `geometry` that `attacker` (with
/// `left` discs still to place) can still complete while `defender` holds
/// the other discs: the pairs, as masks of two cells. `None` when there is
/// none, or none found within `steps` steps.
pub fn pairing(
    geometry: &Geometry,
    attacker: u64,
    defender: u64,
    left: u32,
    steps: u32,
) -> Option<Vec<u64>> {
    let mut open = [0u64; MAX_PATTERNS];
    let mut n = 0;
    for p in &geometry.patterns {
        if p.mask & defender == 0 && (p.mask & !attacker).count_ones() <= left {
            open[n] = p.mask & !attacker;
            n += 1;
        }
    }
    let open = &mut open[..n];
    open.sort_unstable();
    let mut cover = Cover {
        pairs: [0; MAX_PAIRS],
        n: 0,
        steps,
    };
    cover
        .extend(dedup(open), 0)
        .then(|| cover.pairs[..cover.n].to_vec())
}

/// `open` sorted, its repeats dropped: the distinct masks.
fn dedup(open: &mut [u64]) -> &[u64] {
    let mut kept = 0;
    for i in 0..open.len() {
        if kept == 0 || open[i] != open[kept - 1] {
            open[kept] = open[i];
            kept += 1;
        }
    }
    &open[..kept]
}

struct Cover {
    pairs: [u64; MAX_PAIRS],
    n: usize,
    steps: u32,
}

impl Cover {
    /// Extends the pairs (whose cells are `used`) until every mask of
    /// `open` holds one pair whole, trying the pairs of the mask with the
    /// fewest unused cells first; false when that fails or the steps run
    /// out.
    fn extend(&mut self, open: &[u64], used: u64) -> bool {
        let Some(tightest) = open
            .iter()
            .map(|m| m & !used)
            .min_by_key(|m| m.count_ones())
        else {
            return true;
        };
        let cells = tightest.count_ones();
        if cells < 2 || self.n == MAX_PAIRS {
            return false;
        }
        for a in bits(tightest) {
            for b in bits(tightest & !(u64::MAX >> (63 - a))) {
                if self.steps == 0 {
                    return false;
                }
                self.steps -= 1;
                let pair = 1u64 << a | 1u64 << b;
                let mut rest = [0u64; MAX_PATTERNS];
                let mut k = 0;
                for &m in open {
                    if m & pair != pair {
                        rest[k] = m;
                        k += 1;
                    }
                }
                self.pairs[self.n] = pair;
                self.n += 1;
                if self.extend(&rest[..k], used | pair) {
                    return true;
                }
                self.n -= 1;
            }
        }
        false
    }
}
