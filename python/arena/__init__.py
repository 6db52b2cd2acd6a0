"""arena in Python: the exact rules, the solver and fast playouts of every
Qango variant and Quinque, from arena's own Rust crates (the native module
``arena._native``; no rule is implemented twice).

>>> import arena
>>> g = arena.Game("qango6")
>>> g.play("c3"); g.legal_moves()[:3]
['a1', 'b1', 'c1']

- ``variants()``: the variant ids, as ``arena games`` lists them.
- ``variant_info(variant)``: the variant as bots receive it (board, groups,
  win patterns, first-move cells).
- ``Game(variant, moves=None)``: a game; moves, outcome, actions and
  observations for learning, native random playouts.
- ``solve(variant, moves=(), budget_ms=10000, memory_mib=1024)``: the
  solver's value of a position, as ``arena solve`` gives it.
"""

from arena._native import Game, __version__, solve, variant_info, variants

__all__ = ["Game", "__version__", "solve", "variant_info", "variants"]

# The environments and the results (docs/PYTHON.md): pure Python over the
# above and the arena binary; pettingzoo, gymnasium and pandas are imported
# only when used.
from arena.aec import env  # noqa: E402
from arena.gym_env import GameEnv, RefereeOpponent, random_policy  # noqa: E402
from arena.results import Run, read_run, tournament  # noqa: E402

__all__ += ["env", "GameEnv", "RefereeOpponent", "random_policy", "Run", "read_run", "tournament"]
