"""Answers each turn with two move lines, written one after the other (two
writes, so the referee may read the first line alone)."""
import botlib


def answer_twice(turn):
    move = botlib.first_legal(turn)
    botlib.send({"type": "move", "move": move})
    return move


botlib.run("double_answer", on_turn=answer_twice)
