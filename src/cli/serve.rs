//! `arena serve DIR... [--port P] [--bind ADDR]`: a live page over output
//! directories (see the `arena_serve` crate): the report, updated as games
//! end. Also the page `arena tournament --serve PORT` and `arena sprt
//! --serve PORT` start beside their run ([`Live`]).

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::tournament::live::LiveGames;
use anyhow::Context;
use arena_serve::{run::group, ServedRun, ServerLimits};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Shows each run as report.html shows it (the same page, drawn by the same code) \
with its progress on top, and updates the page by itself as games end: open the URL while the \
tournament runs. It only reads the directories, and serves only the page and the runs' own files \
(their logs). The shards of one tournament given together are shown as one run; other \
directories each get their own page, listed at /. Stop it with Ctrl-C. More: docs/LIVE.md."
)]
pub struct Args {
    /// Output directories of tournaments or SPRTs, finished or still running.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Port to listen on; 0 picks a free one (the first line printed says which).
    #[arg(long, default_value_t = 8080, value_name = "P")]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; 0.0.0.0
    /// serves every machine that can reach this one.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_name = "ADDR")]
    pub bind: IpAddr,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    // Every thread of the server inherits it.
    arena_serve::lower_priority();
    let runs = group(&args.dirs)
        .iter()
        .map(|dirs| ServedRun::new(dirs).map(Arc::new))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let live = Live::bind(args.bind, args.port)?;
    for (k, run) in runs.iter().enumerate() {
        if runs.len() > 1 {
            outln!("  /run/{k}/: {}", run.name());
        }
    }
    let _ = std::io::stdout().flush();
    let runtime = runtime()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(live.listener)?;
        for run in &runs {
            run.watch();
        }
        tokio::select! {
            () = arena_serve::serve(listener, runs, ServerLimits::default()) => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        anyhow::Ok(())
    })?;
    Ok(0)
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
                    arena_serve::serve(listener, vec![run], ServerLimits::default()).await;
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
