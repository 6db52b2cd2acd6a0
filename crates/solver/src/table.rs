//! The transposition table: a fixed number of buckets allocated once, so
//! the solver never uses more memory than it was given.
//!
//! An entry keeps the exact key (no hash collisions can mix positions up),
//! which side's win was asked, the proof and disproof numbers from the
//! mover's point of view, and the work spent on it. A bucket holds four
//! entries; a new entry replaces the one with the least work, and proven
//! entries count as worth more than any unfinished one.

/// Proof and disproof numbers at or above this are infinite.
pub const INFINITE: u32 = u32::MAX / 4;

#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u128,
    /// 0: empty; 1 + attacker colour index otherwise.
    tag: u8,
    phi: u32,
    delta: u32,
    work: u32,
}

const WAYS: usize = 4;

pub struct Table {
    buckets: Vec<[Entry; WAYS]>,
    mask: usize,
    /// Entries in use (for the memory figure).
    used: u64,
}

/// What the table holds for one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    pub phi: u32,
    pub delta: u32,
}

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power of two of
    /// buckets, at least one).
    pub fn with_bytes(bytes: usize) -> Table {
        let bucket = std::mem::size_of::<[Entry; WAYS]>();
        let mut n = 1usize;
        while n * 2 * bucket <= bytes {
            n *= 2;
        }
        Table {
            buckets: vec![[Entry::default(); WAYS]; n],
            mask: n - 1,
            used: 0,
        }
    }

    /// Bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<[Entry; WAYS]>()
    }

    /// Entries in use.
    pub fn used(&self) -> u64 {
        self.used
    }

    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [Entry::default(); WAYS]);
        self.used = 0;
    }

    #[inline]
    fn bucket(&self, key: u128) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64 ^ (key >> 100) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 17) as usize & self.mask
    }

    #[inline]
    pub fn get(&self, key: u128, attacker: usize) -> Option<Numbers> {
        let tag = 1 + attacker as u8;
        self.buckets[self.bucket(key)]
            .iter()
            .find(|e| e.tag == tag && e.key == key)
            .map(|e| Numbers {
                phi: e.phi,
                delta: e.delta,
            })
    }

    pub fn put(&mut self, key: u128, attacker: usize, n: Numbers, work: u64) {
        let tag = 1 + attacker as u8;
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        let worth = |e: &Entry| -> u64 {
            if e.tag == 0 {
                0
            } else if e.phi == 0 || e.delta == 0 {
                u64::MAX
            } else {
                e.work as u64 + 1
            }
        };
        let slot = match bucket.iter().position(|e| e.tag == tag && e.key == key) {
            Some(i) => i,
            None => {
                let i = (0..WAYS).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0);
                if bucket[i].tag == 0 {
                    self.used += 1;
                }
                i
            }
        };
        bucket[slot] = Entry {
            key,
            tag,
            phi: n.phi,
            delta: n.delta,
            work: work.min(u32::MAX as u64) as u32,
        };
    }
}
