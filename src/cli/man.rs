//! `arena man [COMMAND]`: the man page of arena, or of one of its commands,
//! in roff on stdout, generated (by `clap_mangen`) from the same
//! definitions as `--help`. `arena man | man -l -` reads it.

use clap::CommandFactory;

use super::Cli;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Read it with `arena man | man -l -` (or `arena man tournament | man \
-l -`). Install the pages where man finds them, e.g.:\n  mkdir -p ~/.local/share/man/man1\n  \
arena man > ~/.local/share/man/man1/arena.1\n  for c in tournament sprt play; do arena man $c > \
~/.local/share/man/man1/arena-$c.1; done"
)]
pub struct Args {
    /// A command (e.g. tournament): its page, arena-COMMAND(1), instead of arena(1).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// arena's command tree as the man pages show it: names as `arena-COMMAND`,
/// without clap's `help` command.
pub fn command_tree() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// The roff text of arena(1), or of arena-COMMAND(1).
pub fn page(command: Option<&str>) -> anyhow::Result<String> {
    let tree = command_tree();
    let cmd = match command {
        None => tree,
        Some(name) => match tree.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = tree.get_subcommands().map(|c| c.get_name()).collect();
                anyhow::bail!("no command {name:?}; the commands: {}", names.join(", "))
            }
        },
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .source(format!("arena {}", env!("CARGO_PKG_VERSION")))
        .manual("arena manual")
        .render(&mut out)?;
    Ok(String::from_utf8(out)?)
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    write_stdout(page(args.command.as_deref())?.as_bytes())?;
    Ok(0)
}

/// Writes `bytes` to stdout; a reader that stops early (`| head`) is not an
/// error.
pub fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
