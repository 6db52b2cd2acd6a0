"""docs/PYTHON.md's example runs as it stands and prints what the page
says it prints: the block after the page's marker, run from the
repository's root (its bot path is relative to it) by this interpreter."""

import re
import subprocess
import sys

import pytest

pytest.importorskip("gymnasium")

from arena_cli import REPO, arena_env  # noqa: E402

PAGE = REPO / "docs" / "PYTHON.md"
MARKER = "<!-- python/tests/test_example.py runs the next block -->"


def example_and_output():
    text = PAGE.read_text()
    after = text.split(MARKER, 1)[1]
    code = re.search(r"```python\n(.*?)```", after, re.S).group(1)
    printed = re.search(r"It prints.*?```text\n(.*?)```", after, re.S).group(1)
    return code, printed


def test_the_example_of_python_md_prints_what_the_page_says(arena_env):
    # arena_env: the example's last part plays the bundled greedy bot through the referee.
    code, printed = example_and_output()
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed, f"the page says:\n{printed}\nthe example printed:\n{done.stdout}"
