"""Carcassonne as a PettingZoo AEC environment, and a Gymnasium
single-agent wrapper that plays the other seats with a built-in bot.

>>> from carcassonne.env import raw_env
>>> env = raw_env(rules="standard", players=2)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(info["legal_actions"][0])
...     env.step(action)

The action space is fixed for a rule set and seat count (python/README.md,
"Actions"): one flat `Discrete` over hand slot × cell of a window around
the start tile × rotation × decision (pass, a follower spot, the abbot,
recall), with an action mask. Observations are numpy arrays ("Observations")
and never hold what the observer cannot see: not the bag's order, not the
hidden hands of others. Needs `pettingzoo` and `gymnasium`
(`pip install "./python[env]"`).
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "carcassonne.env needs pettingzoo and gymnasium: pip install 'carcassonne[env]' "
        "(or pip install pettingzoo gymnasium)"
    ) from e

from ._carcassonne import DEFAULT_RADIUS, TILE_KINDS, Bot, EnvCore

REWARDS = ("win", "score")


def observation_space(core: EnvCore) -> spaces.Dict:
    """The observation space of an environment core (the same for every agent)."""
    n, w, s = core.players, core.width, core.slots
    planes = len(core.plane_names)
    u8 = np.uint8
    return spaces.Dict(
        {
            "board": spaces.Box(0, 255, (planes, w, w), u8),
            "hands": spaces.Box(0, 1, (n, s, TILE_KINDS), u8),
            "hand_sizes": spaces.Box(0, 3, (n,), u8),
            "unseen": spaces.Box(0, 255, (TILE_KINDS,), u8),
            "scores": spaces.Box(0, np.iinfo(np.int32).max, (n,), np.int32),
            "supply": spaces.Box(0, 7, (n,), u8),
            "abbot": spaces.Box(0, 1, (n,), u8),
            "to_move": spaces.Box(0, 1, (n,), u8),
            "action_mask": spaces.Box(0, 1, (core.action_size,), np.int8),
        }
    )


def _seed(seed: Optional[int]) -> int:
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    return int(seed) & 0xFFFF_FFFF_FFFF_FFFF


def _end_rewards(core: EnvCore, reward: str) -> List[float]:
    """Per seat at the end: +1 for a winner and -1 for the others with
    `win` (0 for all when everyone ties); nothing more with `score`."""
    if reward != "win":
        return [0.0] * core.players
    winners = set(core.winners)
    if len(winners) == core.players:
        return [0.0] * core.players
    return [1.0 if s in winners else -1.0 for s in range(core.players)]


class CarcassonneEnv(AECEnv):
    """The AEC environment: agents `player_0` … `player_{n-1}` in seat
    order; the agent to move is `agent_selection`.

    Arguments: `rules` (a rule set as `carcassonne rules` takes it, or a
    code), `players` (2–6), `radius` (of the window of cells around the
    start tile that actions and board planes cover), `reward` (`"win"`: +1
    to the winners and -1 to the others at the end; `"score"`: each step,
    the points each seat gained).

    `infos[agent]["legal_actions"]` holds the legal actions of the agent to
    move (ascending), the same as the nonzero entries of its mask.
    """

    metadata = {"name": "carcassonne_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "standard",
        players: int = 2,
        radius: int = DEFAULT_RADIUS,
        reward: str = "win",
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.core = EnvCore(rules, players, radius, 0)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.core)
        self._action_space = spaces.Discrete(self.core.action_size)
        self.agents: List[str] = []

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.core.reset(_seed(seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = self.core.scores
        self._select()

    def _select(self) -> None:
        seat = self.core.to_move
        assert seat is not None, "a game that is not over has a player to move"
        self.agent_selection = self.possible_agents[seat]
        legal = self.core.legal_actions()
        self.infos[self.agent_selection] = {"legal_actions": legal}
        if len(legal) == 0:
            # Every legal move lies outside the window: the game cannot go
            # on in this action space, so it is truncated (never seen with
            # the default radius on standard rules; python/README.md).
            for a in self.agents:
                self.truncations[a] = True

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        return self.core.observe(self._index[agent])

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game has ended")
        self.core.step(int(action))
        self.infos[agent] = {}
        self._cumulative_rewards[agent] = 0.0
        scores = self.core.scores
        if self.reward_mode == "score":
            gained = [float(new - old) for new, old in zip(scores, self._scores)]
        else:
            gained = [0.0] * self.core.players
        self._scores = scores
        if self.core.finished:
            end = _end_rewards(self.core, self.reward_mode)
            gained = [g + e for g, e in zip(gained, end)]
            for a in self.agents:
                self.terminations[a] = True
            # Each agent is then stepped once with None, in seat order from the next one.
            nxt = (self._index[agent] + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[nxt]
        else:
            self._select()
        for a in self.agents:
            self.rewards[a] = gained[self._index[a]]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        return render_text(self.core)

    def close(self) -> None:
        pass

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's mask (the same as `observe(agent)["action_mask"]`)."""
        return self.core.mask(self._index[agent])


def render_text(core: EnvCore) -> str:
    """The board as a grid of tile letters with rotations (`D0`, `E2`, …), the
    scores and whose turn it is."""
    game = core.game()
    board = game.board
    xs = [t["at"][0] for t in board]
    ys = [t["at"][1] for t in board]
    cells = {tuple(t["at"]): f"{t['tile']}{t['rot']}" for t in board}
    lines = []
    for y in range(min(ys), max(ys) + 1):
        lines.append(" ".join(f"{cells.get((x, y), '.'):>5}" for x in range(min(xs), max(xs) + 1)))
    status = "finished" if game.finished else f"seat {game.to_move} to move with {game.tile}"
    lines.append(f"scores {game.scores}; {status}")
    return "\n".join(lines)


def raw_env(**kwargs: Any) -> CarcassonneEnv:
    """The environment without wrappers (fastest)."""
    return CarcassonneEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's checks: actions in range, calls in order."""
    e: AECEnv = CarcassonneEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class SingleAgentEnv(gymnasium.Env):
    """One seat against built-in bots, as a Gymnasium environment.

    `seat` is the agent's seat; `opponents` a bot spec (`"greedy"`,
    `"random"`, `"mcts:200it"`, …) for every other seat, or a list with one
    spec per other seat. `reset` plays the bots up to the agent's first
    turn and `step` plays the agent's action and then the bots' turns.
    Rewards as in `CarcassonneEnv` (for the agent's seat). `action_masks()`
    gives the mask as booleans (as sb3-contrib's MaskablePPO expects).

    An action outside the mask raises `IllegalMoveError` and changes nothing
    (`illegal="raise"`, the default); with `illegal="lose"` it ends the
    episode instead, with reward -1 and `info["illegal"]`, for learners
    that do not use masks.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str = "standard",
        players: int = 2,
        seat: int = 0,
        opponents: Union[str, Sequence[str]] = "greedy",
        radius: int = DEFAULT_RADIUS,
        reward: str = "win",
        render_mode: Optional[str] = None,
        illegal: str = "raise",
    ):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        self.core = EnvCore(rules, players, radius, 0)
        self.seat = seat
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{players - 1} opponents are needed, {len(specs)} given")
        self.opponent_specs = specs
        for spec in specs:
            Bot(spec)  # a bad spec fails here, not at the first reset
        self.reward_mode = reward
        self.render_mode = render_mode
        self.observation_space = observation_space(self.core)
        self.action_space = spaces.Discrete(self.core.action_size)
        self._bots: Dict[int, Bot] = {}
        self._scores: List[int] = []

    def _play_bots(self) -> None:
        while (seat := self.core.to_move) is not None and seat != self.seat:
            self.core.play_bot(self._bots[seat])

    def _info(self) -> Dict[str, Any]:
        return {"legal_actions": self.core.legal_actions(), "scores": self.core.scores}

    def _truncated(self, info: Dict[str, Any]) -> bool:
        """Whether the agent has no action in the window (see CarcassonneEnv)."""
        return not self.core.finished and len(info["legal_actions"]) == 0

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.core.reset(game_seed)
        others = [s for s in range(self.core.players) if s != self.seat]
        self._bots = {s: Bot(spec, game_seed + 1 + i) for i, (s, spec) in enumerate(zip(others, self.opponent_specs))}
        self._scores = self.core.scores
        self._play_bots()
        return self.core.observe(self.seat), self._info()

    def step(self, action: int):
        if self.illegal == "lose" and (self.core.finished or self.core.mask(self.seat)[int(action)] == 0):
            info = {**self._info(), "illegal": True}
            return self.core.observe(self.seat), -1.0, True, False, info
        self.core.step(int(action))
        self._play_bots()
        scores = self.core.scores
        reward = float(scores[self.seat] - self._scores[self.seat]) if self.reward_mode == "score" else 0.0
        self._scores = scores
        terminated = self.core.finished
        if terminated:
            reward += _end_rewards(self.core, self.reward_mode)[self.seat]
        info = self._info()
        return self.core.observe(self.seat), reward, terminated, self._truncated(info), info

    def action_masks(self) -> np.ndarray:
        return self.core.mask(self.seat).astype(bool)

    def render(self) -> Optional[str]:
        return render_text(self.core) if self.render_mode == "ansi" else None


__all__ = ["CarcassonneEnv", "SingleAgentEnv", "env", "observation_space", "raw_env", "render_text"]
