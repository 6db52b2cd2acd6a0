"""Random playouts per second from Python, for docs/PERFORMANCE.md:

- `Game.random_playout()` (native, one call per playout) and
  `Game.random_playouts(1000)` (a thousand per call);
- an efficient plain-Python Qango playout (bitmask patterns precomputed per
  cell, a free-cell list with swap-remove, only the patterns of the placed
  cell checked), written here and nowhere else;
- a Python loop of `legal_moves()` / `play()` through `arena.Game`, and the
  same with `legal_actions()` / `play_action()`.

Run by hand after `pip install ./python`:

    python python/bench/playouts.py [VARIANT ...] [--seconds S] [--rounds R]

Each round measures every method for S seconds, one after another; it
prints each method's median playouts per second over the rounds, the
median (and range) of the per-round ratio of the native playout to it, and
its share of white wins (they play the same random game, so the shares
agree within sampling noise).
"""

import argparse
import random
import statistics
import time

import arena


class PlainQango:
    """A Qango variant's random playouts in plain Python, from the board's
    data (cells, win patterns, first-move cells of `variant_info`)."""

    def __init__(self, variant):
        info = arena.variant_info(variant)
        cols = info["cols"]
        bit = lambda name: 1 << ((int(name[1:]) - 1) * cols + ord(name[0]) - ord("a"))
        self.cells = [bit(c) for c in info["cells"]]
        self.first = [bit(c) for c in info["first_move"]]
        patterns = [sum(bit(c) for c in p) for p in info["win_patterns"]]
        # For each cell, the masks of the patterns through it.
        self.through = {b: [p for p in patterns if p & b] for b in self.cells}
        self.max_discs = 40

    def playout(self, rnd=random.random):
        """Returns 0 (white won), 1 (black won) or None (draw)."""
        discs = [0, 0]
        through = self.through
        cell = self.first[int(rnd() * len(self.first))]
        free = [c for c in self.cells if c != cell]
        ply = 0
        while True:
            side = ply & 1
            mine = discs[side] | cell
            discs[side] = mine
            ply += 1
            for p in through[cell]:
                if mine & p == p:
                    return side
            n = len(free)
            if n == 0 or ply >= self.max_discs:
                return None
            k = int(rnd() * n)
            cell = free[k]
            free[k] = free[n - 1]
            free.pop()


def rate(run, seconds):
    """(playouts per second, share of white wins) of `run()` for `seconds`."""
    count = white = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(200):
            white += run() in ("white", 0)
        count += 200
    return count / elapsed, white / count


def batched(game, seconds):
    """`rate` of `game.random_playouts(1000)`, counted per playout."""
    count = white = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        white += game.random_playouts(1000)["white"]
        count += 1000
    return count / elapsed, white / count


def python_loop(variant):
    rnd = random.Random(1)

    def run():
        game = arena.Game(variant)
        while not game.is_over:
            game.play(rnd.choice(game.legal_moves()))
        return game.winner

    return run


def action_loop(variant):
    rnd = random.Random(2)

    def run():
        game = arena.Game(variant)
        while not game.is_over:
            game.play_action(rnd.choice(game.legal_actions()))
        return game.winner

    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=["qango6", "qango7"])
    parser.add_argument("--seconds", type=float, default=0.5, help="per method and round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    for variant in args.variants:
        start = arena.Game(variant)
        methods = {
            "Game.random_playout()": lambda s: rate(start.random_playout, s),
            "Game.random_playouts(1000)": lambda s: batched(start, s),
        }
        if variant != "quinque":
            methods["plain Python"] = lambda s, p=PlainQango(variant): rate(p.playout, s)
        methods["legal_moves()/play() loop"] = lambda s, r=python_loop(variant): rate(r, s)
        methods["legal_actions()/play_action() loop"] = lambda s, r=action_loop(variant): rate(r, s)
        # Rounds of every method one after another, so that a change of the
        # machine's load hits all of them; the ratios are taken per round.
        rounds = [{name: run(args.seconds) for name, run in methods.items()} for _ in range(args.rounds)]
        for name in methods:
            per_second = statistics.median(r[name][0] for r in rounds)
            ratios = sorted(r["Game.random_playout()"][0] / r[name][0] for r in rounds)
            white = statistics.mean(r[name][1] for r in rounds)
            print(
                f"{variant:10} {name:36} {per_second:>12,.0f}/s  native {statistics.median(ratios):6.1f}x"
                f" ({ratios[0]:.1f}-{ratios[-1]:.1f})  white wins {white:.3f}"
            )


if __name__ == "__main__":
    main()
