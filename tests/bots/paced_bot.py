"""Well-behaved but slow: waits argv[1] milliseconds (default 20) before
each move, so a test can catch a tournament in the middle of its games."""
import sys
import time
import botlib

delay = float(sys.argv[1]) / 1000.0 if len(sys.argv) > 1 else 0.02


def turn(msg):
    time.sleep(delay)
    return botlib.first_legal(msg)


botlib.run("paced_bot", on_turn=turn)
