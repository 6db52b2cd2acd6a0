"""Allocates memory without bound on its first turn."""
import botlib

hoard = []


def turn(msg):
    while True:
        hoard.append(bytearray(16 * 1024 * 1024))


botlib.run("memory_hog", on_turn=turn)
