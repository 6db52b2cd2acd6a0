//! Whether the bots of a run were often kept waiting for a CPU: moves
//! whose wall time (what the clock charges) is much larger than the CPU
//! time the bot used for them. A bot that sleeps or reads on purpose uses
//! almost no CPU, so only moves that thought (at least [`THINKING_MS`] of
//! CPU) are looked at, and such a move waited when its wall time is over
//! [`WAIT_FACTOR`] times its CPU time. The terminal says so at the end of
//! a run on a wall clock, with the fix (a CPU clock does not charge the
//! wait).

use std::collections::BTreeMap;

use arena_referee::GameRecord;

/// A move that used at least this much CPU time thought.
pub const THINKING_MS: u64 = 10;
/// A thinking move whose wall time is over this many times its CPU time
/// waited (for a CPU, or for anything else the bot did not do itself).
pub const WAIT_FACTOR: u64 = 2;
/// A bot was often waiting when at least this share of its thinking moves
/// waited ...
const OFTEN: f64 = 0.2;
/// ... out of at least this many thinking moves.
const ENOUGH_MOVES: u64 = 10;

/// Each bot's thinking moves and how many of them waited.
#[derive(Debug, Default)]
pub struct CpuWait {
    bots: BTreeMap<String, (u64, u64)>,
}

impl CpuWait {
    /// Counts the bots' moves of one game (opening moves are not theirs;
    /// moves without a CPU time are not counted).
    pub fn add(&mut self, record: &GameRecord) {
        let names = [&record.white, &record.black];
        let moves = record.move_times_ms.iter().zip(&record.move_cpu_ms);
        for (ply, (&wall, cpu)) in moves.enumerate().skip(record.opening.len()) {
            let Some(cpu) = *cpu else { continue };
            if cpu < THINKING_MS {
                continue;
            }
            let counts = self.bots.entry(names[ply % 2].clone()).or_default();
            counts.0 += 1;
            if wall > WAIT_FACTOR * cpu {
                counts.1 += 1;
            }
        }
    }

    /// The warning when some bot was often waiting: which bots, how often,
    /// and what to do (`cores` and `concurrency` of the run).
    pub fn warning(&self, concurrency: usize, cores: usize) -> Option<String> {
        let often: Vec<String> = self
            .bots
            .iter()
            .filter(|(_, &(thinking, waited))| {
                thinking >= ENOUGH_MOVES && waited as f64 >= OFTEN * thinking as f64
            })
            .map(|(bot, (thinking, waited))| format!("{waited} of {thinking} moves of {bot}"))
            .collect();
        if often.is_empty() {
            return None;
        }
        let fix = if concurrency > cores {
            format!(
                "run fewer games at once (-j {cores} or less: {cores} cores here), or count CPU time (--clock cpu)"
            )
        } else {
            "run on a machine with less else to do, fewer games at once (-j), or count CPU time (--clock cpu)".to_string()
        };
        Some(format!(
            "warning: bots were often kept waiting: {} took over {WAIT_FACTOR} times their CPU time (moves of at least {THINKING_MS} ms of CPU), and their clocks ran meanwhile; {fix}",
            often.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::record::record_with_result;
    use arena_rules::games::GameResult;

    /// A game of 5 moves, white's at plies 0, 2, 4 and black's at 1, 3.
    fn game(wall: [u64; 5], cpu: [Option<u64>; 5]) -> GameRecord {
        let mut record = record_with_result(0, 0, "w", "b", GameResult::WhiteWins);
        record.move_times_ms = wall.to_vec();
        record.move_cpu_ms = cpu.to_vec();
        record
    }

    #[test]
    fn only_thinking_moves_count_and_waiting_is_over_twice_the_cpu() {
        let mut wait = CpuWait::default();
        // White thinks 20 ms per move: waits 50 ms (yes), 40 (not over
        // twice), 41 (yes). Black sleeps: 100 ms of wall, 0 of CPU.
        wait.add(&game(
            [50, 100, 40, 100, 41],
            [Some(20), Some(0), Some(20), Some(0), Some(20)],
        ));
        assert_eq!(wait.bots.get("w"), Some(&(3, 2)));
        assert_eq!(wait.bots.get("b"), None);
    }

    #[test]
    fn a_warning_names_the_bots_and_the_fix() {
        let mut wait = CpuWait::default();
        for _ in 0..4 {
            wait.add(&game(
                [90, 1, 90, 1, 30],
                [Some(30), None, Some(30), None, Some(30)],
            ));
        }
        // 12 thinking moves of w, 8 of them waited; b was not measured.
        let text = wait.warning(6, 2).unwrap();
        assert!(
            text.contains("8 of 12 moves of w took over 2 times"),
            "{text}"
        );
        assert!(
            text.ends_with(
                "run fewer games at once (-j 2 or less: 2 cores here), or count CPU time (--clock cpu)"
            ),
            "{text}"
        );
        assert!(!text.contains(" b "), "{text}");
        // Too few moves, or too few of them waiting: nothing to say.
        let mut few = CpuWait::default();
        few.add(&game(
            [90, 1, 90, 1, 90],
            [Some(30), None, Some(30), None, Some(30)],
        ));
        assert_eq!(few.warning(6, 2), None);
        let mut rare = CpuWait::default();
        for _ in 0..10 {
            rare.add(&game(
                [30, 1, 30, 1, 30],
                [Some(30), None, Some(30), None, Some(30)],
            ));
        }
        rare.add(&game(
            [90, 1, 30, 1, 30],
            [Some(30), None, Some(30), None, Some(30)],
        ));
        assert_eq!(rare.warning(6, 2), None);
    }
}
