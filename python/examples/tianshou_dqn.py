"""Tianshou (2.x) on the PettingZoo environment, as PettingZoo's own Tianshou
tutorial does it for tic-tac-toe: a DQN learner against Tianshou's masked
random player, through `tianshou.env.PettingZooEnv`, with no wrapper of ours.

Tianshou reads the PettingZoo convention, `{"observation", "action_mask"}`,
which `env(observation="flat")` gives: one float32 vector and the mask.

    pip install tianshou "carcassonne[env]"
    python python/examples/tianshou_dqn.py --steps 3000

A window of radius 8 (17 × 17 cells, 20,808 actions; in 2,048 games of
random moves against random none was truncated by it) keeps the Q-network
small. This shows the plumbing, not a strong player: see ppo_vector.py for
one.
"""

import argparse
import time

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from carcassonne.env import env


def make_env(radius):
    return PettingZooEnv(env(players=2, radius=radius, observation="flat"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=3000, help="environment steps of training (both seats' moves)")
    ap.add_argument("--radius", type=int, default=8)
    ap.add_argument("--envs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    start = time.perf_counter()

    probe = make_env(args.radius)
    space = probe.observation_space["observation"]
    net = Net(state_shape=space.shape, action_shape=probe.action_space.n, hidden_sizes=[64])
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=0.2, eps_inference=0.0),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=3,
        target_update_freq=200,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space)
    # The learner is player_0; the masked random player is player_1.
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=probe)

    train_envs = DummyVectorEnv([lambda: make_env(args.radius) for _ in range(args.envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args.radius) for _ in range(args.envs)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1000)
    train = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(20_000, args.envs), exploration_noise=True)
    test = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train.reset()
    train.collect(n_step=256)

    epoch_steps = min(1000, args.steps)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train,
            test_collector=test,
            max_epochs=max(1, args.steps // epoch_steps),
            epoch_num_steps=epoch_steps,
            collection_step_num_env_steps=16,
            test_step_num_episodes=args.envs,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.1,
            test_in_training=False,
            show_progress=False,
            multi_agent_return_reduction=lambda rews: rews[:, 0],
        )
    )
    print(f"trained on {result.train_step} steps ({result.train_episode} games); the learner's best mean test "
          f"return {result.best_reward:+.2f}")

    # Every move was legal: an illegal one would have ended a game with -1 and set infos["illegal"].
    stats = test.collect(n_episode=args.envs, reset_before_collect=True)
    returns = np.asarray(stats.returns)[:, 0]
    print(f"{len(returns)} test games: learner's returns {returns.tolist()}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
