//! `arena serve DIR... [--port P] [--bind ADDR]`: a live page over output
//! directories (see the `arena_serve` crate): the report, updated as games
//! end; a league's directory shows its leaderboard on top. With `--play BOTS.toml`, also a page where a person plays those
//! bots (`/play`), its games recorded in `--out DIR`, which is served as a
//! run too. With `--submissions` (DIR a league), `/submit` takes its
//! participants' bots ([`arena_serve::submit`]). Also the page `arena tournament --serve PORT` and `arena sprt
//! --serve PORT` start beside their run ([`Live`]).

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::cli::setting_flags::{self, SettingFlags};
use crate::protocol::ClockBasis;
use crate::tournament::config::Defaults;
use crate::tournament::live::LiveGames;
use crate::tournament::settings::build::bots_and_values;
use crate::tournament::settings::values::SettingValues;
use crate::tournament::settings::Command;
use anyhow::{bail, Context};
use arena_serve::play::{PlayOptions, Room};
use arena_serve::submit::{Checker, Submissions, SubmitOptions, MAX_BYTES};
use arena_serve::{run::group, ServedRun, ServerLimits, Site};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Shows each run as report.html shows it (the same page, drawn by the same code) \
with its progress on top, and updates the page by itself as games end: open the URL while the \
tournament runs. It only reads the directories, and serves only the page and the runs' own files \
(their logs). The shards of one tournament given together are shown as one run; other \
directories each get their own page, listed at /. A league's directory (arena league init) is shown as its leaderboard: the latest version of each bot ranked, every version and each bot's versions on demand, the recent games in the viewer, updated as games end (docs/LEAGUE.md). With --play BOTS.toml, /play is a page where a person plays any bot of that file (or another person at the same screen), with the solver's hints; every finished game is recorded in --out DIR as a tournament's game, and DIR is served as a run (its games in the viewer); --grace-ms, --clock, --wall-cap, --sandbox and \
--suspend-idle apply to those games as to a tournament's. Stop it with Ctrl-C: games still being played end unrecorded and their bots are stopped. More: docs/LIVE.md, docs/PLAY.md."
)]
pub struct Args {
    /// Output directories of tournaments or SPRTs, finished or still
    /// running, or leagues' directories (shown as their leaderboards).
    #[arg(required_unless_present = "play", value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Serve /play, a page to play the `[[bot]]` entries of this file (a
    /// bots file or a tournament file) and no other program.
    #[arg(long, value_name = "BOTS.toml")]
    pub play: Option<PathBuf>,
    /// With --play: where finished games are recorded (games.jsonl,
    /// games.csv, logs/), after any games already there. [default:
    /// arena-out/play-UTC-TIMESTAMP]
    #[arg(long, value_name = "DIR", requires = "play")]
    pub out: Option<PathBuf>,
    /// With --play: games at once at most (each runs its bot); more are
    /// told that every board is in use. [default: the number of cores]
    #[arg(long, value_name = "N", requires = "play",
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub max_live: Option<u64>,
    /// With --play: a person's time for each move; past it, or 10 s after
    /// the page is closed, the person loses on time.
    #[arg(long, value_name = "S", requires = "play", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub idle_secs: u64,
    #[command(flatten)]
    pub settings: SettingFlags<setting_flags::Serve>,
    /// DIR is a league: take its participants' bots at /submit (one source
    /// file and their token from `arena league token`), built, checked by
    /// check-bot in the sandbox, admitted as their next version if
    /// compliant. Needs bubblewrap. More: docs/LEAGUE.md.
    #[arg(long)]
    pub submissions: bool,
    /// Port to listen on; 0 picks a free one (the first line printed says which).
    #[arg(long, default_value_t = 8080, value_name = "P")]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; 0.0.0.0
    /// serves every machine that can reach this one.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_name = "ADDR")]
    pub bind: IpAddr,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut groups = group(&args.dirs);
    let play = match &args.play {
        Some(file) => {
            let (bots, values) = bots_and_values(
                Command::Serve,
                file,
                &args.settings.given,
                &Defaults::from_environment(),
            )?;
            let options = play_options(&args, &values, groups.len())?;
            groups.push(vec![options.out.clone()]);
            Some(Arc::new(Room::open(bots, options)?))
        }
        None => None,
    };
    let runs = groups
        .iter()
        .map(|dirs| ServedRun::new(dirs).map(Arc::new))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let submit = submissions(&args)?;
    let live = Live::bind(args.bind, args.port)?;
    for (k, run) in runs.iter().enumerate() {
        if runs.len() > 1 {
            outln!("  /run/{k}/: {}", run.name());
        }
    }
    if let Some(room) = &play {
        let o = room.options();
        outln!(
            "Play at http://{}/play: {} bots, at most {} games at once; games are recorded in {}",
            live.listener.local_addr()?,
            room.bots().len(),
            o.max_live,
            o.out.display()
        );
        if !args.bind.is_loopback() {
            outln!("warning: every machine that can reach this one can start games of these bots on /play ({} at once at most).", o.max_live);
        }
    }
    if let Some(submit) = &submit {
        outln!(
            "Submissions at http://{}/submit for the league {} (a participant's token: arena league token {} NAME)",
            live.listener.local_addr()?,
            submit.options().league.display(),
            args.dirs[0].display()
        );
    }
    let _ = std::io::stdout().flush();
    // Every thread of the server inherits it, and every process it starts:
    // with --play the server is the bots' referee, with --submissions the
    // uploads' checker, at the usual priority.
    if play.is_none() && submit.is_none() {
        arena_serve::lower_priority();
    }
    let runtime = runtime()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(live.listener)?;
        for run in &runs {
            run.watch();
        }
        let site = Site {
            runs,
            play: play.clone(),
            submit,
        };
        tokio::select! {
            () = arena_serve::serve(listener, site, ServerLimits::default()) => {}
            () = super::play::interrupted() => {}
        }
        if let Some(room) = play {
            room.stop().await;
        }
        anyhow::Ok(())
    })?;
    Ok(0)
}

/// The play page's options from the flags and the settings `v` (the bots
/// file's `[tournament]` table, then the flags); `runs_before` runs are
/// served before its output directory (which places its viewer).
fn play_options(args: &Args, v: &SettingValues, runs_before: usize) -> anyhow::Result<PlayOptions> {
    let out = match &args.out {
        Some(out) => out.clone(),
        None => PathBuf::from("arena-out").join(format!(
            "play-{}",
            crate::files::utc_timestamp(std::time::SystemTime::now())
        )),
    };
    if args.dirs.iter().any(|d| same_dir(d, &out)) {
        bail!(
            "--out {}: that directory is also given to show; give --out alone, it is shown too",
            out.display()
        );
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(PlayOptions {
        out,
        max_live: args.max_live.map_or(cores, |n| n as usize),
        idle: Duration::from_secs(args.idle_secs),
        grace: Duration::from_millis(v.grace_ms.value),
        clock: ClockBasis::from_word(v.clock.value).unwrap_or_default(),
        wall_cap: v.wall_cap.value as u32,
        sandbox: v.sandbox.value,
        suspend_idle: v.suspend_idle.value,
        viewer: if runs_before == 0 {
            "/".into()
        } else {
            format!("/run/{runs_before}/")
        },
        any_host: !args.bind.is_loopback(),
    })
}

/// With `--submissions`: the uploads to the one league given.
fn submissions(args: &Args) -> anyhow::Result<Option<Arc<Submissions>>> {
    if !args.submissions {
        return Ok(None);
    }
    let [league] = args.dirs.as_slice() else {
        bail!("--submissions takes one directory, the league's (arena serve DIR --submissions)");
    };
    crate::referee::sandbox::check_available()
        .context("--submissions: uploaded bots always run in the sandbox")?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let options = SubmitOptions {
        league: league.clone(),
        max_bytes: MAX_BYTES,
        at_once: (cores / 2).max(1),
        build_time: Duration::from_secs(60),
        any_host: !args.bind.is_loopback(),
    };
    let checker: Checker = Arc::new(crate::cli::check_bot::check_upload);
    Ok(Some(Arc::new(Submissions::open(options, checker)?)))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A port listened on, before the run it will show has a directory.
pub struct Live {
    listener: TcpListener,
}

impl Live {
    /// Listens on `bind:port` and says where (the first line printed:
    /// `Serving http://ADDR:PORT/`), then who can reach it.
    pub fn bind(bind: IpAddr, port: u16) -> anyhow::Result<Live> {
        let address = SocketAddr::new(bind, port);
        let listener = TcpListener::bind(address).with_context(|| {
            format!(
                "cannot listen on {address} (another server on that port? port 0 picks a free one)"
            )
        })?;
        listener.set_nonblocking(true)?;
        outln!("Serving http://{}/", listener.local_addr()?);
        if bind.is_loopback() {
            outln!("Listening on {bind} only: other machines cannot open this page (--bind 0.0.0.0 lets them).");
        } else {
            outln!("warning: listening on {bind}: every machine that can reach this one can open these runs' pages and logs (there is no login).");
        }
        Ok(Live { listener })
    }

    /// Serves the run of `dir`, and the games it is playing (`games`),
    /// from threads of its own, at a lower CPU priority, for as long as
    /// this process lives (the run never waits for them).
    pub fn start(self, dir: &Path, games: Option<Arc<LiveGames>>) -> anyhow::Result<()> {
        let run = Arc::new(ServedRun::new(&[dir.to_path_buf()])?.with_live_games(games));
        std::thread::Builder::new()
            .name("arena-serve".into())
            .spawn(move || {
                // This thread and those it starts, not the run's.
                arena_serve::lower_priority();
                let Ok(runtime) = runtime() else { return };
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(self.listener) else {
                        return;
                    };
                    run.watch();
                    let site = Site {
                        runs: vec![run],
                        play: None,
                        submit: None,
                    };
                    arena_serve::serve(listener, site, ServerLimits::default()).await;
                });
            })
            .context("cannot start the server's thread")?;
        Ok(())
    }
}

/// The server's threads: two, whatever the machine (it reads files and
/// sends pages; the renders run on the watcher threads).
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("arena-serve")
        .enable_all()
        .build()
        .context("cannot start the server's threads")
}
