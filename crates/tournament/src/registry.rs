//! The formats arena knows, in one table ([`FORMATS`]): the only place
//! that names them all, as fastchess's `tournament_manager.cpp` is the only
//! file that knows its tournament types. A run's plan names its format
//! (`"kind"` in tournament.json); [`Formats::open`] finds the format's line
//! and opens the run with it. Adding a format is its module (a
//! [`Format`], its plan, its `FORMAT` line) and one line here
//! (docs/CONTRIBUTING.md, "Adding a format"); a test may add its own
//! ([`Formats::with`]).

use anyhow::anyhow;

use super::adaptive;
use super::format::{Format, FormatRow};
use super::knockout;
use super::manifest::Manifest;
use super::round_robin;
use super::sprt;
use super::swiss;

/// Every format, one line each.
pub const FORMATS: &[FormatRow] = &[
    round_robin::FORMAT,
    sprt::FORMAT,
    swiss::FORMAT,
    knockout::FORMAT,
    adaptive::FORMAT,
];

/// The formats a run may be of: arena's own ([`FORMATS`]), and any a
/// caller adds.
#[derive(Clone)]
pub struct Formats {
    rows: Vec<FormatRow>,
}

impl Default for Formats {
    fn default() -> Formats {
        Formats::builtin()
    }
}

impl Formats {
    /// arena's formats.
    pub fn builtin() -> Formats {
        Formats {
            rows: FORMATS.to_vec(),
        }
    }

    /// These and `row`'s format.
    pub fn with(mut self, row: FormatRow) -> Formats {
        self.rows.push(row);
        self
    }

    /// The line of format `kind`.
    pub fn row(&self, kind: &str) -> Option<&FormatRow> {
        self.rows.iter().find(|row| row.kind == kind)
    }

    /// The format of `manifest`'s run, opened on its plan; fails on a
    /// format this arena does not know and on a plan that cannot be played.
    pub fn open(&self, manifest: &Manifest) -> anyhow::Result<Box<dyn Format>> {
        let kind = manifest.plan.kind();
        let row = self.row(kind).ok_or_else(|| {
            let known: Vec<&str> = self.rows.iter().map(|row| row.kind).collect();
            anyhow!(
                "the plan is of format {kind:?}, which this arena does not know ({})",
                known.join(", ")
            )
        })?;
        (row.open)(manifest)
    }
}
