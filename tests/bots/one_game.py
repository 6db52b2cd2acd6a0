"""Plays correctly, but exits after its first game_over instead of waiting
for the next new_game or quit."""
import sys
import botlib

botlib.run("one_game", on_game_over=lambda msg: sys.exit(0))
