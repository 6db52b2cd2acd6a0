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

/// Chromium, when it and Node (which drives it) are both installed; else
/// `None`, having said which one is missing and that the test is skipped.
pub fn chromium_or_skip() -> Option<PathBuf> {
    let Some(chrome) = chromium() else {
        println!("SKIPPED: chromium not installed (apt-get install chromium)");
        return None;
    };
    if !node_found() {
        println!("SKIPPED: node not installed (apt-get install nodejs)");
        return None;
    }
    Some(chrome)
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

/// A script expression reading how the board in `selector` (a `table.board`)
/// looks: its coordinates (the column letters on top, the row numbers on the
/// left) and each cell's kind (its first class: `c-R`, ..., `c-star`,
/// `c-dot`). The viewer's board and the live page's cards give the same for
/// a variant: both are board.js's drawing of the variant's look.
pub fn read_look(selector: &str) -> String {
    format!(
        r##"(() => {{ const t = document.querySelector({selector:?}); return t ? {{
  columns: [...t.rows[0].cells].map((c) => c.textContent),
  rows: [...t.rows].slice(1).map((r) => r.cells[0].textContent),
  kinds: Object.fromEntries([...t.querySelectorAll("td[data-cell]")].map((td) => [td.dataset.cell, td.className.split(" ")[0]])),
}} : null; }})()"##
    )
}

/// What [`read_look`] must read for `variant`, from the rules engine's one
/// description of its board (`arena::games::look`).
pub fn expected_look(variant: &str) -> Value {
    use arena::games::look::{css_class, BoardLook};
    let look = BoardLook::of(arena::games::Variant::by_id(variant).unwrap());
    let cols = look.cols as usize;
    let mut columns = vec![String::new()];
    columns.extend((0..cols).map(|c| ((b'a' + c as u8) as char).to_string()));
    let rows: Vec<String> = (1..=look.rows).map(|r| r.to_string()).collect();
    let kinds: serde_json::Map<String, Value> = look
        .letters
        .chars()
        .enumerate()
        .filter(|(_, letter)| *letter != ' ')
        .map(|(i, letter)| {
            let name = format!("{}{}", (b'a' + (i % cols) as u8) as char, i / cols + 1);
            (name, Value::String(css_class(letter)))
        })
        .collect();
    serde_json::json!({ "columns": columns, "rows": rows, "kinds": kinds })
}
