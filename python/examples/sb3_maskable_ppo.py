"""sb3-contrib's MaskablePPO on the Gymnasium environment, with
Stable-Baselines3's own policy classes: "MultiInputPolicy" on the dict
observation, or "MlpPolicy" on the flat one.

MaskablePPO reads the legal actions from `SingleAgentEnv.action_masks()`,
so the mask need not be in the observation too: `action_mask=False` keeps
its 69,192 entries out of the network's input (it still works with them).

    pip install sb3-contrib "carcassonne[env]"
    python python/examples/sb3_maskable_ppo.py --steps 2048 --policy MultiInputPolicy
    python python/examples/sb3_maskable_ppo.py --steps 2048 --policy MlpPolicy

`--radius 8` (17 × 17 cells, 20,808 actions; in 2,048 games of random moves
against random none was truncated by it) makes the network and each step
about three times smaller. This shows the plumbing; see ppo_vector.py for a
policy that wins.
"""

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from carcassonne import DEFAULT_RADIUS
from carcassonne.env import SingleAgentEnv


def play(model, env, games, seed):
    """Wins of the model (its most likely legal action) in `games` deals."""
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
    return wins


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=2048)
    ap.add_argument("--policy", choices=["MultiInputPolicy", "MlpPolicy"], default="MultiInputPolicy")
    ap.add_argument("--radius", type=int, default=DEFAULT_RADIUS)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--eval", type=int, default=4, help="evaluation games after training")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(1)  # one network step at a time: a second thread only waits
    observation = "dict" if args.policy == "MultiInputPolicy" else "flat"
    env = SingleAgentEnv(opponents=args.opponents, radius=args.radius, observation=observation, action_mask=False)
    model = MaskablePPO(args.policy, env, n_steps=min(512, args.steps), batch_size=64, n_epochs=2, seed=args.seed)
    params = sum(p.numel() for p in model.policy.parameters())
    print(f"{args.policy} on the {observation} observation: {params:,} parameters, "
          f"{env.action_space.n:,} actions")
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - start
    wins = play(model, env, args.eval, seed=10**9)
    print(f"{args.steps:,} steps in {took:.0f} s ({args.steps / took:.0f} steps/s); "
          f"then won {wins} of {args.eval} games against {args.opponents}")


if __name__ == "__main__":
    main()
