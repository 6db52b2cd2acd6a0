"""Plays perfectly where arena's solver proves the position: each turn it
asks `ARENA solve` (the binary given as its one argument) about the game so
far and plays the solver's best move; unproven, it plays the first legal
move (none should be: it is for qango6, which the solver settles at once).

    python3 perfect_bot.py /path/to/arena
"""
import json
import subprocess
import sys

import botlib

ARENA = sys.argv[1]


def perfect(turn):
    record = json.dumps({"game": turn["variant"], "moves": turn["history"]})
    out = subprocess.run([ARENA, "solve", "--memory-mib", "16", "--budget-ms", "5000"],
                         input=record, capture_output=True, text=True, check=True)
    best = json.loads(out.stdout).get("best")
    return best if best in turn["legal_moves"] else turn["legal_moves"][0]


botlib.run("perfect_bot", on_turn=perfect)
