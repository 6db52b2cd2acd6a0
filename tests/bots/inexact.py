"""Plays legal moves, but spelt in upper case ("C3", "PLACE A1"): not the
exact strings of legal_moves, so each is an illegal move."""
import botlib


def turn(msg):
    return botlib.first_legal(msg).upper()


botlib.run("inexact", on_turn=turn)
