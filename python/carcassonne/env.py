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
recall; with an expansion also the big follower, builder and pig spots:
`core.decision_names`), with an action mask. Observations are numpy arrays ("Observations")
and never hold what the observer cannot see: not the bag's order, not the
hidden hands of others. Needs `pettingzoo` and `gymnasium`
(`pip install "./python[env]"`).
"""

from __future__ import annotations

import operator
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "carcassonne.env needs pettingzoo and gymnasium: pip install 'carcassonne[env]' "
        "(or pip install pettingzoo gymnasium)"
    ) from e

from ._carcassonne import DEFAULT_RADIUS, TILE_KINDS, Bot, EnvCore

REWARDS = ("win", "score")
ILLEGAL = ("lose", "raise")
RENDER_MODES = ["ansi", "rgb_array", "human"]


# The most each board plane holds on the base game's rules (python/README.md,
# "Observations"; `plane_high(core)` for any rules); the
# others are 0 or 1. True bounds also keep libraries that take any uint8 Box
# of three dimensions bounded by 0 and 255 for an image (Stable-Baselines3)
# from putting the board through a CNN made for Atari frames.
PLANE_HIGH = {"tile": TILE_KINDS, "rotation": 3, "follower_spot": 14}


def plane_high(core: EnvCore) -> Dict[str, int]:
    """The planes of `board` whose values go above 1, and their bounds: the
    tile (its id + 1), the rotation, the figure's spot (its index + 1)."""
    return {"tile": core.tile_kinds, "rotation": 3, "follower_spot": 15 if core.expansions else 14}


def board_high(core: EnvCore) -> np.ndarray:
    """The upper bound of each value of `board`, shape (planes, W, W)."""
    high = plane_high(core)
    top = np.array([high.get(name, 1) for name in core.plane_names], dtype=np.uint8)
    return np.broadcast_to(top[:, None, None], (len(top), core.width, core.width)).copy()


def observation_space(core: EnvCore) -> spaces.Dict:
    """The observation space of an environment core (the same for every agent)."""
    n, s, kinds = core.players, core.slots, core.tile_kinds
    u8 = np.uint8
    parts: Dict[str, spaces.Space] = {
        "board": spaces.Box(np.zeros_like(board_high(core)), board_high(core), dtype=u8),
        "hands": spaces.Box(0, 1, (n, s, kinds), u8),
        "hand_sizes": spaces.Box(0, 3, (n,), u8),
        "unseen": spaces.Box(0, 255, (kinds,), u8),
        "scores": spaces.Box(0, np.iinfo(np.int32).max, (n,), np.int32),
        "supply": spaces.Box(0, 7, (n,), u8),
        "abbot": spaces.Box(0, 1, (n,), u8),
        "to_move": spaces.Box(0, 1, (n,), u8),
    }
    if core.expansions:
        goods = np.broadcast_to(np.array(core.goods_high, dtype=u8), (n, 3))
        parts.update(
            {
                "big_follower": spaces.Box(0, 1, (n,), u8),
                "builder": spaces.Box(0, 1, (n,), u8),
                "pig": spaces.Box(0, 1, (n,), u8),
                "goods": spaces.Box(np.zeros((n, 3), u8), goods.copy(), dtype=u8),
                "bonus": spaces.Box(0, 1, (1,), u8),
            }
        )
    parts["action_mask"] = mask_space(core)
    return spaces.Dict(parts)


# The arrays of a "flat" observation, in order (python/README.md, "Flat
# observations"); with an expansion `EXPANSION_KEYS` follow them.
FLAT_KEYS = ("board", "hands", "hand_sizes", "unseen", "scores", "supply", "abbot", "to_move")
EXPANSION_KEYS = ("big_follower", "builder", "pig", "goods", "bonus")
OBSERVATIONS = ("dict", "flat")


def flat_keys(core: EnvCore) -> Tuple[str, ...]:
    """The arrays of a flat observation of this core, in order."""
    return FLAT_KEYS + EXPANSION_KEYS if core.expansions else FLAT_KEYS


def _parts(core: EnvCore) -> List[spaces.Box]:
    space = observation_space(core)
    return [space.spaces[k] for k in flat_keys(core)]  # type: ignore[misc]


def flat_layout(core: EnvCore) -> Dict[str, Tuple[slice, Tuple[int, ...]]]:
    """Where each array of the dict observation lies in a flat one: its
    slice of the vector and its shape (`vec[sl].reshape(shape)`)."""
    layout, at = {}, 0
    for key, part in zip(flat_keys(core), _parts(core)):
        layout[key] = (slice(at, at + int(np.prod(part.shape))), part.shape)
        at += int(np.prod(part.shape))
    return layout


def flat_space(core: EnvCore) -> spaces.Box:
    """The space of a flat observation: one float32 vector, the arrays of the
    dict observation (without the mask) one after the other, in `FLAT_KEYS` order."""
    parts = _parts(core)
    low = np.concatenate([p.low.ravel().astype(np.float32) for p in parts])
    high = np.concatenate([p.high.ravel().astype(np.float32) for p in parts])
    return spaces.Box(low, high, dtype=np.float32)


def flatten(obs: Dict[str, np.ndarray]) -> np.ndarray:
    """A dict observation as one float32 vector (`flat_space`)."""
    keys = FLAT_KEYS + EXPANSION_KEYS if "bonus" in obs else FLAT_KEYS
    return np.concatenate([obs[k].ravel() for k in keys], dtype=np.float32)


def action_shape(core: EnvCore) -> Tuple[int, int, int, int, int]:
    """The flat action space as the array it indexes, in C order: (hand slot,
    row y + radius, column x + radius, rotation, decision). A flat action is
    `np.ravel_multi_index((slot, row, col, rot, decision), action_shape(core))`,
    and a spatial policy's logits of that shape, flattened, are the action's.
    The decisions are `core.decision_names` (18 on the base game's rules,
    46 with an expansion)."""
    return (core.slots, core.width, core.width, 4, core.decisions)


def mask_space(core: EnvCore) -> spaces.Box:
    return spaces.Box(0, 1, (core.action_size,), np.int8)


def state_space(core: EnvCore) -> spaces.Box:
    """The space of `state()`: one flat int32 array (python/README.md, "State")."""
    return spaces.Box(0, np.iinfo(np.int32).max, (core.state_size,), np.int32)


def action_index(action: Any, core: EnvCore) -> int:
    """An action as an int in the flat space: an integer (Python's or
    numpy's), never a float (`TypeError`), in range (`ValueError`)."""
    try:
        a = operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an integer, not {type(action).__name__} ({action!r})") from None
    if not 0 <= a < core.action_size:
        raise ValueError(f"action {a} is outside the action space (0 to {core.action_size - 1})")
    return a


def _check_options(reward: str, illegal: str, render_mode: Optional[str], observation: str = "dict") -> None:
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal must be one of {ILLEGAL}, not {illegal!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, not {render_mode!r}")


def _render(core: EnvCore, render_mode: Optional[str]) -> Union[None, str, np.ndarray]:
    """`ansi`: the text board; `rgb_array`: the board as an image; `human`:
    prints the text board and returns None; no mode: warns, None."""
    if render_mode is None:
        gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi', "
                              "'rgb_array' or 'human'")
        return None
    if render_mode == "rgb_array":
        return core.game().to_rgb()
    text = render_text(core)
    if render_mode == "human":
        print(text)
        return None
    return text


def _observation_space_of(core: EnvCore, observation: str, mask: bool) -> spaces.Space:
    """The space of the observations an environment gives (see `_shape`)."""
    if observation == "dict":
        space = observation_space(core)
        if mask:
            return space
        return spaces.Dict({k: v for k, v in space.spaces.items() if k != "action_mask"})
    if mask:
        return spaces.Dict({"observation": flat_space(core), "action_mask": mask_space(core)})
    return flat_space(core)


def _shape(obs: Dict[str, np.ndarray], observation: str, mask: bool) -> Any:
    """A dict observation (with its mask) in the form an environment gives:
    "dict" the arrays by name (the mask among them, or not); "flat" one
    vector, beside the mask as PettingZoo's classic games give it
    (`{"observation", "action_mask"}`), or alone."""
    if observation == "dict":
        if not mask:
            del obs["action_mask"]
        return obs
    flat = flatten(obs)
    return {"observation": flat, "action_mask": obs["action_mask"]} if mask else flat


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
    code, `"big-box"` and every expansion among them), `players` (2–6),
    `radius` (of the window of cells around the start tile that actions
    and board planes cover; None: 15, or 20 with an expansion), `reward` (`"win"`: +1
    to the winners and -1 to the others at the end; `"score"`: each step,
    the points each seat gained), `observation` (`"dict"`: the arrays by
    name, the mask among them; `"flat"`: `{"observation": one float32
    vector, "action_mask": the mask}`, the convention of PettingZoo's
    classic games that Tianshou and AgileRL read).

    `infos[agent]["legal_actions"]` holds the legal actions of the agent to
    move (ascending), the same as the nonzero entries of its mask.

    An action is an integer in the flat space: a float raises `TypeError`,
    a negative or too large one `ValueError`, and neither changes anything.
    An action in the space but outside the mask ends the game
    (`illegal="lose"`, the default): the agent gets -1, the others 0, and
    `infos[agent]["illegal"]` is True. With `illegal="raise"` it raises
    `IllegalMoveError` (a `ValueError`) and changes nothing.

    `state()` is the whole table for a centralised critic (`state_space`).
    """

    metadata = {"name": "carcassonne_v0", "render_modes": RENDER_MODES, "is_parallelizable": False, "render_fps": 2}

    def __init__(
        self,
        rules: str = "standard",
        players: int = 2,
        radius: Optional[int] = None,
        reward: str = "win",
        render_mode: Optional[str] = None,
        illegal: str = "lose",
        observation: str = "dict",
    ):
        super().__init__()
        _check_options(reward, illegal, render_mode, observation)
        self.core = EnvCore(rules, players, radius, 0)
        self.observation = observation
        self.reward_mode = reward
        self.illegal = illegal
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._observation_space = _observation_space_of(self.core, observation, True)
        self._action_space = spaces.Discrete(self.core.action_size)
        self.state_space = state_space(self.core)
        self.agents: List[str] = []
        self._has_reset = False

    def _check_reset(self, call: str) -> None:
        """The order PettingZoo's OrderEnforcingWrapper checks, checked here
        at the cost of one attribute instead of a wrapper's lookups."""
        if not self._has_reset:
            raise RuntimeError(f"{call}() before reset(): call reset() first")

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self._has_reset = True
        self.core.reset(_seed(seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = self.core.scores
        self._select()
        if self.render_mode == "human":
            self.render()

    def state(self) -> np.ndarray:
        """The whole table (every hand, the bag's counts; never the bag's order)."""
        self._check_reset("state")
        return self.core.state()

    def _select(self) -> None:
        seat = self.core.to_move
        assert seat is not None, "a game that is not over has a player to move"
        self.agent_selection = self.possible_agents[seat]
        legal = self.core.legal_actions()
        # The flat form follows PettingZoo's classic games: the mask is in the
        # observation and the infos hold nothing (a list of varying length
        # there is what libraries that stack infos into arrays cannot take).
        self.infos[self.agent_selection] = {"legal_actions": legal} if self.observation == "dict" else {}
        if len(legal) == 0:
            # Every legal move lies outside the window: the game cannot go
            # on in this action space, so it is truncated (never seen with
            # the default radius on standard rules; python/README.md).
            for a in self.agents:
                self.truncations[a] = True

    def observe(self, agent: str) -> Any:
        self._check_reset("observe")
        return _shape(self.core.observe(self._index[agent]), self.observation, True)

    def last(self, observe: bool = True):
        self._check_reset("last")
        return super().last(observe)

    def step(self, action: Optional[int]) -> None:
        self._check_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game has ended")
        act = action_index(action, self.core)
        if self.illegal == "lose" and not self.core.is_legal(act):
            self._lose(agent)
            return
        self.core.step(act)
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
        if self.render_mode == "human":
            self.render()

    def _lose(self, agent: str) -> None:
        """An illegal action with `illegal="lose"`: the game ends, -1 to the agent."""
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = -1.0 if a == agent else 0.0
        self.infos[agent] = {"illegal": True}
        self._accumulate_rewards()

    def render(self) -> Union[None, str, np.ndarray]:
        self._check_reset("render")
        return _render(self.core, self.render_mode)

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
    """The environment (the same as `env()`: it needs no wrappers)."""
    return CarcassonneEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's `env()` gives one: checked. The checks
    PettingZoo's wrappers make (no call before `reset`, actions in range)
    the environment makes itself, so this is `raw_env`: the wrappers around
    it cost 3.7× to 9× its speed in attribute lookups (python/README.md,
    "Speed")."""
    return CarcassonneEnv(**kwargs)


class SingleAgentEnv(gymnasium.Env):
    """One seat against built-in bots, as a Gymnasium environment.

    `seat` is the agent's seat; `opponents` a bot spec (`"greedy"`,
    `"random"`, `"mcts:200it"`, …) for every other seat, or a list with one
    spec per other seat. `reset` plays the bots up to the agent's first
    turn and `step` plays the agent's action and then the bots' turns.
    Rewards as in `CarcassonneEnv` (for the agent's seat). `action_masks()`
    gives the mask as booleans (as sb3-contrib's MaskablePPO expects).
    `observation` as in `CarcassonneEnv`; `action_mask=False` leaves the
    mask out of the observation (a "flat" one is then the vector alone, as
    Stable-Baselines3's `MlpPolicy` takes it).

    Actions are checked as in `CarcassonneEnv`: a float raises `TypeError`,
    one out of range `ValueError`; one in range but outside the mask ends the
    episode with reward -1 and `info["illegal"]` (`illegal="lose"`, the
    default, so that learners without masks and Gymnasium's `check_env`,
    which steps unmasked samples, work), or raises `IllegalMoveError` and
    changes nothing (`illegal="raise"`).

    `info` holds `legal_actions` (a list, so that Gymnasium's vector
    environments can batch infos of different lengths) and `scores` (an
    int32 array, by seat). The bots' choices are drawn from the episode's
    seed and the move number, so an environment pickles by its game alone.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 2}

    def __init__(
        self,
        rules: str = "standard",
        players: int = 2,
        seat: int = 0,
        opponents: Union[str, Sequence[str]] = "greedy",
        radius: Optional[int] = None,
        reward: str = "win",
        render_mode: Optional[str] = None,
        illegal: str = "lose",
        observation: str = "dict",
        action_mask: bool = True,
    ):
        _check_options(reward, illegal, render_mode, observation)
        self.illegal = illegal
        self.observation = observation
        self.action_mask = bool(action_mask)
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
        self.observation_space = _observation_space_of(self.core, observation, self.action_mask)
        self.action_space = spaces.Discrete(self.core.action_size)
        others = [s for s in range(players) if s != seat]
        self._spec_of = dict(zip(others, specs))
        self._game_seed = 0
        self._scores: List[int] = []
        self._ended = True  # until reset

    def _play_bots(self) -> None:
        while (seat := self.core.to_move) is not None and seat != self.seat:
            # A bot per turn, seeded from the episode and the move: the
            # environment holds no bot state, so it pickles by its game.
            turn_seed = (self._game_seed * 1_000_003 + self.core.moves_played) % 2**64
            self.core.play_bot(Bot(self._spec_of[seat], turn_seed))

    def _observe(self) -> Any:
        return _shape(self.core.observe(self.seat), self.observation, self.action_mask)

    def _info(self) -> Dict[str, Any]:
        return {"legal_actions": self.core.legal_actions().tolist(),
                "scores": np.asarray(self.core.scores, dtype=np.int32)}

    def _truncated(self, info: Dict[str, Any]) -> bool:
        """Whether the agent has no action in the window (see CarcassonneEnv)."""
        return not self.core.finished and len(info["legal_actions"]) == 0

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self._game_seed = int(self.np_random.integers(0, 2**63))
        self.core.reset(self._game_seed)
        self._ended = False
        self._scores = self.core.scores
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: int):
        a = action_index(action, self.core)
        if self._ended or self.core.finished:
            raise ValueError("the episode has ended: call reset()")
        if self.illegal == "lose" and not self.core.is_legal(a):
            self._ended = True
            info = {**self._info(), "illegal": True}
            return self._observe(), -1.0, True, False, info
        self.core.step(a)
        self._play_bots()
        scores = self.core.scores
        reward = float(scores[self.seat] - self._scores[self.seat]) if self.reward_mode == "score" else 0.0
        self._scores = scores
        terminated = self.core.finished
        if terminated:
            reward += _end_rewards(self.core, self.reward_mode)[self.seat]
        info = self._info()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, self._truncated(info), info

    def action_masks(self) -> np.ndarray:
        return self.core.mask(self.seat).astype(bool)

    def render(self) -> Union[None, str, np.ndarray]:
        return _render(self.core, self.render_mode)


# `gymnasium.make("carcassonne/SingleAgent-v0", opponents="random")` after
# `import carcassonne.env`.
GYM_ID = "carcassonne/SingleAgent-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point="carcassonne.env:SingleAgentEnv", disable_env_checker=True)

__all__ = ["EXPANSION_KEYS", "FLAT_KEYS", "GYM_ID", "CarcassonneEnv", "SingleAgentEnv", "action_index", "action_shape", "env", "flat_layout", "flat_space",
           "flat_keys", "flatten", "observation_space", "plane_high", "raw_env", "render_text", "state_space"]
