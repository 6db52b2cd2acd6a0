"""Plays correctly, but exits 0.4 s after its first game_over (longer than
check-bot watches an idle bot) instead of waiting for new_game or quit."""
import sys
import time

import botlib


def leave(msg):
    time.sleep(0.4)
    sys.exit(0)


botlib.run("slow_exit", on_game_over=leave)
