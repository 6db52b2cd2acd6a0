//! A fixed-size transposition table keyed by a 64-bit position hash.
//!
//! One slot per index, always-replace: simple and good enough for the short
//! searches a bot makes per move. Win scores are stored relative to the node
//! (distance from it, not from the root) so they stay correct when the same
//! position is reached at another depth.

use crate::search::WIN_BOUND;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least `score` (a beta cutoff).
    Lower,
    /// The true score is at most `score` (no move reached alpha).
    Upper,
}

#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// Family-specific code of the best move found (cell index, move index).
    pub best: u16,
}

pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of `2^log2_slots` entries.
    pub fn new(log2_slots: u32) -> Table {
        let len = 1usize << log2_slots;
        Table {
            slots: vec![None; len],
            mask: len - 1,
        }
    }

    /// The entry for `key` with its score converted back to distance from the
    /// root (`ply` = distance of this node from the root).
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let entry = self.slots[key as usize & self.mask]?;
        (entry.key == key).then(|| Entry {
            score: from_table(entry.score, ply),
            ..entry
        })
    }

    pub fn store(&mut self, key: u64, ply: usize, depth: i32, score: i32, bound: Bound, best: u16) {
        self.slots[key as usize & self.mask] = Some(Entry {
            key,
            score: to_table(score, ply),
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
            best,
        });
    }
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score an entry proves for a window, if it is deep enough.
pub fn cutoff(entry: &Entry, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    if (entry.depth as i32) < depth {
        return None;
    }
    match entry.bound {
        Bound::Exact => Some(entry.score),
        Bound::Lower if entry.score >= beta => Some(entry.score),
        Bound::Upper if entry.score <= alpha => Some(entry.score),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    #[test]
    fn stores_and_finds_by_key_only() {
        let mut t = Table::new(4);
        t.store(0x35, 0, 3, 17, Bound::Exact, 9);
        let e = t.probe(0x35, 0).expect("stored entry");
        assert_eq!(
            (e.score, e.depth, e.bound, e.best),
            (17, 3, Bound::Exact, 9)
        );
        // Same slot, other key: not found.
        assert!(t.probe(0x45, 0).is_none());
    }

    #[test]
    fn win_scores_are_relative_to_the_node() {
        let mut t = Table::new(4);
        // Found at ply 2: a win 5 plies from the root = 3 plies from this node.
        t.store(7, 2, 4, WIN - 5, Bound::Exact, 0);
        // Reached again at ply 4: the same win is now 7 plies from the root.
        assert_eq!(t.probe(7, 4).unwrap().score, WIN - 7);
        t.store(8, 1, 4, -(WIN - 3), Bound::Exact, 0);
        assert_eq!(t.probe(8, 3).unwrap().score, -(WIN - 5));
    }

    #[test]
    fn cutoff_respects_depth_and_bounds() {
        let e = Entry {
            key: 1,
            score: 50,
            depth: 3,
            bound: Bound::Lower,
            best: 0,
        };
        assert_eq!(cutoff(&e, 3, 0, 40), Some(50));
        assert_eq!(cutoff(&e, 3, 0, 60), None);
        assert_eq!(cutoff(&e, 4, 0, 40), None);
    }
}
