//! `docs/SETTINGS.md`, the reference page of every setting, generated from
//! the definitions: a test (`tests/docs/settings_page.rs`) fails when the page
//! in the repository and [`reference_page`] disagree, and rewrites it when
//! asked to (`ARENA_WRITE_DOCS=1`).

use std::fmt::Write;

use super::defs::{resumable_flags, Command, Default, Setting, SETTINGS};

/// The path of the page in the repository.
pub const PAGE: &str = "docs/SETTINGS.md";

/// The whole page.
pub fn reference_page() -> String {
    let mut page = String::from(
        "# Settings\n\n\
         <!-- Generated from crates/tournament/src/settings/defs.rs: edit the definitions, then \
         `ARENA_WRITE_DOCS=1 cargo test --test docs settings_page`. A test fails while this page and \
         the definitions disagree. -->\n\n\
         Every setting of a run, defined once in arena. In a tournament file a setting is a key \
         of the `[tournament]` table; on the command line it is the flag shown (`arena \
         tournament`, `arena sprt` and `arena play` take the flags of their commands); a flag \
         beats the file, and the file beats the default. `tournament.json` records the \
         settings a run was started with, so `--resume DIR` continues exactly that run: only ",
    );
    page += &resumable_flags(Command::Tournament).join(" and ");
    page += " may be given again then.\n\n\
             A run's *identity* (in `tournament.json`) hashes the settings that decide which \
             games are played and how; shards of one tournament must agree on it (`arena \
             merge` checks). The bots are `[[bot]]` entries ([GUIDE.md](GUIDE.md#tournaments)) or \
             `--bot NAME=COMMAND` flags. Every command with its other flags, the exit statuses \
             and the output files: [REFERENCE.md](REFERENCE.md).\n\n\
             Paths follow one rule: everything in a file (`out`, `openings`, a bot's `cwd`, \
             where its `command` runs and which defaults to the file's directory) is relative \
             to that file's directory; everything on the command line, \
             and the default `out`, to the current directory.\n\n";
    page += "| key | flag | takes | default | commands |\n|---|---|---|---|---|\n";
    for s in SETTINGS {
        let _ = writeln!(
            page,
            "| [`{}`](#{}) | {} | {} | {} | {} |",
            s.key,
            s.key,
            flag_cell(s),
            s.kind.expects(),
            default_cell(s),
            commands_cell(s)
        );
    }
    for s in SETTINGS {
        page += &section(s);
    }
    page
}

fn flag_cell(s: &Setting) -> String {
    match (s.flag, s.short) {
        (Some(flag), Some(short)) => format!("`-{short}`, `--{flag}`"),
        (Some(flag), None) => format!("`--{flag}`"),
        (None, _) => "(file only)".into(),
    }
}

fn default_cell(s: &Setting) -> String {
    let text = match s.default {
        Default::Value(_) | Default::Whole(_) => format!("`{}`", s.default.text()),
        Default::Machine(text, _) | Default::Unset(text) => text.to_string(),
    };
    match s.sprt_default {
        Some(sprt) => format!("{text} (an SPRT: `{sprt}`)"),
        None => text,
    }
}

fn commands_cell(s: &Setting) -> String {
    let names: Vec<&str> = s.commands.iter().map(|c| c.name()).collect();
    names.join(", ")
}

/// A setting's own section: its help, its doc, and what it is in a run.
fn section(s: &Setting) -> String {
    let mut text = format!("\n## `{}`\n\n{}.", s.key, s.help);
    if !s.doc.is_empty() {
        text += " ";
        text += s.doc;
    }
    text += "\n\n";
    let mut facts = vec![format!(
        "Takes {}; default: {}.",
        s.kind.expects(),
        default_cell(s)
    )];
    let file = match s.commands {
        [Command::Sprt] => "In a file with `format = \"sprt\"`",
        _ => "In a file",
    };
    let where_given = match (s.in_file, s.flag) {
        (true, Some(_)) => format!("{file}, or {}.", flag_cell(s)),
        (true, None) => format!("{file} only."),
        (false, Some(_)) => format!("On the command line only: {}.", flag_cell(s)),
        (false, None) => String::new(),
    };
    facts.push(where_given);
    facts.push(if s.identity {
        "Part of the run's identity.".into()
    } else {
        "Not part of the run's identity.".into()
    });
    if s.on_resume {
        facts.push("May change on `--resume`.".into());
    }
    text += &facts.join(" ").replace("``", "`");
    text += "\n";
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_has_a_row_and_a_section() {
        let page = reference_page();
        for s in SETTINGS {
            assert!(
                page.contains(&format!("| [`{}`](#{}) |", s.key, s.key)),
                "{}",
                s.key
            );
            assert!(page.contains(&format!("\n## `{}`\n", s.key)), "{}", s.key);
        }
        assert!(page.contains("only -j and --rating-interval may be given again"));
    }
}
