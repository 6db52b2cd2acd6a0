//! Placeholder until this subcommand lands; replaced by its real module.

#[derive(Debug, Default, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("this subcommand is not built yet")
}
