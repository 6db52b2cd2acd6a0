//! standings.csv, model.csv and pairwise.csv computed from games.csv rows.

use arena::games::GameResult::{self, BlackWins, Draw, WhiteWins};
use arena::referee::row::row_with_result;
use arena::referee::GameRow;
use arena::report::pairwise::PAIRWISE_COLUMNS;
use arena::report::rating::RatingReport;
use arena::report::standings::{standings_columns, Standings};
use arena::tournament::games_reader::read_games;

/// a-b: pair 0 a wins both (WW for a), pair 1 a wins as white and draws as black
/// (WD), pair 2 a loses as white and wins as black (WL). b-c: pair 3 draws both
/// (DD), plus one unpaired game c wins as white.
fn sample() -> Vec<GameRow> {
    vec![
        row_with_result(0, 0, "a", "b", WhiteWins),
        row_with_result(1, 0, "b", "a", BlackWins),
        row_with_result(2, 1, "a", "b", WhiteWins),
        row_with_result(3, 1, "b", "a", Draw),
        row_with_result(4, 2, "a", "b", BlackWins),
        row_with_result(5, 2, "b", "a", BlackWins),
        row_with_result(6, 3, "b", "c", Draw),
        row_with_result(7, 3, "c", "b", Draw),
        row_with_result(8, 4, "c", "b", WhiteWins),
    ]
}

/// `value` is `expected` give or take `within` (hand-computed figures are
/// given to the precision the files round to).
fn assert_near(value: f64, expected: f64, within: f64) {
    assert!(
        (value - expected).abs() <= within,
        "{value} is not {expected} +- {within}"
    );
}

#[test]
fn standings_count_results_by_colour_and_rank_by_elo() {
    let standings = Standings::from_rows(&sample()).unwrap();
    let bots: Vec<&str> = standings.rows.iter().map(|r| r.bot.as_str()).collect();
    assert_eq!(bots, ["a", "c", "b"]);
    let a = &standings.rows[0];
    assert_eq!(
        (a.rank, a.games, a.wins, a.draws, a.losses),
        (1, 6, 4, 1, 1)
    );
    assert_eq!(a.score_pct, Some(75.0));
    // 2 of 3 points as white, 2.5 of 3 as black.
    assert_eq!((a.white_games, a.white_score_pct), (3, Some(200.0 / 3.0)));
    assert_eq!((a.black_games, a.black_score_pct), (3, Some(250.0 / 3.0)));
    let b = &standings.rows[2];
    assert_eq!((b.games, b.wins, b.draws, b.losses), (9, 1, 3, 5));
    // b was white in games 1, 3, 5, 6: 0 + 0.5 + 0 + 0.5 = 1 of 4.
    assert_eq!((b.white_games, b.white_score_pct), (4, Some(25.0)));
    for r in &standings.rows {
        assert!(r.elo_low < r.elo && r.elo < r.elo_high, "{r:?}");
    }
    let sum: f64 = standings.rows.iter().map(|r| r.elo).sum();
    assert!(sum.abs() < 0.2, "ratings are centred on 0: {sum}");
    assert!(standings.render_table().contains("White advantage"));
}

#[test]
fn pairwise_rows_follow_rank_order_and_count_pentanomials() {
    let report = RatingReport::from_rows(&sample()).unwrap();
    let pw = &report.pairwise;
    assert_eq!(pw.len(), 2);
    let ab = &pw[0];
    assert_eq!((ab.bot_a.as_str(), ab.bot_b.as_str()), ("a", "b"));
    assert_eq!((ab.games, ab.wins, ab.draws, ab.losses), (6, 4, 1, 1));
    assert_eq!(ab.score_pct, 75.0);
    assert_eq!(
        (
            ab.penta_ll,
            ab.penta_ld,
            ab.penta_dd_wl,
            ab.penta_wd,
            ab.penta_ww
        ),
        (0, 0, 1, 1, 1)
    );
    // LOS from the pairs (they played pairs), as fastchess: pair scores 1,
    // 0.75, 0.5 per game, mean 0.75, variance 0.125 / 3, so the mean's sd is
    // sqrt(0.125 / 9) = 0.117851 and LOS = Phi(0.25 / 0.117851) = Phi(2.12132)
    // = 0.98305 (from W/L alone it would be 0.5 + 0.5 erf(3 / sqrt(10)) = 0.9101).
    assert_near(ab.los, 0.98305, 1e-5);
    // Elo from 75%: 190.8.
    assert_near(ab.elo_diff, 190.8, 0.05);
    let cb = &pw[1];
    assert_eq!((cb.bot_a.as_str(), cb.bot_b.as_str()), ("c", "b"));
    assert_eq!((cb.games, cb.wins, cb.draws, cb.losses), (3, 1, 2, 0));
    // One DD pair; the lone game counts in games but in no pentanomial cell.
    assert_eq!(
        (
            cb.penta_ll,
            cb.penta_ld,
            cb.penta_dd_wl,
            cb.penta_wd,
            cb.penta_ww
        ),
        (0, 0, 1, 0, 0)
    );
}

#[test]
fn files_have_the_documented_columns() {
    let dir = tempfile::tempdir().unwrap();
    let report = RatingReport::from_rows(&sample()).unwrap();
    report.write_files(dir.path()).unwrap();
    let standings = std::fs::read_to_string(dir.path().join("standings.csv")).unwrap();
    let mut lines = standings.lines();
    assert_eq!(lines.next().unwrap(), standings_columns().join(","));
    assert!(lines
        .next()
        .unwrap()
        .starts_with("qango6,1,a,6,4,1,1,75.0,"));
    assert_eq!(standings.lines().count(), 4);
    let pairwise = std::fs::read_to_string(dir.path().join("pairwise.csv")).unwrap();
    assert_eq!(pairwise.lines().next().unwrap(), PAIRWISE_COLUMNS.join(","));
    assert!(pairwise.lines().nth(1).unwrap().ends_with(",0,0,1,1,1"));
    let model = std::fs::read_to_string(dir.path().join("model.csv")).unwrap();
    let names: Vec<Vec<&str>> = model
        .lines()
        .map(|l| l.split(',').take(3).collect())
        .collect();
    assert_eq!(
        names,
        [
            ["variant", "fit", "parameter"],
            ["qango6", "separate", "white_advantage_elo"],
            ["qango6", "separate", "draw_elo"]
        ]
    );
}

/// One draw in 30 games: the draw parameter is small and uncertain, yet its
/// interval in model.csv stays above 0 as the model requires (drawelo > 0).
#[test]
fn model_csv_draw_interval_stays_positive() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<GameRow> = (0..30)
        .map(|id| {
            let (white, black, result) = match id {
                0 => ("a", "b", Draw),
                _ if id % 2 == 0 => ("a", "b", WhiteWins),
                _ => ("b", "a", BlackWins),
            };
            row_with_result(id, id / 2, white, black, result)
        })
        .collect();
    RatingReport::from_rows(&rows)
        .unwrap()
        .write_files(dir.path())
        .unwrap();
    let model = std::fs::read_to_string(dir.path().join("model.csv")).unwrap();
    let draw: Vec<f64> = model
        .lines()
        .find_map(|l| l.strip_prefix("qango6,separate,draw_elo,"))
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    let [value, low, high] = draw[..] else {
        panic!("{model}")
    };
    assert!(0.0 < low && low < value && value < high, "{model}");
}

#[test]
fn no_games_still_give_files_with_headers() {
    let dir = tempfile::tempdir().unwrap();
    let report = RatingReport::from_rows(&[]).unwrap();
    assert!(report.standings.rows.is_empty() && report.pairwise.is_empty());
    report.write_files(dir.path()).unwrap();
    let standings = std::fs::read_to_string(dir.path().join("standings.csv")).unwrap();
    assert_eq!(standings.trim_end(), standings_columns().join(","));
}

#[test]
fn bad_rows_are_errors_naming_the_game() {
    let csv = "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms\n\
               3,0,1,qango6,b,a,,draw,group,20,0,0\n";
    let err = read_games(csv.as_bytes(), "games.csv")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("line 2, field `result`") && err.contains("\"draw\""),
        "{err}"
    );
    let mut rows = sample();
    rows[4].black = "a".into();
    let err = RatingReport::from_rows(&rows).unwrap_err().to_string();
    assert!(err.contains("game g4") && err.contains("itself"), "{err}");
}

/// `n` colour-swapped pairs between `a` and `b`, every game ending `a_result`
/// from `a`'s side (`WhiteWins`: `a` wins both games of each pair).
fn pairs(
    first_id: u64,
    first_pair: u64,
    a: &str,
    b: &str,
    a_result: GameResult,
    n: u64,
) -> Vec<GameRow> {
    let reversed = match a_result {
        WhiteWins => BlackWins,
        BlackWins => WhiteWins,
        Draw => Draw,
    };
    (0..n)
        .flat_map(|k| {
            let (id, pair) = (first_id + 2 * k, first_pair + k);
            [
                row_with_result(id, pair, a, b, a_result),
                row_with_result(id + 1, pair, b, a, reversed),
            ]
        })
        .collect()
}

#[test]
fn clean_sweeps_and_all_draws_get_finite_wilson_bounds() {
    // a wins all 40 games (20 pairs) against b; b and c draw all 20 (10 pairs).
    let mut rows = pairs(0, 0, "a", "b", WhiteWins, 20);
    rows.extend(pairs(100, 100, "b", "c", Draw, 10));
    let report = RatingReport::from_rows(&rows).unwrap();
    let ab = report
        .pairwise
        .iter()
        .find(|r| (r.bot_a.as_str(), r.bot_b.as_str()) == ("a", "b"))
        .unwrap();
    assert_eq!((ab.games, ab.wins, ab.score_pct), (40, 40, 100.0));
    assert_eq!(ab.penta_ww, 20);
    // Wilson over 20 pairs at 100%: 400 log10(20 / 1.959964^2) = 286.6 Elo.
    assert_eq!(ab.elo_diff, f64::INFINITY);
    assert_near(ab.elo_low, 286.6, 0.05);
    assert_eq!(ab.elo_high, f64::INFINITY);
    let bc = report
        .pairwise
        .iter()
        .find(|r| [r.bot_a.as_str(), r.bot_b.as_str()].contains(&"c"))
        .unwrap();
    // Wilson over 10 pairs at 50%: 0.5 -/+ 0.263407 -> -/+ 203.5 Elo.
    assert_near(bc.elo_diff, 0.0, 1e-9);
    assert_near(bc.elo_low, -203.5, 0.05);
    assert_near(bc.elo_high, 203.5, 0.05);

    let dir = tempfile::tempdir().unwrap();
    report.write_files(dir.path()).unwrap();
    let pairwise = std::fs::read_to_string(dir.path().join("pairwise.csv")).unwrap();
    assert!(
        pairwise.contains("\nqango6,a,b,40,40,0,0,100.0,inf,286.6,inf,"),
        "{pairwise}"
    );
    // The standings (fitted with a prior) stay finite: no inf or NaN anywhere.
    for name in ["standings.csv", "model.csv"] {
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        let lower = text.to_lowercase();
        assert!(
            !lower.contains("nan") && !lower.contains("inf"),
            "{name}: {text}"
        );
    }
    let table = report.standings.render_table().to_lowercase();
    assert!(!table.contains("nan") && !table.contains("inf"), "{table}");
}

#[test]
fn tiny_and_one_sided_inputs_never_print_nan() {
    let cases: Vec<Vec<GameRow>> = vec![
        vec![row_with_result(0, 0, "a", "b", WhiteWins)],
        vec![row_with_result(0, 0, "a", "b", Draw)],
        pairs(0, 0, "a", "b", BlackWins, 1),
        pairs(0, 0, "a", "b", Draw, 3),
        // Only white wins: every game decisive, colour decides everything.
        vec![
            row_with_result(0, 0, "a", "b", WhiteWins),
            row_with_result(1, 0, "b", "a", WhiteWins),
            row_with_result(2, 1, "a", "c", WhiteWins),
            row_with_result(3, 1, "c", "a", WhiteWins),
        ],
    ];
    for rows in cases {
        let report = RatingReport::from_rows(&rows).unwrap();
        let table = report.standings.render_table().to_lowercase();
        assert!(!table.contains("nan") && !table.contains("inf"), "{table}");
        for r in &report.standings.rows {
            assert!(r.elo_low.is_finite() && r.elo_low <= r.elo && r.elo <= r.elo_high);
            assert!(r.elo_high.is_finite(), "{r:?}");
        }
        for m in report.standings.model_rows() {
            assert!(m.value.is_finite() && m.low.is_finite() && m.high.is_finite());
        }
        for p in &report.pairwise {
            // Infinite ends only on the side a 0%/100% score leaves unbounded.
            for v in [p.elo_diff, p.elo_low, p.elo_high, p.los, p.score_pct] {
                assert!(!v.is_nan(), "{p:?}");
            }
            assert!(p.elo_low <= p.elo_diff && p.elo_diff <= p.elo_high, "{p:?}");
            assert!(p.score_pct == 0.0 || p.elo_low.is_finite(), "{p:?}");
            assert!(p.score_pct == 100.0 || p.elo_high.is_finite(), "{p:?}");
        }
    }
}

/// Without any game pair the LOS comes from wins and losses (cutechess's).
#[test]
fn los_without_pairs_comes_from_wins_and_losses() {
    let rows = vec![
        row_with_result(0, 10, "a", "b", WhiteWins),
        row_with_result(1, 11, "a", "b", WhiteWins),
        row_with_result(2, 12, "a", "b", BlackWins),
        row_with_result(3, 13, "a", "b", Draw),
    ];
    let report = RatingReport::from_rows(&rows).unwrap();
    let ab = &report.pairwise[0];
    assert_eq!(
        ab.penta_ll + ab.penta_ld + ab.penta_dd_wl + ab.penta_wd + ab.penta_ww,
        0
    );
    // 0.5 + 0.5 erf((2 - 1) / sqrt(2 * 3)) = 0.718149.
    assert_near(ab.los, 0.718149, 1e-6);
}
