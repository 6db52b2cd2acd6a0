//! A long proof run in pieces: a search stopped by its budget saves its
//! transposition table (the search keeps no other state), and a later run
//! (another process, a new table) loads it and goes on: it proves the same
//! value in a fraction of the nodes of a search from nothing. This is how
//! the open starts are proven over several runs
//! (`crates/solver/examples/prove.rs`). A checkpoint cut short or foreign
//! is refused in one line.

use arena_rules::games::{Position, Variant};
use arena_solver::dfpn::{Search, StopAt};
use arena_solver::qango::QangoRules;
use arena_solver::table::Table;

/// After the edge start c1, black's c2 and white's d2, white does not win
/// (some 60,000 nodes).
fn position() -> Position {
    let v = Variant::by_id("qango6-tournament").unwrap();
    let mut pos = Position::new(v);
    for m in ["c1", "c2", "d2"] {
        pos.play_str(m).unwrap();
    }
    pos
}

#[test]
fn a_proof_stopped_by_its_budget_resumes_from_its_checkpoint() {
    let pos = position();
    let rules = QangoRules::new(pos.variant());
    let s = rules.state_of(&pos);
    let white = 0;

    let mut table = Table::with_bytes(16 << 20);
    let mut fresh = Search::new(&rules, &mut table, StopAt::default());
    assert_eq!(fresh.prove(&s, white).phi, 0, "black holds");
    let whole = fresh.nodes;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.tt");
    let mut table = Table::with_bytes(16 << 20);
    let limits = StopAt {
        deadline: None,
        max_nodes: Some(whole * 3 / 4),
    };
    let mut first = Search::new(&rules, &mut table, limits);
    let n = first.prove(&s, white);
    assert!(n.phi != 0 && n.delta != 0, "stopped before the proof");
    let saved = table.save(&path).unwrap();
    assert_eq!(saved, table.used());
    drop(table);

    let mut table = Table::with_bytes(16 << 20);
    assert_eq!(table.load(&path).unwrap(), saved);
    let mut resumed = Search::new(&rules, &mut table, StopAt::default());
    assert_eq!(resumed.prove(&s, white).phi, 0, "black holds on resuming");
    assert!(
        resumed.nodes < whole / 2,
        "resuming took {} nodes, a proof from nothing {whole}",
        resumed.nodes
    );
}

#[test]
fn a_checkpoint_cut_short_or_foreign_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.tt");
    let pos = position();
    let rules = QangoRules::new(pos.variant());
    let mut table = Table::with_bytes(1 << 20);
    let limits = StopAt {
        deadline: None,
        max_nodes: Some(2_000),
    };
    Search::new(&rules, &mut table, limits).prove(&rules.state_of(&pos), 0);
    table.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();

    std::fs::write(&path, &bytes[..bytes.len() - 40]).unwrap();
    let err = Table::with_bytes(1 << 20).load(&path).unwrap_err();
    assert!(err.contains("run.tt") && err.contains("cut short"), "{err}");

    std::fs::write(&path, b"not a table at all, just words").unwrap();
    let err = Table::with_bytes(1 << 20).load(&path).unwrap_err();
    assert!(
        err.contains("not a solver checkpoint") && !err.contains('\n'),
        "{err}"
    );
}
