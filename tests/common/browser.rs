//! Headless Chromium for the page tests (part of the one test harness,
//! `tests/common`): where it is, and a session driven over the DevTools
//! protocol by tests/browser/cdp.js (Node, no packages).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

pub fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

pub fn node_found() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What the page did: errors seen, and each step's result.
pub struct Session {
    pub errors: Vec<String>,
    pub results: Vec<Value>,
}

/// Loads `url` and runs `steps` (see tests/browser/cdp.js).
pub fn drive(chrome: &Path, profile: &Path, url: &str, steps: &Value) -> Session {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/cdp.js");
    let out = Command::new("node")
        .arg(script)
        .arg(chrome)
        .arg(profile)
        .arg(url)
        .arg(steps.to_string())
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "cdp.js failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("cdp.js prints JSON");
    Session {
        errors: v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .collect(),
        results: v["results"].as_array().unwrap().clone(),
    }
}
