"""A batch of Carcassonne games stepped in Rust, as a Gymnasium vector
environment (in the manner of EnvPool).

>>> import numpy as np
>>> from carcassonne.vector import CarcassonneVectorEnv
>>> envs = CarcassonneVectorEnv(num_envs=64, opponents="random", actions="legal")
>>> obs, info = envs.reset(seed=1)
>>> rng = np.random.default_rng(1)
>>> for _ in range(100):
...     pick = (rng.random(envs.num_envs) * info["legal_count"]).astype(np.int64)
...     obs, reward, terminated, truncated, info = envs.step(pick)

Each game is one seat (`seat`, the learner) against built-in bots
(`opponents`), as in `carcassonne.env.SingleAgentEnv` (or, with
`opponents="self"`, the learner at every seat: self-play, below): the same
rewards, the same observation layout (python/README.md, "Observations") with a
leading batch axis, and game i of `reset(seed=s)` is the game of
`SingleAgentEnv(...).reset(seed=s + i)`. One `step` plays every game's
action and the bots' answers in Rust, with the GIL released, over
`threads` threads, and writes the observations in place: `obs` holds the
same numpy arrays after every call (pass `copy=True` for fresh ones).

Actions are flat actions (`actions="flat"`, the single environment's
69,192-entry space on standard rules) or indices into each game's list of
legal actions (`actions="legal"`). `info["legal_actions"]` holds that list
in a fixed shape, ascending and padded with -1, and `info["legal_count"]`
its length; `action_mask=True` adds the flat mask to the observation.

Self-play (`opponents="self"`): a step is one move, by the seat to move,
and each observation is the view of the seat to move next (relative
seats, as in `CarcassonneEnv.observe`); `info["seat"]` says which. The
reward is that of the seat that just moved. `seat` is ignored.

Games that end are reset by the next step, which ignores their action
(Gymnasium's next-step autoreset, `metadata["autoreset_mode"]`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "carcassonne.vector needs gymnasium: pip install 'carcassonne[env]' (or pip install gymnasium)"
    ) from e

from ._carcassonne import DEFAULT_RADIUS, CarcassonneError, EnvCore, VecCore
from .env import observation_space

ACTION_FORMS = ("flat", "legal")


def _bad(message: str, code: str = "bad_action") -> CarcassonneError:
    err = CarcassonneError(message)
    err.code = code  # type: ignore[attr-defined]
    return err


class CarcassonneVectorEnv(VectorEnv):
    """`num_envs` games of one seat against built-in bots, stepped in Rust.

    Arguments as `SingleAgentEnv`'s (`rules`, `players`, `seat`,
    `opponents`: one bot spec for every other seat or one per other seat,
    `radius`, `reward`, `illegal`), and:

    - `actions`: `"flat"` (an action of the single environment's space) or
      `"legal"` (an index into the game's `info["legal_actions"]` row);
    - `action_mask`: also write the flat int8 mask into the observation
      (`obs["action_mask"]`, as the single environment's);
    - `threads`: how many threads step the games (default: every core);
    - `max_legal`: the width of `info["legal_actions"]`; by default a bound
      no turn can exceed. A smaller width lists only the first `max_legal`
      actions of a longer list (and `"legal"` indices reach only those),
      while `legal_count` counts all of them and flat actions reach all.
    - `copy`: return copies of the observation arrays instead of the
      arrays the batch writes into.

    An illegal action (in the action space but not legal) ends that game's
    episode with reward -1 and `info["illegal"]` (`illegal="lose"`, the
    default, as in `SingleAgentEnv`), or raises `IllegalMoveError` (code
    `not_legal`, `env` the game's index) and changes nothing
    (`illegal="raise"`). An action outside the action space, of the wrong
    shape or not an integer raises `CarcassonneError` with code
    `bad_action`.

    `info` holds `legal_actions` and `legal_count` (below), `scores` (by
    seat, as `SingleAgentEnv`'s `info["scores"]`), `seat` (the seat whose
    view the observation is) and, with `illegal="lose"`, `illegal`.

    With `opponents="self"` the learner plays every seat, one move a step:
    each observation is the view of the seat to move, and the reward that
    of the seat that just moved (at the end, that seat's).
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 256,
        rules: str = "standard",
        players: int = 2,
        seat: int = 0,
        opponents: Union[str, Sequence[str]] = "greedy",
        radius: Optional[int] = None,
        reward: str = "win",
        illegal: str = "lose",
        actions: str = "flat",
        action_mask: bool = False,
        threads: Optional[int] = None,
        max_legal: Optional[int] = None,
        copy: bool = False,
    ):
        # The arguments, kept for pickling (`__reduce__`).
        self._kwargs = dict(num_envs=num_envs, rules=rules, players=players, seat=seat, opponents=opponents,
                            radius=radius, reward=reward, illegal=illegal, actions=actions, action_mask=action_mask,
                            threads=threads, max_legal=max_legal, copy=copy)
        if actions not in ACTION_FORMS:
            raise ValueError(f"actions must be one of {ACTION_FORMS}, not {actions!r}")
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        self.self_play = specs == ["self"]
        self.core = VecCore(num_envs, rules, players, seat, specs, radius, reward, illegal, action_mask, max_legal, threads)
        single = observation_space(EnvCore(rules, players, radius, 0))
        if not action_mask:
            single = spaces.Dict({k: v for k, v in single.spaces.items() if k != "action_mask"})
        self.num_envs = num_envs
        self.single_observation_space = single
        self.observation_space = batch_space(single, num_envs)
        self.short = actions == "legal"
        self.single_action_space: spaces.Discrete = spaces.Discrete(self.core.max_legal if self.short else self.core.action_size)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.illegal = illegal
        self.copy = copy
        self._buffers = self.core.buffers()
        self._obs_keys = list(single.spaces)
        self._everyone = np.ones(num_envs, dtype=bool)
        self._info_keys = ["legal_actions", "legal_count"] + (["illegal"] if illegal == "lose" else [])

    @property
    def threads(self) -> int:
        return self.core.threads

    def _observation(self) -> Dict[str, np.ndarray]:
        b = self._buffers
        if self.copy:
            return {k: b[k].copy() for k in self._obs_keys}
        return {k: b[k] for k in self._obs_keys}

    def _info(self) -> Dict[str, Any]:
        b = self._buffers
        info: Dict[str, Any] = {}
        for k in self._info_keys:
            info[k] = b[k].copy() if self.copy or k != "legal_actions" else b[k]
            info["_" + k] = self._everyone
        info["scores"] = b["seat_scores"].copy()
        info["seat"] = b["seat"].copy()
        info["_scores"] = info["_seat"] = self._everyone
        return info

    def reset(
        self,
        *,
        seed: Optional[Union[int, List[Optional[int]]]] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """New games: `seed` an int (game i from `seed + i`), a list of one
        seed (or None) per game, or None (fresh entropy). `options` may hold
        `reset_mask`, a bool array: only those games start anew."""
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
            seeds: List[Optional[int]] = [int(seed) + i for i in range(self.num_envs)]
        elif seed is None:
            seeds = [None] * self.num_envs
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise _bad(f"{self.num_envs} seeds are needed, {len(seeds)} given", "bad_reset")
        # As SingleAgentEnv.reset(seed=s) draws its game's seed.
        game_seeds = [int(seeding.np_random(s)[0].integers(0, 2**63)) for s in seeds]
        mask = (options or {}).get("reset_mask")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise _bad(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)", "bad_reset")
            mask = mask.tolist()
        self.core.reset(game_seeds, mask)
        return self._observation(), self._info()

    def step(
        self, actions: Any
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise _bad(f"actions must have shape ({self.num_envs},), not {a.shape}")
        if a.dtype.kind not in "iu":
            raise _bad(f"actions must be integers, not {a.dtype}")
        if a.dtype == np.uint64 and a.max() > np.iinfo(np.int64).max:
            raise _bad(f"action {a.max()} is outside the action space")
        self.core.step(np.ascontiguousarray(a, dtype=np.int64), self.short)
        b = self._buffers
        return (
            self._observation(),
            b["reward"].copy(),
            b["terminated"].copy(),
            b["truncated"].copy(),
            self._info(),
        )

    def action_masks(self) -> np.ndarray:
        """The flat masks as booleans, shape (num_envs, actions) (for
        learners such as sb3-contrib's MaskablePPO)."""
        if "action_mask" in self._buffers and self._buffers["action_mask"].shape[1] > 0:
            return self._buffers["action_mask"].astype(bool)
        masks = np.zeros((self.num_envs, self.core.action_size), dtype=bool)
        legal = self._buffers["legal_actions"]
        rows, cols = np.nonzero(legal >= 0)
        masks[rows, legal[rows, cols]] = True
        return masks

    def close_extras(self, **kwargs: Any) -> None:
        pass

    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickling and `copy.deepcopy`: the arguments, every game as `Game`
        pickles (its record and live bag) with its seed and episode state,
        the last step's rewards and end flags, and the seeding generator.
        The copy steps on exactly as the original."""
        b = self._buffers
        last = {k: b[k].copy() for k in ("reward", "terminated", "truncated", "illegal")}
        extra = {k: self.__dict__[k] for k in ("_np_random", "_np_random_seed") if k in self.__dict__}
        return (_restore, (self._kwargs, self.core.tables_state(), last, extra))


def _restore(kwargs: Dict[str, Any], tables: List[Any], last: Dict[str, np.ndarray],
             extra: Dict[str, Any]) -> CarcassonneVectorEnv:
    """The inverse of `CarcassonneVectorEnv.__reduce__`."""
    envs = CarcassonneVectorEnv(**kwargs)
    envs.core.restore(tables)
    for k, v in last.items():
        envs._buffers[k][...] = v
    envs.__dict__.update(extra)
    return envs


__all__ = ["CarcassonneVectorEnv"]
