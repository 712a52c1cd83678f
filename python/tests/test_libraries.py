"""The deep-RL libraries of python/README.md ("Deep RL") take the
environments as they are: Stable-Baselines3's MaskablePPO with its own
policy classes, Tianshou's PettingZooEnv. CI installs them (.ci/python);
elsewhere these tests skip without them. The examples in python/examples
train with them (CI runs those too)."""

import os

import numpy as np
import pytest

from carcassonne.env import SingleAgentEnv, env


def need(module):
    if os.environ.get("CI"):
        return __import__(module)  # CI installs them: a missing one fails
    return pytest.importorskip(module)


@pytest.mark.parametrize("policy, kwargs", [
    ("MultiInputPolicy", {}),  # the issue's own line: the default environment
    ("MultiInputPolicy", {"radius": 8, "action_mask": False}),
    ("MlpPolicy", {"observation": "flat", "action_mask": False}),
])
def test_maskable_ppo_learns_and_predicts_legal_actions(policy, kwargs):
    need("sb3_contrib")
    from sb3_contrib import MaskablePPO

    e = SingleAgentEnv(opponents="random", **kwargs)
    model = MaskablePPO(policy, e, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(32)
    obs, info = e.reset(seed=5)
    for _ in range(10):
        action, _ = model.predict(obs, action_masks=e.action_masks(), deterministic=True)
        assert int(action) in info["legal_actions"]
        obs, _, terminated, truncated, info = e.step(int(action))
        assert not info.get("illegal") and not (terminated or truncated)


def test_tianshou_pettingzoo_env_reads_the_flat_form():
    need("tianshou")
    from tianshou.env import PettingZooEnv

    e = PettingZooEnv(env(observation="flat", radius=8))
    obs, info = e.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20):
        assert obs["obs"].dtype == np.float32 and obs["obs"].shape == e.observation_space["observation"].shape
        legal = np.flatnonzero(obs["mask"])
        assert len(legal) > 0
        obs, rewards, terminated, truncated, info = e.step(int(rng.choice(legal)))
        assert not terminated and not truncated and info == {}


def test_pettingzoo_sb3_action_mask_tutorial_pattern():
    """PettingZoo's sb3 tutorial for its classic games (connect four) wraps
    the AEC environment in a BaseWrapper (and gymnasium.Env) that gives `observe(agent)["observation"]`
    and `action_mask()`, and trains MaskablePPO's MlpPolicy on it through
    sb3-contrib's ActionMasker: the flat form is what it reads."""
    need("sb3_contrib")
    import gymnasium
    import pettingzoo.utils
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    class MaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            mover = self.agent_selection
            super().step(action)
            return (self.observe(self.agent_selection), self._cumulative_rewards[mover], self.terminations[mover],
                    self.truncations[mover], self.infos[mover])

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    wrapped = MaskWrapper(env(observation="flat", radius=8))
    wrapped.reset(seed=0)
    model = MaskablePPO("MlpPolicy", ActionMasker(wrapped, lambda e: e.action_mask()), n_steps=32, batch_size=32,
                        n_epochs=1, seed=0)
    model.learn(32)
    obs, _ = wrapped.reset(seed=1)
    action, _ = model.predict(obs, action_masks=wrapped.action_mask(), deterministic=True)
    assert wrapped.action_mask()[int(action)] == 1
