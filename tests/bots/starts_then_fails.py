"""Starts well argv[2] times, then fails every start after: a bot that
passes arena's start check and breaks later in the run (a file it needs
deleted, a licence server gone). Its starts are counted in the file argv[1]
(locked, so bots started at once count right). How it fails, argv[3]:
`exit` (default) writes two lines to stderr (the first the same every
time, the second naming the start) and exits 1 before ready; `silent` never answers hello."""
import fcntl
import sys
import time

import botlib

counter, good = sys.argv[1], int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else "exit"

with open(counter, "a+") as f:
    fcntl.flock(f, fcntl.LOCK_EX)
    f.seek(0)
    start = len(f.read()) + 1
    f.write("x")

if start > good:
    if mode == "silent":
        while True:
            time.sleep(1)
    botlib.log(f"starts_then_fails: cannot start after {good} good starts")
    botlib.log(f"(this was start {start})")
    sys.exit(1)

botlib.run("starts_then_fails")
