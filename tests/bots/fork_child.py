"""Forks a child that sleeps holding stdout and stderr open, plays one move,
then crashes (exit 4) on its second turn while the child lives on."""
import os
import sys
import time
import botlib

moves = 0


def hello(msg):
    pid = os.fork()
    if pid == 0:
        time.sleep(120)
        os._exit(0)
    botlib.log(f"fork_child: forked {pid}")


def turn(msg):
    global moves
    moves += 1
    if moves >= 2:
        sys.exit(4)
    return botlib.first_legal(msg)


botlib.run("fork_child", on_turn=turn, on_hello=hello)
