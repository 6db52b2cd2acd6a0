#!/usr/bin/env python3
"""A complete arena bot that plays a random legal move, for every variant.

Copy this file to start your own bot: replace choose_move(). The protocol is
described in protocol/PROTOCOL.md. Python standard library only.

    python3 random_bot.py [--seed N]
"""
import argparse
import json
import random
import sys


def send(message):
    """Write one JSON line to the referee. Flushing matters: an answer stuck
    in the output buffer counts as thinking time, and then as a timeout."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(*parts):
    """stdout belongs to the protocol; everything else goes to stderr."""
    print(*parts, file=sys.stderr, flush=True)


def choose_move(turn, rng):
    # turn["legal_moves"] is the complete list of legal moves, never empty.
    return rng.choice(turn["legal_moves"])


def main():
    parser = argparse.ArgumentParser(description="arena random bot")
    parser.add_argument("--seed", type=int, help="random seed, for reproducible games")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    log(f"random_bot: seed {seed}")

    while True:
        line = sys.stdin.readline()
        if not line:  # end of file: the referee is gone
            return
        try:
            message = json.loads(line)
            kind = message.get("type")
        except (ValueError, AttributeError):
            log(f"ignoring a line that is not a JSON object: {line[:80]!r}")
            continue
        if kind == "hello":
            send({"type": "ready", "name": "random", "protocol": 1, "author": "arena examples"})
        elif kind == "new_game":
            log(f"game {message.get('game_id')}: as {message.get('color')}")
        elif kind == "turn":
            send({"type": "move", "move": choose_move(message, rng)})
        elif kind == "game_over":
            log(f"game {message.get('game_id')}: {message.get('result')} ({message.get('reason')})")
        elif kind == "quit":
            return
        # Any other type: ignore it (newer referees may send more).


if __name__ == "__main__":
    main()
