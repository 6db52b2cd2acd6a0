"""Answers each turn, then writes a second, unasked move line 20 ms later
(so the referee has read the first line alone by then)."""
import time
import botlib


def answer_twice(turn):
    move = botlib.first_legal(turn)
    botlib.send({"type": "move", "move": move})
    time.sleep(0.02)
    return move


botlib.run("double_answer", on_turn=answer_twice)
