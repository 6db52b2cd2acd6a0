"""Plays the first legal move for its first N moves of each game (N is
the argument), then a move off the board (illegal): a bot with a larger N
outlasts one with a smaller N and beats it, so bots of several N have a
known order of strength. N = -1: never fails."""
import sys

import botlib

LIMIT = int(sys.argv[1])


def turn(msg):
    own_moves = len(msg["history"]) // 2
    if LIMIT >= 0 and own_moves >= LIMIT:
        return "z99"
    return botlib.first_legal(msg)


botlib.run("fails_after", on_turn=turn)
