"""Plays correctly, but exits with an error on a message type it does not
know (PROTOCOL.md: bots must ignore unknown types)."""
import json
import sys
import botlib

for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        botlib.send({"type": "ready", "name": "strict_types", "protocol": 1})
    elif kind == "turn":
        botlib.send({"type": "move", "move": botlib.first_legal(msg)})
    elif kind == "quit":
        sys.exit(0)
    elif kind not in ("new_game", "game_over"):
        botlib.log(f"unknown message type {kind!r}")
        sys.exit(2)
