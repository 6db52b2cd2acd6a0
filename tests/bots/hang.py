"""Answers hello, then never answers a turn (and stops reading its input)."""
import time
import botlib


def turn(msg):
    while True:
        time.sleep(3600)


botlib.run("hang", on_turn=turn)
