"""What the tests that run the arena binary share: the binary (ARENA_BIN,
else `arena` on the PATH; missing, such a test is skipped with how to get
it, and fails under CI=true, where it must be there) and the repository's
bundled bots."""

import os
import shutil
import sys
from pathlib import Path

import pytest

from arena.results import arena_binary

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = REPO / "bots" / "python" / "random_bot.py"
TEST_BOTS = REPO / "tests" / "bots"


def arena_bin() -> str:
    """The arena binary, or a skip (a failure under CI) saying how to get it."""
    try:
        return arena_binary()
    except FileNotFoundError as e:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the arena binary: {e}")
        pytest.skip(str(e))


def python() -> str:
    """The interpreter that runs the Python bots."""
    return shutil.which("python3") or sys.executable


def random_bot(seed: int) -> list:
    """The bundled random bot's command, with a seed."""
    return [python(), str(RANDOM_BOT), "--seed", str(seed)]
