"""Learn to beat the random bot: a tiny policy gradient (REINFORCE) on the
Gymnasium wrapper, in plain numpy, in a few minutes on one core.

The policy is a softmax over the legal actions (the environment's mask)
with a linear score of a few features per action, found by trying the move
on a copy of the game: the points it scores at once for the agent and for
the others, whether it deploys a follower and as what (knight, highwayman,
monk, farmer), the followers left, and how far the game is. It learns
which of these are worth it from whole games won and lost.

    python python/examples/train_vs_random.py [--games 8000] [--eval 500]

Prints the win rate against `random` before and after training, over the
same evaluation deals (python/README.md has a measured run).
"""

import argparse
import time

import numpy as np

from carcassonne.env import SingleAgentEnv

FEATURES = ["my_points", "their_points", "follower", "knight", "thief", "monk", "farmer", "supply_left",
            "progress", "bias_pass"]


def action_features(env, legal):
    """One row of FEATURES per legal action."""
    core = env.core
    game = core.game()
    me = env.seat
    before = game.scores
    rows = np.zeros((len(legal), len(FEATURES)))
    progress = game.moves_played / 72.0
    for i, a in enumerate(legal):
        move = core.decode(int(a))
        after = game.copy()
        after.play(move)
        scores = after.scores
        mine = scores[me] - before[me]
        theirs = sum(s - b for p, (s, b) in enumerate(zip(scores, before)) if p != me)
        role = None
        if move.meeple is not None:
            placed = [f for f in after.followers if f["seat"] == me and tuple(f["at"]) == move.at]
            role = placed[0]["role"] if placed else "scored"  # a follower that scored at once went home
        rows[i] = [
            mine / 10.0,
            theirs / 10.0,
            move.meeple is not None,
            role == "knight",
            role == "thief",
            role == "monk",
            role == "farmer",
            after.supply(me) / 7.0,
            progress,
            move.meeple is None and move.abbot is None,
        ]
    return rows


def policy(weights, feats):
    logits = feats @ weights
    logits -= logits.max()
    p = np.exp(logits)
    return p / p.sum()


def play(env, weights, rng, seed, learn=None):
    """One game; with `learn` (a list), the (features, chosen index) of every turn are appended."""
    _obs, info = env.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        legal = info["legal_actions"]
        feats = action_features(env, legal)
        probs = policy(weights, feats)
        choice = rng.choice(len(legal), p=probs)
        if learn is not None:
            learn.append((feats, choice))
        _obs, reward, terminated, truncated, info = env.step(int(legal[choice]))
        done = terminated or truncated
    return reward


def win_rate(env, weights, deals, rng):
    results = [play(env, weights, rng, seed) for seed in deals]
    return sum(r > 0 for r in results) / len(results)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=8000, help="training games")
    ap.add_argument("--eval", type=int, default=500, help="evaluation games, before and after")
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    env = SingleAgentEnv(rules="standard", players=2, opponents="random")
    weights = np.zeros(len(FEATURES))
    deals = [10_000_000 + i for i in range(args.eval)]  # evaluation deals, never trained on
    start = time.perf_counter()
    before = win_rate(env, weights, deals, rng)
    print(f"before training (a uniform choice among legal actions): wins {before:.1%} of {args.eval} games against random")

    baseline = 0.0
    for game in range(args.games):
        turns = []
        reward = play(env, weights, rng, seed=game, learn=turns)
        baseline += 0.01 * (reward - baseline)
        advantage = reward - baseline
        grad = np.zeros_like(weights)
        for feats, choice in turns:
            probs = policy(weights, feats)
            grad += feats[choice] - probs @ feats
        weights += args.lr * advantage * grad / max(1, len(turns))
        if (game + 1) % 500 == 0:
            print(f"  {game + 1} games, running reward {baseline:+.2f}, {time.perf_counter() - start:.0f} s")

    after = win_rate(env, weights, deals, rng)
    print(f"after {args.games} games: wins {after:.1%} of the same {args.eval} games against random")
    print("weights:", ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, weights)))
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
