"""Random 2-player games a second, standard rules, on one core, side by side:

- `Game.playout`: the whole game in Rust (one call);
- `Game` from Python: `legal_moves()`, a random choice, `play()` per turn;
- the PettingZoo environment: `last()` (an observation with its action
  mask) and `step()` per turn, the random action taken from
  `info["legal_actions"]` (the mask's nonzero entries, listed by the
  engine: numpy's `nonzero` over a 69,192-entry mask alone costs more
  than the rest of a step);
- the same without observations (`last(observe=False)`), for `env()` and
  for it inside PettingZoo's `AssertOutOfBoundsWrapper` and
  `OrderEnforcingWrapper`, as `env()` returned it before it made their
  checks itself: the wrappers' cost.

    python python/examples/benchmark.py [--seconds 5] [--cli target/release/carcassonne]

With --cli, the same run also times `carcassonne bench` (the engine alone,
no Python) for the figure beside them.

Prints one line per way and, with --json, a JSON object.
"""

import argparse
import json
import random
import re
import subprocess
import time

import carcassonne


def rate(play_one, seconds):
    """Games per second of `play_one(seed)` over about `seconds`."""
    play_one(0)  # warm up
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_one(games + 1)
        games += 1
    return games / (time.perf_counter() - start)


def rust_playout(seed):
    carcassonne.Game(seed=seed).playout(seed)


def python_game(seed):
    rng = random.Random(seed)
    game = carcassonne.Game(seed=seed)
    while not game.finished:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])


def env_game(env, observe=True):
    def play(seed):
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            _obs, _reward, terminated, truncated, info = env.last(observe)
            if terminated or truncated:
                action = None
            else:
                legal = info["legal_actions"]
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)

    return play


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cli", help="the carcassonne binary, to time `carcassonne bench` in the same run")
    args = ap.parse_args()
    from pettingzoo.utils import wrappers

    from carcassonne.env import env, raw_env

    figures = {}
    if args.cli:
        out = subprocess.run([args.cli, "bench", "--games", "100000"], capture_output=True, text=True, check=True)
        figures["cli_bench"] = float(re.search(r"([0-9.]+) games/s", out.stdout).group(1))
    figures |= {
        "rust_playout": rate(rust_playout, args.seconds),
        "python_game": rate(python_game, args.seconds),
        "env_game": rate(env_game(raw_env()), args.seconds),
        "env_no_obs": rate(env_game(env(), observe=False), args.seconds),
        "wrapped_no_obs": rate(env_game(wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env())),
                                        observe=False), args.seconds),
    }
    labels = {
        "cli_bench": "carcassonne bench (Rust, no Python)",
        "rust_playout": "Game.playout (all in Rust)",
        "python_game": "Game from Python (legal_moves, play)",
        "env_game": "PettingZoo env (observe with mask, step)",
        "env_no_obs": "env() without observations",
        "wrapped_no_obs": "the same in PettingZoo's two wrappers",
    }
    for key, games in figures.items():
        print(f"{labels[key]:<45} {games:>10,.1f} games/s")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
