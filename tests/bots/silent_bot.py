"""Well-behaved and silent: plays the first legal move, writes nothing to stderr."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "silent_bot", "protocol": 1}), flush=True)
    elif kind == "turn":
        print(json.dumps({"type": "move", "move": msg["legal_moves"][0]}), flush=True)
    elif kind == "quit":
        break
