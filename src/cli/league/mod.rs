//! `arena league ACTION DIR ...`: a league that lasts (see
//! [`crate::tournament::league`]): `init` makes one, `add` registers a bot
//! (a changed program becomes its next version), `retire` stops
//! scheduling one, `play` plays the games it needs ([`play`]),
//! `standings` rates every game of it, `token` gives a participant their
//! secret for submissions ([`token`]), `import` adds finished runs' games
//! (`import.rs`).

mod import;
mod play;
mod token;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Subcommand;

use crate::referee::{program_problem, read_bots_file, BotSpec};
use crate::report::league::LeagueStandings;
use crate::tournament::league::{settings_text, League};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "A league is a directory that lasts: its bots with every version (a bot's \
version is its program: the SHA-256 of its files and flags, so an edited bot becomes NAME@2 and \
NAME@1 keeps its games), every game ever played in it, and the ratings of every version. More: \
docs/LEAGUE.md."
)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Make DIR a league (league.toml holds its settings).
    Init(InitArgs),
    /// Register a bot: `arena league add DIR NAME -- COMMAND...`, or the
    /// [[bot]] entries of --bots FILE.
    Add(AddArgs),
    /// Stop scheduling a bot; its games and ratings stay.
    Retire(RetireArgs),
    /// Play the game pairs the league needs: new versions first, then the
    /// pairs whose order is least certain; then rate.
    Play(play::PlayArgs),
    /// Rate every game: the latest version of each bot (standings.csv) and
    /// every version (versions.csv).
    Standings(StandingsArgs),
    /// Add finished runs' games: each bot to the version of its program
    /// (a program its name has not had becomes its next version); a game
    /// already in the league is not added again.
    Import(import::ImportArgs),
    /// Print a fresh secret token for the participant NAME (submissions:
    /// arena serve DIR --submissions); the league keeps only its SHA-256.
    Token(token::TokenArgs),
}

#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The league's directory (created if missing).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A variant its games are played in; repeat for several. [default:
    /// a tournament's]
    #[arg(long, value_name = "V")]
    pub variant: Vec<String>,
    /// Its time control (`per-move=MS` or `BASE+INC` in seconds).
    /// [default: a tournament's]
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct AddArgs {
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The bot's name (no '@'); with the command after `--`.
    #[arg(value_name = "NAME", required_unless_present = "bots")]
    pub name: Option<String>,
    /// The bot's command line, after `--`, run in the current directory.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Register the [[bot]] entries of this file (a bots or tournament
    /// file) instead.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["name", "command"])]
    pub bots: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct RetireArgs {
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    #[arg(value_name = "NAME")]
    pub name: String,
}

#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Show every version, not only the latest of each bot.
    #[arg(long)]
    pub all: bool,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    match args.action {
        Action::Init(a) => init(a),
        Action::Add(a) => add(a),
        Action::Retire(a) => retire(a),
        Action::Play(a) => play::play(a),
        Action::Standings(a) => standings(a),
        Action::Import(a) => import::import(a),
        Action::Token(a) => token::token(a),
    }
}

fn init(args: InitArgs) -> anyhow::Result<i32> {
    for v in &args.variant {
        if crate::games::Variant::by_id(v).is_none() {
            bail!(
                "--variant {v:?}: unknown variant; known: {}",
                crate::games::Variant::ids().join(", ")
            );
        }
    }
    if let Some(tc) = &args.tc {
        crate::protocol::parse_time_control(tc).map_err(|e| anyhow::anyhow!("--tc {tc:?}: {e}"))?;
    }
    let league = League::init(&args.dir, &settings_text(&args.variant, args.tc.as_deref()))?;
    outln!(
        "Made the league {} (settings: {}). Next: arena league add {} NAME -- COMMAND...",
        league.dir().display(),
        league.settings_path().display(),
        league.dir().display()
    );
    Ok(0)
}

fn add(args: AddArgs) -> anyhow::Result<i32> {
    let mut league = League::open(&args.dir)?;
    league.lock()?;
    let bots = match (&args.bots, &args.name) {
        (Some(file), _) => read_bots_file(file)?
            .into_iter()
            .map(with_absolute_cwd)
            .collect::<anyhow::Result<Vec<_>>>()?,
        (None, Some(name)) => vec![bot_of_command(name, &args.command)?],
        (None, None) => bail!("give NAME -- COMMAND..., or --bots FILE"),
    };
    let mut registry = league.registry()?;
    for bot in bots {
        if let Some(problem) = program_problem(&bot) {
            bail!(problem);
        }
        let name = bot.name.clone();
        let registered = registry.register(&league.registry_path(), bot)?;
        outln!("{name}: {}", registered.sentence());
    }
    Ok(0)
}

/// The bot `name` running `command` (words, as after `--`) in the current
/// directory.
fn bot_of_command(name: &str, command: &[String]) -> anyhow::Result<BotSpec> {
    if command.is_empty() {
        bail!("no command for bot {name:?}: give it after `--`, e.g. arena league add DIR {name} -- python3 bot.py");
    }
    let mut bot = BotSpec::from_command_line(name, "command")?;
    bot.command = command.to_vec();
    bot.cwd = Some(std::env::current_dir().context("cannot read the current directory")?);
    Ok(bot)
}

/// `bot` with its directory absolute: a league outlives the current one.
fn with_absolute_cwd(mut bot: BotSpec) -> anyhow::Result<BotSpec> {
    let cwd = bot.cwd.clone().unwrap_or_else(|| PathBuf::from("."));
    bot.cwd = Some(absolute(&cwd)?);
    Ok(bot)
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    path.canonicalize()
        .with_context(|| format!("cannot find the directory {}", path.display()))
}

fn retire(args: RetireArgs) -> anyhow::Result<i32> {
    let mut league = League::open(&args.dir)?;
    league.lock()?;
    let mut registry = league.registry()?;
    if registry.retire(&league.registry_path(), &args.name)? {
        outln!(
            "{}: retired; its games and ratings stay (arena league add registers it again)",
            args.name
        );
    } else {
        outln!("{}: retired already", args.name);
    }
    Ok(0)
}

fn standings(args: StandingsArgs) -> anyhow::Result<i32> {
    let league = League::open(&args.dir)?;
    let registry = league.registry()?;
    let standings = LeagueStandings::of(&league, &registry)?;
    let shown = if args.all {
        &standings.versions
    } else {
        &standings.latest
    };
    outln!("{}", shown.render_table());
    let names = registry.active().len();
    outln!(
        "{} games; {names} bots scheduled, {} versions{}.",
        standings.games,
        registry.versions.len(),
        if args.all {
            ""
        } else {
            " (--all shows every version)"
        }
    );
    standings.write(&league, &registry)?;
    Ok(0)
}
