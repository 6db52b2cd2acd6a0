"""``arena.GameEnv``: a Gymnasium single-agent environment against an opponent.

The agent plays one colour of an :class:`arena.Game`; the opponent plays the
other, and is either

- a Python callable ``policy(game) -> move`` (a move in notation, or an
  action index), given a copy of the game on its turn (``random_policy()``
  makes one), played in-process on the native engine; a policy with a
  ``reset(seed)`` method has it called by each ``reset(seed=...)``, so an
  episode repeats with its seed; or
- an arena bot, given as its command (``"python3 bots/python/greedy_bot.py"``
  or a list of words), or as a :class:`RefereeOpponent` for its settings.
  The bot is run by arena's own referee, ``arena play VARIANT human BOT``:
  the agent is the "human" player, whose moves this module types, and the
  referee starts the bot, speaks the protocol, holds it to its clock and
  judges its moves, exactly as in a tournament. One ``arena play`` process
  per episode.

Observations are ``{"observation": game.observation(color), "action_mask":
game.legal_action_mask()}``; actions are ``Discrete(game.action_size)``
indices; an illegal action raises ``ValueError`` with the game unchanged,
or with ``illegal="lose"`` ends the episode as a loss (reward -1, reason
``illegal_move``), as Gymnasium's ``check_env`` and agents that sample
unmasked actions need.
The reward is +1 for a win, -1 for a loss, 0 for a draw, given at the end
(the only step with ``terminated=True``; a game ends by the rules, so
``truncated`` is always False). ``info`` has ``legal_moves``, and at the
end ``winner`` (``"white"``, ``"black"``, ``None``), ``reason`` and, against
a bot, ``result`` and ``message`` as the referee wrote them (a bot that
crashes, times out or plays an illegal move loses the game there, as in a
tournament: the agent then wins with that reason).
"""

from __future__ import annotations

import codecs
import os
import random
import re
import select
import shlex
import subprocess
import tempfile
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from . import Game
from .results import arena_binary

try:
    import gymnasium
    from gymnasium import spaces
    _Env = gymnasium.Env
    _MISSING = None
except ImportError as e:  # arena itself does not need gymnasium
    _Env = object
    _MISSING = e

__all__ = ["GameEnv", "RefereeOpponent", "random_policy"]

Policy = Callable[[Any], Union[str, int]]


class random_policy:
    """A policy that plays a uniformly random legal move; ``GameEnv.reset(seed=s)``
    reseeds it (``reset(s)``), so that an episode repeats with its seed."""

    def __init__(self, seed: Optional[int] = None):
        self.rng = random.Random(seed)

    def reset(self, seed: Optional[int] = None):
        if seed is not None:
            self.rng.seed(seed)

    def __call__(self, game) -> str:
        return self.rng.choice(game.legal_moves())


class GameEnv(_Env):
    """One game of ``variant`` per episode, the agent playing ``color``
    (``"white"`` moves first) against ``opponent`` (see the module)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: str, opponent: Union[Policy, str, Sequence[str], "RefereeOpponent"],
                 *, color: str = "white", illegal: str = "raise",
                 render_mode: Optional[str] = None):
        if _MISSING is not None:
            raise ImportError(f"arena.GameEnv needs gymnasium (pip install gymnasium): {_MISSING}")
        if color not in ("white", "black"):
            raise ValueError(f"color {color!r}: the agent plays 'white' or 'black'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: arena renders as text, render_mode='ansi'")
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal={illegal!r}: 'raise' (ValueError) or 'lose' "
                             "(the episode ends, reward -1)")
        self.variant = variant
        self.color = color
        self.illegal = illegal
        self.render_mode = render_mode
        if isinstance(opponent, (str, list, tuple)):
            opponent = RefereeOpponent(opponent)
        if not callable(opponent) and not isinstance(opponent, RefereeOpponent):
            raise TypeError("opponent: a callable policy(game) -> move, a bot command, or a RefereeOpponent")
        self.opponent = opponent
        self.game = Game(variant)
        probe = np.asarray(self.game.observation(self.color))
        size = int(self.game.action_size)
        high = 1.0 if not np.issubdtype(probe.dtype, np.integer) else np.iinfo(probe.dtype).max
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=0, high=high, shape=probe.shape, dtype=probe.dtype),
            "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(size)
        self._ended: Optional[dict] = None

    # -- Gymnasium API ----------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.game = Game(self.variant)
        self._ended = None
        if isinstance(self.opponent, RefereeOpponent):
            self._take(self.opponent.start(self.variant, self.color))
        else:
            if hasattr(self.opponent, "reset"):
                self.opponent.reset(seed)
            self._policy_moves()
        return self._observation(), self._info()

    def step(self, action):
        if self._ended is not None or self.game.status != "ongoing":
            raise RuntimeError("the episode has ended: call reset()")
        move = self.game.action_to_move(int(action))
        try:
            self.game.play(move)  # ValueError for an illegal move, the game unchanged
        except ValueError as e:
            if self.illegal == "raise":
                raise
            return self._lose_by_illegal(move, e)
        if isinstance(self.opponent, RefereeOpponent):
            self._take(self.opponent.answer(move))
        else:
            self._policy_moves()
        terminated = self._ended is not None or self.game.status != "ongoing"
        reward = self._reward() if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def _lose_by_illegal(self, move: str, error: ValueError):
        """With ``illegal="lose"``: the episode ends, lost, as the referee
        ends a bot's game for an illegal move."""
        if isinstance(self.opponent, RefereeOpponent):
            self.opponent.close_game()
        winner = "black" if self.color == "white" else "white"
        self._ended = {"result": "0-1" if winner == "black" else "1-0", "reason": "illegal_move",
                       "message": f"{self.color} played an illegal move {move!r}: {error}"}
        return self._observation(), -1.0, True, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO reads this)."""
        return np.asarray(self.game.legal_action_mask(), dtype=bool)

    def render(self):
        if self.render_mode == "ansi":
            return self.game.render()
        return None

    def close(self):
        if isinstance(self.opponent, RefereeOpponent):
            self.opponent.close()

    # -- the opponent's moves ---------------------------------------------

    def _policy_moves(self):
        """The callable opponent plays while it is on move."""
        while self.game.status == "ongoing" and self.game.to_move != self.color:
            choice = self.opponent(self.game.copy())
            move = self.game.action_to_move(int(choice)) if isinstance(choice, (int, np.integer)) else choice
            try:
                self.game.play(move)
            except ValueError as e:
                raise ValueError(f"the opponent policy chose an illegal move {move!r}: {e}") from e

    def _take(self, turn: "Turn"):
        """The moves the referee reports, played on the env's game (each
        must be legal there: the same rules crate judged it), and the
        referee's result when the game ended."""
        for ply, color, move in turn.moves:
            if ply <= len(self.game.moves):
                continue  # the agent's own move, echoed
            if ply != len(self.game.moves) + 1 or color != self.game.to_move:
                raise RuntimeError(f"the referee reported move {ply} by {color} ({move}) "
                                   f"after {len(self.game.moves)} moves")
            self.game.play(move)
        if turn.result is not None:
            self._ended = turn.result

    # -- what the agent sees ----------------------------------------------

    def _observation(self) -> dict:
        if self.game.status == "ongoing" and self._ended is None:
            mask = np.asarray(self.game.legal_action_mask(), dtype=np.int8)
        else:
            mask = np.zeros(self.action_space.n, dtype=np.int8)
        return {"observation": np.asarray(self.game.observation(self.color)), "action_mask": mask}

    def _winner(self) -> Optional[str]:
        if self._ended is not None:
            return {"1-0": "white", "0-1": "black"}.get(self._ended["result"])
        return self.game.winner

    def _reward(self) -> float:
        winner = self._winner()
        return 0.0 if winner is None else (1.0 if winner == self.color else -1.0)

    def _info(self) -> dict:
        info: dict = {"legal_moves": self.game.legal_moves() if self.game.status == "ongoing" else []}
        if self._ended is not None:
            info.update(self._ended)
            info["winner"] = self._winner()
        elif self.game.status != "ongoing":
            info.update(winner=self.game.winner, reason=self.game.reasons[0])
        return info


class Turn:
    """What the referee printed until the agent's next turn: the moves
    played (ply, colour, notation) and, when the game ended, its result."""

    def __init__(self):
        self.moves: list = []
        self.result: Optional[dict] = None


class RefereeOpponent:
    """An arena bot played by arena's referee (``arena play``).

    ``command`` is the bot's command line (a string split as a shell would,
    or a list of words; or the name of a bot in ``bots``, a tournament file
    with ``[[bot]]`` entries). ``time_control`` (``"per-move=200"``,
    ``"10+0.1"``) and ``args`` (more ``arena play`` flags: ``--sandbox``,
    ``--clock cpu``) are the referee's. The agent, as arena's "human"
    player, is untimed. ``timeout`` (seconds) bounds the wait for one
    answer from arena, far above any bot's clock.
    """

    PROMPT = re.compile(r"(white|black) \(.*\) to move \(\? lists legal moves, help explains\): $")
    MOVE = re.compile(r"^\s*(\d+)\. (white|black) (.+?)  \((\d+) ms\)$")
    RESULT = re.compile(r"^result (\S+)  reason (\S+)$")

    def __init__(self, command: Union[str, Sequence[str]], *, time_control: Optional[str] = None,
                 bots: Optional[str] = None, args: Sequence[str] = (), timeout: float = 600.0):
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.time_control = time_control
        self.bots = bots
        self.args = list(args)
        self.timeout = timeout
        self._logs = tempfile.TemporaryDirectory(prefix="arena-gym-logs-")
        self._proc: Optional[subprocess.Popen] = None
        self._stderr = None
        self._pending = ""

    @property
    def log_dir(self) -> str:
        """Where the bot's stderr logs go (removed by ``close()``)."""
        return self._logs.name

    def start(self, variant: str, agent_color: str) -> Turn:
        """Starts a game; returns what happened up to the agent's first turn."""
        self.close_game()
        white, black = ("human", self.command) if agent_color == "white" else (self.command, "human")
        command = [arena_binary(), "play", variant, white, black, "--color", "never", "--quiet",
                   "--log-dir", self._logs.name]
        if self.time_control:
            command += ["--tc", self.time_control]
        if self.bots:
            command += ["--bots", self.bots]
        command += self.args
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._stderr)
        self._pending = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        return self._until_turn()

    def answer(self, move: str) -> Turn:
        """Types the agent's move; returns what happened up to its next turn."""
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write((move + "\n").encode())
            self._proc.stdin.flush()
        except BrokenPipeError:
            pass  # arena has ended the game; its output says how
        return self._until_turn()

    def _until_turn(self) -> Turn:
        """Reads arena's output until it asks for the agent's move or
        the game's result and message are printed."""
        turn = Turn()
        while True:
            chunk = self._read()
            if chunk is None:
                break
            self._pending += chunk
            *lines, self._pending = self._pending.split("\n")
            if self._lines(lines, turn) or self.PROMPT.search(self._pending):
                break
        if turn.result is None and not self.PROMPT.search(self._pending):
            status = self._proc.wait(timeout=self.timeout) if self._proc else None
            self._fail(f"arena play ended without a result (exit status {status})")
        self._pending = "" if self.PROMPT.search(self._pending) else self._pending
        return turn

    def _lines(self, lines: list, turn: Turn) -> bool:
        """Takes moves and the result from whole lines; True once the
        result's message line has been read."""
        for line in lines:
            if turn.result is not None and "message" not in turn.result:
                turn.result["message"] = line.strip()
                self._finish()
                return True
            move = self.MOVE.match(line)
            result = self.RESULT.match(line)
            if move:
                turn.moves.append((int(move.group(1)), move.group(2), move.group(3)))
            elif result:
                turn.result = {"result": result.group(1), "reason": result.group(2)}
        return False

    def _read(self) -> Optional[str]:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], self.timeout)
        if not ready:
            self._fail(f"no answer from arena play within {self.timeout} s")
        data = os.read(fd, 65536)
        return self._decoder.decode(data) if data else None

    def _finish(self):
        """The game is over: arena exits on its own."""
        if self._proc is not None:
            self._proc.stdin.close()
            self._proc.stdout.read()
            self._proc.wait(timeout=self.timeout)
            self._proc = None

    def _fail(self, what: str):
        stderr = b""
        if self._stderr is not None:
            self._stderr.seek(0)
            stderr = self._stderr.read()
        self.close_game()
        raise RuntimeError(f"{what}: {stderr.decode(errors='replace').strip()}")

    def close_game(self):
        """Stops a game in progress (arena stops the bot)."""
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.terminate()
            self._proc.wait()
            for pipe in (self._proc.stdin, self._proc.stdout):
                if pipe is not None:
                    pipe.close()
            self._proc = None

    def close(self):
        """Stops a game in progress and removes the logs."""
        self.close_game()
        self._logs.cleanup()
