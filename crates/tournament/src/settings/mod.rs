//! Every setting of a run, each defined once ([`defs::SETTINGS`]): its key
//! in a tournament file's `[tournament]` table (and in `tournament.json`),
//! its flag, its default, what values it takes and its rule ([`Kind`], in
//! [`kind`]), its
//! help line and documentation, and whether it belongs to the run's
//! identity or may change on `--resume`. The command line builds its flags
//! from the definitions, `docs/SETTINGS.md` is generated from them
//! ([`page`]), and the identity hash leaves out exactly the settings they
//! say (ripgrep's `flags/defs.rs` is the model: one definition per flag,
//! with its docs, and everything else derived).
//!
//! Values go through three stages, once each:
//! - raw: a flag's text ([`Given`]), a value of the tournament file, or the
//!   definition's default;
//! - resolved ([`resolve`]): one value per setting, read by its kind (flag
//!   beats file beats default) and written by its definition into its
//!   typed slot of [`SettingValues`] ([`values`], plain data), with where
//!   it came from;
//! - validated ([`build`]): the [`RunSettings`], a
//!   [`TournamentConfig`](crate::TournamentConfig) and the plan its format
//!   makes of the settings ([`crate::format::FormatRow::plan`]), after the
//!   rules that tie settings together. A saved `tournament.json` goes
//!   through the same rules on `--resume`. The entry points [`load`],
//!   [`from_toml`] and [`from_given`] go through all three stages.
//!
//! Adding a setting is its definition in [`defs`] (listed in
//! [`defs::SETTINGS`]), its field in [`SettingValues`], and the code that
//! uses its value. The code names a setting by its definition
//! (`defs::CONCURRENCY`) or its field (`values.concurrency`), never by a
//! string.

pub mod build;
pub mod defs;
pub mod kind;
pub mod page;
pub mod resolve;
pub mod values;

pub use build::{from_given, from_toml, load, RunSettings};
pub use defs::{by_key, resumable_flags, Command, Default, Setting, SETTINGS};
pub use kind::{Kind, Value};
pub use resolve::Given;
pub use values::{Defaults, Origin, SettingValues, Slot};
