"""Deterministic by position: plays legal move number N (counted modulo
the number of legal moves), so bots with different N play different, but
always the same, games from the same position, whatever games their
process played before.

    python3 nth_legal.py N
"""
import sys

import botlib

N = int(sys.argv[1])

botlib.run(f"nth_legal_{N}", on_turn=lambda turn: turn["legal_moves"][N % len(turn["legal_moves"])])
