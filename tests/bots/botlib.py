"""Protocol loop shared by the referee's test bots (Python 3 stdlib only).

Each bot in this folder is well-behaved up to one chosen misbehaviour; it
passes hooks to `run` for the messages where it misbehaves.
"""
import json
import sys


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def first_legal(turn):
    return turn["legal_moves"][0]


def run(name, on_turn=first_legal, on_hello=None, on_new_game=None, on_game_over=None, on_quit=None):
    """Answers hello with ready and each turn with on_turn(turn) (None: no answer)."""
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if on_hello:
                on_hello(msg)
            send({"type": "ready", "name": name, "protocol": 1})
        elif kind == "new_game":
            if on_new_game:
                on_new_game(msg)
        elif kind == "turn":
            move = on_turn(msg)
            if move is not None:
                send({"type": "move", "move": move})
        elif kind == "game_over":
            log(f"game_over {msg['result']} {msg['reason']}")
            if on_game_over:
                on_game_over(msg)
        elif kind == "quit":
            if on_quit:
                on_quit(msg)
            else:
                return
