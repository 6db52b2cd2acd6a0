//! The flags of the settings, built from their definitions
//! ([`crate::tournament::settings::SETTINGS`]): name, short name,
//! placeholder, help with the default, repeatable or not, and which flags
//! `--resume` excludes. A command that takes settings flattens one
//! [`SettingFlags`] for its [`Command`]; the values it gives reach the
//! settings, still as typed, in a [`Given`], so flags, files and saved runs
//! are all read by the same rules.

use std::marker::PhantomData;

use clap::{Arg, ArgAction, ArgMatches};

use crate::tournament::settings::defs::{ELO0, ELO1};
use crate::tournament::settings::{
    resumable_flags, Command, Default, Given, Kind, Setting, SETTINGS,
};

/// A command whose flags include settings.
pub trait SettingsCommand {
    const COMMAND: Command;
    /// Whether the command has `--resume DIR`, which then excludes every
    /// setting that cannot change on resume.
    const RESUMES: bool;
}

/// `arena tournament`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tournament;
impl SettingsCommand for Tournament {
    const COMMAND: Command = Command::Tournament;
    const RESUMES: bool = true;
}

/// `arena sprt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sprt;
impl SettingsCommand for Sprt {
    const COMMAND: Command = Command::Sprt;
    const RESUMES: bool = true;
}

/// `arena play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Play;
impl SettingsCommand for Play {
    const COMMAND: Command = Command::Play;
    const RESUMES: bool = false;
}

/// `arena serve` (its `--play` page's games).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Serve;
impl SettingsCommand for Serve {
    const COMMAND: Command = Command::Serve;
    const RESUMES: bool = false;
}

/// The settings given as flags to command `C`.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingFlags<C> {
    pub given: Given,
    command: PhantomData<C>,
}

impl<C> std::default::Default for SettingFlags<C> {
    fn default() -> Self {
        SettingFlags {
            given: Given::new(),
            command: PhantomData,
        }
    }
}

impl<C> SettingFlags<C> {
    /// Flags as if `given` had been typed (for programs that run a command).
    pub fn from_given(given: Given) -> SettingFlags<C> {
        SettingFlags {
            given,
            command: PhantomData,
        }
    }
}

/// The settings command `command` takes as flags, in definition order.
pub fn flags_of(command: Command) -> impl Iterator<Item = &'static Setting> {
    SETTINGS
        .iter()
        .copied()
        .filter(move |s| s.flag.is_some() && s.commands.contains(&command))
}

/// The help line of a setting's flag: its help, then its default in
/// `command` (which an SPRT may have of its own).
pub fn help_line(s: &Setting, command: Command) -> String {
    let default = match (command, s.sprt_default) {
        (Command::Sprt, Some(sprt)) => sprt.into(),
        _ => s.default.text(),
    };
    match (s.kind, s.default) {
        // A switch is off unless given.
        (Kind::Switch, _) => s.help.to_string(),
        (_, Default::Unset(_)) if command == Command::Sprt && [&ELO0, &ELO1].contains(&s) => {
            format!("{} [required]", s.help)
        }
        _ => format!("{} [default: {default}]", s.help),
    }
}

/// The clap argument of setting `s` in `command`.
fn arg(s: &'static Setting, command: Command, resumes: bool) -> Arg {
    let flag = s.flag.expect("flags_of yields settings with flags");
    let mut arg = Arg::new(s.key)
        .long(flag)
        .value_name(s.value_name)
        .help(help_line(s, command));
    if let Some(short) = s.short {
        arg = arg.short(short);
    }
    arg = match s.kind {
        Kind::Switch => arg.action(ArgAction::SetTrue),
        Kind::Names => arg.action(ArgAction::Append),
        // A negative number reaches the setting's rule, which says why it
        // is refused, instead of clap taking it for a flag.
        _ => arg.action(ArgAction::Set).allow_hyphen_values(true),
    };
    if resumes && !s.on_resume {
        arg = arg.conflicts_with("resume");
    }
    arg
}

impl<C: SettingsCommand> clap::Args for SettingFlags<C> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        flags_of(C::COMMAND).fold(cmd, |cmd, s| cmd.arg(arg(s, C::COMMAND, C::RESUMES)))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl<C: SettingsCommand> clap::FromArgMatches for SettingFlags<C> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = SettingFlags::<C>::default();
        for s in flags_of(C::COMMAND) {
            match s.kind {
                Kind::Switch => {
                    if matches.get_flag(s.key) {
                        flags.given.set(s, "true");
                    }
                }
                _ => {
                    for value in matches.get_many::<String>(s.key).into_iter().flatten() {
                        flags.given.set(s, value.clone());
                    }
                }
            }
        }
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The help of `command`'s `--resume DIR`, naming the flags that may come
/// with it.
pub fn resume_help(command: Command, what: &str) -> String {
    format!(
        "Continue the {what} in DIR after Ctrl-C or a crash; only {} may be given with it",
        resumable_flags(command).join(" and ")
    )
}
