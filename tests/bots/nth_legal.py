"""Deterministic by position: plays legal move number N (counted modulo
the number of legal moves), so bots with different N play different, but
always the same, games from the same position, whatever games their
process played before. It writes nothing to stderr (a bot log's presence
would depend on timing).

    python3 nth_legal.py N
"""
import json
import sys

N = int(sys.argv[1])


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        send({"type": "ready", "name": f"nth_legal_{N}", "protocol": 1})
    elif kind == "turn":
        moves = msg["legal_moves"]
        send({"type": "move", "move": moves[N % len(moves)]})
    elif kind == "quit":
        break
