"""Spins on the CPU on its first turn, never answering."""
import botlib


def turn(msg):
    n = 0
    while True:
        n += 1


botlib.run("cpu_burn", on_turn=turn)
