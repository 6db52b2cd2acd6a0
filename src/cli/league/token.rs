//! `arena league token DIR NAME`: a participant's secret token for
//! submissions (`arena serve DIR --submissions`): printed once, stored
//! only as its SHA-256 in the league's registry; a new one replaces the
//! old.

use std::path::PathBuf;

use crate::tournament::league::League;

#[derive(Debug, clap::Args)]
pub struct TokenArgs {
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The participant: their uploads become the versions of the bot NAME
    /// (one word of letters, digits, '_', '.', '-').
    #[arg(value_name = "NAME")]
    pub name: String,
}

pub fn token(args: TokenArgs) -> anyhow::Result<i32> {
    let mut league = League::open(&args.dir)?;
    league.lock()?;
    let mut registry = league.registry()?;
    let replaces = registry.tokens.contains_key(&args.name);
    let token = registry.new_token(&league.registry_path(), &args.name)?;
    outln!("{token}");
    eprintln!(
        "{}: the token above is {}; give it to {} only: it is shown once (the league keeps its SHA-256). They upload with it to arena serve {} --submissions.",
        args.name,
        if replaces { "new (the old one no longer works)" } else { "theirs" },
        args.name,
        args.dir.display()
    );
    Ok(0)
}
