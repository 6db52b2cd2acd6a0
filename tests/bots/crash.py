"""Plays one legal move, then exits with status 3 on its next turn."""
import sys
import botlib

moves = 0


def turn(msg):
    global moves
    moves += 1
    if moves >= 2:
        botlib.log("crash bot: giving up now")
        sys.exit(3)
    return botlib.first_legal(msg)


botlib.run("crash", on_turn=turn)
