//! `docs/REFERENCE.md`, the reference page of the command line, generated
//! from the same definitions as `--help`: every command with every argument
//! and flag (clap's, with its default), the exit statuses (from the
//! constants the commands return) and every output file with its columns
//! (from the headers the code writes). The settings have their own
//! generated page, `docs/SETTINGS.md` ([`crate::tournament::settings::page`]),
//! which this one links for each setting's flag.
//!
//! `tests/docs/reference_page.rs` fails when the page in the repository and
//! [`reference_page`] disagree, and rewrites it when asked to
//! (`ARENA_WRITE_DOCS=1 cargo test --test docs reference_page`).

use std::fmt::Write;

use clap::CommandFactory;

use super::{merge, sprt, tournament, Cli};
use crate::report::analysis::{
    ANALYSIS_BOTS_CSV, ANALYSIS_CSV, BOT_COLUMNS, COLUMNS as ANALYSIS_COLUMNS,
};
use crate::report::comparison::CROSSTABLE_COLUMNS;
use crate::report::pairwise::PAIRWISE_COLUMNS;
use crate::report::standings::{standings_columns, MODEL_COLUMNS};
use crate::tournament::certificate::{CERTIFICATE_COLUMNS, CERTIFICATE_FILE};
use crate::tournament::journal::csv_header;
use crate::tournament::output_files::{
    CROSSTABLE_FILE, GAMES_CSV, GAMES_JSONL, LOGS_DIR, MANIFEST_FILE, MODEL_FILE, PAIRWISE_FILE,
    REPORT_FILE, STANDINGS_FILE,
};
use crate::tournament::settings::SETTINGS;

/// The path of the page in the repository.
pub const PAGE: &str = "docs/REFERENCE.md";

/// Exit statuses: the commands they apply to, the status, its meaning. The
/// numbers are the constants the commands return.
fn exit_statuses() -> Vec<(&'static str, i32, &'static str)> {
    let mut statuses = run_exit_statuses();
    statuses.extend(tool_exit_statuses());
    statuses
}

/// The statuses of every command and of the runs (tournament, sprt).
fn run_exit_statuses() -> Vec<(&'static str, i32, &'static str)> {
    vec![
        (
            "every command",
            0,
            "success (for the commands below: as they say)",
        ),
        (
            "every command",
            2,
            "an error, said in one line `arena: error: ...`: bad arguments or settings (clap's \
             usage errors too; a new run then writes nothing), a bot whose program cannot start \
             (missing, or failing the start check before the first game: nothing of the run is \
             left but the check's log), an output directory another arena holds (its lock names the pid), a file that \
             cannot be read or written (a run whose journal fails, e.g. on a full disk, stops \
             so: resume it once there is room)",
        ),
        (
            "tournament (round robin, gauntlet)",
            0,
            "every scheduled game (of the shard) is recorded",
        ),
        (
            "tournament (a shard of a swiss or knockout)",
            0,
            "the shard's games of the current round are recorded (or it has none): merge the \
             shards, then play on with `--after MERGED`; a shard that has played its part and \
             is run again before the merge is an error (2): merge first",
        ),
        (
            "tournament (round robin, gauntlet)",
            tournament::EXIT_GAMES_MISSING,
            "some game could not be run (arena's own failure, not the bot's); the games to \
             resume are listed: `arena tournament --resume DIR`",
        ),
        (
            "tournament, sprt",
            tournament::EXIT_REFEREE_FAILING,
            "arena itself kept failing (out of descriptors, processes, memory): the last line \
             says what ran out and what to fix; then `--resume DIR`",
        ),
        (
            "tournament, sprt",
            tournament::EXIT_BOTS_DISABLED,
            "every bot failed to start `startup_failures` times in a row, so no game was left \
             to play: the last line quotes their failures; fix them, then `--resume DIR`",
        ),
        (
            "tournament, sprt, play",
            tournament::EXIT_INTERRUPTED,
            "interrupted (Ctrl-C, SIGTERM); a run continues with `--resume DIR`",
        ),
        (
            "sprt (also a resumed one, and `format = \"sprt\"`)",
            sprt::EXIT_H1,
            "H1 accepted: A is stronger by at least elo1",
        ),
        ("sprt", sprt::EXIT_H0, "H0 accepted"),
        (
            "sprt",
            sprt::EXIT_UNDECIDED,
            "undecided: `--max-pairs` came first",
        ),
    ]
}

/// The statuses of the tools around runs (merge, check-bot, judge).
fn tool_exit_statuses() -> Vec<(&'static str, i32, &'static str)> {
    vec![
        (
            "merge",
            0,
            "every game of the schedule is in OUT (a swiss or knockout: its last round too)",
        ),
        (
            "merge",
            merge::EXIT_INCOMPLETE,
            "incomplete: games are missing (listed per shard); resume those shards and merge \
             again into the same OUT",
        ),
        (
            "merge (swiss, knockout)",
            merge::EXIT_NEXT_ROUND,
            "every game so far is merged and the next round is to play: play it on every shard \
             with `arena tournament --resume DIR --after OUT`, then merge again",
        ),
        (
            "check-bot",
            0,
            "the bot is compliant (last line `COMPLIANT`)",
        ),
        (
            "check-bot",
            1,
            "not compliant (last line `NOT COMPLIANT: N problems`)",
        ),
        (
            "judge",
            0,
            "a valid record (its status may be win, draw or ongoing)",
        ),
        (
            "judge",
            1,
            "a bad record, or input that cannot be read: `{\"error\", \"ply\", \"message\"}` on \
             stdout (`ply`: the position the bad move was played from, so the move is number \
             `ply` + 1)",
        ),
    ]
}

/// What each output file holds, in the order a run lists them.
fn files() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            MANIFEST_FILE,
            "the resolved settings, the seed and the plan (format, bots with their commands, \
             `ready` answers and the SHA-256 of their program files, openings, shard, identity): \
             every game of the schedule is computed from it, so its size does not depend on the \
             number of games; `--resume` reads it",
        ),
        (
            GAMES_JSONL,
            "the journal: one game record (JSON) per finished game, appended as each game ends \
             and synced at most every `sync_interval_ms`; a game counts as played when its \
             record is here. Each line replays with `arena judge`. Fields: `game_id` (`gN`), \
             `round`, `pair`, `game` (the variant), `white`, `black`, `time_control`, \
             `white_time_control` / `black_time_control` (each side's own; they differ with \
             time odds), `opening`, `moves`, \
             `move_times_ms` (wall time per move, ms), `move_cpu_ms` (the CPU time the bot's process used for each move, ms; `null` where not measured), `result`, `winner`, \
             `played` (only when `false`: a game neither bot played, both having failed to \
             start; result `1/2-1/2`, reason `startup`, the message says why each failed; no \
             rating, standings, SPRT or leader counts it), `reason`, `message`, `cells` (the winning \
             cells), `plies`, `white_time_ms`, `black_time_ms`, `duration_ms`, `ended_utc`, \
             `white_ready` / `black_ready` (the bots' `ready` answers), `white_log` / \
             `black_log` and `white_trace` / `black_trace` (paths under `logs/`, left out when \
             there is none), and on a log that could not be written `white_log_tail` / \
             `black_log_tail` and `warnings`",
        ),
        (
            GAMES_CSV,
            "one row per finished game, derived from its record as the game ends (`--resume` \
             rebuilds it from the journal when they disagree)",
        ),
        (
            LOGS_DIR,
            "`logs/<game>-<colour>-<bot>.log`: a bot's stderr in one game, created when it first \
             writes and capped at 1 MiB; `*.trace` for a bot with `trace = true`: every line \
             both ways as `MS > LINE` (to the bot) or `MS < LINE`",
        ),
        (
            STANDINGS_FILE,
            "the ratings: one block of rows per fit (per variant, and `all` for the pooled fit); \
             written at the end of a run and by `arena rate --out DIR`",
        ),
        (
            MODEL_FILE,
            "the first-player advantage and draw parameter of each fit (`fit`: `separate` or \
             `pooled`)",
        ),
        (
            PAIRWISE_FILE,
            "head to head, from the better-ranked bot's side, from the two bots' games alone",
        ),
        (
            CROSSTABLE_FILE,
            "who scored what against whom, one row per (bot, opponent) that met",
        ),
        (
            ANALYSIS_CSV,
            "`arena analyse DIR`: one row per move a bot chose (not the opening's), judged by \
             the solver against perfect play; written by nothing else (a run never writes it)",
        ),
        (
            ANALYSIS_BOTS_CSV,
            "`arena analyse DIR`: the decisions of each bot over the rows of analysis.csv",
        ),
        (
            CERTIFICATE_FILE,
            "an adaptive ranking's certificate: per adjacent pair of the ranking, whether it is \
             separated (docs/STATISTICS.md, \"Adaptive ranking\"); written at the end of an \
             adaptive run",
        ),
        (
            REPORT_FILE,
            "the HTML report: settings, standings and plots, crosstable, failures, game list \
             and board viewer; one self-contained file",
        ),
    ]
}

/// The definitions every file, page and message follows.
const GAME_IDS_AND_PLIES: &str = "\n## Game ids and plies\n\n\
     A game's id is `gN`, N its number in the run's schedule (0-based, unique within a run): \
     `game_id` in games.jsonl, games.csv and analysis.csv, the protocol's `game_id` \
     (protocol/PROTOCOL.md), the report's links (`report.html#game=g7`; a report of several \
     directories adds the directory, `d2g7`), the live page and the terminal's lines. Joining \
     the files on `game_id` matches a game's rows. Files of older versions (a journal line with \
     `\"id\":7` besides `\"game_id\":\"g7\"`, a games.csv column `id` or an analysis.csv \
     `game_id` holding a bare `7`) are still read by `--resume`, `arena report`, `analyse`, \
     `rate`, `judge`, `merge` and `serve`.\n\n\
     Ply N is the position after N moves, as the protocol's `turn.ply` counts (ply 0 is the \
     empty board); move N, counted from 1 with the opening's moves first, is the move that \
     leads to ply N. The viewer's \"ply 4 / 29\" shows the position after move 4 of 29, and \
     analysis.csv's row of `ply` 4 judges that move (older files counted it from 0; they are \
     read as today's).\n";

/// The meaning of each column; a column the code writes without one here
/// fails the page's test.
const COLUMNS: &[(&str, &str)] = &[
    (
        "game_id",
        "the game's id, `gN` (see [Game ids and plies](#game-ids-and-plies)): the same in \
         games.jsonl, games.csv, analysis.csv, the report's viewer and the terminal",
    ),
    (
        "round",
        "round-robin cycle of the game, 0-based (in an adaptive ranking its round)",
    ),
    (
        "pair",
        "game pair: both games of a pair share an opening, colours swapped",
    ),
    (
        "variant",
        "the variant (in the rating files: the fit, a variant id or `all` for the pooled one)",
    ),
    ("white", "the bot playing first"),
    ("black", "the bot playing second"),
    ("opening", "the opening's moves, space separated (may be empty)"),
    ("result", "`1-0`, `0-1` or `1/2-1/2`"),
    (
        "reason",
        "why the game ended: a win pattern (`group`, `square`, `line`), a draw (`full`, \
         `out_of_discs`, `ply_cap`), `no_moves` (the side to move loses), `adjudicated` (the solver proved the result, with `adjudicate = \"solved\"`), or the loser's failure (`timeout`, `illegal_move`, `crash`, `protocol_error`, \
         `disconnect`, `startup`, `memory`, `cpu`)",
    ),
    ("plies", "plies of the game"),
    ("white_time_ms", "white's thinking time over the game, ms"),
    ("black_time_ms", "black's thinking time over the game, ms"),
    (
        "ended_utc",
        "when the game ended, UTC, RFC 3339 to the second (empty for records older than it)",
    ),
    (
        "white_tc",
        "white's time control (`per-move=200`, `5+0.05`); differs from black's with time odds",
    ),
    ("black_tc", "black's time control"),
    (
        "played",
        "`false` for a game neither bot played (both failed to start: result `1/2-1/2`, reason \
         `startup`), which no rating, standings or SPRT counts; `true` otherwise (and for files \
         older than the column)",
    ),
    ("rank", "place in the fit"),
    ("bot", "the bot"),
    ("games", "games played (in pairwise.csv and crosstable.csv: the two bots against each other)"),
    ("wins", "games won"),
    ("draws", "games drawn"),
    ("losses", "games lost"),
    ("score_pct", "points per game in %, a draw half a point"),
    ("elo", "rating, logistic Elo, centred on the field's mean"),
    ("elo_low", "lower end of the 95% interval"),
    ("elo_high", "upper end of the 95% interval"),
    (
        "elo_prior",
        "`true` where the rating needed the prior (no maximum-likelihood rating exists)",
    ),
    ("white_games", "games as white"),
    ("white_score_pct", "score as white, %"),
    ("black_games", "games as black"),
    ("black_score_pct", "score as black, %"),
    ("fit", "`separate` (the variant's own fit) or `pooled`"),
    ("parameter", "`white_advantage_elo` or `draw_elo`"),
    ("value", "the fitted value, Elo"),
    ("low", "lower end of the 95% interval"),
    ("high", "upper end of the 95% interval"),
    ("bot_a", "the better-ranked bot of the pair"),
    ("bot_b", "the other bot"),
    ("elo_diff", "Elo difference from the score of these games alone"),
    ("los", "likelihood of superiority of bot_a, from the game pairs"),
    ("penta_ll", "game pairs bot_a lost both games of"),
    ("penta_ld", "game pairs with a loss and a draw"),
    (
        "penta_dd_wl",
        "game pairs with two draws, or a win and a loss",
    ),
    ("penta_wd", "game pairs with a win and a draw"),
    ("penta_ww", "game pairs bot_a won both games of"),
    ("opponent", "the opponent"),
    ("confidence", "the confidence the ranking is certified at"),
    ("certified", "`true` when every pair is separated: the order is certified"),
    ("upper", "the bot ranked above"),
    ("lower", "the bot ranked below it"),
    ("elo_difference", "upper's rating minus lower's, Elo"),
    ("elo_sd", "standard error of the difference, from the joint fit"),
    ("z", "the difference over its standard error"),
    ("needed_z", "the z that separates the pair (the sequential boundary)"),
    ("wealth", "the head-to-head test's wealth from upper's game pairs against lower"),
    ("needed_wealth", "the wealth that separates the pair"),
    ("separated", "`true` when either test separates the pair"),
    ("points", "points scored against the opponent"),
    (
        "ply",
        "the ply the move produced: N for the game's Nth move (counted from 1, the opening's \
         first), the position the viewer shows as ply N",
    ),
    ("mover", "the bot that chose the move"),
    ("color", "the mover's colour, `white` or `black`"),
    ("move", "the move, in notation"),
    (
        "value_before",
        "the position's value for the mover under perfect play: `win`, `draw`, `loss`, or \
         `unknown` (not proven within `--budget-ms`)",
    ),
    (
        "value_after",
        "the value after the move, for the mover (a finished game: its result)",
    ),
    (
        "mistake",
        "`true` when the move made the mover's value worse (win to draw or loss, draw to loss); \
         empty when either value is unknown",
    ),
    ("mover_result", "the game's result for the mover: `win`, `draw` or `loss`"),
    ("nodes", "nodes the solver searched for the position before the move"),
    ("moves", "moves the bot chose (the opening's are not its)"),
    ("decided", "of those, moves from a position whose value was proven"),
    ("kept", "decided moves after which the value is the same"),
    ("mistakes", "moves with `mistake` true: `lost_win` and `lost_draw` together"),
    ("lost_win", "decided moves from a win to a draw or a loss"),
    ("lost_draw", "decided moves from a draw to a loss"),
    (
        "unknown_after",
        "decided moves after which the value stayed unknown within the budget: neither kept nor lost as far as the analysis knows",
    ),
    (
        "accuracy",
        "share of `kept` among the decided moves whose value after is known (`kept` and `mistakes`), 0 to 1",
    ),
    (
        "won_not_converted",
        "games in which the bot had a proven win (some `value_before` is `win`) and did not win",
    ),
    (
        "first_mistake_mean_ply",
        "mean over the games with a mistake of the `ply` of the first one (empty: none)",
    ),
    ("first_mistake_min_ply", "the earliest `ply` of a game's first mistake"),
];

/// The meaning of a column; `lost_<reason>` columns are described by their
/// pattern.
fn column_meaning(column: &str) -> Option<String> {
    if let Some(reason) = column.strip_prefix("lost_") {
        return Some(format!("games lost by `{reason}`"));
    }
    COLUMNS
        .iter()
        .find(|(c, _)| *c == column)
        .map(|(_, m)| m.to_string())
}

/// The columns of every CSV file, as the code writes its header.
pub fn csv_files() -> Vec<(&'static str, Vec<String>)> {
    let owned = |cols: &[&str]| cols.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    vec![
        (
            GAMES_CSV,
            csv_header()
                .trim_end()
                .split(',')
                .map(String::from)
                .collect(),
        ),
        (STANDINGS_FILE, standings_columns()),
        (MODEL_FILE, owned(&MODEL_COLUMNS)),
        (PAIRWISE_FILE, owned(&PAIRWISE_COLUMNS)),
        (CROSSTABLE_FILE, owned(&CROSSTABLE_COLUMNS)),
        (ANALYSIS_CSV, owned(&ANALYSIS_COLUMNS)),
        (ANALYSIS_BOTS_CSV, owned(&BOT_COLUMNS)),
        (CERTIFICATE_FILE, owned(&CERTIFICATE_COLUMNS)),
    ]
}

/// Columns the code writes that have no meaning in [`COLUMNS`].
pub fn undescribed_columns() -> Vec<String> {
    csv_files()
        .into_iter()
        .flat_map(|(file, cols)| {
            cols.into_iter()
                .filter(|c| column_meaning(c).is_none())
                .map(move |c| format!("{file}: {c}"))
        })
        .collect()
}

/// Markdown table cell text: one line, pipes escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// A help text split into its text and the default (or `required`) it ends
/// with: `... [default: 2]`.
fn split_default(help: &str) -> (String, Option<String>) {
    let help = help.trim();
    if let Some(rest) = help.strip_suffix("[required]") {
        return (rest.trim_end().to_string(), Some("required".into()));
    }
    if help.ends_with(']') {
        if let Some(at) = help.rfind("[default: ") {
            let default = help[at + "[default: ".len()..help.len() - 1].to_string();
            return (help[..at].trim_end().to_string(), Some(default));
        }
    }
    (help.to_string(), None)
}

/// The rows of one command's arguments: name, takes, default, help.
fn argument_rows(cmd: &clap::Command) -> Vec<[String; 4]> {
    let mut rows = Vec::new();
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        if arg.is_hide_set() || id == "help" || id == "version" {
            continue;
        }
        let value_names: Vec<String> = arg
            .get_value_names()
            .map(|names| names.iter().map(|n| n.to_string()).collect())
            .unwrap_or_else(|| vec![id.to_uppercase()]);
        let takes_value = arg.get_num_args().is_none_or(|n| n.takes_values())
            && !matches!(
                arg.get_action(),
                clap::ArgAction::SetTrue | clap::ArgAction::SetFalse | clap::ArgAction::Count
            );
        let name = if arg.is_positional() {
            let many = matches!(arg.get_action(), clap::ArgAction::Append);
            format!(
                "`{}{}`",
                value_names.join(" "),
                if many { "..." } else { "" }
            )
        } else {
            let mut name = String::new();
            if let Some(short) = arg.get_short() {
                let _ = write!(name, "`-{short}`, ");
            }
            let long = arg.get_long().unwrap_or(id);
            if takes_value {
                let _ = write!(name, "`--{long} {}`", value_names.join(" "));
            } else {
                let _ = write!(name, "`--{long}`");
            }
            name
        };
        let help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let (mut help, mut default) = split_default(&help);
        if default.is_none() {
            let values: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            if !values.is_empty() {
                default = Some(format!("`{}`", values.join(",")));
            } else if arg.is_required_set() {
                default = Some("required".into());
            }
        } else if let Some(d) = &default {
            if d != "required" && !d.contains(' ') {
                default = Some(format!("`{d}`"));
            }
        }
        let possible: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| format!("`{}`", v.get_name()))
            .collect();
        // A setting's flag, in a command that takes that setting.
        let setting = SETTINGS.iter().find(|s| {
            s.key == id
                && s.flag == arg.get_long()
                && s.commands.iter().any(|c| c.name() == cmd.get_name())
        });
        let takes = match setting {
            Some(s) => {
                help = format!("{help} ([`{}`](SETTINGS.md#{}))", s.key, s.key);
                s.kind.expects()
            }
            None if !possible.is_empty() => format!("one of {}", possible.join(", ")),
            None if takes_value => "a value".into(),
            None => "(a switch)".into(),
        };
        if matches!(arg.get_action(), clap::ArgAction::Append)
            && !arg.is_positional()
            && !help.contains("repeatable")
        {
            help += " (repeatable)";
        }
        if !takes_value {
            // A switch is off unless given.
            default = None;
        }
        rows.push([
            name,
            cell(&takes),
            default.unwrap_or_else(|| "-".into()),
            cell(&help),
        ]);
    }
    rows
}

/// One command's section.
fn command_section(parent: &str, cmd: &clap::Command) -> String {
    let full = format!("{parent} {}", cmd.get_name());
    let mut text = format!("\n### `{full}`\n\n");
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        let _ = writeln!(text, "{}\n", about.to_string().trim());
    }
    let mut usage_cmd = cmd.clone().bin_name(&full);
    let usage = usage_cmd.render_usage().to_string();
    let usage = usage.trim().trim_start_matches("Usage:").trim();
    let _ = writeln!(text, "```text\n{usage}\n```\n");
    let rows = argument_rows(cmd);
    if !rows.is_empty() {
        text += "| argument | takes | default | what it is |\n|---|---|---|---|\n";
        for row in rows {
            let _ = writeln!(text, "| {} |", row.join(" | "));
        }
        text += "\n";
    }
    if let Some(after) = cmd.get_after_long_help().or(cmd.get_after_help()) {
        let after = after.to_string();
        for paragraph in after.split("\n\n") {
            if paragraph.lines().count() > 1
                && paragraph.lines().skip(1).all(|l| l.starts_with("  "))
            {
                // A heading line, then indented lines: an example block.
                let mut lines = paragraph.lines();
                let _ = writeln!(text, "{}\n", lines.next().unwrap_or_default().trim());
                let block: Vec<&str> = lines.map(|l| l.trim()).collect();
                let _ = writeln!(text, "```sh\n{}\n```\n", block.join("\n"));
            } else {
                let _ = writeln!(text, "{}\n", cell(paragraph));
            }
        }
    }
    text
}

/// The whole page.
pub fn reference_page() -> String {
    let mut cli = Cli::command();
    cli.build();
    let mut page = String::from(
        "# Reference\n\n\
         <!-- Generated from the command line's definitions (src/cli), the exit statuses the \
         commands return and the headers of the files they write: edit those, then \
         `ARENA_WRITE_DOCS=1 cargo test --test docs reference_page`. A test fails while this page \
         and the code disagree. -->\n\n\
         Every command with every argument and flag (as `arena COMMAND --help` shows them, \
         with their defaults), the exit statuses, and every file a run writes with its \
         columns. The settings (keys of a tournament file's `[tournament]` table, and the \
         flags they have) are on their own generated page, [SETTINGS.md](SETTINGS.md), with \
         what each takes and its limits; a flag below that is a setting links there. The \
         same definitions make the man pages (`arena man`, `arena man COMMAND`) and the shell \
         completions (`arena completions bash|zsh|fish`). How to use all this: \
         [GUIDE.md](GUIDE.md).\n\n\
         ## Commands\n\n\
         | command | what it does |\n|---|---|\n",
    );
    let _ = writeln!(
        page,
        "| `arena` | without a command: the tournament of `./arena.toml` when there is one, \
         else a short quick-start help |"
    );
    for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        let _ = writeln!(
            page,
            "| [`arena {}`](#arena-{}) | {} |",
            sub.get_name(),
            sub.get_name(),
            cell(&about)
        );
    }
    page += "\nOptions of `arena` itself: `-h`, `--help` (also `arena help COMMAND`) and \
             `-V`, `--version`; every command takes `-h`, `--help`.\n";
    for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        page += &command_section("arena", sub);
    }

    page += "\n## Exit statuses\n\n| command | status | meaning |\n|---|---|---|\n";
    for (command, status, meaning) in exit_statuses() {
        let _ = writeln!(page, "| {command} | {status} | {} |", cell(meaning));
    }
    page += "\nOther commands exit 0 on success and 2 on an error. `--help` and `--version` \
             exit 0.\n";

    page += "\n## Output files\n\nA run's output directory (`--out`, default \
             `arena-out/UTC-TIMESTAMP`) holds:\n\n| file | what it holds |\n|---|---|\n";
    for (file, what) in files() {
        let slash = if file == LOGS_DIR { "/" } else { "" };
        let _ = writeln!(page, "| `{file}{slash}` | {} |", cell(what));
    }
    page += "\n`arena rate --out DIR` writes the four rating files and report.html into DIR; \
             `arena report` writes report.html; `arena merge OUT` writes a whole directory.\n";
    page += GAME_IDS_AND_PLIES;
    for (file, columns) in csv_files() {
        let _ = write!(
            page,
            "\n### `{file}`\n\n| column | what it is |\n|---|---|\n"
        );
        for column in columns {
            let meaning = column_meaning(&column).unwrap_or_else(|| "(undescribed)".into());
            let _ = writeln!(page, "| `{column}` | {} |", cell(&meaning));
        }
    }
    // One blank line between blocks.
    while page.contains("\n\n\n") {
        page = page.replace("\n\n\n", "\n\n");
    }
    page
}
