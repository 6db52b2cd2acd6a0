//! `--name VALUE` flags for the engine and its examples, parsed by hand:
//! the engine depends on the rules crate alone, so a bot built on arena
//! compiles no command-line library. Every error is one line naming the
//! flag and what it takes.

use std::collections::BTreeMap;
use std::str::FromStr;

/// The flags of one command line, taken one by one by name.
#[derive(Debug)]
pub struct Flags {
    given: BTreeMap<String, String>,
}

impl Flags {
    /// Reads `--name VALUE` and `--name=VALUE` words; `-h`/`--help` and
    /// `-V`/`--version` come back as `Err(None)` for the caller to answer.
    pub fn parse(words: impl IntoIterator<Item = String>) -> Result<Flags, Option<String>> {
        let mut given = BTreeMap::new();
        let mut words = words.into_iter();
        while let Some(word) = words.next() {
            if matches!(word.as_str(), "-h" | "--help" | "-V" | "--version") {
                return Err(None);
            }
            let Some(flag) = word.strip_prefix("--") else {
                return Err(Some(format!("unexpected argument {word:?} (see --help)")));
            };
            let (name, value) = match flag.split_once('=') {
                Some((name, value)) => (name.to_string(), value.to_string()),
                None => {
                    let value = words
                        .next()
                        .ok_or_else(|| Some(format!("{word} needs a value")))?;
                    (flag.to_string(), value)
                }
            };
            if given.insert(name.clone(), value).is_some() {
                return Err(Some(format!("--{name} is given twice")));
            }
        }
        Ok(Flags { given })
    }

    /// The value of `--name` within `min..=max`, if given.
    pub fn number<T>(&mut self, name: &str, min: T, max: T) -> Result<Option<T>, String>
    where
        T: FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        let Some(text) = self.given.remove(name) else {
            return Ok(None);
        };
        match text.parse::<T>() {
            Ok(n) if n >= min && n <= max => Ok(Some(n)),
            _ => Err(format!(
                "--{name} takes a whole number from {min} to {max}, got {text:?}"
            )),
        }
    }

    /// The value of `--name`, a decimal number within `min..=max`, if given.
    pub fn fraction(&mut self, name: &str, min: f64, max: f64) -> Result<Option<f64>, String> {
        let Some(text) = self.given.remove(name) else {
            return Ok(None);
        };
        match text.parse::<f64>() {
            Ok(x) if x >= min && x <= max => Ok(Some(x)),
            _ => Err(format!(
                "--{name} takes a number from {min} to {max} (such as 0.33), got {text:?}"
            )),
        }
    }

    /// The text of `--name`, if given.
    pub fn text(&mut self, name: &str) -> Option<String> {
        self.given.remove(name)
    }

    /// `Err` naming the first flag nobody took: a misspelt or unknown one.
    pub fn finish(self) -> Result<(), String> {
        match self.given.keys().next() {
            Some(name) => Err(format!("unknown flag --{name} (see --help)")),
            None => Ok(()),
        }
    }
}

/// The flags of the process, or the exit: help or version text printed
/// (`help`), or a one-line error with exit status 2.
pub fn from_env(program: &str, help: &str) -> Flags {
    match Flags::parse(std::env::args().skip(1)) {
        Ok(flags) => flags,
        Err(None) => {
            println!("{help}");
            std::process::exit(0);
        }
        Err(Some(message)) => exit_with(program, &message),
    }
}

/// Prints `PROGRAM: error: MESSAGE` and exits with status 2.
pub fn exit_with(program: &str, message: &str) -> ! {
    eprintln!("{program}: error: {message}");
    std::process::exit(2);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(line: &str) -> Result<Flags, Option<String>> {
        Flags::parse(line.split_whitespace().map(String::from))
    }

    #[test]
    fn both_spellings_and_ranges() {
        let mut f = flags("--depth 3 --seed=9").unwrap();
        assert_eq!(f.number("depth", 1u32, 64).unwrap(), Some(3));
        assert_eq!(f.number("seed", 0u64, u64::MAX).unwrap(), Some(9));
        assert_eq!(f.number("movetime", 1u64, u64::MAX).unwrap(), None);
        f.finish().unwrap();
        let mut f = flags("--depth 0").unwrap();
        let err = f.number("depth", 1u32, 64).unwrap_err();
        assert!(
            err.contains("--depth takes a whole number from 1 to 64"),
            "{err}"
        );
        let mut f = flags("--seed -1").unwrap();
        assert!(f.number("seed", 0u64, u64::MAX).is_err());
    }

    #[test]
    fn unknown_missing_and_repeated_flags_are_named() {
        let f = flags("--dpeth 3").unwrap();
        assert_eq!(f.finish().unwrap_err(), "unknown flag --dpeth (see --help)");
        assert_eq!(
            flags("--depth").unwrap_err(),
            Some("--depth needs a value".into())
        );
        assert_eq!(
            flags("--seed 1 --seed 2").unwrap_err(),
            Some("--seed is given twice".into())
        );
        assert!(matches!(flags("--help"), Err(None)));
    }

    #[test]
    fn fractions_within_range() {
        let mut f = flags("--solve-share 0.25").unwrap();
        assert_eq!(f.fraction("solve-share", 0.0, 1.0).unwrap(), Some(0.25));
        assert_eq!(f.fraction("solve-share", 0.0, 1.0).unwrap(), None);
        for bad in ["1.5", "-0.1", "third", "NaN"] {
            let mut f = flags(&format!("--solve-share {bad}")).unwrap();
            let err = f.fraction("solve-share", 0.0, 1.0).unwrap_err();
            assert_eq!(
                err,
                format!("--solve-share takes a number from 0 to 1 (such as 0.33), got \"{bad}\"")
            );
        }
    }
}
