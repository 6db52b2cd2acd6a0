//! `arena completions SHELL`: a completion script for bash, zsh, fish,
//! elvish or PowerShell on stdout, generated (by `clap_complete`) from the
//! same definitions as `--help`.

use clap::CommandFactory;
use clap_complete::Shell;

use super::Cli;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Install, for example:\n  bash: arena completions bash > \
~/.local/share/bash-completion/completions/arena\n  zsh:  arena completions zsh > \
~/.zfunc/_arena   (with fpath+=~/.zfunc before compinit in ~/.zshrc)\n  fish: arena \
completions fish > ~/.config/fish/completions/arena.fish"
)]
pub struct Args {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "arena", &mut script);
    super::man::write_stdout(&script)?;
    Ok(0)
}
