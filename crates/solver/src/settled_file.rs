//! The settled table's file format: a header naming the variant, then
//! records of 24 bytes, each a proven value with its own checksum, so that
//! a reader keeps every whole record and skips torn or damaged bytes.
//!
//! A record is `[0xA7, 0x5E, value, cost, key (16 bytes, little-endian),
//! checksum (4 bytes, little-endian)]`: `value` 1 loss, 2 draw, 3 win for
//! the side to move, or a proven bound, 4 "does not lose" (a win or a
//! draw), 5 "does not win" (a draw or a loss), from a proof inside a search
//! that answered one of its two questions; `cost` the bit length of the nodes the proof took
//! (compaction keeps the costliest); the checksum is FNV-1a over the first
//! 20 bytes, folded to 32 bits. Records are only ever appended (one
//! `write(2)` a batch, `O_APPEND`); a writer killed mid-write leaves a
//! partial record, which a reader skips by finding the next valid one.

use crate::Value;

/// Bytes of one record.
pub const RECORD: usize = 24;
/// Bytes of the header.
pub const HEADER: usize = 48;

const MAGIC: [u8; 2] = [0xA7, 0x5E];

/// What is proven of a position, for its mover: its value, or a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    Is(Value),
    /// A win or a draw.
    NotLoss,
    /// A draw or a loss.
    NotWin,
}

impl Known {
    /// The value, if it is known exactly.
    pub fn exact(self) -> Option<Value> {
        match self {
            Known::Is(v) => Some(v),
            _ => None,
        }
    }

    /// Both facts together.
    pub fn merge(self, other: Known) -> Known {
        match (self, other) {
            (Known::Is(v), _) | (_, Known::Is(v)) => Known::Is(v),
            (Known::NotLoss, Known::NotWin) | (Known::NotWin, Known::NotLoss) => {
                Known::Is(Value::Draw)
            }
            (k, _) => k,
        }
    }

    /// Whether the mover gets what it wants in a search of "can the
    /// attacker win?" (`attacking`: the mover is the attacker, who wants a
    /// win; else it wants not to lose); `None` when this does not say.
    pub fn mover_succeeds(self, attacking: bool) -> Option<bool> {
        match (self, attacking) {
            (Known::Is(v), true) => Some(v == Value::Win),
            (Known::Is(v), false) => Some(v != Value::Loss),
            (Known::NotWin, true) => Some(false),
            (Known::NotLoss, false) => Some(true),
            _ => None,
        }
    }

    /// What a search proved: the mover succeeded or failed at its side of
    /// "can the attacker win?".
    pub fn of_search(attacking: bool, succeeded: bool) -> Known {
        match (attacking, succeeded) {
            (true, true) => Known::Is(Value::Win),
            (true, false) => Known::NotWin,
            (false, true) => Known::NotLoss,
            (false, false) => Known::Is(Value::Loss),
        }
    }

    fn byte(self) -> u8 {
        match self {
            Known::Is(Value::Loss) => 1,
            Known::Is(Value::Draw) => 2,
            Known::Is(Value::Win) => 3,
            Known::NotLoss => 4,
            Known::NotWin => 5,
        }
    }

    fn of_byte(b: u8) -> Option<Known> {
        Some(match b {
            1 => Known::Is(Value::Loss),
            2 => Known::Is(Value::Draw),
            3 => Known::Is(Value::Win),
            4 => Known::NotLoss,
            5 => Known::NotWin,
            _ => return None,
        })
    }
}

/// One stored proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub key: u128,
    pub known: Known,
    /// Bit length of the proof's nodes (0 to 64).
    pub cost: u8,
}

/// The header of `variant`'s file: text, padded with spaces, ending in a
/// newline.
pub fn header(variant: &str) -> [u8; HEADER] {
    let mut out = [b' '; HEADER];
    let text = format!("arena settled table v2 {variant}");
    let n = text.len().min(HEADER - 1);
    out[..n].copy_from_slice(&text.as_bytes()[..n]);
    out[HEADER - 1] = b'\n';
    out
}

/// The bit length of `nodes`: how costly a proof was, in a byte.
pub fn cost_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

fn checksum(bytes: &[u8]) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h ^ (h >> 32)) as u32
}

/// `e` as its record.
pub fn encode(e: &Entry) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..2].copy_from_slice(&MAGIC);
    r[2] = e.known.byte();
    r[3] = e.cost;
    r[4..20].copy_from_slice(&e.key.to_le_bytes());
    let sum = checksum(&r[..20]);
    r[20..].copy_from_slice(&sum.to_le_bytes());
    r
}

/// The entry of the record starting `bytes`, if it is one.
pub fn decode(bytes: &[u8]) -> Option<Entry> {
    let r = bytes.get(..RECORD)?;
    if r[..2] != MAGIC || checksum(&r[..20]) != u32::from_le_bytes(r[20..].try_into().ok()?) {
        return None;
    }
    Some(Entry {
        key: u128::from_le_bytes(r[4..20].try_into().ok()?),
        known: Known::of_byte(r[2])?,
        cost: r[3],
    })
}

/// What a scan of records found.
#[derive(Debug, Default)]
pub struct Scan {
    pub entries: Vec<Entry>,
    /// Bytes skipped between valid records (damage).
    pub skipped: u64,
    /// Bytes of `bytes` read: up to the end, or to a tail that is not yet
    /// a whole valid record (a write under way, or torn): a later scan
    /// starts there.
    pub consumed: usize,
}

/// The records of `bytes` (no header): whole valid records in order; after
/// a bad one, the scan goes on at the next byte where a valid record
/// starts.
pub fn scan(bytes: &[u8]) -> Scan {
    let mut out = Scan::default();
    let mut at = 0;
    while at + RECORD <= bytes.len() {
        if let Some(e) = decode(&bytes[at..]) {
            out.entries.push(e);
            at += RECORD;
            continue;
        }
        match (at + 1..=bytes.len() - RECORD).find(|&i| decode(&bytes[i..]).is_some()) {
            Some(next) => {
                out.skipped += (next - at) as u64;
                at = next;
            }
            None => break,
        }
    }
    out.consumed = at;
    out
}

/// The entries to keep when a file outgrows its cap: one per key (what
/// its records prove together, at the costliest proof's cost), the `keep`
/// costliest.
pub fn compacted(mut entries: Vec<Entry>, keep: usize) -> Vec<Entry> {
    entries.sort_by(|a, b| a.key.cmp(&b.key).then(b.cost.cmp(&a.cost)));
    entries.dedup_by(|later, kept| {
        let same = later.key == kept.key;
        if same {
            kept.known = kept.known.merge(later.known);
        }
        same
    });
    entries.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.key.cmp(&b.key)));
    entries.truncate(keep);
    entries
}
