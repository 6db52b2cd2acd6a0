"""Well-behaved but slow: waits argv[1] milliseconds (default 20) before
each move, so a test can catch a tournament in the middle of its games.
The environment variable PACED_BOT_MS, when set, overrides argv[1]: a test
can run the same tournament (same settings, so the same identity) slowly
and then fast."""
import os
import sys
import time
import botlib

delay = float(sys.argv[1]) / 1000.0 if len(sys.argv) > 1 else 0.02
if os.environ.get("PACED_BOT_MS"):
    delay = float(os.environ["PACED_BOT_MS"]) / 1000.0


def turn(msg):
    time.sleep(delay)
    return botlib.first_legal(msg)


botlib.run("paced_bot", on_turn=turn)
