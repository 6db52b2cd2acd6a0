"""What the tests that run the arena binary share: `arena_env`, a fixture
that puts conftest's `arena_bin` (ARENA_BIN, else the tree's newest
target/*/arena, else built) in ARENA_BIN for the package's own calls
(`arena.tournament`, `GameEnv` against a bot), and the repository's
bundled bots."""

import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = REPO / "bots" / "python" / "random_bot.py"
TEST_BOTS = REPO / "tests" / "bots"


@pytest.fixture(scope="session")
def arena_env(arena_bin):
    """The arena binary's path, set as ARENA_BIN for the test session."""
    previous = os.environ.get("ARENA_BIN")
    os.environ["ARENA_BIN"] = str(arena_bin)
    yield str(arena_bin)
    if previous is None:
        del os.environ["ARENA_BIN"]
    else:
        os.environ["ARENA_BIN"] = previous


def python() -> str:
    """The interpreter that runs the Python bots."""
    return shutil.which("python3") or sys.executable


def random_bot(seed: int) -> list:
    """The bundled random bot's command, with a seed."""
    return [python(), str(RANDOM_BOT), "--seed", str(seed)]
