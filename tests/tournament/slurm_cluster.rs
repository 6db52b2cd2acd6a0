//! A real Slurm run: `deploy/slurm/local-cluster.sh` starts a one-node
//! cluster on this machine, `deploy/slurm/arena-array.sbatch` submits a job
//! array of 4 shards of a small tournament of instant bots plus the
//! dependent merge job, and the merged games must equal an unsharded run
//! with the same settings and seed; then a league is played by a job array
//! of 2 shards and the dependent job brings every game into it once; then
//! a Swiss of 2 rounds is played by a chain (an array and a merge job per
//! round, the merge submitting the next round) and equals an unsharded run. The
//! test stops exactly the daemons the script started (it records their
//! process ids).
//!
//! Needs root and Slurm (slurm-wlm, munge), or root and apt-get to install
//! them (`.ci/run` installs them in CI); elsewhere it prints that it was
//! skipped.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::tournament::*;

const SHARDS: u64 = 4;
/// 4 instant bots, 2 games a pairing: 12 games, 6 pairs, so every shard
/// has games to play.
const SETTINGS: &str =
    "variant = \"qango6\"\ngames_per_pairing = 2\nseed = 11\nopening_plies = 2\nconcurrency = 1";
const BOTS: [&str; 4] = ["a", "b", "c", "d"];

fn on_path(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Why Slurm cannot run here, if it cannot.
fn why_not_runnable() -> Option<String> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root (the daemons must run as root and munged as munge)".into());
    }
    let installed = ["slurmctld", "slurmd", "munged", "sbatch", "scontrol"]
        .iter()
        .all(|p| on_path(p));
    if !installed && !on_path("apt-get") {
        return Some("slurm-wlm and munge are not installed and there is no apt-get".into());
    }
    None
}

fn script(name: &str) -> PathBuf {
    repo_path("deploy/slurm").join(name)
}

fn output_text(output: &Output) -> String {
    text(output)
}

/// A free TCP port on this machine (free when asked; the daemons bind it a
/// moment later).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The cluster this test started; stopped when dropped, also when the test
/// fails.
struct Cluster {
    state: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn start(state: &Path) -> Cluster {
        let output = Command::new(script("local-cluster.sh"))
            .arg("start")
            .arg(state)
            .env("SLURMCTLD_PORT", free_port().to_string())
            .env("SLURMD_PORT", free_port().to_string())
            .output()
            .expect("run local-cluster.sh");
        let cluster = Cluster {
            state: state.to_path_buf(),
            conf: state.join("slurm.conf"),
        };
        assert!(
            output.status.success(),
            "local-cluster.sh start failed:\n{}",
            output_text(&output)
        );
        cluster
    }

    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf);
        command
    }

    /// `scontrol show job ID`: one line per job (an array: per task).
    fn job_states(&self, id: &str) -> Vec<String> {
        let output = self
            .command("scontrol")
            .args(["show", "job", "--oneliner", id])
            .output()
            .expect("run scontrol");
        assert!(output.status.success(), "{}", output_text(&output));
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| {
                line.split_whitespace()
                    .find_map(|field| field.strip_prefix("JobState="))
                    .map(str::to_string)
            })
            .collect()
    }

    /// Waits until job `id` has ended and returns its final state.
    fn wait_job(&self, id: &str, limit: Duration) -> String {
        let end = Instant::now() + limit;
        loop {
            let states = self.job_states(id);
            let state = states.first().cloned().unwrap_or_default();
            if !matches!(
                state.as_str(),
                "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING"
            ) {
                return state;
            }
            if Instant::now() > end {
                panic!(
                    "job {id} still {state} after {limit:?}\n--- slurmctld.log\n{}",
                    std::fs::read_to_string(self.state.join("slurmctld.log")).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Stops only the processes listed in STATE/pids (started above).
        let _ = Command::new(script("local-cluster.sh"))
            .arg("stop")
            .arg(&self.state)
            .status();
    }
}

#[test]
fn a_slurm_job_array_of_four_shards_merges_into_the_unsharded_run() {
    if let Some(reason) = why_not_runnable() {
        println!("SKIPPED: the Slurm cluster test: {reason}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = write_instant_config(dir.path(), SETTINGS, &BOTS);
    let cluster = Cluster::start(&dir.path().join("slurm"));
    let started = Instant::now();

    let run = dir.path().join("run");
    let output = cluster
        .command(script("arena-array.sbatch"))
        .env("ARENA", env!("CARGO_BIN_EXE_arena"))
        .env("ARENA_CONFIG", &config)
        .env("ARENA_OUT", &run)
        .env("ARENA_SHARDS", SHARDS.to_string())
        .env_remove("SLURM_JOB_ID")
        .current_dir(dir.path())
        .output()
        .expect("run arena-array.sbatch");
    assert!(output.status.success(), "{}", output_text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let job = |role: &str| {
        stdout
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{role} ")))
            .unwrap_or_else(|| panic!("no {role} job id in {stdout:?}"))
            .to_string()
    };
    let (array, merge) = (job("array"), job("merge"));

    let merge_state = cluster.wait_job(&merge, Duration::from_secs(150));
    let slurm_logs = || {
        let mut text = String::new();
        for entry in std::fs::read_dir(run.join("slurm")).unwrap() {
            let path = entry.unwrap().path();
            let body = std::fs::read_to_string(&path).unwrap_or_default();
            text.push_str(&format!("--- {}\n{body}\n", path.display()));
        }
        text
    };
    assert_eq!(merge_state, "COMPLETED", "{}", slurm_logs());
    let task_states = cluster.job_states(&array);
    assert_eq!(
        task_states,
        vec!["COMPLETED".to_string(); SHARDS as usize],
        "array {array}"
    );
    println!(
        "Slurm: 4 shards and the merge ran in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Each task played its shard: pair p in shard p mod 4 + 1.
    for k in 1..=SHARDS {
        let ids = assert_consistent(&run.join(format!("shard-{k}")));
        let expected: std::collections::BTreeSet<u64> =
            (0..12).filter(|id| (id / 2) % SHARDS + 1 == k).collect();
        assert_eq!(ids, expected, "shard {k}");
    }
    let single = dir.path().join("single");
    let output = run_tournament(&config, &single);
    assert_eq!(output.status.code(), Some(0), "{}", output_text(&output));
    assert_same_games(&run.join("merged"), &single);
    a_league_played_by_a_job_array(&cluster, dir.path());
    a_swiss_played_by_a_chain_of_arrays(&cluster, dir.path());
    drop(cluster);
}

/// A Swiss of 4 instant bots, 2 rounds, 2 shards: the first merge job
/// finds round 1 complete (exit 5) and submits round 2's array and merge;
/// the last merge ends the chain. The merged games equal an unsharded run's.
fn a_swiss_played_by_a_chain_of_arrays(cluster: &Cluster, dir: &Path) {
    let swiss_dir = dir.join("swiss");
    std::fs::create_dir_all(&swiss_dir).unwrap();
    let settings = format!("{SETTINGS}\nformat = \"swiss\"\nrounds = 2");
    let config = write_instant_config(&swiss_dir, &settings, &BOTS);
    let run = swiss_dir.join("run");
    let output = cluster
        .command(script("arena-array.sbatch"))
        .env("ARENA", env!("CARGO_BIN_EXE_arena"))
        .env("ARENA_CONFIG", &config)
        .env("ARENA_OUT", &run)
        .env("ARENA_SHARDS", "2")
        .env_remove("SLURM_JOB_ID")
        .current_dir(&swiss_dir)
        .output()
        .expect("run arena-array.sbatch");
    assert!(output.status.success(), "{}", output_text(&output));
    // Follow the chain: wait for the last merge job listed until no merge
    // job follows it.
    let merges = || -> Vec<String> {
        std::fs::read_to_string(run.join("slurm/jobs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.strip_prefix("merge ").map(str::to_string))
            .collect()
    };
    let mut waited = 0;
    while waited < merges().len() {
        let merge = merges()[waited].clone();
        let state = cluster.wait_job(&merge, Duration::from_secs(150));
        assert_eq!(state, "COMPLETED", "merge job {merge}: {:?}", merges());
        waited += 1;
    }
    assert_eq!(waited, 2, "one merge job per round");
    let single = swiss_dir.join("single");
    let output = run_tournament(&config, &single);
    assert_eq!(output.status.code(), Some(0), "{}", output_text(&output));
    let merged = run.join("merged");
    assert_same_game_records(&merged, &single);
}

/// A league of three instant bots, 8 games played by 2 shards; the
/// dependent job collects them: games g0..g7 in the league, each once.
fn a_league_played_by_a_job_array(cluster: &Cluster, dir: &Path) {
    let league = dir.join("league");
    let arena_run = |args: &[&str]| {
        let out = common::arena().args(args).output().unwrap();
        assert!(out.status.success(), "{}", output_text(&out));
    };
    let at = league.to_str().unwrap();
    arena_run(&["league", "init", at, "--variant", "qango6"]);
    for name in ["a", "b", "c"] {
        arena_run(&["league", "add", at, name, "--", common::INSTANT_BOT, name]);
    }
    let output = cluster
        .command(script("arena-array.sbatch"))
        .env("ARENA", env!("CARGO_BIN_EXE_arena"))
        .env("ARENA_LEAGUE", &league)
        .env("ARENA_GAMES", "8")
        .env("ARENA_OUT", dir.join("league-run"))
        .env("ARENA_SHARDS", "2")
        .env_remove("ARENA_CONFIG")
        .env_remove("SLURM_JOB_ID")
        .current_dir(dir)
        .output()
        .expect("run arena-array.sbatch");
    assert!(output.status.success(), "{}", output_text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let merge = stdout
        .lines()
        .find_map(|line| line.strip_prefix("merge "))
        .unwrap_or_else(|| panic!("no merge job id in {stdout:?}"));
    let state = cluster.wait_job(merge, Duration::from_secs(150));
    assert_eq!(state, "COMPLETED", "{stdout}");
    let ids = assert_consistent(&league);
    assert_eq!(ids, (0..8).collect(), "the league's games");
}
