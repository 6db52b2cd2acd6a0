//! Tests of the entry points of the settings ([`super::load`],
//! [`super::from_toml`], [`super::from_given`]): every stage from a file's
//! text or the flags to the config, its errors located, and what a saved
//! config and `--resume` may do with it.

use super::*;
use crate::openings::OpeningOrder;
use crate::settings::defs::SETTINGS;
use crate::settings::defs::{
    CONCURRENCY, ELO0, ELO1, GAMES_PER_PAIRING, GRACE_MS, OPENINGS_ORDER, OPENING_PLIES, OUT,
    RATING_INTERVAL, SANDBOX, SEED, SEEDS, STARTUP_FAILURES, SYNC_INTERVAL_MS, TIME_CONTROL,
    VARIANT,
};

fn defaults() -> Defaults {
    Defaults {
        concurrency: 3,
        seed: 99,
        out: PathBuf::from("arena-out/default"),
        current_dir: PathBuf::from("/here"),
    }
}

fn run(text: &str, given: &Given) -> anyhow::Result<RunSettings> {
    from_toml(
        text,
        Path::new("t.toml"),
        Path::new("/cfg"),
        given,
        &defaults(),
    )
}

fn parse(text: &str, given: &Given) -> anyhow::Result<TournamentConfig> {
    run(text, given).map(|run| run.config)
}

fn none() -> Given {
    Given::new()
}

const TWO_BOTS: &str = r#"
[[bot]]
name = "a"
command = ["python3", "a.py"]

[[bot]]
name = "b"
command = "python3 b.py"
cwd = "bots"
"#;

#[test]
fn full_file_resolves_every_field() {
    let text = format!(
        "[tournament]\nvariant = \"qango7\"\ngames_per_pairing = 6\ntime_control = \"10+0.1\"\nconcurrency = 4\nseed = 5\nout = \"o\"\nopening_plies = 3\n{TWO_BOTS}"
    );
    let c = parse(&text, &none()).unwrap();
    assert_eq!(c.variant, "qango7");
    assert_eq!(c.games_per_pairing, 6);
    assert_eq!(
        c.time_control,
        TimeControl::Clock {
            base_ms: 10_000,
            increment_ms: 100
        }
    );
    assert_eq!((c.concurrency, c.seed, c.opening_plies), (4, 5, 3));
    // Relative to the file, as the bots' directories are.
    assert_eq!(c.out, PathBuf::from("/cfg/o"));
    assert_eq!(c.bot_names(), ["a", "b"]);
    assert_eq!(c.bots[0].cwd.as_deref(), Some(Path::new("/cfg")));
    assert_eq!(c.bots[1].cwd.as_deref(), Some(Path::new("/cfg/bots")));
    assert_eq!(c.bots[1].command, ["python3", "b.py"]);
}

/// The defaults are the definitions' (the values docs/SETTINGS.md
/// shows), not constants of their own.
#[test]
fn defaults_fill_missing_fields() {
    let c = parse(TWO_BOTS, &none()).unwrap();
    assert_eq!(c.variant, "qango6");
    assert_eq!(c.games_per_pairing, 2);
    assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 1000 });
    assert_eq!((c.concurrency, c.seed), (3, 99));
    assert_eq!(c.out, PathBuf::from("arena-out/default"));
    assert_eq!(c.opening_plies, 0);
    assert_eq!(
        (c.grace_ms, c.sync_interval_ms, c.startup_failures),
        (100, 200, 3)
    );
    assert_eq!(c.rating_interval, 0);
}

#[test]
fn millisecond_time_control_fields() {
    let c = parse(&format!("[tournament]\nmove_ms = 150\n{TWO_BOTS}"), &none()).unwrap();
    assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 150 });
    let c = parse(
        &format!("[tournament]\nbase_ms = 2000\nincrement_ms = 50\n{TWO_BOTS}"),
        &none(),
    )
    .unwrap();
    assert_eq!(
        c.time_control,
        TimeControl::Clock {
            base_ms: 2000,
            increment_ms: 50
        }
    );
    for (head, prefix) in [
        (
            "move_ms = 150\nbase_ms = 10",
            "t.toml:2:11: field `move_ms`: ",
        ),
        (
            "time_control = \"1+0\"\nmove_ms = 5",
            "t.toml:3:11: field `move_ms`: give either",
        ),
        (
            "increment_ms = 5",
            "t.toml:2:16: field `increment_ms`: `increment_ms` needs `base_ms`",
        ),
    ] {
        let err = parse(&format!("[tournament]\n{head}\n{TWO_BOTS}"), &none()).unwrap_err();
        assert!(err.to_string().starts_with(prefix), "{err}");
    }
}

#[test]
fn flags_override_the_file_and_bots_merge_by_name() {
    let text =
        format!("[tournament]\nvariant = \"qango7\"\ngames_per_pairing = 6\nseed = 5\n{TWO_BOTS}");
    let given = Given::new()
        .with(&VARIANT, "quinque")
        .with(&GAMES_PER_PAIRING, "2")
        .with(&TIME_CONTROL, "per-move=50")
        .with(&CONCURRENCY, "1")
        .with(&SEED, "8")
        .with(&OUT, "x")
        .with(&OPENING_PLIES, "1")
        .with(&GRACE_MS, "250")
        .with(&SYNC_INTERVAL_MS, "50")
        .with(&STARTUP_FAILURES, "5")
        .with_bot("b=node b.js")
        .with_bot("c=./c --fast");
    let c = parse(&text, &given).unwrap();
    assert_eq!(c.variant, "quinque");
    assert_eq!(c.games_per_pairing, 2);
    assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 50 });
    assert_eq!((c.concurrency, c.seed, c.opening_plies), (1, 8, 1));
    assert_eq!(
        (c.grace_ms, c.sync_interval_ms, c.startup_failures),
        (250, 50, 5)
    );
    assert_eq!(c.out, PathBuf::from("x"));
    assert_eq!(c.bot_names(), ["a", "b", "c"]);
    assert_eq!(c.bots[1].command, ["node", "b.js"]);
    assert_eq!(c.bots[2].command, ["./c", "--fast"]);
}

#[test]
fn gauntlet_seeds_resolve_from_file_and_flags() {
    let file = |settings: &str| format!("[tournament]\n{settings}\n{TWO_BOTS}");
    // `format = "gauntlet"` alone: the first bot is the seed.
    let c = parse(&file("format = \"gauntlet\""), &none()).unwrap();
    assert_eq!(c.seeds, ["a"]);
    // Seeds without a format make a gauntlet.
    let c = parse(&file("seeds = [\"b\"]"), &none()).unwrap();
    assert_eq!(
        (c.seeds.clone(), c.seed_indices()),
        (vec!["b".to_string()], vec![1])
    );
    // --gauntlet beats the file's seeds.
    let flags = Given::new().with(&SEEDS, "a").with(&RATING_INTERVAL, "10");
    let c = parse(&file("seeds = [\"b\"]\nrating_interval = 3"), &flags).unwrap();
    assert_eq!(
        (c.seeds.clone(), c.rating_interval),
        (vec!["a".to_string()], 10)
    );
    // A round robin has none, and a resumed config re-validates.
    let c = parse(&file("rating_interval = 3"), &none()).unwrap();
    assert!(c.seeds.is_empty());
    assert_eq!(c.rating_interval, 3);
    c.validate().unwrap();
    let err = parse(&file("rating_interval = -1"), &none()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t.toml:2:19: field `rating_interval`: must not be negative"),
        "{err}"
    );
    let err = parse(&file(""), &Given::new().with(&SEEDS, "zed")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--gauntlet: seed \"zed\" is not one of the bots (a, b)"
    );
    let err = parse(&file("format = \"round_robin\"\nseeds = [\"a\"]"), &none()).unwrap_err();
    assert!(
        err.to_string()
            .contains("seeds are only for format = \"gauntlet\""),
        "{err}"
    );
}

#[test]
fn errors_name_file_line_column_and_field() {
    let cases = [
        (
            "games_per_pairing = 3",
            "t.toml:2:21: field `games_per_pairing`",
            "even",
        ),
        (
            "\nvariant = \"chess\"",
            "t.toml:3:11: field `variant`",
            "qango6",
        ),
        (
            "concurrency = 0",
            "t.toml:2:15: field `concurrency`",
            "between 1 and 1024",
        ),
        ("seed = -1", "t.toml:2:8: field `seed`", "negative"),
        (
            "time_control = \"fast\"",
            "t.toml:2:16: field `time_control`",
            "time control",
        ),
        ("grace_ms = -5", "t.toml:2:12: field `grace_ms`", "negative"),
        (
            "\nstartup_failures = -1",
            "t.toml:3:20: field `startup_failures`",
            "negative",
        ),
        (
            "opening_plies = -2",
            "t.toml:2:17: field `opening_plies`",
            "between",
        ),
        (
            "games_per_pairing = \"4\"",
            "t.toml:2:21: field `games_per_pairing`",
            "got the text \"4\"",
        ),
        (
            "sandbox = 1",
            "t.toml:2:11: field `sandbox`",
            "expected true or false",
        ),
    ];
    for (head, prefix, detail) in cases {
        let err = parse(&format!("[tournament]\n{head}\n{TWO_BOTS}"), &none())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(prefix), "{head:?}: {err}");
        assert!(err.contains(detail), "{head:?}: {err}");
    }
}

/// `text` as the file t.toml in `dir`, without flags.
fn parse_in(dir: &Path, text: &str) -> anyhow::Result<TournamentConfig> {
    from_toml(text, Path::new("t.toml"), dir, &none(), &defaults()).map(|r| r.config)
}

#[test]
fn opening_suite_settings_are_read_relative_to_the_file_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.txt"), "a1\nb2 c3\n").unwrap();
    let text = format!(
        "[tournament]\nopenings = \"s.txt\"\nopenings_order = \"random\"\nopenings_start = 4\n{TWO_BOTS}"
    );
    let c = parse_in(dir.path(), &text).unwrap();
    let suite = c.openings.as_ref().unwrap();
    assert_eq!(suite.openings, vec![vec!["a1"], vec!["b2", "c3"]]);
    assert_eq!((suite.order, suite.start), (OpeningOrder::Random, 4));
    assert_eq!(suite.file, dir.path().join("s.txt"));
    // The resumed config passes the same checks.
    c.validate().unwrap();
    let cases = [
        (
            "openings_order = \"sorted\"",
            "t.toml:2:18: field `openings_order`: expected one of",
        ),
        (
            "openings_start = 2",
            "t.toml:2:18: field `openings_start`: needs an opening suite",
        ),
        (
            "openings = \"missing.txt\"",
            "t.toml:2:12: field `openings`: cannot read opening suite",
        ),
        (
            "openings = \"s.txt\"\nopening_plies = 2",
            "t.toml:3:17: field `opening_plies`: random opening plies and an opening suite",
        ),
    ];
    for (head, prefix) in cases {
        let err = parse_in(dir.path(), &format!("[tournament]\n{head}\n{TWO_BOTS}"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(prefix), "{head:?}: {err}");
    }
    let flag = Given::new().with(&OPENINGS_ORDER, "shuffled");
    let err = parse(TWO_BOTS, &flag).unwrap_err().to_string();
    assert!(
        err.starts_with("--openings-order: expected one of"),
        "{err}"
    );
}

#[test]
fn several_variants_from_the_file_or_the_flag() {
    let text = format!("[tournament]\nvariants = [\"qango7\", \"quinque\"]\n{TWO_BOTS}");
    let c = parse(&text, &none()).unwrap();
    assert_eq!(c.variant, "qango7");
    assert_eq!(c.variant_ids(), ["qango7", "quinque"]);
    c.validate().unwrap();
    let flag = |v: &str| Given::new().with(&VARIANT, v);
    let c = parse(&text, &flag("qango6, qango7")).unwrap();
    assert_eq!(c.variant_ids(), ["qango6", "qango7"]);
    let c = parse(TWO_BOTS, &flag("all")).unwrap();
    assert_eq!(c.variant_ids(), Variant::ids());
    // One variant is stored as before: no list.
    let c = parse(TWO_BOTS, &flag("quinque")).unwrap();
    assert!(c.variants.is_empty() && c.variant == "quinque");
    let c = parse(
        &format!("[tournament]\nvariant = \"qango6,quinque\"\n{TWO_BOTS}"),
        &none(),
    )
    .unwrap();
    assert_eq!(c.variant_ids(), ["qango6", "quinque"]);
    let cases = [
        (
            "variant = \"qango6\"\nvariants = [\"qango7\"]",
            "t.toml:3:12: field `variants`: give either",
        ),
        (
            "variants = [\"qango7\", \"qango7\"]",
            "t.toml:2:12: field `variants`: variant \"qango7\" is listed twice",
        ),
        (
            "variants = []",
            "t.toml:2:12: field `variants`: names no variant",
        ),
        (
            "variants = [\"qango6\", \"go\"]",
            "t.toml:2:12: field `variants`: unknown variant \"go\"",
        ),
    ];
    for (head, prefix) in cases {
        let err = parse(&format!("[tournament]\n{head}\n{TWO_BOTS}"), &none())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(prefix), "{head:?}: {err}");
    }
    let err = parse(TWO_BOTS, &flag("qango6,chess"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("--variant: unknown variant \"chess\""),
        "{err}"
    );
}

#[test]
fn an_opening_suite_is_refused_with_several_variants() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.txt"), "a1\n").unwrap();
    let text = format!(
        "[tournament]\nvariants = [\"qango6\", \"qango7\"]\nopenings = \"s.txt\"\n{TWO_BOTS}"
    );
    let err = parse_in(dir.path(), &text).unwrap_err().to_string();
    assert!(
        err.starts_with("t.toml:3:12: field `openings`: an opening suite belongs to one variant, but this run plays 2 (qango6, qango7)"),
        "{err}"
    );
}

#[test]
fn bot_errors_point_at_the_bot_entry_or_its_key() {
    let text =
        "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n\n[[bot]]\nname = \"a\"\ncommand = [\"y\"]\n";
    let err = parse(text, &none()).unwrap_err().to_string();
    assert!(
        err.starts_with("t.toml:5:1: field `bot`: ") && err.contains("unique"),
        "{err}"
    );
    let err = parse("[[bot]]\nname = \"a\"\ncommand = []\n", &none()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t.toml:3:1: field `bot`: bot \"a\": field `command` is empty"),
        "{err}"
    );
    // A misspelt key: its own line, and the key it was meant to be.
    let err = parse("[[bot]]\nname = \"a\"\ncomand = [\"x\"]\n", &none()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.toml:3:1: field `bot`: `comand` is not a key of [[bot]]; did you mean `command`? (docs/GUIDE.md, \"Tournaments\")"
    );
    let err = parse(
        &format!("{TWO_BOTS}\n[[bot]]\nname = \"c\"\ncommand = \"x\"\ncolour = 1\n"),
        &none(),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t.toml:14:1: field `bot`: `colour` is not a key of [[bot]]; it takes name, command, shell,"),
        "{err}"
    );
}

#[test]
fn syntax_errors_and_unknown_keys_are_one_line_with_a_suggestion() {
    let err = parse("[tournament]\ngames_per_paring = 4\n", &none())
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "t.toml:2:1: `games_per_paring` is not a setting of [tournament]; did you mean `games_per_pairing`? (docs/SETTINGS.md lists them all)"
    );
    let err = parse("[tournament]\nvariant = \n", &none())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("t.toml:2:") && !err.contains('\n'), "{err}");
    let err = parse("[tournamnet]\nseed = 1\n", &none())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("t.toml:1:") && err.contains("tournamnet") && !err.contains('\n'),
        "{err}"
    );
}

#[test]
fn too_few_bots_and_bad_flags() {
    let err = parse("[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n", &none()).unwrap_err();
    assert!(format!("{err:#}").contains("at least two bots"), "{err:#}");
    let bad = |g: Given| format!("{:#}", parse(TWO_BOTS, &g).unwrap_err());
    assert!(bad(Given::new().with(&GAMES_PER_PAIRING, "3")).starts_with("--games: "));
    assert!(bad(Given::new().with(&VARIANT, "go")).starts_with("--variant: "));
    assert!(bad(Given::new().with(&TIME_CONTROL, "x")).starts_with("--tc: "));
    assert!(bad(Given::new().with_bot("nocommand")).contains("NAME=COMMAND"));
    assert!(bad(Given::new().with(&CONCURRENCY, "0")).starts_with("--concurrency: "));
    assert!(bad(Given::new().with(&GRACE_MS, "soon")).contains("expected a whole number"));
}

#[test]
fn sandbox_setting_per_tournament_per_bot_and_flag() {
    let text = "[tournament]\nsandbox = true\n[[bot]]\nname = 'a'\ncommand = 'x'\n\
                [[bot]]\nname = 'b'\ncommand = 'y'\nsandbox = false\nnetwork = true\nwritable = ['data']\n";
    let c = parse(text, &none()).unwrap();
    assert_eq!(c.bots[0].sandbox, Some(true));
    assert_eq!(c.bots[1].sandbox, Some(false));
    assert!(c.bots[1].network && c.bots[1].writable == [PathBuf::from("data")]);
    let c = parse(text, &Given::new().with(&SANDBOX, "true")).unwrap();
    assert!(c.bots.iter().all(|b| b.sandbox == Some(true)));
    let c = parse(TWO_BOTS, &none()).unwrap();
    assert!(c.bots.iter().all(|b| b.sandbox.is_none()));
}

#[test]
fn flags_and_saved_configs_meet_the_same_rules_as_the_file() {
    let err = parse(TWO_BOTS, &Given::new().with(&OPENING_PLIES, "5000")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--opening-plies: must be between 0 and 1000, got 5000"
    );
    let mut c = parse(TWO_BOTS, &none()).unwrap();
    c.validate().unwrap();
    c.games_per_pairing = 3;
    let err = c.validate().unwrap_err().to_string();
    assert!(
        err.starts_with("field `games_per_pairing`: ") && err.contains("even"),
        "{err}"
    );
    c.games_per_pairing = 2;
    c.concurrency = 0;
    let err = c.validate().unwrap_err().to_string();
    assert_eq!(
        err,
        "field `concurrency`: must be between 1 and 1024, got 0"
    );
    c.concurrency = 1;
    c.bots[1].name = "a".into();
    let err = c.validate().unwrap_err().to_string();
    assert!(err.contains("unique"), "{err}");
}

#[test]
fn flags_alone_make_a_config() {
    let given = Given::new()
        .with_bot("a=python3 a.py")
        .with_bot("b=python3 b.py");
    let c = from_given(Command::Tournament, &given, &defaults(), Vec::new())
        .unwrap()
        .config;
    assert_eq!(c.bot_names(), ["a", "b"]);
    assert!(c.bots.iter().all(|b| b.sandbox.is_none()));
    assert_eq!(c.bots[0].cwd.as_deref(), Some(Path::new("/here")));
}

#[test]
fn an_sprt_from_a_file_or_the_flags() {
    let text = format!("[tournament]\nformat = \"sprt\"\nelo0 = 0\nelo1 = 5\n{TWO_BOTS}");
    let r = run(&text, &none()).unwrap();
    let plan: crate::SprtPlan = r.plan.read().expect("an SPRT");
    assert_eq!(
        (plan.elo0, plan.elo1, plan.alpha, plan.max_pairs),
        (0.0, 5.0, 0.05, None)
    );
    assert_eq!((r.config.games_per_pairing, r.config.opening_plies), (2, 2));
    let err = run(
        &format!("[tournament]\nformat = \"sprt\"\nelo0 = 0\n{TWO_BOTS}"),
        &none(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("give elo0 and elo1"), "{err}");
    let err = run(&format!("[tournament]\nelo0 = 0\n{TWO_BOTS}"), &none()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t.toml:2:8: field `elo0`: is a setting of an SPRT"),
        "{err}"
    );
    let given = Given::new().with(&ELO0, "0").with(&ELO1, "500");
    let err = from_given(Command::Sprt, &given, &defaults(), two_bots()).unwrap_err();
    assert!(err.to_string().contains("within -/+200 nElo"), "{err}");
}

fn two_bots() -> Vec<BotSpec> {
    ["a", "b"]
        .map(|n| BotSpec::from_command_line(n, "./x").unwrap())
        .to_vec()
}

#[test]
fn only_resumable_settings_change_on_resume() {
    let mut c = parse(TWO_BOTS, &none()).unwrap();
    c.resume_with(
        &Given::new()
            .with(&CONCURRENCY, "7")
            .with(&RATING_INTERVAL, "5"),
    )
    .unwrap();
    assert_eq!((c.concurrency, c.rating_interval), (7, 5));
    let err = c
        .resume_with(&Given::new().with(&SYNC_INTERVAL_MS, "5"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "--sync-ms cannot change when a run is resumed: its settings are in tournament.json (only -j and --rating-interval may)"
    );
    let err = c
        .resume_with(&Given::new().with(&CONCURRENCY, "0"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "--concurrency: must be between 1 and 1024, got 0"
    );
}

#[test]
fn config_round_trips_through_json() {
    let c = parse(TWO_BOTS, &none()).unwrap();
    let back: TournamentConfig = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(back, c);
}

/// Every setting its definition lets change on `--resume` does change the
/// saved config (under its key), so the table and the rule that applies
/// it cannot drift apart.
#[test]
fn every_resumable_setting_is_applied_on_resume() {
    let resumable: Vec<&Setting> = SETTINGS.iter().copied().filter(|s| s.on_resume).collect();
    assert!(resumable.len() >= 2);
    for s in resumable {
        let mut c = parse(TWO_BOTS, &none()).unwrap();
        c.resume_with(&Given::new().with(s, "17")).unwrap();
        let saved = serde_json::to_value(&c).unwrap();
        assert_eq!(saved[s.key], serde_json::json!(17), "{}", s.key);
    }
}

/// The identity leaves out exactly the settings defined as not part of
/// it, which are the four fields it has always left out: the identity of
/// a run started before the definitions said so is unchanged.
#[test]
fn the_identity_is_the_one_runs_have_always_had() {
    let text = format!(
        "[tournament]\nseed = 5\nshard = \"2/3\"\nrating_interval = 4\nconcurrency = 2\nout = \"o\"\n{TWO_BOTS}"
    );
    let c = parse(&text, &none()).unwrap();
    let mut json = serde_json::to_value(&c).unwrap();
    let object = json.as_object_mut().unwrap();
    for key in ["out", "shard", "concurrency", "rating_interval"] {
        assert!(object.remove(key).is_some(), "{key}");
    }
    let hash = serde_json::to_string(&json)
        .unwrap()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    let identity = c.identity().unwrap();
    assert_eq!(identity, format!("{hash:016x}"));
    assert_eq!(identity, "f3feaea61ce67928");
    // What only says where and how fast leaves it alone; the seed does not.
    let mut other = c.clone();
    (
        other.out,
        other.concurrency,
        other.rating_interval,
        other.shard,
    ) = ("p".into(), 9, 0, None);
    assert_eq!(other.identity().unwrap(), identity);
    other.seed = 6;
    assert_ne!(other.identity().unwrap(), identity);
}
