"""Well-behaved, but keeps computing in the background: after its first
move it forks a child that spins on the CPU for ever (`--ponder`; with
`--setsid` the child leaves the bot's process group first). With
`--work N` every move first spins N loop iterations (a fixed amount of CPU
work, whatever else shares the CPU). Logs `quit` and exits 0 on quit, and
on SIGTERM logs it and exits 0 too (`--on-term`)."""
import os
import signal
import sys
import botlib

ponder = "--ponder" in sys.argv
escape = "--setsid" in sys.argv
work = int(sys.argv[sys.argv.index("--work") + 1]) if "--work" in sys.argv else 0
burner = None


def turn(msg):
    global burner
    n = 0
    for _ in range(work):
        n += 1
    if ponder and burner is None:
        burner = os.fork()
        if burner == 0:
            if escape:
                os.setsid()
            while True:
                n += 1
        botlib.log(f"pondering_bot: burner {burner}")
    return botlib.first_legal(msg)


def on_term(signum, frame):
    botlib.log("pondering_bot: SIGTERM")
    os._exit(0)


if "--on-term" in sys.argv:
    signal.signal(signal.SIGTERM, on_term)


def quit(msg):
    botlib.log("pondering_bot: quit")
    sys.exit(0)


botlib.run("pondering_bot", on_turn=turn, on_quit=quit)
