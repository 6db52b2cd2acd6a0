"""A run's results as pandas DataFrames, and tournaments run by the arena binary.

``read_run(dir)`` reads the CSV files an arena run writes (games.csv,
standings.csv, pairwise.csv, model.csv, crosstable.csv, and analysis.csv /
analysis_bots.csv after ``arena analyse``, certificate.csv after an adaptive
ranking) into DataFrames whose columns are the files' own (docs/REFERENCE.md,
"Output files"). ``tournament(config)`` runs ``arena tournament`` on a
tournament file or on a dict written as one (docs/SETTINGS.md) and returns the
run's directory. Nothing here re-implements arena: the binary plays, rates and
writes; this module reads what it wrote.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Mapping, Sequence, Union

__all__ = ["Run", "read_run", "tournament", "arena_binary", "to_toml"]

# file stem -> what writes it (for the error when a table is asked for but absent)
TABLES = {
    "games": "every run (one row per finished game)",
    "standings": "a run's end, and `arena rate --out DIR`",
    "pairwise": "a run's end, and `arena rate --out DIR`",
    "model": "a run's end, and `arena rate --out DIR`",
    "crosstable": "a run's end, and `arena rate --out DIR`",
    "analysis": "`arena analyse DIR`",
    "analysis_bots": "`arena analyse DIR`",
    "certificate": "the end of an adaptive ranking (`format = \"adaptive\"`)",
}

# Columns that hold text even when every cell of a file is empty (an opening
# of no moves, a mistake not judged): read as strings, empty as "".
TEXT_COLUMNS = {
    "game_id", "variant", "white", "black", "opening", "result", "reason",
    "ended_utc", "white_tc", "black_tc", "bot", "opponent", "bot_a", "bot_b",
    "fit", "parameter", "mover", "color", "move", "value_before",
    "value_after", "mover_result", "upper", "lower", "certify",
}

PathLike = Union[str, "os.PathLike[str]"]


class Run(dict):
    """The tables of one run: a dict from a file's stem (``"games"``,
    ``"standings"``, ...) to its DataFrame, holding only the files that
    exist, with each also as an attribute (``run.games``). ``run.dir`` is the
    directory and ``run.tournament`` its tournament.json as a dict (the
    settings under ``"config"``; ``None`` without the file); ``records()``
    gives the games' records (games.jsonl), moves included.
    """

    def __init__(self, directory: Path, tables: dict, manifest: Any):
        super().__init__(tables)
        self.dir = directory
        self.tournament = manifest

    def __getattr__(self, name: str):
        if name in self:
            return self[name]
        if name in TABLES:
            raise AttributeError(
                f"{self.dir} has no {name}.csv (written by {TABLES[name]}); "
                f"it has: {', '.join(sorted(self)) or 'no tables'}"
            )
        raise AttributeError(name)

    def records(self):
        """The game records of games.jsonl, one dict per game (``moves``,
        ``result``, ``reason``, ``move_times_ms``, ...: docs/REFERENCE.md),
        read one line at a time; ``arena.Game(variant, record["moves"])``
        replays one."""
        journal = self.dir / "games.jsonl"
        if not journal.is_file():
            raise FileNotFoundError(f"{self.dir} has no games.jsonl (a run's journal of game records)")
        with open(journal) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)

    def __repr__(self) -> str:
        shapes = ", ".join(f"{k}: {len(v)} rows" for k, v in self.items())
        return f"Run({str(self.dir)!r}; {shapes})"


def read_run(directory: PathLike) -> Run:
    """Reads a run's CSV files into DataFrames (see :class:`Run`).

    Raises ``FileNotFoundError`` when ``directory`` does not exist and
    ``ValueError`` when it holds none of a run's files (games.csv,
    standings.csv), both naming the directory.
    """
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError(f"arena.read_run needs pandas (pip install pandas): {e}") from e

    path = Path(directory)
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: no such directory (expected an arena run's output directory)")
    if not (path / "games.csv").is_file() and not (path / "standings.csv").is_file():
        raise ValueError(
            f"{path} is not an arena run: it has neither games.csv nor standings.csv "
            "(a run's directory is the one `arena tournament` names as Output: ...)"
        )
    tables = {}
    for stem in TABLES:
        csv = path / f"{stem}.csv"
        if csv.is_file():
            tables[stem] = _read_csv(pd, csv)
    manifest = path / "tournament.json"
    return Run(path, tables, json.loads(manifest.read_text()) if manifest.is_file() else None)


def _read_csv(pd, csv: Path):
    """One CSV with its own header as the columns: text columns as strings
    (an empty cell is ""), the others as pandas infers them (`true`/`false`
    as booleans, numbers as numbers, an empty number as NaN)."""
    with open(csv, newline="") as f:
        header = f.readline().rstrip("\r\n").split(",")
    text = {c: str for c in header if c in TEXT_COLUMNS}
    frame = pd.read_csv(csv, dtype=text, keep_default_na=False,
                        na_values={c: [""] for c in header if c not in text})
    return frame


def arena_binary() -> str:
    """The arena binary: $ARENA_BIN, else ``arena`` on the PATH."""
    given = os.environ.get("ARENA_BIN")
    if given:
        if not (os.path.isfile(given) and os.access(given, os.X_OK)):
            raise FileNotFoundError(f"ARENA_BIN={given} is not an executable file")
        return given
    found = shutil.which("arena")
    if found:
        return found
    raise FileNotFoundError(
        "the arena binary was not found: set ARENA_BIN=/path/to/arena, or put arena on the "
        "PATH (`cargo install --path .` in the arena repository; or `cargo build --release` "
        "there and ARENA_BIN=target/release/arena)"
    )


def tournament(config: Union[PathLike, Mapping[str, Any]], *, out: PathLike | None = None,
               args: Sequence[str] = (), cwd: PathLike | None = None,
               echo: bool = False) -> Path:
    """Runs ``arena tournament`` and returns the run's directory.

    ``config`` is a tournament file (TOML) or a dict of one: ``{"tournament":
    {settings}, "bot": [{"name": ..., "command": [...]}, ...]}`` (the keys of
    docs/SETTINGS.md and docs/GUIDE.md). A dict is written as a TOML file in
    ``cwd`` (default: the current directory) and removed afterwards, so its
    relative paths (a bot's command, ``out``) are relative to ``cwd``, as in
    a file there. ``out`` gives the output directory (``--out``, relative to
    ``cwd``); ``args`` more flags (``["-j", "1", "--seed", "7"]``). With
    ``echo`` arena's output is printed as it comes. A run that fails raises
    ``RuntimeError`` with arena's exit status and its last lines.
    """
    cwd = Path(cwd) if cwd is not None else Path.cwd()
    command = [arena_binary(), "tournament"]
    written = None
    if isinstance(config, Mapping):
        fd, name = tempfile.mkstemp(prefix=".arena-tournament-", suffix=".toml", dir=cwd)
        with os.fdopen(fd, "w") as f:
            f.write(to_toml(config))
        written = Path(name)
        command.append(str(written))
    else:
        command.append(str(config))
    if out is not None:
        command += ["--out", str(out)]
    command += list(args)
    try:
        status, output = _run(command, cwd, echo)
    finally:
        if written is not None:
            written.unlink(missing_ok=True)
    directory = _output_dir(output, cwd, out)
    if status != 0:
        tail = "\n".join(output.splitlines()[-8:])
        raise RuntimeError(f"`{' '.join(command)}` exited with status {status}"
                           f" (docs/REFERENCE.md, Exit statuses):\n{tail}")
    if directory is None:
        raise RuntimeError(f"arena tournament named no output directory:\n{output[-2000:]}")
    return directory


def _run(command: list, cwd: Path, echo: bool) -> tuple:
    """Runs ``command`` with stdout and stderr together; (status, output)."""
    proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line)
        if echo:
            print(line, end="", flush=True)
    return proc.wait(), "".join(lines)


def _output_dir(output: str, cwd: Path, out: PathLike | None) -> Path | None:
    """The run's directory: ``out`` when given, else what arena printed
    after ``Output:`` (relative to where it ran)."""
    if out is not None:
        return (cwd / Path(out)).resolve()
    named = re.findall(r"Output: (.+?)\s*$", output, flags=re.MULTILINE)
    return (cwd / named[0]).resolve() if named else None


def to_toml(config: Mapping[str, Any]) -> str:
    """A tournament dict as TOML: tables (``tournament``) as ``[name]``,
    lists of tables (``bot``) as ``[[name]]``, other values as TOML values
    (strings, numbers, booleans, lists, inline tables)."""
    plain = [(k, v) for k, v in config.items() if not _is_table(v) and not _is_table_list(v)]
    lines = [f"{_key(k)} = {_value(v)}" for k, v in plain]
    for key, value in config.items():
        if _is_table(value):
            lines += ["", f"[{_key(key)}]"] + [f"{_key(k)} = {_value(v)}" for k, v in value.items()]
        elif _is_table_list(value):
            for table in value:
                lines += ["", f"[[{_key(key)}]]"]
                lines += [f"{_key(k)} = {_value(v)}" for k, v in table.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


def _is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_table_list(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (str, os.PathLike)):
        # A JSON string is a TOML basic string (same escapes).
        return json.dumps(os.fspath(value), ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} ({type(value).__name__}) as a TOML value")
