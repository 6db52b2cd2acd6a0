"""``arena.env(variant)``: a PettingZoo AEC environment of one arena game.

Two agents, ``player_0`` (white, moves first) and ``player_1`` (black), take
turns on one :class:`arena.Game`: the rules, the legal moves, the end of the
game and the observation are the native engine's, never re-implemented here.

- ``observe(agent)`` is ``{"observation": game.observation(colour), "action_mask":
  game.legal_action_mask()}``: the planes seen by that agent's colour (its
  own discs first), and a mask that is all zeros for the agent not on move
  and after the end;
- actions are ``Discrete(game.action_size)`` indices (``Game.move_to_action``
  / ``action_to_move``); an illegal action raises ``ValueError`` and leaves
  the game unchanged;
- at the end the winner gets +1, the loser -1, a draw 0 each, and both
  agents are terminated (a game always ends by the rules: no truncation);
- ``render()`` returns the board as text (``render_mode="ansi"``);
- ``infos[agent]`` has ``color`` (``"white"``/``"black"``) and, at the end,
  ``winner`` and ``reasons``.
"""

from __future__ import annotations

import numpy as np

from . import Game

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    _MISSING = None
except ImportError as e:  # arena itself needs neither; env() says what to install
    AECEnv = object
    _MISSING = e

__all__ = ["env", "raw_env", "AGENTS"]

AGENTS = ("player_0", "player_1")
COLORS = {"player_0": "white", "player_1": "black"}
AGENT_OF = {"white": "player_0", "black": "player_1"}


def env(variant: str, render_mode: str | None = None):
    """The AEC environment of ``variant`` (``arena.variants()`` lists them),
    wrapped as PettingZoo's classic games are (order enforced, actions
    checked against the action space)."""
    inner = raw_env(variant, render_mode=render_mode)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(inner)


class raw_env(AECEnv):
    """The unwrapped environment (``arena.env`` wraps it)."""

    metadata = {"render_modes": ["ansi"], "name": "arena_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, variant: str, render_mode: str | None = None):
        if _MISSING is not None:
            raise ImportError(f"arena.env needs pettingzoo and gymnasium "
                              f"(pip install pettingzoo gymnasium): {_MISSING}")
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: arena renders as text, render_mode='ansi'")
        self.variant = variant
        self.render_mode = render_mode
        self.game = Game(variant)
        self.possible_agents = list(AGENTS)
        probe = np.asarray(self.game.observation("white"))
        size = int(self.game.action_size)
        box = spaces.Box(low=0, high=_obs_high(probe), shape=probe.shape, dtype=probe.dtype)
        mask = spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(size) for a in AGENTS}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        observation = np.asarray(self.game.observation(COLORS[agent]))
        if self.agent_selection == agent and self.game.status == "ongoing":
            mask = np.asarray(self.game.legal_action_mask(), dtype=np.int8)
        else:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.game = Game(self.variant)
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {"color": COLORS[a]} for a in AGENTS}
        self.agent_selection = AGENT_OF[self.game.to_move]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self.game.play(self.game.action_to_move(int(action)))
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if self.game.status != "ongoing":
            self._finish()
        self.agent_selection = AGENT_OF[self.game.to_move] if self.game.status == "ongoing" \
            else _other(agent)
        self._accumulate_rewards()

    def _finish(self):
        winner = self.game.winner
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = 0 if winner is None else (1 if COLORS[a] == winner else -1)
            self.infos[a].update(winner=winner, reasons=list(self.game.reasons))

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() without render_mode: arena.env(variant, render_mode='ansi')")
            return None
        return self.game.render()

    def close(self):
        pass


def _other(agent: str) -> str:
    return AGENTS[1] if agent == AGENTS[0] else AGENTS[0]


def _obs_high(probe: np.ndarray):
    """The observation's upper bound: 1 for planes of 0/1 (booleans or
    floats), else the largest value the dtype holds."""
    if probe.dtype == np.bool_:
        return True
    if np.issubdtype(probe.dtype, np.integer):
        return np.iinfo(probe.dtype).max
    return 1.0
