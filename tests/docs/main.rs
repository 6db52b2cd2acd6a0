//! Integration tests that keep the docs true: docs/SETTINGS.md and
//! docs/REFERENCE.md are generated (`ARENA_WRITE_DOCS=1` rewrites them),
//! docs/RULES.md's examples replay, and a new user's first commands work.
//! One test binary, one module per page (cargo-nextest's
//! `integration/main.rs` layout); helpers in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod first_hour;
mod reference_page;
mod rules_page;
mod settings_page;
mod source_layout;
