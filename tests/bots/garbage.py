"""Answers a turn with a line that is not JSON."""
import sys
import botlib


def turn(msg):
    sys.stdout.write("e4 is my move {not json\n")
    sys.stdout.flush()
    return None


botlib.run("garbage", on_turn=turn)
