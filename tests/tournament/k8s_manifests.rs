//! The Kubernetes manifests in deploy/k8s/, checked without a cluster: they
//! parse, the shards Job is an Indexed Job of N completions run N at a time,
//! every Job mounts the one claim, and the containers' commands do what a
//! cluster would make them do. The shard container's shell command runs
//! here for every completion index (JOB_COMPLETION_INDEX as Kubernetes sets
//! it) and the merge container's command after them, each with `arena` on
//! PATH being a wrapper that maps the pod's paths (/config, /data) to a
//! temporary directory and runs the real arena: the shards must play their
//! parts and the merge must find the tournament complete.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::tournament::*;
use serde_json::Value;

fn manifest(name: &str) -> Value {
    let path = repo_path("deploy/k8s").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    serde_norway::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text_of(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

fn only<'a>(list: &'a Value, what: &str) -> &'a Value {
    let items = list
        .as_array()
        .unwrap_or_else(|| panic!("{what}: not a list"));
    assert_eq!(items.len(), 1, "{what}: one expected");
    &items[0]
}

/// The pod's container and the claim its `/data` mount comes from.
struct Pod<'a> {
    container: &'a Value,
    spec: &'a Value,
}

impl<'a> Pod<'a> {
    fn of(job: &'a Value) -> Pod<'a> {
        assert_eq!(job["apiVersion"], "batch/v1");
        assert_eq!(job["kind"], "Job");
        let spec = &job["spec"]["template"]["spec"];
        Pod {
            container: only(&spec["containers"], "containers"),
            spec,
        }
    }

    /// The volume mounted at `path`, as its source (e.g. the claim).
    fn volume_at(&self, path: &str) -> &'a Value {
        let mount = self.container["volumeMounts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["mountPath"] == path)
            .unwrap_or_else(|| panic!("nothing mounted at {path}"));
        self.spec["volumes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == mount["name"])
            .unwrap_or_else(|| panic!("no volume named {}", mount["name"]))
    }

    fn env(&self) -> Vec<(String, String)> {
        self.container["env"]
            .as_array()
            .map(|vars| {
                vars.iter()
                    .map(|v| (text_of(&v["name"]).into(), text_of(&v["value"]).into()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `command` followed by `args`.
    fn argv(&self) -> Vec<String> {
        let words = |key: &str| -> Vec<String> {
            self.container[key]
                .as_array()
                .map(|list| list.iter().map(|w| text_of(w).to_string()).collect())
                .unwrap_or_default()
        };
        [words("command"), words("args")].concat()
    }
}

/// A directory with an `arena` that maps /config and /data into `root`,
/// logs its arguments (mapped) to `root/arena.log`, and runs the real arena.
fn wrapper(root: &Path) -> PathBuf {
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        r#"#!/bin/sh
for a in "$@"; do
    shift
    case "$a" in
    /config/*) a="{root}/config${{a#/config}}" ;;
    /data | /data/*) a="{root}/data${{a#/data}}" ;;
    esac
    set -- "$@" "$a"
done
echo "$*" >>"{root}/arena.log"
exec "{arena}" "$@"
"#,
        root = root.display(),
        arena = env!("CARGO_BIN_EXE_arena")
    );
    let path = bin.join("arena");
    std::fs::write(&path, script).unwrap();
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).unwrap();
    bin
}

/// Runs a container's argv as the pod would, with `env` and `arena` from
/// `bin`; returns the arena arguments it logged.
fn run_container(argv: &[String], env: &[(String, String)], bin: &Path, root: &Path) -> String {
    let log = root.join("arena.log");
    let _ = std::fs::remove_file(&log);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let output = Command::new(&argv[0])
        .args(&argv[1..])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{argv:?}: {}", text(&output));
    std::fs::read_to_string(&log)
        .unwrap()
        .trim_end()
        .replace(&root.display().to_string(), "ROOT")
}

#[test]
fn the_indexed_job_plays_shard_index_plus_one_and_the_merge_job_joins_them_all() {
    let claim = manifest("pvc.yaml");
    assert_eq!(claim["kind"], "PersistentVolumeClaim");
    let claim_name = text_of(&claim["metadata"]["name"]);

    let shards_job = manifest("shards-job.yaml");
    let spec = &shards_job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let count = spec["completions"].as_u64().expect("completions");
    assert_eq!(spec["parallelism"].as_u64(), Some(count), "parallelism");
    let shard_pod = Pod::of(&shards_job);
    let env = shard_pod.env();
    let var = |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert_eq!(var("ARENA_SHARDS"), Some(count.to_string()));
    assert_eq!(var("ARENA_DATA").as_deref(), Some("/data"));
    assert_eq!(
        shard_pod.volume_at("/data")["persistentVolumeClaim"]["claimName"],
        claim_name
    );
    assert!(shard_pod.volume_at("/config")["configMap"]["name"].is_string());

    let merge_job = manifest("merge-job.yaml");
    let merge_pod = Pod::of(&merge_job);
    assert_eq!(
        merge_pod.volume_at("/data")["persistentVolumeClaim"]["claimName"],
        claim_name
    );
    let merge_argv = merge_pod.argv();
    let mut expected = vec!["arena", "merge", "/data/merged"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    expected.extend((1..=count).map(|k| format!("/data/shard-{k}")));
    assert_eq!(merge_argv, expected, "the merge joins every shard");

    // What the pods would do, here: 3 instant bots, 4 games a pairing, 12
    // games, 6 pairs over 4 shards.
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    std::fs::create_dir_all(root.join("config")).unwrap();
    std::fs::create_dir_all(root.join("data")).unwrap();
    let config = write_instant_config(
        root,
        "variant = \"qango6\"\ngames_per_pairing = 4\nseed = 5\nopening_plies = 2",
        &["a", "b", "c"],
    );
    std::fs::rename(config, root.join("config/tournament.toml")).unwrap();
    let bin = wrapper(root);
    let shard_argv = shard_pod.argv();
    // The shell tests for `$ARENA_DATA/shard-K/tournament.json` itself,
    // so the volume's path (checked above to be /data) is given as ROOT/data.
    let with_index = |index: u64| {
        let mut env: Vec<(String, String)> = env
            .iter()
            .filter(|(k, _)| k != "ARENA_DATA")
            .cloned()
            .collect();
        env.push(("ARENA_DATA".into(), root.join("data").display().to_string()));
        env.push(("JOB_COMPLETION_INDEX".into(), index.to_string()));
        env
    };
    for index in 0..count {
        let k = index + 1;
        let logged = run_container(&shard_argv, &with_index(index), &bin, root);
        assert_eq!(
            logged,
            format!(
                "tournament ROOT/config/tournament.toml --shard {k}/{count} --out ROOT/data/shard-{k} -j 1 --no-progress"
            )
        );
    }
    // A pod started again (failure, eviction) resumes its directory.
    let logged = run_container(&shard_argv, &with_index(2), &bin, root);
    assert_eq!(
        logged,
        "tournament --resume ROOT/data/shard-3 -j 1 --no-progress"
    );

    let logged = run_container(&merge_argv, &[], &bin, root);
    assert!(
        logged.starts_with("merge ROOT/data/merged ROOT/data/shard-1 "),
        "{logged}"
    );
    assert_exactly_games(&root.join("data/merged"), 12);
}
