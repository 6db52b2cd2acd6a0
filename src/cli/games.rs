//! `arena games [ID]`: list the variants, or draw one board; both point to
//! the rules page, docs/RULES.md.

use std::io::IsTerminal;

use anyhow::bail;

use crate::games::{render, Variant};

/// Where the rules live, relative to the repository (and the release archive).
pub const RULES_PAGE: &str = "docs/RULES.md";

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// A variant id to draw (omit to list all variants).
    pub id: Option<String>,
    /// Colours: auto (when stdout is a terminal), always or never.
    #[arg(long, default_value = "auto")]
    pub color: ColorChoice,
}

#[derive(Debug, Default, Clone, Copy, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Auto => std::io::stdout().is_terminal(),
            ColorChoice::Always => true,
            ColorChoice::Never => false,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    match args.id {
        None => {
            out!("{}", variant_table());
            outln!("\nComplete rules with boards and examples: {RULES_PAGE}");
            Ok(0)
        }
        Some(id) => {
            let Some(variant) = Variant::by_id(&id) else {
                bail!(
                    "unknown variant \"{id}\"; known variants: {}",
                    Variant::ids().join(", ")
                );
            };
            outln!("{} ({})\n", variant.id, variant.board_name());
            out!("{}", render::board(variant, args.color.enabled()));
            outln!("draw: {}", variant.draw_text);
            outln!("rules: {RULES_PAGE}");
            Ok(0)
        }
    }
}

/// One line per variant: id, board, opening rule, draw rule.
pub fn variant_table() -> String {
    let mut out = format!(
        "{:<22} {:<13} {:<52} {}\n",
        "ID", "BOARD", "FIRST MOVE", "DRAW"
    );
    for v in Variant::all() {
        let first = format!(
            "{} ({} cells)",
            v.opening_text,
            v.first_move_mask().count_ones()
        );
        out.push_str(&format!(
            "{:<22} {:<13} {:<52} {}\n",
            v.id,
            v.board_name(),
            first,
            v.draw_text
        ));
    }
    out
}
