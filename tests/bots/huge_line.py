"""Answers its first turn with a single 10 MB line."""
import sys
import botlib


def turn(msg):
    block = "x" * (1024 * 1024)
    for _ in range(10):
        sys.stdout.write(block)
    sys.stdout.write("\n")
    sys.stdout.flush()
    return None


botlib.run("huge_line", on_turn=turn)
