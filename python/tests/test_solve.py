"""arena.solve on positions whose values are known from outside the code
(docs/SOLVED.md's proven start positions, hand-made positions a move from
the end), and the same answer as `arena solve`."""

import json
import os
import subprocess
import sys

import pytest

import arena


def test_proven_start_positions():
    # docs/SOLVED.md: first-player wins, c3 the stored solution's first move.
    for variant in ("qango6", "qango7", "qango7plus"):
        answer = arena.solve(variant, [], budget_ms=60_000)
        assert answer["value"] == "win", answer
        assert answer["to_move"] == "white" and answer["plies"] == 0
        after_best = arena.solve(variant, [answer["best"]], budget_ms=60_000)
        assert after_best["value"] == "loss", after_best


def test_a_move_from_a_win():
    # White has a1 and b1 of the red corner group a1 b1 a2: a2 wins at once.
    answer = arena.solve("qango6", ["a1", "c3", "b1", "d4"])
    assert answer["value"] == "win"
    assert answer["to_move"] == "white"
    game = arena.Game("qango6", ["a1", "c3", "b1", "d4"])
    game.play(answer["best"])
    assert game.winner == "white" or arena.solve("qango6", game.moves)["value"] == "loss"


def test_a_finished_game_has_no_best_move():
    answer = arena.solve("qango6", ["a1", "c3", "b1", "d4", "a2"])
    assert answer["best"] is None and answer["to_move"] is None and answer["plies"] == 5


def test_unknown_within_the_budget():
    # docs/SOLVED.md: qango6-tournament was not proven in 15 minutes.
    answer = arena.solve("qango6-tournament", [], budget_ms=50, memory_mib=16)
    assert answer["value"] is None and answer["best"] is None


def test_illegal_moves_and_variants_are_value_errors():
    with pytest.raises(ValueError, match='illegal move "c3" in qango6 at ply 1'):
        arena.solve("qango6", ["c3", "c3"])
    with pytest.raises(ValueError, match="unknown variant"):
        arena.solve("go", [])


@pytest.mark.parametrize(
    "variant, moves",
    [
        ("qango6", []),
        ("qango6", ["c3", "d4", "e5"]),
        ("qango7", ["d4", "c3"]),
        ("qango7plus-edge", ["d1", "d4", "c3", "e5"]),
        ("quinque", ["place a1", "place b1", "place a2", "place b2", "place a3", "place b3", "place a4", "place b4"]),
    ],
)
def test_the_same_answer_as_arena_solve(variant, moves, arena_bin):
    cli = subprocess.run(
        [str(arena_bin), "solve", variant, "--moves", " ".join(moves), "--budget-ms", "20000"],
        capture_output=True, text=True, check=True,
    )
    expected = json.loads(cli.stdout)
    answer = arena.solve(variant, moves, budget_ms=20_000)
    assert answer["value"] == expected["value"]
    assert answer["best"] == expected.get("best")
    assert answer["to_move"] == expected["to_move"] and answer["plies"] == expected["plies"]


def test_the_settled_table_is_shared_with_arena_solve(arena_bin, tmp_path):
    # A fresh Python process with a table directory of its own (the table's
    # place is read once per process): what arena.solve proves is there for
    # `arena solve`, which then answers without a search (0 nodes). A start
    # no stored proof covers, and a position that takes a search (about
    # 1,000 nodes) to settle.
    moves = ["a1", "c3", "f6", "d4"]
    env = dict(os.environ, ARENA_TABLE_DIR=str(tmp_path))
    code = f"import arena; print(arena.solve('qango6-tournament', {moves!r}, budget_ms=20000)['value'])"
    value = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert value in ("win", "draw", "loss")
    assert (tmp_path / "qango6-tournament.table").exists()
    cli = subprocess.run(
        [str(arena_bin), "solve", "qango6-tournament", "--moves", " ".join(moves)],
        env=env, capture_output=True, text=True, check=True,
    )
    answer = json.loads(cli.stdout)
    assert answer["value"] == value and answer["nodes"] == 0, answer
