//! The bottom layer of arena: file helpers every other crate may use.
//!
//! - [`atomic`]: replace a file so that a crash leaves the old or the new one.
//! - [`utc`]: UTC times as records and directory names write them.
//! - [`sha256`]: content hashes of programs and suites.
//! - [`position`]: the line and column of an offset, for errors about files.
//! - [`suggest`]: the nearest known key to a misspelt one ("did you mean").
//! - [`dir_lock`]: one writer per output directory (an exclusive `flock`).

pub mod atomic;
pub mod dir_lock;
pub mod position;
pub mod sha256;
pub mod suggest;
pub mod utc;

pub use atomic::{write_atomically, write_atomically_with};
pub use dir_lock::{DirLock, LockError};
pub use position::line_col;
pub use sha256::sha256_hex;
pub use suggest::nearest;
pub use utc::{utc_fields, utc_rfc3339, utc_timestamp};
