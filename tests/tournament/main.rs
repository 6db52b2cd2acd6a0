//! Integration tests of tournaments: schedules, the journal, every format,
//! resume and stopping, outputs, openings, shards and clusters (Slurm,
//! Kubernetes) and the sandbox in a run. One test binary, one module per
//! area (cargo-nextest's `integration/main.rs` layout); helpers in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod adaptive;
mod cli_openings;
mod gauntlet;
mod identity;
mod journal;
mod k8s_manifests;
mod knockout;
mod league_import;
mod league_play;
mod league_submit;
mod new_format;
mod openings;
mod output;
mod resume;
mod run;
mod sandbox_tournament;
mod schedule;
mod shard;
mod slurm_cluster;
mod stage_shards;
mod stopping;
mod swiss;
mod unplayed;
mod variants;
