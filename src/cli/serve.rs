//! `arena serve DIR... [--port P] [--bind ADDR]`: a live page over output
//! directories (see the `arena_serve` crate): the report, updated as games
//! end.

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use arena_serve::{run::group, Limits, Run};

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
    let runs = group(&args.dirs)
        .iter()
        .map(|dirs| Run::new(dirs).map(Arc::new))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let address = SocketAddr::new(args.bind, args.port);
    let listener = std::net::TcpListener::bind(address).with_context(|| {
        format!(
            "cannot listen on {address} (another server on that port? --port 0 picks a free one)"
        )
    })?;
    listener.set_nonblocking(true)?;
    let address = listener.local_addr()?;
    outln!("Serving http://{address}/");
    if args.bind.is_loopback() {
        outln!("Listening on {} only: other machines cannot open this page (--bind 0.0.0.0 lets them).", args.bind);
    } else {
        outln!("warning: listening on {}: every machine that can reach this one can open these runs' pages and logs (there is no login).", args.bind);
    }
    for (k, run) in runs.iter().enumerate() {
        if runs.len() > 1 {
            outln!("  /run/{k}/: {}", run.name());
        }
        run.watch();
    }
    let _ = std::io::stdout().flush();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        tokio::select! {
            () = arena_serve::serve(listener, runs, Limits::default()) => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        anyhow::Ok(())
    })?;
    Ok(0)
}
