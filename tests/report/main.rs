//! Integration tests of what a run's results become: the statistics
//! (Elo, SPRT, crosstable, standings), `arena rate`, `arena show`,
//! `arena analyse`, report.html (as text and in a browser), the live
//! page of `arena serve`, a league's leaderboard page and the play page (`--play`). One test binary, one module per area
//! (cargo-nextest's `integration/main.rs` layout); helpers in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod analyse;
mod big_field;
mod browser;
mod cli_rate;
mod cli_show;
mod league_page;
mod page;
mod play_browser;
mod play_server;
mod serve;
mod serve_browser;
mod serve_live;
mod settled_table;
mod stats_crosstable;
mod stats_elo;
mod stats_report;
mod stats_sprt;
