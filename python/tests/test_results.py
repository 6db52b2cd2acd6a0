"""arena.read_run and arena.tournament on real runs of the arena binary:
a tiny round robin of the bundled random bot (two seeds, 2 games) played
through `arena tournament`, its CSVs read as DataFrames whose columns are
the files' headers and whose rows are the files' rows."""

import csv

import pytest

pd = pytest.importorskip("pandas")

import arena  # noqa: E402
from arena.results import to_toml  # noqa: E402
from arena_cli import REPO, arena_env, python, random_bot  # noqa: E402


def tiny_tournament(out) -> dict:
    return {
        "tournament": {
            "variant": "qango6",
            "games_per_pairing": 2,
            "time_control": "per-move=2000",
            "concurrency": 2,
            "seed": 7,
            "out": str(out),
        },
        "bot": [
            {"name": "rand-a", "command": random_bot(1)},
            {"name": "rand-b", "command": random_bot(2)},
        ],
    }


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, arena_env):
    out = tmp_path_factory.mktemp("run") / "out"
    return arena.tournament(tiny_tournament(out), cwd=out.parent)


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_tournament_with_a_dict_returns_the_run_directory(run_dir):
    assert run_dir.name == "out" and run_dir.is_dir()
    for name in ("tournament.json", "games.csv", "games.jsonl", "standings.csv", "pairwise.csv"):
        assert (run_dir / name).is_file(), name
    # The dict's file was written for the run and removed after it.
    assert not list(run_dir.parent.glob(".arena-tournament-*.toml"))


def test_read_run_has_every_csv_with_its_own_columns_and_rows(run_dir):
    run = arena.read_run(run_dir)
    csvs = sorted(p.stem for p in run_dir.glob("*.csv"))
    assert sorted(run) == csvs
    assert {"games", "standings", "pairwise", "model", "crosstable"} <= set(run)
    for stem, frame in run.items():
        header, *rows = rows_of(run_dir / f"{stem}.csv")
        assert list(frame.columns) == header, stem
        assert len(frame) == len(rows), stem


def test_read_run_values_are_the_files_values(run_dir):
    run = arena.read_run(run_dir)
    games = run.games
    assert len(games) == 2
    assert set(games["white"]) == {"rand-a", "rand-b"}
    assert set(games["result"]) <= {"1-0", "0-1", "1/2-1/2"}
    assert games["plies"].dtype.kind == "i"
    assert games["opening"].tolist() == ["", ""]  # no opening: empty text, not NaN
    assert games["played"].tolist() == [True, True]
    # The standings count the same games: every game is one bot's win or a draw.
    pooled = run.standings[run.standings["variant"] == "qango6"]
    assert sorted(pooled["bot"]) == ["rand-a", "rand-b"]
    assert pooled["games"].tolist() == [2, 2]
    assert pooled["wins"].sum() + pooled["draws"].sum() / 2 == 2
    assert run.tournament["config"]["seed"] == 7  # tournament.json
    assert repr(run).startswith("Run(")


def test_analysis_tables_after_arena_analyse(run_dir, tmp_path, arena_env):
    import shutil
    import subprocess

    copy = tmp_path / "analysed"
    shutil.copytree(run_dir, copy)
    subprocess.run([arena_env, "analyse", str(copy), "--budget-ms", "20", "--memory-mib", "16"],
                   check=True, capture_output=True)
    run = arena.read_run(copy)
    header, *rows = rows_of(copy / "analysis.csv")
    assert list(run.analysis.columns) == header
    assert len(run.analysis) == len(rows) == run.games["plies"].sum()
    assert list(run.analysis_bots.columns) == rows_of(copy / "analysis_bots.csv")[0]


def test_a_missing_table_and_a_directory_that_is_no_run_are_named(run_dir, tmp_path):
    run = arena.read_run(run_dir)
    with pytest.raises(AttributeError, match=r"no analysis\.csv \(written by `arena analyse DIR`\)"):
        run.analysis
    with pytest.raises(ValueError, match=f"{tmp_path} is not an arena run"):
        arena.read_run(tmp_path)
    with pytest.raises(FileNotFoundError, match="nowhere: no such directory"):
        arena.read_run(tmp_path / "nowhere")


def test_tournament_from_a_file_with_relative_paths_and_flags(tmp_path, arena_env):
    config = tiny_tournament("ignored")
    del config["tournament"]["out"]
    # Paths in a file are relative to its directory: a bot copied beside it.
    (tmp_path / "bot.py").write_bytes((REPO / "bots/python/random_bot.py").read_bytes())
    config["bot"][0]["command"] = [python(), "bot.py", "--seed", "3"]
    (tmp_path / "t.toml").write_text(to_toml(config))
    out = arena.tournament(tmp_path / "t.toml", out=tmp_path / "run", args=["--games", "4"])
    assert out == (tmp_path / "run").resolve()
    assert len(arena.read_run(out).games) == 4


def test_a_failing_tournament_raises_with_arenas_words(tmp_path, arena_env):
    config = tiny_tournament(tmp_path / "out")
    config["tournament"]["variant"] = "qango5"
    with pytest.raises(RuntimeError, match=r"exited with status 2[\s\S]*qango5"):
        arena.tournament(config, cwd=tmp_path)


def test_to_toml_writes_what_tomllib_reads():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = {
        "tournament": {"variant": ["qango6", "quinque"], "seed": 3, "grace_ms": 100,
                       "sandbox": False, "confidence": 0.9, "out": 'a "quoted" dir\\é'},
        "bot": [{"name": "x", "command": ["python3", "x.py"], "limits": {"startup_ms": 5000},
                 "env": {"A B": "1"}}],
    }
    assert tomllib.loads(to_toml(config)) == config


def test_tournament_without_out_returns_the_directory_arena_named(tmp_path, arena_env):
    config = tiny_tournament("ignored")
    del config["tournament"]["out"]
    out = arena.tournament(config, cwd=tmp_path)
    # arena's default: arena-out/UTC-TIMESTAMP under the directory it ran in.
    assert out.parent == (tmp_path / "arena-out").resolve()
    assert len(arena.read_run(out).games) == 2


def test_records_replay_on_the_python_game_to_the_referees_result(run_dir):
    run = arena.read_run(run_dir)
    records = list(run.records())
    assert sorted(r["game_id"] for r in records) == sorted(run.games["game_id"])
    for record in records:
        game = arena.Game(record["game"], record["moves"])
        winner = {"1-0": "white", "0-1": "black"}.get(record["result"])
        assert (game.status != "ongoing", game.winner, game.reason) == (True, winner, record["reason"])
