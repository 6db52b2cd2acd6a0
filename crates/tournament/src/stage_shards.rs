//! A Swiss or knockout played in shards (`--shard K/N`), one stage at a
//! time: each shard plays its game pairs of the current stage (pair `p` is
//! shard `p mod N + 1`'s, as in a round robin), `arena merge` joins the
//! shards and says whether the stage is complete, and each shard then
//! plays the next stage with the merged results (`--after MERGED`).
//!
//! What is here: where a staged run stands ([`StagePosition`], from the
//! games it knows), the results of a merged directory given to a shard
//! ([`read_after`]: checked to be of the same tournament), and a shard's
//! last words ([`ShardDone`]). The stages themselves are
//! [`crate::paired`]'s: a shard computes a stage from every result before
//! it, its own and the merged ones, as an unsharded run does, so the
//! merged run equals an unsharded one with the same seed.

use std::any::Any;
use std::path::Path;

use anyhow::{bail, Context};

use super::format::{resume_hint, Format, Verdict};
use super::game_set::GameSet;
use super::games_reader::visit_games_csv;
use super::journal::GAMES_CSV;
use super::manifest::Manifest;
use super::paired::{catch_up, Staged};
use super::progress::RunOutcome;
use super::shard::Shard;
use super::text::Said;

/// Where a staged run stands, from the games it knows: the stage being
/// played (the first not complete), or the last one when none follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagePosition {
    /// The stage as it is announced (`Round 2 of 3`).
    pub title: String,
    /// Its games: ids `first..end`.
    pub first: u64,
    pub end: u64,
    /// Its finished games.
    pub finished: u64,
    /// Every stage is complete and none follows: the tournament is over.
    pub over: bool,
}

impl StagePosition {
    /// The stage's games in all.
    pub fn games(&self) -> u64 {
        self.end - self.first
    }

    /// The games that should be there: every game of the stages before
    /// the current one, and of the current one once any of its games is
    /// (a stage none of whose games was played is still to be played).
    pub fn expected_end(&self) -> u64 {
        if self.finished == 0 && !self.over {
            self.first
        } else {
            self.end
        }
    }
}

/// Computes every stage the recorded games allow, then says where `format`
/// stands.
pub fn position(format: &mut (impl Staged + ?Sized)) -> anyhow::Result<StagePosition> {
    catch_up(format)?;
    Ok(last_stage(format))
}

/// The last computed stage of `format` (as it stands: nothing computed).
fn last_stage(format: &(impl Staged + ?Sized)) -> StagePosition {
    let stages = format.stages();
    let (first, end) = stages.last_range();
    let last = stages.stages().len().saturating_sub(1);
    StagePosition {
        title: format.announced(last).title,
        first,
        end,
        finished: stages.last_done(),
        over: !format.more_to_come() && stages.last_complete(),
    }
}

/// Gives `format` (a shard's, run from `dir`) the games of `after`, a
/// merge of the tournament's shards, that `done` (the shard's own
/// finished games) lacks. Fails, in one line naming both directories,
/// unless the run is a shard of a Swiss or knockout and `after` a merge of
/// the same tournament. Returns the games given.
pub fn read_after(
    after: &Path,
    manifest: &Manifest,
    dir: &Path,
    format: &mut dyn Format,
    done: &GameSet,
) -> anyhow::Result<u64> {
    check_after(after, manifest, dir, format)?;
    let mut given = 0;
    visit_games_csv(&after.join(GAMES_CSV), |row| {
        if !done.contains(row.id) {
            format.check_recorded(&row, &manifest.config)?;
            format.recorded(&row)?;
            given += 1;
        }
        Ok(())
    })
    .with_context(|| format!("--after {}", after.display()))?;
    Ok(given)
}

/// Whether `after` may follow the run of `manifest` (in `dir`, of
/// `format`): the run is a shard of a Swiss or knockout, and `after` a
/// merge of the same tournament. One line naming both directories.
pub fn check_after(
    after: &Path,
    manifest: &Manifest,
    dir: &Path,
    format: &mut dyn Format,
) -> anyhow::Result<()> {
    let shown = after.display();
    if format.as_staged().is_none() {
        bail!(
            "--after {shown}: {} holds a {}, and --after is for a shard of a swiss or knockout (its next round)",
            dir.display(),
            manifest.plan.kind().replace('_', " ")
        );
    }
    let Some(shard) = manifest.config.shard else {
        bail!("--after {shown}: {} is not a shard (--shard K/N); --after gives a shard the merged results of the rounds before", dir.display());
    };
    if !Manifest::path(after).exists() {
        bail!("--after {shown}: no tournament there (no tournament.json); give the directory `arena merge` wrote from the shards");
    }
    let merged = Manifest::read(after).with_context(|| format!("--after {shown}"))?;
    if merged.identity != manifest.identity || merged.plan != manifest.plan {
        bail!(
            "--after {shown} is another tournament than {} (identity {} against {}, or another plan): give the merge of this tournament's shards",
            dir.display(),
            merged.identity,
            manifest.identity
        );
    }
    if let Some(other) = merged.config.shard {
        bail!("--after {shown} is shard {other}, not a merge: give the directory `arena merge` wrote from the shards (this is shard {shard})");
    }
    Ok(())
}

/// A shard's last words: its part of the stage is played (or the
/// tournament is over), and what to do next.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardDone {
    pub shard: Shard,
    pub position: StagePosition,
    /// The shard's games of the stage.
    pub games: u64,
}

impl ShardDone {
    /// The words of `format`, a shard's, as its run ended.
    pub fn of(format: &(impl Staged + ?Sized)) -> ShardDone {
        let position = last_stage(format);
        let shard = format.stages().shard();
        let games = shard.games_of(position.end) - shard.games_of(position.first);
        ShardDone {
            shard,
            position,
            games,
        }
    }

    /// What the shard says when its part is done.
    fn line(&self, dir: &Path) -> String {
        let title = &self.position.title;
        let shard = self.shard;
        if self.position.over {
            return format!("{title} was the last: shard {shard} is done; merge the shards (arena merge MERGED SHARD-DIRS...) for the tournament's tables");
        }
        format!(
            "{title}: shard {shard} done ({} games of it here); merge the shards (arena merge MERGED SHARD-DIRS...: it says whether a round follows), then play on: arena tournament --resume {} --after MERGED",
            self.games,
            dir.display()
        )
    }
}

impl Verdict for ShardDone {
    fn summary(&self, run: &RunOutcome) -> Vec<Said> {
        match resume_hint(run) {
            Some(hint) => vec![hint],
            None => vec![Said::Line(String::new()), Said::Line(self.line(&run.dir))],
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
