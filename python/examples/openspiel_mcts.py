"""OpenSpiel's MCTS bot against one of ours, on `python_carcassonne`.

    pip install "./python[openspiel]"
    python python/examples/openspiel_mcts.py --games 4 --simulations 200 --opponent greedy

OpenSpiel's `MCTSBot` (open_spiel.python.algorithms.mcts) searches the
OpenSpiel game; its leaves are valued by `PlayoutEvaluator`, random
rollouts run in Rust (OpenSpiel's own `RandomRolloutEvaluator` gives the same
estimate, far slower: `--openspiel-rollouts` uses it). Seats alternate
between games. Prints each game and the totals.
"""

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from carcassonne.openspiel import EngineBot, PlayoutEvaluator, play


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--rollouts", type=int, default=4, help="rollouts per leaf")
    ap.add_argument("--opponent", default="greedy", help="a carcassonne.Bot spec")
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--openspiel-rollouts", action="store_true", help="OpenSpiel's RandomRolloutEvaluator")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    game = pyspiel.load_game("python_carcassonne", {"players": 2, "rules": args.rules})
    rng = np.random.RandomState(args.seed)
    if args.openspiel_rollouts:
        evaluator = mcts.RandomRolloutEvaluator(args.rollouts, rng)
    else:
        evaluator = PlayoutEvaluator(args.rollouts, args.seed)
    wins = ties = 0
    start = time.time()
    for g in range(args.games):
        searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator,
                                random_state=rng, solve=False)
        ours = EngineBot(args.opponent, seed=args.seed + g)
        seat = g % 2
        bots = [searcher, ours] if seat == 0 else [ours, searcher]
        end = play(game, bots, rng)
        scores = end.core.scores
        result = end.returns()[seat]
        wins += result > 0
        ties += result == 0
        print(f"game {g + 1}: OpenSpiel MCTS in seat {seat}, scores {scores}, "
              f"{'won' if result > 0 else 'tied' if result == 0 else 'lost'}", flush=True)
    print(f"OpenSpiel MCTS ({args.simulations} simulations) against {args.opponent}: "
          f"{wins} won, {ties} tied, {args.games - wins - ties} lost of {args.games}; {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
