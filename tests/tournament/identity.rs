//! Bot identity: tournament.json records the SHA-256 of each bot's program
//! files (the interpreter and the script of `python3 bot.py`), and a resume
//! after the script changed warns that the games come from two programs.

use crate::common;

use common::tournament::{repo_path, resume_tournament, run_tournament, text};

#[test]
fn a_changed_script_is_warned_about_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bot.py");
    std::fs::copy(repo_path("bots/python/random_bot.py"), &script).unwrap();
    let config = dir.path().join("t.toml");
    std::fs::write(
        &config,
        "[tournament]\nseed = 1\nconcurrency = 1\ngames_per_pairing = 4\n\n[[bot]]\nname = \"a\"\ncommand = [\"python3\", \"bot.py\"]\n\n[[bot]]\nname = \"b\"\ncommand = [\"python3\", \"bot.py\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = run_tournament(&config, &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap();
    let files = manifest["programs"][0]["files"].as_array().unwrap();
    let bytes = std::fs::read(&script).unwrap();
    assert!(
        files.iter().any(|f| f["path"] == script.to_str().unwrap()
            && f["sha256"] == arena::files::sha256_hex(&bytes)),
        "{files:?}"
    );
    assert!(
        files
            .iter()
            .any(|f| f["path"].as_str().unwrap().ends_with("python3")),
        "{files:?}"
    );
    // An unchanged resume says nothing about programs.
    let output = resume_tournament(&out);
    assert!(
        !text(&output).contains("changed since"),
        "{}",
        text(&output)
    );

    std::fs::write(&script, [bytes.as_slice(), b"\n# v2\n"].concat()).unwrap();
    let output = resume_tournament(&out);
    let all = text(&output);
    assert!(
        all.contains("bot \"a\"") && all.contains("bot.py changed since the games already played"),
        "{all}"
    );
}
