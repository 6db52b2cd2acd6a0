"""Plays two moves, then exits with status 0 instead of answering."""
import sys
import botlib

moves = 0


def turn(msg):
    global moves
    moves += 1
    if moves > 2:
        sys.exit(0)
    return botlib.first_legal(msg)


botlib.run("exit_midgame", on_turn=turn)
