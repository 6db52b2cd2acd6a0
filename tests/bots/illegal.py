"""Plays legally until there is a move on the board, then plays on the
most recently occupied cell (illegal: occupied)."""
import botlib


def turn(msg):
    if msg["history"]:
        return msg["history"][-1]
    return botlib.first_legal(msg)


botlib.run("illegal", on_turn=turn)
