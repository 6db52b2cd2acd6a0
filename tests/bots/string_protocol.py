"""Answers hello at once with a ready whose protocol is the string "1"."""
import json
import sys

for line in sys.stdin:
    if json.loads(line).get("type") == "hello":
        sys.stdout.write(json.dumps({"type": "ready", "name": "s", "protocol": "1"}) + "\n")
        sys.stdout.flush()
