"""Well-behaved, but holds each move while the file argv[1] exists (then
waits argv[2] milliseconds, default 20): a test closes the gate to hold a
tournament in the middle of its games, and opens it to let it go on."""
import os
import sys
import time
import botlib

gate = sys.argv[1]
delay = float(sys.argv[2]) / 1000.0 if len(sys.argv) > 2 else 0.02


def turn(msg):
    while os.path.exists(gate):
        time.sleep(0.02)
    time.sleep(delay)
    return botlib.first_legal(msg)


botlib.run("gated_bot", on_turn=turn)
