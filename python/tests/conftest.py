"""Shared fixtures of the arena package's tests: the `arena` binary (for
`arena judge` and `arena solve`, the references the package is held to).

The binary is $ARENA_BIN when set (.ci/run sets it), else the newest of the
repository's target/{release,debug}/arena, else it is built with
`cargo build --bin arena`.
"""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

# The tests never read or write the user's table of settled positions
# (arena.solve and the arena binary alike).
os.environ["ARENA_TABLE_DIR"] = "off"


def _find_arena():
    if os.environ.get("ARENA_BIN"):
        return pathlib.Path(os.environ["ARENA_BIN"])
    built = [REPO / "target" / p / "arena" for p in ("release", "debug")]
    built = [p for p in built if p.exists()]
    if built:
        return max(built, key=lambda p: p.stat().st_mtime)
    subprocess.run(["cargo", "build", "--bin", "arena"], cwd=REPO, check=True)
    return REPO / "target" / "debug" / "arena"


@pytest.fixture(scope="session")
def arena_bin():
    """The path of the `arena` command-line binary."""
    path = _find_arena()
    assert path.exists(), f"no arena binary at {path}: set ARENA_BIN or build it with cargo build"
    return path


@pytest.fixture(scope="session")
def judge(arena_bin, tmp_path_factory):
    """`judge(records)`: `arena judge`'s verdicts of a list of records
    ({"game", "moves"}), judged in one run of the binary."""

    def run(records):
        path = tmp_path_factory.mktemp("judge") / "games.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        out = subprocess.run([str(arena_bin), "judge", str(path)], capture_output=True, text=True)
        verdicts = [json.loads(line) for line in out.stdout.splitlines()]
        assert len(verdicts) == len(records), out.stderr
        return verdicts

    return run
