//! Settings from the environment and medians, shared by the benches that
//! take their sizes from `ARENA_BENCH_*` variables and report medians.
#![allow(dead_code)] // each bench includes this file and uses what it needs

/// The variable `name` parsed, or `default` where it is unset; a value that
/// does not parse stops the bench with a line naming the variable.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(value) => value
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={value:?}: not a value this bench can use")),
        Err(_) => default,
    }
}

/// Sorts `values` and returns the middle one (the upper middle one of an
/// even count).
pub fn median<T: Copy + PartialOrd>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).expect("no NaN among the samples"));
    values[values.len() / 2]
}
