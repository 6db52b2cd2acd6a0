#!/usr/bin/env python3
"""An arena bot one step smarter than random, for every variant.

On each turn it
  1. plays a move that wins at once, if there is one (in Quinque this
     includes leaving the opponent without any legal action);
  2. otherwise plays a move after which the opponent cannot win at once
     (this blocks their threats), if there is one;
  3. otherwise plays any legal move.
Ties are broken at random. It reads only the protocol messages: win patterns
come from VARIANT_INFO (new_game), the position from STATE (turn).

    python3 greedy_bot.py [--seed N]

Protocol: protocol/PROTOCOL.md. Python standard library only.
"""
import argparse
import json
import random
import sys

WHITE, BLACK = "white", "black"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()  # unflushed answers time out


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def other(color):
    return BLACK if color == WHITE else WHITE


def cell_name(row, col):
    return "abcdefghijklmnopqrstuvwxyz"[col] + str(row + 1)


def read_board(state):
    """STATE board -> {cell: (owner, height)} for occupied cells and a set of
    empty playable cells. Qango discs are height 1; '#' is not a cell."""
    stacks, empty = {}, set()
    for r, row in enumerate(state["board"]):
        for c, text in enumerate(row):
            name = cell_name(r, c)
            if text == ".":
                empty.add(name)
            elif text != "#":
                owner = WHITE if text[0] == "w" else BLACK
                height = int(text[1:]) if len(text) > 1 else 1
                stacks[name] = (owner, height)
    return stacks, empty


class Position:
    """The little a greedy bot needs: who holds which cell, how high, and how
    many stones each side can still bring in."""

    def __init__(self, family, stacks, empty, stones, locked, rows, cols):
        self.family = family
        self.stacks = stacks  # cell -> (owner, height)
        self.empty = empty  # empty playable cells
        self.stones = stones  # color -> discs (Qango) or supply (Quinque) left
        self.locked = locked  # Quinque: cell the side to move may not capture
        self.rows, self.cols = rows, cols

    def copy(self):
        return Position(self.family, dict(self.stacks), set(self.empty),
                        dict(self.stones), self.locked, self.rows, self.cols)

    def owner(self, cell):
        stack = self.stacks.get(cell)
        return stack[0] if stack else None

    def after(self, move, me):
        """The position after `me` plays `move` (notation from legal_moves).
        Quinque: place, enclose and capture make the target cell `me`'s
        single; double and triple only raise a height."""
        pos = self.copy()
        words = move.split()
        if pos.family == "qango":
            pos.stacks[move] = (me, 1)
            pos.empty.discard(move)
            pos.stones[me] -= 1
            pos.locked = None
            return pos
        verb, target, sources = words[0], words[1], words[2:]
        pos.locked = None
        if verb in ("place", "double", "triple", "enclose"):
            pos.stones[me] -= 1
        if verb == "double":
            pos.stacks[target] = (me, 2)
        elif verb == "triple":
            pos.stacks[target] = (me, 3)
        else:  # place, enclose, capture
            pos.stacks[target] = (me, 1)
            pos.empty.discard(target)
            for source in sources:  # the dissolved doubles become singles
                pos.stacks[source] = (me, 1)
            if len(sources) == 2:  # one freed stone goes back to the supply
                pos.stones[me] += 1
            if verb != "place":
                pos.locked = target  # no immediate recapture
        return pos

    def enclosed_by(self, cell, color):
        """Every orthogonal neighbour is off the board or `color`'s stack."""
        row, col = int(cell[1:]) - 1, ord(cell[0]) - ord("a")
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + dr, col + dc
            if 0 <= r < self.rows and 0 <= c < self.cols:
                if self.owner(cell_name(r, c)) != color:
                    return False
        return True

    def can_take(self, color, cell):
        """Could `color`, moving next, make `cell` its own stack in one move?"""
        if cell in self.empty:
            return self.stones[color] > 0
        if self.family == "qango" or cell == self.locked:
            return False
        owner, height = self.stacks[cell]
        if owner == color or height == 3:  # triples can never be captured
            return False
        doubles = sum(1 for o, h in self.stacks.values() if o == color and h == 2)
        enclosed = self.enclosed_by(cell, color)
        if height == 1:
            return doubles >= 1 or (enclosed and self.stones[color] > 0)
        return doubles >= 2 or (enclosed and doubles >= 1)

    def has_won(self, color, patterns):
        return any(all(self.owner(c) == color for c in p) for p in patterns)

    def has_action(self, color):
        """Quinque: does `color`, moving next, have any legal action? (A player
        without one loses.) Qango never ends this way, so: always True."""
        if self.family == "qango":
            return True
        mine = [h for o, h in self.stacks.values() if o == color]
        doubles = mine.count(2)
        if self.stones[color] > 0:
            if self.empty or 1 in mine:  # place, double
                return True
            if 3 not in mine and any(o == color and h == 2 and cell != "c3"
                                     for cell, (o, h) in self.stacks.items()):
                return True  # triple
        for cell, (owner, height) in self.stacks.items():
            if owner != color and height < 3 and self.can_take(color, cell):
                return True  # enclose or capture
        return False

    def can_win_next(self, color, patterns):
        """Does `color`, moving next, have a move that completes a pattern?"""
        for pattern in patterns:
            missing = [c for c in pattern if self.owner(c) != color]
            if len(missing) == 1 and self.can_take(color, missing[0]):
                return True
        return False


class Greedy:
    def __init__(self, rng):
        self.rng = rng
        self.variants = {}  # game_id -> VARIANT_INFO

    def new_game(self, message):
        self.variants[message.get("game_id")] = message.get("variant")

    def choose(self, turn):
        moves = turn["legal_moves"]
        info = self.variants.get(turn["game_id"])
        if info is None or info.get("family") not in ("qango", "quinque"):
            log("no new_game seen for", turn["game_id"], "or unknown family - playing randomly")
            return self.rng.choice(moves)
        try:
            return self.choose_greedy(turn, info)
        except (KeyError, ValueError, TypeError, IndexError) as error:
            # A bug here must not lose the game by crashing: log it, stay legal.
            log(f"greedy evaluation failed ({error!r}) - playing randomly")
            return self.rng.choice(moves)

    def choose_greedy(self, turn, info):
        moves = turn["legal_moves"]
        me, them = turn["color"], other(turn["color"])
        state = turn["state"]
        stacks, empty = read_board(state)
        stones = state.get("discs") or state.get("supply") or {WHITE: 1, BLACK: 1}
        pos = Position(info["family"], stacks, empty, dict(stones), state.get("locked"),
                       info["rows"], info["cols"])
        patterns = info["win_patterns"]

        winning, safe = [], []
        for move in moves:
            after = pos.after(move, me)
            if after.has_won(me, patterns) or not after.has_action(them):
                winning.append(move)
            elif not after.can_win_next(them, patterns):
                safe.append(move)
        if winning:
            return self.rng.choice(winning)
        if safe:
            return self.rng.choice(safe)
        return self.rng.choice(moves)  # every move loses: pick any


def main():
    parser = argparse.ArgumentParser(description="arena greedy bot")
    parser.add_argument("--seed", type=int, help="random seed, for reproducible games")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    bot = Greedy(random.Random(seed))
    log(f"greedy_bot: seed {seed}")

    while True:
        line = sys.stdin.readline()
        if not line:  # end of file
            return
        try:
            message = json.loads(line)
            kind = message.get("type")
        except (ValueError, AttributeError):
            log(f"ignoring a line that is not a JSON object: {line[:80]!r}")
            continue
        if kind == "hello":
            send({"type": "ready", "name": "greedy", "protocol": 1, "author": "arena examples"})
        elif kind == "new_game":
            bot.new_game(message)
        elif kind == "turn":
            send({"type": "move", "move": bot.choose(message)})
        elif kind == "game_over":
            bot.variants.pop(message.get("game_id"), None)
            log(f"game {message.get('game_id')}: {message.get('result')} ({message.get('reason')})")
        elif kind == "quit":
            return
        # Unknown types are ignored (newer referees may send more).


if __name__ == "__main__":
    main()
