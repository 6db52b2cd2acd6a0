//! crosstable.csv, the terminal crosstable and the failure columns of
//! standings.csv, against games written by hand and counted by hand.

use arena::protocol::FailureReason;
use arena::report::comparison::{lost_by_columns, CROSSTABLE_COLUMNS};
use arena::report::rating::RatingReport;
use arena::tournament::games_reader::read_games;

/// Ten games between a, b and c, with the failures marked:
///
/// ```text
/// id  white  black  result   reason          counted
///  0  a      b      1-0      group           a beats b
///  1  b      a      0-1      timeout         a beats b; b lost by timeout
///  2  a      b      1/2-1/2  full            draw a-b
///  3  b      a      1-0      crash           b beats a; a lost by crash
///  4  a      c      1-0      illegal_move    a beats c; c lost by illegal_move
///  5  c      a      0-1      timeout         a beats c; c lost by timeout
///  6  b      c      1-0      line            b beats c
///  7  c      b      1-0      startup         c beats b; b lost by startup
///  8  b      c      0-1      timeout         c beats b; b lost by timeout
///  9  c      b      1/2-1/2  full            draw b-c
/// ```
///
/// By hand: a vs b 2-1-1 (2.5/4), a vs c 2-0-0 (2/2); b vs a 1-1-2 (1.5/4),
/// b vs c 1-1-2 (1.5/4); c vs a 0-0-2 (0/2), c vs b 2-1-1 (2.5/4).
/// Failures: a crash 1; b timeout 2, startup 1; c timeout 1, illegal_move 1.
const GAMES: &str = "\
id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms
0,0,0,qango6,a,b,,1-0,group,11,0,0
1,0,0,qango6,b,a,,0-1,timeout,4,0,0
2,0,1,qango6,a,b,,1/2-1/2,full,36,0,0
3,0,1,qango6,b,a,,1-0,crash,7,0,0
4,0,2,qango6,a,c,,1-0,illegal_move,2,0,0
5,0,2,qango6,c,a,,0-1,timeout,3,0,0
6,0,3,qango6,b,c,,1-0,line,15,0,0
7,0,3,qango6,c,b,,1-0,startup,0,0,0
8,0,4,qango6,b,c,,0-1,timeout,9,0,0
9,0,4,qango6,c,b,,1/2-1/2,full,36,0,0
";

fn report() -> RatingReport {
    let rows = read_games(GAMES.as_bytes(), "hand.csv").unwrap();
    RatingReport::from_rows(&rows).unwrap()
}

/// `bot,opponent` -> `games,wins,draws,losses,points,score_pct` from
/// crosstable.csv.
fn crosstable_lines(dir: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("crosstable.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), CROSSTABLE_COLUMNS.join(","));
    let mut rest: Vec<String> = lines.map(String::from).collect();
    rest.sort();
    rest
}

#[test]
fn crosstable_matches_the_hand_count() {
    let dir = tempfile::tempdir().unwrap();
    let report = report();
    report.write_files(dir.path()).unwrap();
    assert_eq!(
        crosstable_lines(dir.path()),
        [
            "qango6,a,b,4,2,1,1,2.5,62.5",
            "qango6,a,c,2,2,0,0,2.0,100.0",
            "qango6,b,a,4,1,1,2,1.5,37.5",
            "qango6,b,c,4,1,1,2,1.5,37.5",
            "qango6,c,a,2,0,0,2,0.0,0.0",
            "qango6,c,b,4,2,1,1,2.5,62.5",
        ]
    );
    // The terminal table has one line per bot in standings order, a first.
    let table = report.crosstable.render_table();
    let a_line = table.lines().find(|l| l.contains(" a ")).unwrap();
    assert!(a_line.contains("2.5/4 2-1-1"), "{table}");
    assert!(a_line.contains("2/2 2-0-0"), "{table}");
    assert_eq!(report.crosstable.bots[0], "a");
}

#[test]
fn failure_counts_match_the_hand_count() {
    let dir = tempfile::tempdir().unwrap();
    let report = report();
    report.write_files(dir.path()).unwrap();
    let mut reader = csv::Reader::from_path(dir.path().join("standings.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    // Every failure reason has its column, named after it.
    for name in lost_by_columns() {
        column(&name);
    }
    assert_eq!(lost_by_columns().len(), FailureReason::ALL.len());
    let expected = [
        ("a", [("crash", 1)].as_slice()),
        ("b", &[("timeout", 2), ("startup", 1)]),
        ("c", &[("timeout", 1), ("illegal_move", 1)]),
    ];
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 3);
    for (bot, lost) in expected {
        let record = records.iter().find(|r| &r[column("bot")] == bot).unwrap();
        for reason in FailureReason::ALL {
            let count = lost
                .iter()
                .find(|(name, _)| *name == reason.as_str())
                .map_or(0, |(_, n)| *n);
            assert_eq!(
                record[column(&format!("lost_{reason}"))],
                count.to_string(),
                "{bot} lost by {reason}"
            );
        }
    }
    let by_bot = report.standings.lost_by();
    let b = &by_bot.iter().find(|(name, _)| name == "b").unwrap().1;
    assert_eq!(b.text(), "timeout 2, startup 1");
}
