//! The transposition table: a fixed number of buckets allocated once, so
//! the solver never uses more memory than it was given.
//!
//! An entry keeps the exact key (no hash collisions can mix positions up),
//! which side's win was asked, the proof and disproof numbers from the
//! mover's point of view, and the work spent on it. A bucket holds four
//! entries; a new entry replaces the one with the least work, and proven
//! entries count as worth more than any unfinished one.
//!
//! A long proof checkpoints its table ([`Table::save`]) and a later run
//! loads it ([`Table::load`]) and goes on from where it stopped: the
//! search keeps no state but the table. The file is the entries in use,
//! 32 bytes each, between a header and a trailer that both carry their
//! count; it is written beside its place and renamed over it, so a run
//! killed while saving leaves the last checkpoint whole.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

/// Proof and disproof numbers at or above this are infinite.
pub const INFINITE: u32 = u32::MAX / 4;

/// An entry: `[key, data]`, data packing the tag (0: empty; 1 + the
/// attacker's colour index otherwise) in bits 0..8, `phi` in 8..40,
/// `delta` in 40..72 and the work in 72..104. Plain integers, so a new
/// table is zeroed memory the system hands out lazily.
type Entry = [u128; 2];

const WAYS: usize = 4;

/// The first bytes of a checkpoint.
const CHECKPOINT_MAGIC: &[u8; 8] = b"arenaTT1";

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

    /// Writes the entries in use to `path` (through `path.tmp` and a
    /// rename); the number written, or one line saying why not.
    pub fn save(&self, path: &Path) -> Result<u64, String> {
        let tmp = path.with_extension("tmp");
        let fail = |what: &str, e: std::io::Error| format!("{what} {}: {e}", tmp.display());
        let file = File::create(&tmp).map_err(|e| fail("create", e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let mut write = |bytes: &[u8]| out.write_all(bytes).map_err(|e| fail("write", e));
        let entries = || self.buckets.iter().flatten().filter(|e| tag(e) != 0);
        let n = entries().count() as u64;
        write(CHECKPOINT_MAGIC)?;
        write(&n.to_le_bytes())?;
        for e in entries() {
            write(&e[0].to_le_bytes())?;
            write(&e[1].to_le_bytes())?;
        }
        write(&n.to_le_bytes())?;
        let file = out
            .into_inner()
            .map_err(|e| fail("write", e.into_error()))?;
        file.sync_all().map_err(|e| fail("sync", e))?;
        std::fs::rename(&tmp, path).map_err(|e| fail("rename", e))?;
        Ok(n)
    }

    /// Adds the entries of a checkpoint written by [`Table::save`] (a
    /// smaller table keeps those its buckets have room for); the number
    /// read, or one line saying what is wrong with the file.
    pub fn load(&mut self, path: &Path) -> Result<u64, String> {
        let bad = |why: &str| format!("{}: {why}", path.display());
        let file = File::open(path).map_err(|e| bad(&e.to_string()))?;
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut read = |buf: &mut [u8]| input.read_exact(buf).map_err(|_| bad("cut short"));
        let mut magic = [0u8; 8];
        read(&mut magic)?;
        if &magic != CHECKPOINT_MAGIC {
            return Err(bad("not a solver checkpoint"));
        }
        let mut word = [0u8; 8];
        read(&mut word)?;
        let count = u64::from_le_bytes(word);
        let mut entry = [0u8; 32];
        for _ in 0..count {
            read(&mut entry)?;
            let key = u128::from_le_bytes(entry[..16].try_into().expect("16 bytes"));
            let data = u128::from_le_bytes(entry[16..].try_into().expect("16 bytes"));
            let e: Entry = [key, data];
            let (phi, delta, work) = unpack(&e);
            let attacker = match tag(&e) {
                1 | 2 => tag(&e) as usize - 1,
                _ => return Err(bad("an entry with no side")),
            };
            self.put(key, attacker, Numbers { phi, delta }, work as u64);
        }
        read(&mut word)?;
        if u64::from_le_bytes(word) != count {
            return Err(bad("its trailer does not match its header"));
        }
        Ok(count)
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

    /// The work recorded with the entry of `key` (0 without one).
    #[inline]
    pub fn work(&self, key: u128, attacker: usize) -> u64 {
        let tag = 1 + attacker as u8;
        self.buckets[self.bucket(key)]
            .iter()
            .find(|e| self::tag(e) == tag && e[0] == key)
            .map_or(0, |e| unpack(e).2 as u64)
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
