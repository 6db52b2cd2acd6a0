"""Thinks in a child process: for each move it starts a Python process that
uses argv[1] milliseconds of CPU time (default 400) and waits for it, so
its own process uses almost none; then plays the first legal move."""
import subprocess
import sys
import botlib

cpu_ms = float(sys.argv[1]) if len(sys.argv) > 1 else 400.0
WORK = (
    "import time\n"
    f"until = time.process_time() + {cpu_ms / 1000.0}\n"
    "while time.process_time() < until: pass\n"
)


def turn(msg):
    subprocess.run([sys.executable, "-c", WORK], check=True)
    return botlib.first_legal(msg)


botlib.run("offload", on_turn=turn)
