//! `arena check-bot`: does a bot follow the protocol? Answers in plain
//! words for its author.
//!
//! - [`run`]: plays the bot against an in-process random mover on the
//!   requested variants (the tournament game runner, unchanged) and watches
//!   it around the games: handshake, an unknown message type, the quiet
//!   after `game_over`, `quit`. Produces [`Observations`].
//! - [`evaluate`]: turns observations into one finding per check, each with
//!   the referee messages that showed a problem.
//! - [`report`]: the findings as text, and the verdict.

pub mod evaluate;
pub mod observations;
pub mod report;
pub mod run;

pub use evaluate::evaluate;
pub use observations::{GameSeen, Observations, WireTail};
pub use report::{Check, Finding, Report, Status};
pub use run::{observe, CheckOptions};

use super::BotSpec;

/// Checks the bot `spec`, traced; `on_game` hears about each game as it
/// ends. Returns the findings and the end of the wire trace where the bot
/// first failed.
pub async fn check_bot(
    mut spec: BotSpec,
    options: &CheckOptions,
    on_game: &mut (dyn FnMut(&GameSeen) + Send),
) -> anyhow::Result<(Report, Option<WireTail>)> {
    spec.trace = true;
    let observations = observe(spec, options, on_game).await?;
    Ok((evaluate(&observations), observations.wire_tail))
}
