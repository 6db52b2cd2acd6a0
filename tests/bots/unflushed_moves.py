"""Answers hello with a flushed ready, then writes its moves without
flushing: unless Python runs unbuffered (PYTHONUNBUFFERED, -u), a move sits
in stdout's buffer and never reaches arena. Run it with PYTHONUNBUFFERED
removed from its environment."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        sys.stdout.write(json.dumps({"type": "ready", "name": "unflushed", "protocol": 1}) + "\n")
        sys.stdout.flush()
    elif kind == "turn":
        sys.stdout.write(json.dumps({"type": "move", "move": msg["legal_moves"][0]}) + "\n")
    elif kind == "quit":
        break
