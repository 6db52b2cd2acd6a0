"""Well-behaved but late: sleeps argv[1] milliseconds before each of its
first argv[2] moves of every game (default: every move), then plays its
first legal move. A test gives it a shorter limit to see how late arena
says it was."""
import sys
import time
import botlib

delay = float(sys.argv[1]) / 1000.0 if len(sys.argv) > 1 else 0.5
slow_moves = int(sys.argv[2]) if len(sys.argv) > 2 else None
moves = 0


def new_game(msg):
    global moves
    moves = 0


def turn(msg):
    global moves
    moves += 1
    if slow_moves is None or moves <= slow_moves:
        time.sleep(delay)
    return botlib.first_legal(msg)


botlib.run("late", on_turn=turn, on_new_game=new_game)
