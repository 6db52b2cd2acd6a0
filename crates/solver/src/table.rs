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

/// An entry: `[key, data]`, data packing the tag (0: empty; 1 + the
/// attacker's colour index otherwise) in bits 0..8, `phi` in 8..40,
/// `delta` in 40..72 and the work in 72..104. Plain integers, so a new
/// table is zeroed memory the system hands out lazily.
type Entry = [u128; 2];

const WAYS: usize = 4;

fn tag(e: &Entry) -> u8 {
    e[1] as u8
}

fn unpack(e: &Entry) -> (u32, u32, u32) {
    ((e[1] >> 8) as u32, (e[1] >> 40) as u32, (e[1] >> 72) as u32)
}

fn pack(key: u128, tag: u8, phi: u32, delta: u32, work: u32) -> Entry {
    [
        key,
        tag as u128 | (phi as u128) << 8 | (delta as u128) << 40 | (work as u128) << 72,
    ]
}

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
            buckets: vec![[[0u128; 2]; WAYS]; n],
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
        self.buckets
            .iter_mut()
            .for_each(|b| *b = [[0u128; 2]; WAYS]);
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
            .find(|e| self::tag(e) == tag && e[0] == key)
            .map(|e| {
                let (phi, delta, _) = unpack(e);
                Numbers { phi, delta }
            })
    }

    pub fn put(&mut self, key: u128, attacker: usize, n: Numbers, work: u64) {
        let tag = 1 + attacker as u8;
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        let worth = |e: &Entry| -> u64 {
            let (phi, delta, work) = unpack(e);
            if self::tag(e) == 0 {
                0
            } else if phi == 0 || delta == 0 {
                u64::MAX
            } else {
                work as u64 + 1
            }
        };
        let slot = match bucket
            .iter()
            .position(|e| self::tag(e) == tag && e[0] == key)
        {
            Some(i) => i,
            None => {
                let i = (0..WAYS).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0);
                if self::tag(&bucket[i]) == 0 {
                    self.used += 1;
                }
                i
            }
        };
        bucket[slot] = pack(key, tag, n.phi, n.delta, work.min(u32::MAX as u64) as u32);
    }
}
