//! The definitions: one [`Setting`] per setting of a run, in the order the
//! help and the reference page list them.

use std::borrow::Cow;

use arena_referee::DEFAULT_GRACE_MS;

use super::kind::{Kind, Value};
use super::values::{place, Defaults, Place};

/// The commands that take settings as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `arena tournament` (also its file's `[tournament]` table).
    Tournament,
    /// `arena sprt`.
    Sprt,
    /// `arena play`.
    Play,
    /// `arena serve --play` (the games played on its page).
    Serve,
}

impl Command {
    pub fn name(self) -> &'static str {
        match self {
            Command::Tournament => "tournament",
            Command::Sprt => "sprt",
            Command::Play => "play",
            Command::Serve => "serve",
        }
    }
}

/// What a setting is when nothing gives it.
#[derive(Debug, Clone, Copy)]
pub enum Default {
    /// This value, read by the setting's kind like any other.
    Value(&'static str),
    /// This whole number, a constant that code outside the definitions
    /// uses too (the referee's grace).
    Whole(u64),
    /// Depends on the machine or the moment (cores, a fresh seed, the
    /// time): described here, computed from the [`Defaults`] by the function.
    Machine(&'static str, fn(&Defaults) -> Value),
    /// No value; the text says what that means.
    Unset(&'static str),
}

impl Default {
    /// The default as the help and the reference page show it.
    pub fn text(self) -> Cow<'static, str> {
        match self {
            Default::Value(text) | Default::Machine(text, _) | Default::Unset(text) => text.into(),
            Default::Whole(n) => n.to_string().into(),
        }
    }
}

/// One setting, defined once.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// Its key in `[tournament]` and in `tournament.json`'s config: the
    /// name of its field in [`SettingValues`](super::values::SettingValues).
    pub key: &'static str,
    /// Its field in [`SettingValues`](super::values::SettingValues), where
    /// its value is written as its kind reads it.
    pub place: Place,
    /// Its long flag, without `--` (`None`: only in a file).
    pub flag: Option<&'static str>,
    pub short: Option<char>,
    /// The placeholder of its value in the help (`N`, `MS`, `FILE`).
    pub value_name: &'static str,
    /// What values it takes, and its rule.
    pub kind: Kind,
    pub default: Default,
    /// A different default in an SPRT (`arena sprt`, `format = "sprt"`).
    pub sprt_default: Option<&'static str>,
    /// One line, for `--help`.
    pub help: &'static str,
    /// More, for the reference page (may be empty).
    pub doc: &'static str,
    /// Part of the run's identity: shards of one tournament must agree on
    /// it (`arena merge` checks), and it is hashed into `tournament.json`'s
    /// `identity`. Settings that only say where and how fast are not.
    pub identity: bool,
    /// May be given again with `--resume DIR` (it changes no game).
    pub on_resume: bool,
    /// A key of the tournament file's `[tournament]` table.
    pub in_file: bool,
    /// `tournament.json`'s config holds the value as given, so `--resume`
    /// checks it again by the same rule.
    pub stored: bool,
    /// The commands that take it as a flag (and, for `Tournament`, in the file).
    pub commands: &'static [Command],
}

/// A setting is its key: keys are unique.
impl PartialEq for Setting {
    fn eq(&self, other: &Setting) -> bool {
        self.key == other.key
    }
}

impl Setting {
    /// The setting of `place`, with the fields most settings share: an
    /// identity setting of the tournament and SPRT commands and their
    /// files, stored as given, no flag yet.
    const fn of(place: Place) -> Setting {
        Setting {
            key: place.key,
            place,
            flag: None,
            short: None,
            value_name: "VALUE",
            kind: Kind::Switch,
            default: Default::Unset("none"),
            sprt_default: None,
            help: "",
            doc: "",
            identity: true,
            on_resume: false,
            in_file: true,
            stored: true,
            commands: RUNS,
        }
    }

    /// `--flag` as the user types it.
    pub fn flag_text(&self) -> Option<String> {
        self.flag.map(|flag| format!("--{flag}"))
    }
}

const RUNS: &[Command] = &[Command::Tournament, Command::Sprt];
const SPRT: &[Command] = &[Command::Sprt];
const TOURNAMENT: &[Command] = &[Command::Tournament];

/// A week in ms: the longest time value accepted anywhere (a time
/// control, the grace, a start-up limit). Longer is no real game, and
/// clock arithmetic stays far from overflow.
pub const MAX_TIME_MS: u64 = arena_rules::protocol::MAX_TIME_MS;

/// The default time control (`time_control`, and `arena check-bot --tc`).
pub const DEFAULT_TIME_CONTROL: &str = "per-move=1000";

/// Games at once: far more than any machine runs, far less than what would
/// overflow the runner's semaphore (2^61) or its queues.
pub const MAX_CONCURRENCY: u64 = 1024;

/// Longest accepted journal sync interval: what a machine crash may lose.
pub const MAX_SYNC_INTERVAL_MS: u64 = 60_000;

pub static VARIANT: Setting = Setting {
    flag: Some("variant"),
    value_name: "ID",
    kind: Kind::Variants,
    default: Default::Value("qango6"),
    help: "Variant id (`arena games` lists them); a tournament also takes a comma list or `all`: \
           the whole schedule is played in each variant",
    doc: "With several variants every two bots play `games_per_pairing` games in each of them; \
          the variants take turns pair by pair, and the results are rated per variant and \
          pooled. An SPRT plays one variant.",
    ..Setting::of(place!(variant))
};

pub static VARIANTS: Setting = Setting {
    value_name: "IDS",
    kind: Kind::Variants,
    default: Default::Unset("`variant`"),
    help: "Several variants, as a list (instead of `variant`)",
    commands: TOURNAMENT,
    ..Setting::of(place!(variants))
};

pub static FORMAT: Setting = Setting {
    value_name: "FORMAT",
    flag: Some("format"),
    kind: Kind::Choice(&[
        "round_robin",
        "gauntlet",
        "sprt",
        "swiss",
        "knockout",
        "adaptive",
    ]),
    default: Default::Value("round_robin"),
    help: "Who plays whom: `round_robin`, `gauntlet` (only the seeds' games), `sprt` \
           (game pairs between two bots until the test decides), `swiss` (`rounds` rounds, \
           each bot against one of a like score), `knockout` (a seeded single-elimination \
           bracket) or `adaptive` (game pairs where the ranking is uncertain, until it is \
           certified)",
    doc: "`--gauntlet NAME` makes a gauntlet; `arena sprt` an SPRT. A file with \
          `format = \"sprt\"` needs exactly two bots, `elo0` and `elo1` (an SPRT is not \
          made with the flag: use `arena sprt`). Swiss and knockout: docs/FORMATS.md; \
          `format = \"adaptive\"` needs `max_games` (docs/STATISTICS.md, \"Adaptive \
          ranking\").",
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(format))
};

pub static ROUNDS: Setting = Setting {
    flag: Some("rounds"),
    value_name: "N",
    kind: Kind::Whole { min: 1, max: 1000 },
    default: Default::Unset("required in a Swiss"),
    help: "Swiss: the number of rounds; each round pairs every bot with one opponent of the \
           same or the nearest score",
    doc: "A pairing is `games_per_pairing` games (in each variant). Round r + 1 is paired \
          when every game of round r has finished, from the results so far alone, so a \
          resumed run plays what an uninterrupted one would. Pairing, byes and tie-breaks: \
          docs/FORMATS.md.",
    identity: false,
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(rounds))
};

pub static TIEBREAK_PAIRS: Setting = Setting {
    flag: Some("tiebreak-pairs"),
    value_name: "N",
    kind: Kind::Whole { min: 0, max: 100 },
    default: Default::Value("2"),
    help: "Knockout: after a tied match, at most N more colour-swapped game pairs, one at a \
           time; still tied, the higher seed advances",
    identity: false,
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(tiebreak_pairs))
};

pub static SEEDS: Setting = Setting {
    flag: Some("gauntlet"),
    value_name: "NAME",
    kind: Kind::Names,
    default: Default::Unset("the first bot, in a gauntlet"),
    help: "A gauntlet seed (repeatable; makes the run a gauntlet): each seed plays every bot \
           that is not a seed, and the others do not play each other",
    commands: TOURNAMENT,
    ..Setting::of(place!(seeds))
};

pub static GAMES_PER_PAIRING: Setting = Setting {
    flag: Some("games"),
    value_name: "N",
    kind: Kind::Even {
        max: u32::MAX as u64,
    },
    default: Default::Value("2"),
    help: "Games between each two bots (even: pairs with colours swapped)",
    commands: TOURNAMENT,
    ..Setting::of(place!(games_per_pairing))
};

pub static TIME_CONTROL: Setting = Setting {
    flag: Some("tc"),
    value_name: "TC",
    kind: Kind::TimeControl,
    default: Default::Value(DEFAULT_TIME_CONTROL),
    help: "Time control: `per-move=MS`, or `BASE+INC` in seconds (e.g. 10+0.1)",
    doc: "A move's time is measured from the `turn` written to the answer read. In a file, \
          `move_ms`, or `base_ms` with `increment_ms`, say the same in milliseconds. A \
          `[[bot]]` may have its own `time_control` (time odds).",
    commands: &[Command::Tournament, Command::Sprt, Command::Play],
    ..Setting::of(place!(time_control))
};

pub static MOVE_MS: Setting = Setting {
    value_name: "MS",
    kind: Kind::Whole {
        min: 1,
        max: MAX_TIME_MS,
    },
    help: "Per-move limit in ms (instead of `time_control`)",
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(move_ms))
};

pub static BASE_MS: Setting = Setting {
    value_name: "MS",
    kind: Kind::Whole {
        min: 1,
        max: MAX_TIME_MS,
    },
    help: "A clock's time for the whole game in ms (instead of `time_control`)",
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(base_ms))
};

pub static INCREMENT_MS: Setting = Setting {
    value_name: "MS",
    kind: Kind::Whole {
        min: 0,
        max: MAX_TIME_MS,
    },
    default: Default::Value("0"),
    help: "The clock's increment per move in ms (with `base_ms`)",
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(increment_ms))
};

pub static CONCURRENCY: Setting = Setting {
    flag: Some("concurrency"),
    short: Some('j'),
    value_name: "N",
    kind: Kind::Whole {
        min: 1,
        max: MAX_CONCURRENCY,
    },
    default: Default::Machine("number of cores", |d| {
        Value::Whole(d.concurrency.max(1) as u64)
    }),
    help: "Games played at the same time",
    identity: false,
    on_resume: true,
    ..Setting::of(place!(concurrency))
};

pub static SEED: Setting = Setting {
    flag: Some("seed"),
    value_name: "N",
    kind: Kind::Whole {
        min: 0,
        max: i64::MAX as u64,
    },
    default: Default::Machine("random, recorded in tournament.json", |d| {
        Value::Whole(d.seed)
    }),
    help: "Seed of the openings (every game is computed from the settings and the seed)",
    ..Setting::of(place!(seed))
};

pub static OUT: Setting = Setting {
    flag: Some("out"),
    value_name: "DIR",
    kind: Kind::Path,
    default: Default::Machine("arena-out/UTC-TIMESTAMP", |d| Value::Path(d.out.clone())),
    help: "Output directory",
    doc: "In a file, relative to the file's directory; on the command line (and the \
          default), relative to the current directory.",
    identity: false,
    ..Setting::of(place!(out))
};

pub static OPENING_PLIES: Setting = Setting {
    flag: Some("opening-plies"),
    value_name: "N",
    kind: Kind::Whole { min: 0, max: 1000 },
    default: Default::Value("0"),
    sprt_default: Some("2"),
    help: "Random legal opening plies, shared by both games of a pair",
    doc: "An SPRT defaults to 2, so that its pairs differ.",
    ..Setting::of(place!(opening_plies))
};

pub static OPENINGS: Setting = Setting {
    flag: Some("openings"),
    value_name: "FILE",
    kind: Kind::Path,
    default: Default::Unset("random openings (`opening_plies`)"),
    help: "Opening suite file: one opening per line (moves in notation, `#` comments); \
           replaces the random openings. Shipped suites: openings/",
    doc: "In a file, relative to the file's directory. Every line is played through the \
          rules before the first game; `tournament.json` keeps the openings themselves (with \
          the file's SHA-256), so a resumed run plays the same ones. Excludes \
          `opening_plies` and several variants.",
    stored: false,
    ..Setting::of(place!(openings))
};

pub static OPENINGS_ORDER: Setting = Setting {
    flag: Some("openings-order"),
    value_name: "ORDER",
    kind: Kind::Choice(&["sequential", "random"]),
    default: Default::Value("sequential"),
    help: "Order of the suite's openings: `sequential`, or `random` (one seeded shuffle); \
           a short suite is cycled",
    stored: false,
    ..Setting::of(place!(openings_order))
};

pub static OPENINGS_START: Setting = Setting {
    flag: Some("openings-start"),
    value_name: "N",
    kind: Kind::Whole {
        min: 0,
        max: i64::MAX as u64,
    },
    default: Default::Value("0"),
    help: "Index of the suite opening the first game pair plays",
    stored: false,
    ..Setting::of(place!(openings_start))
};

pub static GRACE_MS: Setting = Setting {
    flag: Some("grace-ms"),
    value_name: "MS",
    kind: Kind::Whole {
        min: 0,
        max: MAX_TIME_MS,
    },
    default: Default::Whole(DEFAULT_GRACE_MS),
    help: "Allowance beyond each move's limit before a timeout, in ms",
    doc: "The bot is told the limit without it; it absorbs scheduling noise on a busy machine.",
    commands: &[
        Command::Tournament,
        Command::Sprt,
        Command::Play,
        Command::Serve,
    ],
    ..Setting::of(place!(grace_ms))
};

pub static CLOCK: Setting = Setting {
    flag: Some("clock"),
    value_name: "BASIS",
    kind: Kind::Choice(&["wall", "cpu"]),
    default: Default::Value("wall"),
    help: "What a bot's time counts: `wall` time from the turn to the move, or the `cpu` \
           time its process used meanwhile (a bot waiting for a CPU held by others is not \
           charged)",
    doc: "`cpu` counts user and system time of all the bot's threads (a bot with 4 busy \
          threads uses 4 ms of CPU per ms) and, where arena can give each bot a cgroup v2 \
          (root, or a delegated subtree), of every process it starts; elsewhere of its own \
          process only (`tournament.json`'s `cpu_time` says which). Clocks (`BASE+INC`) run on the same basis; the `turn` \
          message says `\"basis\":\"cpu\"` and each record `\"clock\":\"cpu\"`. A move \
          still ends after `wall_cap` times its limit of wall time, not counting the time \
          the bot waited for a CPU (up to 10 times the cap).",
    commands: &[Command::Tournament, Command::Sprt, Command::Play, Command::Serve],
    ..Setting::of(place!(clock))
};

pub static WALL_CAP: Setting = Setting {
    flag: Some("wall-cap"),
    value_name: "N",
    kind: Kind::Whole { min: 1, max: 100 },
    default: Default::Value("3"),
    help: "With `clock = \"cpu\"`: a move also ends (`timeout`) after N times its limit of \
           wall time, plus the grace, so a bot that sleeps, blocks or hangs is stopped (time \
           it waited for a CPU is not counted, up to 10 times the cap)",
    commands: &[
        Command::Tournament,
        Command::Sprt,
        Command::Play,
        Command::Serve,
    ],
    ..Setting::of(place!(wall_cap))
};

pub static ADJUDICATE: Setting = Setting {
    flag: Some("adjudicate"),
    value_name: "HOW",
    kind: Kind::Choice(&["off", "solved"]),
    default: Default::Value("off"),
    help: "`solved`: after every move the referee's solver tries to prove the position's \
           value, and a game whose value is proven ends at once (reason `adjudicated`) with \
           the result of perfect play from there",
    doc: "The result is the solver's proof, never a guess: a position it cannot settle \
          within `adjudicate_ms` is played on. The record's `moves` are the moves actually \
          played (`arena judge` replays them) and `proven_line` the proven continuation. \
          Each game's solver table takes at most 64 MiB. Values of the start positions: \
          docs/SOLVED.md.",
    commands: &[Command::Tournament, Command::Sprt],
    ..Setting::of(place!(adjudicate))
};

pub static ADJUDICATE_MS: Setting = Setting {
    flag: Some("adjudicate-ms"),
    value_name: "MS",
    kind: Kind::Whole {
        min: 1,
        max: 60_000,
    },
    default: Default::Value("50"),
    help: "With `adjudicate = \"solved\"`: how long the solver may try each position, in ms \
           (between moves, on no bot's clock)",
    commands: &[Command::Tournament, Command::Sprt],
    ..Setting::of(place!(adjudicate_ms))
};

pub static SYNC_INTERVAL_MS: Setting = Setting {
    flag: Some("sync-ms"),
    value_name: "MS",
    kind: Kind::Whole {
        min: 0,
        max: MAX_SYNC_INTERVAL_MS,
    },
    default: Default::Value("200"),
    help: "Sync the journal to disk at most every MS milliseconds, and at the end; 0 syncs \
           after every game",
    doc: "A kill of arena loses nothing written; a machine crash loses at most this interval, \
          which `--resume` plays again.",
    ..Setting::of(place!(sync_interval_ms))
};

pub static STARTUP_FAILURES: Setting = Setting {
    flag: Some("startup-failures"),
    value_name: "N",
    kind: Kind::Whole {
        min: 0,
        max: u32::MAX as u64,
    },
    default: Default::Value("3"),
    help: "Stop starting a bot after this many start-up failures in a row; its remaining \
           games are lost as `startup` (0: never)",
    doc: "The count lives for one run: `--resume` gives a disabled bot fresh tries.",
    ..Setting::of(place!(startup_failures))
};

pub static SHARD: Setting = Setting {
    flag: Some("shard"),
    value_name: "K/N",
    kind: Kind::Shard,
    default: Default::Unset("the whole schedule"),
    help: "Play only shard K of N (game pair p is shard p mod N + 1); needs a fixed seed. \
           Join the shards' directories with `arena merge`. A swiss's or knockout's shard \
           plays its pairs of one round at a time: the next after a merge, with `--after MERGED`",
    identity: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(shard))
};

pub static SANDBOX: Setting = Setting {
    flag: Some("sandbox"),
    kind: Kind::Switch,
    default: Default::Value("false"),
    help: "Run every bot in the sandbox (bubblewrap; docs/GUIDE.md, \"Running untrusted bots\"), \
           whatever the bots' own settings say",
    doc: "In a file: the default for bots without their own `sandbox`. It is recorded in each \
          bot of `tournament.json`.",
    stored: false,
    commands: &[
        Command::Tournament,
        Command::Sprt,
        Command::Play,
        Command::Serve,
    ],
    ..Setting::of(place!(sandbox))
};

pub static SUSPEND_IDLE: Setting = Setting {
    flag: Some("suspend-idle"),
    kind: Kind::Switch,
    default: Default::Value("false"),
    help: "Stop the bot that is not on move (SIGSTOP to its processes) from its move until \
           its next turn, so that what it computes in the background takes no CPU from its \
           opponent",
    doc: "Piskvork's \"suspend opponent's brain\". The bot is continued before anything is \
          written to it (its turn, `game_over`, `quit`) and before it is ended, outside its \
          clock: its move times are unchanged. Its process group is stopped; processes \
          that left the group (`setsid`) are found by a read of the process tree at most \
          every 100 ms, which in the sandbox finds every process and without it misses one \
          whose parent has exited. Costs about two pipe round trips per move, some 10 µs (docs/PERFORMANCE.md).",
    commands: &[Command::Tournament, Command::Sprt, Command::Play, Command::Serve],
    ..Setting::of(place!(suspend_idle))
};

pub static RATING_INTERVAL: Setting = Setting {
    flag: Some("rating-interval"),
    value_name: "N",
    kind: Kind::Whole {
        min: 0,
        max: u64::MAX,
    },
    default: Default::Value("0"),
    help: "Show the standings every N finished games while the run goes on (0: only at the end)",
    identity: false,
    on_resume: true,
    commands: TOURNAMENT,
    ..Setting::of(place!(rating_interval))
};

pub static ELO0: Setting = Setting {
    flag: Some("elo0"),
    value_name: "E0",
    kind: Kind::Decimal,
    default: Default::Unset("required in an SPRT"),
    help: "SPRT: the Elo difference (A minus B) under H0",
    doc: "Within +/-200 nElo in the normalized model, +/-1000 Elo in the logistic one.",
    identity: false,
    stored: false,
    commands: SPRT,
    ..Setting::of(place!(elo0))
};

pub static ELO1: Setting = Setting {
    flag: Some("elo1"),
    value_name: "E1",
    kind: Kind::Decimal,
    default: Default::Unset("required in an SPRT"),
    help: "SPRT: the Elo difference under H1; must exceed elo0",
    identity: false,
    stored: false,
    commands: SPRT,
    ..Setting::of(place!(elo1))
};

pub static MODEL: Setting = Setting {
    flag: Some("model"),
    value_name: "MODEL",
    kind: Kind::Choice(&["normalized", "logistic"]),
    default: Default::Value("normalized"),
    help: "SPRT: the scale of elo0 and elo1: `normalized` (nElo, as fastchess and fishtest) \
           or `logistic` (the usual Elo)",
    identity: false,
    stored: false,
    commands: SPRT,
    ..Setting::of(place!(model))
};

pub static ALPHA: Setting = Setting {
    flag: Some("alpha"),
    value_name: "P",
    kind: Kind::Decimal,
    default: Default::Value("0.05"),
    help: "SPRT: probability of accepting H1 when H0 holds",
    identity: false,
    stored: false,
    commands: SPRT,
    ..Setting::of(place!(alpha))
};

pub static BETA: Setting = Setting {
    flag: Some("beta"),
    value_name: "P",
    kind: Kind::Decimal,
    default: Default::Value("0.05"),
    help: "SPRT: probability of accepting H0 when H1 holds",
    identity: false,
    stored: false,
    commands: SPRT,
    ..Setting::of(place!(beta))
};

pub static MAX_PAIRS: Setting = Setting {
    flag: Some("max-pairs"),
    value_name: "N",
    kind: Kind::Whole {
        min: 1,
        max: u64::MAX,
    },
    default: Default::Unset("no limit"),
    help: "SPRT: stop undecided after this many game pairs",
    identity: false,
    stored: false,
    commands: SPRT,
    ..Setting::of(place!(max_pairs))
};

pub static CONFIDENCE: Setting = Setting {
    value_name: "P",
    kind: Kind::Decimal,
    default: Default::Value("0.95"),
    help: "Adaptive: certify the ranking when it is wrong with at most 1 - P (0 < P < 1)",
    doc: "Holds however long the run goes on and over all pairs of bots (docs/STATISTICS.md, \
          \"Adaptive ranking\").",
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(confidence))
};

pub static MAX_GAMES: Setting = Setting {
    value_name: "N",
    kind: Kind::Whole {
        min: 2,
        max: u64::MAX,
    },
    default: Default::Unset("required in an adaptive ranking"),
    help: "Adaptive: stop uncertified after this many games (two bots of equal strength are \
           never separated)",
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(max_games))
};

pub static CERTIFY: Setting = Setting {
    value_name: "GOAL",
    kind: Kind::Goal,
    default: Default::Value("order"),
    help: "Adaptive: what to certify: `order` (the whole ranking), `top:K` (the set of the K \
           best bots, and their order where separable) or `tiers` (blocks of bots whose order \
           between blocks is certified)",
    doc: "`top:K` plays only the pairs that can move the top K and stops once the set is \
          certified and the order within it is certified or has settled; `tiers` plays only \
          where a tier boundary can still be certified (never the pairs too close to separate \
          with the games it may spend) and stops when no boundary is in reach; either stops at \
          `max_games`. Every goal's claim is wrong with at most 1 - `confidence` \
          (docs/STATISTICS.md, \"What an adaptive ranking certifies\").",
    stored: false,
    commands: TOURNAMENT,
    ..Setting::of(place!(certify))
};

/// The definitions, in the order `--help` and the reference page list them.
pub static SETTINGS: &[&Setting] = &[
    &VARIANT,
    &VARIANTS,
    &FORMAT,
    &ROUNDS,
    &TIEBREAK_PAIRS,
    &SEEDS,
    &GAMES_PER_PAIRING,
    &TIME_CONTROL,
    &MOVE_MS,
    &BASE_MS,
    &INCREMENT_MS,
    &CONCURRENCY,
    &SEED,
    &OUT,
    &OPENING_PLIES,
    &OPENINGS,
    &OPENINGS_ORDER,
    &OPENINGS_START,
    &GRACE_MS,
    &CLOCK,
    &WALL_CAP,
    &ADJUDICATE,
    &ADJUDICATE_MS,
    &SYNC_INTERVAL_MS,
    &STARTUP_FAILURES,
    &SHARD,
    &SANDBOX,
    &SUSPEND_IDLE,
    &RATING_INTERVAL,
    &ELO0,
    &ELO1,
    &MODEL,
    &ALPHA,
    &BETA,
    &MAX_PAIRS,
    &CONFIDENCE,
    &MAX_GAMES,
    &CERTIFY,
];

/// The definition whose key is `key`, for keys read from input (a file's
/// `[tournament]` table); the code names a definition by its static.
pub fn by_key(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().copied().find(|s| s.key == key)
}

/// The flags of `command`'s settings that may change on `--resume`, as typed.
pub fn resumable_flags(command: Command) -> Vec<String> {
    SETTINGS
        .iter()
        .filter(|s| s.on_resume && s.commands.contains(&command))
        .filter_map(|s| match (s.short, s.flag) {
            (Some(short), _) => Some(format!("-{short}")),
            (None, flag) => flag.map(|f| format!("--{f}")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::values::{Origin, SettingValues};

    #[test]
    fn keys_and_flags_are_unique_and_every_setting_is_documented() {
        for (i, s) in SETTINGS.iter().enumerate() {
            assert!(!s.help.is_empty(), "{} has no help", s.key);
            assert!(s.in_file || s.flag.is_some(), "{} cannot be given", s.key);
            for t in &SETTINGS[i + 1..] {
                assert_ne!(s.key, t.key);
                assert!(s.flag.is_none() || s.flag != t.flag, "{}", s.key);
            }
        }
    }

    #[test]
    fn every_value_default_reads_as_its_kind() {
        for s in SETTINGS {
            for text in [Some(s.default.text()), s.sprt_default.map(Cow::from)]
                .into_iter()
                .flatten()
                .filter(|_| matches!(s.default, Default::Value(_) | Default::Whole(_)))
            {
                s.kind
                    .read_text(&text)
                    .unwrap_or_else(|e| panic!("{}: default {text:?}: {e}", s.key));
            }
        }
    }

    /// A value of `kind`, as its reader makes one.
    fn sample(kind: Kind) -> Value {
        match kind {
            Kind::Whole { min, .. } => Value::Whole(min),
            Kind::Even { .. } => Value::Whole(2),
            Kind::Decimal => Value::Decimal(0.5),
            Kind::TimeControl => kind.read_text("10+0.1").unwrap(),
            Kind::Variants | Kind::Names => Value::List(vec!["x".into()]),
            Kind::Choice(words) => Value::Word(words[0]),
            Kind::Path => Value::Path("p".into()),
            Kind::Switch => Value::Switch(true),
            Kind::Shard => kind.read_text("1/2").unwrap(),
            Kind::Goal => kind.read_text("top:2").unwrap(),
        }
    }

    /// Each definition's slot holds what its kind reads, and is its own:
    /// written through the definition, read back by its key.
    #[test]
    fn every_setting_writes_its_kind_into_its_own_slot() {
        let mut values = SettingValues::default();
        for s in SETTINGS {
            let origin = Origin::Unlocated {
                field: s.key.into(),
            };
            (s.place.get_mut)(&mut values).put(sample(s.kind), origin.clone());
            assert_eq!((s.place.get)(&values).origin(), &origin);
        }
        assert_eq!(values.concurrency.value, 1);
        assert_eq!(values.seeds.value, Some(vec!["x".to_string()]));
        assert_eq!(values.format.value, "round_robin");
    }
}
