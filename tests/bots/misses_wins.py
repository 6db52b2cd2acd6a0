"""Never plays a move that wins at once when it has one (the opposite of
greedy_bot's first rule); otherwise plays like greedy_bot (blocks the
opponent's immediate wins when it can, else any move). So every position in
which it could complete a pattern and the game goes on is a missed win: the
analysis against perfect play must find them.

    python3 misses_wins.py [--seed N]
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bots", "python"))
import greedy_bot  # noqa: E402
from greedy_bot import Position, other, read_board  # noqa: E402

import botlib  # noqa: E402


class MissesWins(greedy_bot.Greedy):
    def choose_greedy(self, turn, info):
        moves = turn["legal_moves"]
        me, them = turn["color"], other(turn["color"])
        state = turn["state"]
        stacks, empty = read_board(state)
        stones = state.get("discs") or state.get("supply") or {"white": 1, "black": 1}
        pos = Position(info["family"], stacks, empty, dict(stones), state.get("locked"),
                       info["rows"], info["cols"])
        patterns = info["win_patterns"]
        quiet, safe = [], []
        for move in moves:
            after = pos.after(move, me)
            if after.has_won(me, patterns) or not after.has_action(them):
                continue
            quiet.append(move)
            if not after.can_win_next(them, patterns):
                safe.append(move)
        return self.rng.choice(safe or quiet or moves)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bot = MissesWins(random.Random(args.seed))
    botlib.run("misses_wins", on_turn=bot.choose, on_new_game=bot.new_game)


main()
