#!/usr/bin/env python3
"""A bot for the Carcassonne bot protocol (docs/bot-protocol.md), in plain
Python with the standard library only.

It reads one JSON message per line on standard input and answers on standard
output. Its play is a simple heuristic over the legal moves the host sends:
a tile next to many others, a follower on a cloister, city or road while it
has some to spare, a farmer only late in the game. Run it in the arena:

    carcassonne arena --bots "cmd:python3 examples/bot.py",greedy --games 10
"""

import json
import sys

# Spots (record.md) by what they name: a cloister or garden, a city or road
# edge, or a field half-edge.
EDGE_SPOTS = {"N", "E", "S", "W"}
CENTRE_SPOTS = {"C", "G"}


def neighbours(board, at):
    x, y = at
    near = {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)}
    return sum(1 for t in board if tuple(t["at"]) in near)


def value(move, view, occupied):
    """A rough worth of a legal move for the seat to move: higher is better."""
    score = 2.0 * neighbours(view["board"], move["at"])
    me = view["seat"]
    supply = view["supply"][me]
    late = view["bag"] < 15
    spot = move.get("meeple")
    if spot is not None and (move["at"][0], move["at"][1], spot) not in occupied:
        if spot in CENTRE_SPOTS:
            score += 6.0
        elif spot in EDGE_SPOTS:
            score += 4.0 if supply > 2 else 1.0
        else:  # a farmer: only late, and only with followers to spare
            score += 3.0 if late and supply > 1 else -2.0
    if move.get("abbot") is not None:
        score += 5.0
    if move.get("recall"):
        score += 2.0 if late else -1.0
    return score


def choose(view):
    occupied = {(f["at"][0], f["at"][1], f["spot"]) for f in view["followers"]}
    # Ties keep the host's order, so the bot is deterministic.
    return max(view["legal"], key=lambda m: value(m, view, occupied))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            # It reads only the legal moves, so it plays every rule option.
            send({"type": "hello", "name": "example.py", "author": "the carcassonne project",
                  "protocol": 1, "rules": ["*"]})
        elif kind == "decide":
            send({"type": "move", "move": choose(message["view"])})
        elif kind == "quit":
            break
        # new_game, played and game_over need no answer.


if __name__ == "__main__":
    main()
