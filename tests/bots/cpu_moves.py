"""Uses CPU for each move before it answers: milliseconds of CPU time
from argv[1] (default 50); plays the first legal move."""
import sys
import time
import botlib

cpu_ms = float(sys.argv[1]) if len(sys.argv) > 1 else 50.0


def turn(msg):
    until = time.process_time() + cpu_ms / 1000.0
    while time.process_time() < until:
        pass
    return botlib.first_legal(msg)


botlib.run("cpu_moves", on_turn=turn)
