//! The run's settings as resolved, before they are judged together: one
//! typed [`Slot`] per setting ([`SettingValues`]), each with where its
//! value came from ([`Origin`]), and the machine's [`Defaults`]. A
//! setting's definition names its slot ([`Place`], made by [`place!`]),
//! so the definitions write values here and the rules read them by field:
//! a misspelt setting is a compile error. This is plain data: it imports
//! nothing from the config, the manifest or the formats.

use std::ops::Range;
use std::path::PathBuf;

use arena_rules::protocol::TimeControl;

use super::kind::Value;
use crate::shard::Shard;
use arena_stats::Goal;

/// Where a value came from, so that the rule that rejects it can point there.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// A command-line flag as the user wrote it: `--games`, `--bot "a=x"`.
    Flag(String),
    /// A field of the tournament file, at `span` of its text.
    File { field: String, span: Range<usize> },
    /// A default, a value a front end supplied, or a saved `tournament.json`.
    Unlocated { field: String },
}

impl Origin {
    /// Whether a flag or the tournament file gave the value (not a default).
    pub fn given(&self) -> bool {
        !matches!(self, Origin::Unlocated { .. })
    }
}

impl std::default::Default for Origin {
    fn default() -> Origin {
        Origin::Unlocated {
            field: String::new(),
        }
    }
}

/// One setting's value and where it came from. A setting with a default
/// holds a `T`; one without, an `Option`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Slot<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Slot<T> {
    /// Whether a flag or the file gave the value (not a default).
    pub fn given(&self) -> bool {
        self.origin.given()
    }

    /// Whether a flag gave it.
    pub fn flagged(&self) -> bool {
        matches!(self.origin, Origin::Flag(_))
    }

    /// Whether the tournament file gave it.
    pub fn from_file(&self) -> bool {
        matches!(self.origin, Origin::File { .. })
    }
}

/// A slot of any type, as a definition reaches it: a value its kind read
/// goes in with [`AnySlot::put`].
pub trait AnySlot {
    /// Stores `value`, read by the setting's kind, and its origin.
    /// Panics when the kind reads values of another type than the slot
    /// holds: a definition's mistake, which the definitions' tests catch.
    fn put(&mut self, value: Value, origin: Origin);
    /// Records that the setting has no value and why (`origin`).
    fn locate(&mut self, origin: Origin);
    fn origin(&self) -> &Origin;
}

/// A value type a slot holds: what a kind's [`Value`] becomes.
pub trait FromValue: Sized {
    /// `None` when `value` is of another type.
    fn from_value(value: Value) -> Option<Self>;
}

impl<T: FromValue + std::fmt::Debug> AnySlot for Slot<T> {
    fn put(&mut self, value: Value, origin: Origin) {
        let text = format!("{value:?}");
        self.value = T::from_value(value).unwrap_or_else(|| {
            panic!(
                "setting {origin:?}: its kind read {text}, which its slot ({}) cannot hold",
                std::any::type_name::<T>()
            )
        });
        self.origin = origin;
    }

    fn locate(&mut self, origin: Origin) {
        self.origin = origin;
    }

    fn origin(&self) -> &Origin {
        &self.origin
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: Value) -> Option<Self> {
        T::from_value(value).map(Some)
    }
}

macro_rules! from_value {
    ($($t:ty => $variant:ident),* $(,)?) => {$(
        impl FromValue for $t {
            fn from_value(value: Value) -> Option<Self> {
                match value {
                    Value::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}

from_value! {
    u64 => Whole,
    f64 => Decimal,
    TimeControl => TimeControl,
    Vec<String> => List,
    &'static str => Word,
    PathBuf => Path,
    bool => Switch,
    Shard => Shard,
    Goal => Goal,
}

/// A definition's slot in [`SettingValues`], both ways: to write its value
/// and to read where it came from. Made by [`place!`], which also gives
/// the setting's key (the field's name).
#[derive(Clone, Copy)]
pub struct Place {
    pub key: &'static str,
    pub get: fn(&SettingValues) -> &dyn AnySlot,
    pub get_mut: fn(&mut SettingValues) -> &mut dyn AnySlot,
}

impl std::fmt::Debug for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Place({})", self.key)
    }
}

/// The [`Place`] of the [`SettingValues`] field `$field`; its name is the
/// setting's key.
macro_rules! place {
    ($field:ident) => {
        $crate::settings::values::Place {
            key: stringify!($field),
            get: |v| &v.$field,
            get_mut: |v| &mut v.$field,
        }
    };
}
pub(crate) use place;

/// Every setting's value after resolution, one field per setting, named by
/// its key. A setting without a default (`rounds`, `elo0`) holds an
/// `Option`; `time_control` too, as its file forms (`move_ms`, `base_ms`)
/// stand in for it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SettingValues {
    pub variant: Slot<Vec<String>>,
    pub variants: Slot<Option<Vec<String>>>,
    pub format: Slot<&'static str>,
    pub rounds: Slot<Option<u64>>,
    pub tiebreak_pairs: Slot<u64>,
    pub seeds: Slot<Option<Vec<String>>>,
    pub games_per_pairing: Slot<u64>,
    pub time_control: Slot<Option<TimeControl>>,
    pub move_ms: Slot<Option<u64>>,
    pub base_ms: Slot<Option<u64>>,
    pub increment_ms: Slot<u64>,
    pub concurrency: Slot<u64>,
    pub seed: Slot<u64>,
    pub out: Slot<PathBuf>,
    pub opening_plies: Slot<u64>,
    pub openings: Slot<Option<PathBuf>>,
    pub openings_order: Slot<&'static str>,
    pub openings_start: Slot<u64>,
    pub grace_ms: Slot<u64>,
    pub clock: Slot<&'static str>,
    pub wall_cap: Slot<u64>,
    pub adjudicate: Slot<&'static str>,
    pub adjudicate_ms: Slot<u64>,
    pub sync_interval_ms: Slot<u64>,
    pub startup_failures: Slot<u64>,
    pub shard: Slot<Option<Shard>>,
    pub sandbox: Slot<bool>,
    pub suspend_idle: Slot<bool>,
    pub rating_interval: Slot<u64>,
    pub elo0: Slot<Option<f64>>,
    pub elo1: Slot<Option<f64>>,
    pub model: Slot<&'static str>,
    pub alpha: Slot<f64>,
    pub beta: Slot<f64>,
    pub max_pairs: Slot<Option<u64>>,
    pub confidence: Slot<f64>,
    pub max_games: Slot<Option<u64>>,
    pub certify: Slot<Goal>,
}

/// Values that depend on the moment and the machine, passed in so that the
/// resolution itself is a pure function (and testable). The definitions
/// whose default is [`Default::Machine`](super::Default::Machine) read
/// them.
#[derive(Debug, Clone)]
pub struct Defaults {
    pub concurrency: usize,
    pub seed: u64,
    pub out: PathBuf,
    /// Directory that bots given with `--bot` run in (the current one), made
    /// explicit so a resumed run finds them from anywhere.
    pub current_dir: PathBuf,
}

impl Defaults {
    /// Number of cores, a fresh random seed, `arena-out/<UTC timestamp>`.
    pub fn from_environment() -> Defaults {
        let concurrency = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        Defaults {
            concurrency,
            // Small enough to retype, and exact in every JSON reader.
            seed: u64::from(rand::random::<u32>()),
            out: PathBuf::from("arena-out")
                .join(arena_files::utc_timestamp(std::time::SystemTime::now())),
            current_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }
}
