"""AgileRL on the PettingZoo environment, as AgileRL's connect-four tutorial
plays PettingZoo's classic games: an AgileRL DQN learns seat 0 against a
player choosing uniformly among the legal actions, reading
`observation["observation"]` and `observation["action_mask"]` from
`env.last()`, with AgileRL's own replay buffer.

`env(observation="flat")` gives that convention: one float32 vector and the
mask (python/README.md, "Flat observations").

    pip install agilerl "carcassonne[env]"
    python python/examples/agilerl_dqn.py --games 20

A window of radius 8 (17 × 17 cells, 20,808 actions; in 2,048 games of
random moves against random none was truncated by it) keeps the Q-network
small. This shows the plumbing, not a strong player: see ppo_vector.py for
one.
"""

import argparse
import time

import numpy as np
import torch
from agilerl.algorithms import DQN
from agilerl.components.data import Transition, transition_to_tensordict
from agilerl.components.replay_buffer import ReplayBuffer

from carcassonne.env import env


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--radius", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()

    game = env(players=2, radius=args.radius, observation="flat")
    game.reset(seed=args.seed)
    learner_seat = game.possible_agents[0]
    agent = DQN(
        observation_space=game.observation_space(learner_seat)["observation"],
        action_space=game.action_space(learner_seat),
        net_config={"encoder_config": {"hidden_size": [64]}},
        batch_size=64,
        lr=1e-3,
        learn_step=4,
    )
    memory = ReplayBuffer(max_size=20_000)
    epsilon, results, learned = 1.0, [], 0

    for episode in range(args.games):
        game.reset(seed=args.seed + episode)
        pending = None  # the learner's last (observation, action), waiting for its next observation
        for seat in game.agent_iter():
            observation, reward, terminated, truncated, info = game.last()
            done = terminated or truncated
            if seat == learner_seat:
                state, mask = observation["observation"], observation["action_mask"]
                if pending is not None:
                    transition = transition_to_tensordict(Transition(
                        obs=pending[0][None], action=np.array([pending[1]]), reward=np.array([reward], np.float32),
                        next_obs=state[None], done=np.array([done], np.float32)))
                    transition.batch_size = torch.Size([1])
                    memory.add(transition)
                if done:
                    results.append(reward)
                    game.step(None)
                    continue
                action = int(agent.get_action(state, epsilon=epsilon, action_mask=mask)[0])
                assert mask[action] == 1, "the agent chose outside the mask"
                pending = (state, action)
                game.step(action)
                if len(memory) >= agent.batch_size and len(memory) % agent.learn_step == 0:
                    agent.learn(memory.sample(agent.batch_size))
                    learned += 1
            else:
                game.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        epsilon = max(0.1, epsilon * 0.9)

    wins = sum(r > 0 for r in results)
    print(f"{len(results)} games against a random player: {wins} won; {learned} learning steps on "
          f"{len(memory)} transitions; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
