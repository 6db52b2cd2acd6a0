//! The settled table: the positions whose value the solver has proven,
//! kept on disk, one file per variant (`VARIANT.table` in the table's
//! directory, [`settled_file`](crate::settled_file) its format), shared by
//! every process that solves: `arena analyse`, `arena solve`, the
//! referee's adjudication and the engine. A value is a fact of the
//! position, so a proof made once is never made again, by any of them.
//!
//! Keys are the solver's symmetry-merged keys; only proven facts are
//! stored: a value (win, draw or loss for the mover), or, from a proof
//! inside a search that ran out of budget, a bound (the mover does not
//! lose / does not win), which the next search of a position above it
//! starts from, so each analysis settles more than the last. Values from
//! the stored proofs (`solutions/`, [`crate::stored`]) are known without
//! a file.
//!
//! - **Concurrent use**: records are appended, a batch in one `write(2)`
//!   with `O_APPEND`, under a shared `flock` of `VARIANT.lock`; readers
//!   need no lock (each record carries its checksum, a partial tail is
//!   read again later). Compaction takes the lock exclusively.
//! - **Crash**: a writer killed mid-write leaves at most one partial
//!   record, which readers skip; a file whose header is wrong is moved
//!   aside (`VARIANT.table.corrupt`) with one line on stderr, and a new one
//!   started.
//! - **Bounded**: past its cap (`ARENA_TABLE_MIB`, default 32 MiB, about
//!   1.4 million positions) the file is rewritten with the costliest
//!   proofs, half the cap (cheap ones are quick to prove again).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use arena_rules::games::Variant;

use crate::settled_file::{compacted, encode, header, scan, Entry, Known, HEADER, RECORD};
use crate::stored::stored_values;
use crate::Value;

/// The default cap of a variant's file, in bytes.
pub const DEFAULT_CAP: u64 = 32 << 20;
/// The environment variable naming the table's directory (`off`: none).
pub const DIR_ENV: &str = "ARENA_TABLE_DIR";
/// The environment variable giving the cap of each file, in MiB.
pub const CAP_ENV: &str = "ARENA_TABLE_MIB";

/// A multiplicative hash of a key (the keys are bitboards, not random).
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let x = (k as u64) ^ ((k >> 64) as u64).rotate_left(29);
        self.0 = (x ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 31)
    }
}

type Map<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;

/// Where the tables live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Dir(PathBuf),
    Off,
}

impl Location {
    /// `off` (or `none`) is no table, anything else a directory.
    pub fn parse(text: &str) -> Location {
        match text {
            "off" | "none" => Location::Off,
            dir => Location::Dir(PathBuf::from(dir)),
        }
    }

    /// `$ARENA_TABLE_DIR`, else `$XDG_CACHE_HOME/arena`, else
    /// `$HOME/.cache/arena`, else none.
    pub fn from_env() -> Location {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(dir) = var(DIR_ENV) {
            return Location::parse(&dir.to_string_lossy());
        }
        if let Some(cache) = var("XDG_CACHE_HOME") {
            return Location::Dir(PathBuf::from(cache).join("arena"));
        }
        match var("HOME") {
            Some(home) => Location::Dir(PathBuf::from(home).join(".cache/arena")),
            None => Location::Off,
        }
    }
}

/// The cap from `$ARENA_TABLE_MIB` (the default when unset; a bad value is
/// said in one line and the default used).
pub fn cap_from_env() -> u64 {
    let Some(text) = std::env::var_os(CAP_ENV) else {
        return DEFAULT_CAP;
    };
    match text.to_string_lossy().parse::<u64>() {
        Ok(mib) if (1..=1 << 20).contains(&mib) => mib << 20,
        _ => {
            note(&format!(
                "{CAP_ENV}={:?} is not a number of MiB (1 to 1048576): using {} MiB",
                text,
                DEFAULT_CAP >> 20
            ));
            DEFAULT_CAP
        }
    }
}

/// One line about the table on stderr.
fn note(line: &str) {
    eprintln!("arena: settled table: {line}");
}

/// The open file and how far it has been read.
struct FileState {
    file: File,
    lock: File,
    /// Device and inode of `file` (a compaction replaces the path's).
    id: (u64, u64),
    read_to: u64,
    /// Writes failed once (a full disk, a read-only directory): no more.
    broken: bool,
}

/// One variant's settled table.
pub struct Settled {
    variant: &'static str,
    path: PathBuf,
    cap: u64,
    map: RwLock<Map<Known>>,
    seeds: Map<Value>,
    file: Mutex<FileState>,
}

fn io_line(what: &str, path: &Path, e: std::io::Error) -> String {
    format!("cannot {what} {}: {e}", path.display())
}

fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    (m.dev(), m.ino())
}

impl Settled {
    /// The table of `variant` in `dir` (made if missing), its file capped
    /// at `cap` bytes. Err: one line saying why there is none.
    pub fn open(dir: &Path, variant: &'static Variant, cap: u64) -> Result<Settled, String> {
        std::fs::create_dir_all(dir).map_err(|e| io_line("create", dir, e))?;
        let path = dir.join(format!("{}.table", variant.id));
        let lock_path = dir.join(format!("{}.lock", variant.id));
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| io_line("open", &lock_path, e))?;
        lock.lock().map_err(|e| io_line("lock", &lock_path, e))?;
        let file = start_file(&path, variant.id);
        let _ = lock.unlock();
        let file = file?;
        let id = file
            .metadata()
            .map(|m| file_id(&m))
            .map_err(|e| io_line("read", &path, e))?;
        let table = Settled {
            variant: variant.id,
            path,
            cap: cap.max((HEADER + 16 * RECORD) as u64),
            map: RwLock::new(Map::default()),
            seeds: stored_values(variant).into_iter().collect(),
            file: Mutex::new(FileState {
                file,
                lock,
                id,
                read_to: HEADER as u64,
                broken: false,
            }),
        };
        table.refresh(&mut table.file.lock().expect("not poisoned"));
        Ok(table)
    }

    /// The path of the file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Positions in memory (from the file and this process's proofs).
    pub fn len(&self) -> usize {
        self.map.read().expect("not poisoned").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The proven value of the position with `key`, for its mover.
    pub fn get(&self, key: u128) -> Option<Value> {
        self.known(key).and_then(Known::exact)
    }

    /// What is proven of the position with `key`: its value or a bound.
    pub fn known(&self, key: u128) -> Option<Known> {
        if let Some(&v) = self.seeds.get(&key) {
            return Some(Known::Is(v));
        }
        self.map.read().expect("not poisoned").get(&key).copied()
    }

    fn insert(map: &mut Map<Known>, e: &Entry) {
        map.entry(e.key)
            .and_modify(|k| *k = k.merge(e.known))
            .or_insert(e.known);
    }

    /// Stores `batch` (in memory at once, in the file in one write; a
    /// failed write is said once and the table stays in memory).
    pub fn add(&self, batch: &[Entry]) {
        let batch: Vec<Entry> = batch
            .iter()
            .filter(|e| !self.seeds.contains_key(&e.key))
            .copied()
            .collect();
        if batch.is_empty() {
            return;
        }
        {
            let mut map = self.map.write().expect("not poisoned");
            for e in &batch {
                Settled::insert(&mut map, e);
            }
        }
        let mut st = self.file.lock().expect("not poisoned");
        if st.broken {
            return;
        }
        if let Err(line) = self.append(&mut st, &batch) {
            st.broken = true;
            note(&format!("{line}; the table is not written to any more"));
        }
    }

    /// Appends under the shared lock, having read what others appended.
    fn append(&self, st: &mut FileState, batch: &[Entry]) -> Result<(), String> {
        let bytes: Vec<u8> = batch.iter().flat_map(encode).collect();
        st.lock
            .lock_shared()
            .map_err(|e| io_line("lock", &self.path, e))?;
        self.reopen_if_replaced(st);
        self.refresh(st);
        let written = st.file.write_all(&bytes);
        let len = st.file.metadata().map(|m| m.len()).unwrap_or(0);
        let _ = st.lock.unlock();
        written.map_err(|e| io_line("append to", &self.path, e))?;
        if len > self.cap {
            self.compact(st)?;
        }
        Ok(())
    }

    /// After another process's compaction, the new file.
    fn reopen_if_replaced(&self, st: &mut FileState) {
        let Ok(now) = std::fs::metadata(&self.path) else {
            return;
        };
        if file_id(&now) == st.id {
            return;
        }
        if let Ok(file) = OpenOptions::new().read(true).append(true).open(&self.path) {
            st.file = file;
            st.id = file_id(&now);
            st.read_to = HEADER as u64;
        }
    }

    /// Reads the records appended since the last read into memory.
    fn refresh(&self, st: &mut FileState) {
        let mut bytes = Vec::new();
        let read = st
            .file
            .seek(SeekFrom::Start(st.read_to))
            .and_then(|_| st.file.read_to_end(&mut bytes));
        if read.is_err() {
            return;
        }
        let found = scan(&bytes);
        if found.skipped > 0 {
            note(&format!(
                "{}: skipped {} damaged bytes (a write cut short); every whole record is used",
                self.path.display(),
                found.skipped
            ));
        }
        st.read_to += found.consumed as u64;
        let mut map = self.map.write().expect("not poisoned");
        let most = 2 * (self.cap as usize / RECORD);
        if map.len() + found.entries.len() > most {
            map.clear();
        }
        for e in &found.entries {
            Settled::insert(&mut map, e);
        }
    }

    /// Rewrites the file with its costliest proofs, half the cap, under
    /// the exclusive lock (another process may have done it meanwhile).
    fn compact(&self, st: &mut FileState) -> Result<(), String> {
        st.lock.lock().map_err(|e| io_line("lock", &self.path, e))?;
        let done = self.rewrite(st);
        let _ = st.lock.unlock();
        done
    }

    fn rewrite(&self, st: &mut FileState) -> Result<(), String> {
        self.reopen_if_replaced(st);
        let mut bytes = Vec::new();
        st.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| st.file.read_to_end(&mut bytes))
            .map_err(|e| io_line("read", &self.path, e))?;
        if (bytes.len() as u64) <= self.cap {
            return Ok(());
        }
        let keep = (self.cap as usize / 2).saturating_sub(HEADER) / RECORD;
        let kept = compacted(scan(&bytes[HEADER.min(bytes.len())..]).entries, keep);
        let mut out = header(self.variant).to_vec();
        out.extend(kept.iter().flat_map(encode));
        let tmp = self.path.with_extension("table.tmp");
        std::fs::write(&tmp, &out)
            .and_then(|_| File::open(&tmp)?.sync_all())
            .and_then(|_| std::fs::rename(&tmp, &self.path))
            .map_err(|e| io_line("rewrite", &self.path, e))?;
        self.reopen_if_replaced(st);
        st.read_to = out.len() as u64;
        Ok(())
    }
}

/// The file at `path`, made with its header if new; one whose header is
/// not `variant`'s is moved aside, said in one line, and a new one made.
/// Called under the exclusive lock.
fn start_file(path: &Path, variant: &str) -> Result<File, String> {
    let open = || {
        OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| io_line("open", path, e))
    };
    let mut file = open()?;
    let mut head = Vec::new();
    let _ = (&mut file).take(HEADER as u64).read_to_end(&mut head);
    if head.is_empty() {
        file.write_all(&header(variant))
            .map_err(|e| io_line("write", path, e))?;
        return Ok(file);
    }
    if head == header(variant) {
        return Ok(file);
    }
    let aside = path.with_extension("table.corrupt");
    std::fs::rename(path, &aside).map_err(|e| io_line("move aside", path, e))?;
    note(&format!(
        "{} is not a settled table of {variant} (its header is damaged): moved to {} and \
         started again",
        path.display(),
        aside.display()
    ));
    start_file(path, variant)
}

/// The tables this process opened, by variant, from one location.
struct Registry {
    location: Option<Location>,
    cap: u64,
    open: HashMap<&'static str, Option<Arc<Settled>>>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

/// Sets where this process's tables are (before the first [`shared`]; the
/// environment's when never called) and their cap.
pub fn configure(location: Location, cap: u64) {
    *REGISTRY.lock().expect("not poisoned") = Some(Registry {
        location: Some(location),
        cap,
        open: HashMap::new(),
    });
}

/// This process's table of `variant` (opened once; `None` when tables are
/// off or it cannot be opened, said once in one line).
pub fn shared(variant: &'static Variant) -> Option<Arc<Settled>> {
    let mut registry = REGISTRY.lock().expect("not poisoned");
    let r = registry.get_or_insert_with(|| Registry {
        location: None,
        cap: cap_from_env(),
        open: HashMap::new(),
    });
    let location = r.location.get_or_insert_with(Location::from_env).clone();
    let cap = r.cap;
    r.open
        .entry(variant.id)
        .or_insert_with(|| match location {
            Location::Off => None,
            Location::Dir(dir) => match Settled::open(&dir, variant, cap) {
                Ok(table) => Some(Arc::new(table)),
                Err(line) => {
                    note(&format!("{line}; solving without it"));
                    None
                }
            },
        })
        .clone()
}
