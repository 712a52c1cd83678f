"""Carcassonne as an OpenSpiel game: `import carcassonne.openspiel` registers
`python_carcassonne` with `pyspiel` (as OpenSpiel registers its own Python
games), so `pyspiel.load_game("python_carcassonne")` and every OpenSpiel
algorithm that takes a game work on it.

>>> import pyspiel, carcassonne.openspiel
>>> game = pyspiel.load_game("python_carcassonne", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node()       # the first player's draw
True

- Parameters: `players` (2–6), `rules` (as `carcassonne rules` takes them,
  `"big-box"` too, kept as the rule set's code, since OpenSpiel writes
  parameters into the game's string), `radius` (the window of the flat
  action space, python/README.md; 0, the default, is the rules' default:
  15, or 20 with an expansion, and the game's parameters hold the radius
  in use).
- Decision nodes: the flat action space of the environment (69,192 actions
  with the defaults, 309,304 on the Big Box; `carcassonne.EnvCore.decode`
  turns one into a move).
- Chance nodes: every draw. An outcome is a tile kind's index
  (`carcassonne.tiles()` order), with the probability of its share of the
  bag; with The River, the river tiles come first and the lake last, as the
  rules say.
- Returns at the end: +1 to the winners and -1 to the others (0 to all on a
  tie of everyone), as the environment's `reward="win"`.
- Observations and information states: what every player sees, which is
  everything but the bag's order (the rule sets it takes have no hidden
  hands; see below). The tensor is the environment's observation of that
  player without its action mask; the information state adds the order in
  which the cells were filled, and its string is the whole public history.

Rule sets with a hidden hand (`hand` above 1, `draw_at_turn_end`), with a
random first player or with `unplaceable=reshuffle` are refused: their
draws go to hands others cannot see, or back into the bag, which needs
chance outcomes private to one player (not built yet).

Needs `open_spiel` (`pip install "./python[openspiel]"`).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Dict, List, Optional, Tuple

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("carcassonne.openspiel needs open_spiel: pip install 'carcassonne[openspiel]'") from e

from ._carcassonne import EnvCore, Game, rules as parse_rules, tiles

NAME = "python_carcassonne"
# radius 0: the rules' default window (DEFAULT_RADIUS, or EXPANSION_RADIUS
# with an expansion), written into the game's parameters as the number.
_DEFAULTS = {"players": 2, "rules": "standard", "radius": 0}
_TILE_IDS = [t.id for t in tiles()]
_RIVER = {i for i, t in enumerate(tiles()) if t.river}
_LAKE = _TILE_IDS.index("RV02")

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Carcassonne",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


def _refusal(rule_text: str) -> Optional[str]:
    """Why a rule set cannot be an OpenSpiel game here, or None."""
    for option in rule_text.split(",")[1:]:
        key, _, value = option.partition("=")
        if key == "hand" and value != "1":
            return "a hand rule (hidden hands)"
        if (key, value) in (("draw_at_turn_end", "true"), ("unplaceable", "reshuffle"), ("first_player", "random")):
            return option
    return None


class CarcassonneGame(pyspiel.Game):
    """The game for one rule set, seat count and window radius."""

    def __init__(self, params: Optional[Dict] = None):
        p = {**_DEFAULTS, **(params or {})}
        # The game keeps the rule set's code: OpenSpiel writes parameters
        # into the game's string, where the commas of rule text would split.
        self.rule_text, p["rules"] = parse_rules(str(p["rules"]))
        refused = _refusal(self.rule_text)
        if refused:
            raise ValueError(f"{NAME} does not take {refused}: draws would go to hidden hands or back to the bag")
        self.players = int(p["players"])
        radius = int(p["radius"])
        self.core = EnvCore(self.rule_text, self.players, radius if radius > 0 else None, 0)
        self.radius = p["radius"] = self.core.radius
        self.template = json.loads(self.core.game().to_record())
        self.deck: Counter = Counter(_TILE_IDS.index(t) for t in self.template["deck"])
        length = sum(self.deck.values())
        info = pyspiel.GameInfo(
            num_distinct_actions=self.core.action_size,
            max_chance_outcomes=self.core.tile_kinds,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=2 * length,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> "CarcassonneState":
        return CarcassonneState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "CarcassonneObserver":
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CarcassonneObserver(self, perfect_recall, params)


class CarcassonneState(pyspiel.State):
    """A state: the engine's game for the draws made so far. At a chance
    node the engine holds a stand-in for the coming draw, which nothing
    shows (observations leave it out)."""

    def __init__(self, game: CarcassonneGame):
        super().__init__(game)
        self.drawn: List[int] = []  # the chance outcomes so far, in order
        self.log: List[str] = []  # the history in words (all of it public)
        self.core = self._rebuild(game.template["moves"])

    def _spec(self) -> CarcassonneGame:
        return self.get_game()

    # The engine replays the moves with the draws so far followed by the
    # rest of the bag in a fixed order (stand-ins for draws not yet made).
    def _left(self) -> Counter:
        left = self._spec().deck.copy()
        left.subtract(self.drawn)
        return +left

    def _rebuild(self, moves: list) -> EnvCore:
        g = self._spec()
        rest = sorted(self._left().elements())
        record = {**g.template, "deck": [_TILE_IDS[i] for i in self.drawn + rest], "moves": moves}
        return EnvCore._restore(g.rule_text, g.players, g.radius, json.dumps(record), None)

    def pending_draws(self) -> int:
        """Draws the engine has made beyond the chance outcomes (stand-ins)."""
        total = sum(self._spec().deck.values())
        return (total - self.core.tiles_left) - len(self.drawn)

    def current_player(self) -> int:
        if self.core.finished:
            return pyspiel.PlayerId.TERMINAL
        if self.pending_draws() > 0:
            return pyspiel.PlayerId.CHANCE
        if len(self.core.legal_actions()) == 0:
            return pyspiel.PlayerId.TERMINAL  # every legal move lies outside the window
        return self.core.to_move or 0

    def _legal_actions(self, player: int) -> List[int]:
        return [int(a) for a in self.core.legal_actions()]

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        left = self._left()
        river = [t for t in left if t in _RIVER and t != _LAKE]
        if river:
            left = Counter({t: left[t] for t in river})
        elif _LAKE in left:
            left = Counter({_LAKE: 1})
        total = sum(left.values())
        return [(t, n / total) for t, n in sorted(left.items())]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            if action not in dict(self.chance_outcomes()):
                raise ValueError(f"tile {action} cannot be drawn now")
            self.log.append(f"draw {_TILE_IDS[action]}")
            self.drawn.append(int(action))
            self.core = self._rebuild(json.loads(self.core.game().to_record())["moves"])
        else:
            self.log.append(self._action_to_string(self.current_player(), action))
            self.core.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {_TILE_IDS[action]}"
        move = self.core.decode(action)
        return repr(move) if move is not None else f"action {action}"

    def is_terminal(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def returns(self) -> List[float]:
        n = self._spec().players
        if not self.core.finished:
            return [0.0] * n
        winners = set(self.core.winners)
        if len(winners) == n:
            return [0.0] * n
        return [1.0 if s in winners else -1.0 for s in range(n)]

    def stand_ins(self) -> List[int]:
        """At a chance node, the tiles the engine drew in place of the draws
        to come (the first of the rest of the bag in a fixed order)."""
        return sorted(self._left().elements())[: self.pending_draws()]

    def __str__(self) -> str:
        return _text(self)


def _text(state: CarcassonneState) -> str:
    """The board, the scores and who is to move (nothing of a stand-in)."""
    game = state.core.game()
    board = game.board
    xs = [t["at"][0] for t in board]
    ys = [t["at"][1] for t in board]
    cells = {tuple(t["at"]): f"{t['tile']}{t['rot']}" for t in board}
    lines = [" ".join(f"{cells.get((x, y), '.'):>5}" for x in range(min(xs), max(xs) + 1))
             for y in range(min(ys), max(ys) + 1)]
    if game.finished:
        status = "finished"
    elif state.is_chance_node():
        status = f"seat {game.to_move} is drawing"
    else:
        status = f"seat {game.to_move} to move with {game.tile}"
    lines.append(f"scores {game.scores}; {status}")
    return "\n".join(lines)


class CarcassonneObserver:
    """Observations (`perfect_recall=False`) and information states
    (`perfect_recall=True`) of one player, as OpenSpiel's Python observer
    interface has them: `tensor` (float32) with its named parts in `dict`,
    `set_from(state, player)` and `string_from(state, player)`."""

    def __init__(self, game: CarcassonneGame, perfect_recall: bool, params: Optional[Dict]):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        core = game.core
        w = core.width
        # The environment's arrays, in its order, without the mask (with
        # an expansion, its figures in supply, goods and bonus turn too).
        pieces = [(name, a.shape) for name, a in core.observe(0).items() if name != "action_mask"]
        if perfect_recall:
            pieces.append(("filled_at", (w, w)))
        self.perfect_recall = perfect_recall
        self.radius = core.radius
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: Dict[str, np.ndarray] = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: CarcassonneState, player: int) -> None:
        """Everything `player` sees: the environment's observation (seats
        relative, 0 the player) without its mask; at a chance node, the
        stand-ins for coming draws are taken out again."""
        obs = state.core.observe(player)
        for name, view in self.dict.items():
            if name != "filled_at":
                view[...] = obs[name]
        if state.is_chance_node() and not state.core.finished:
            rel = ((state.core.to_move or 0) - player) % state.get_game().players
            self.dict["hands"][rel] = 0
            self.dict["hand_sizes"][rel] = 0
            for t in state.stand_ins():
                self.dict["unseen"][t] += 1
        if self.perfect_recall:
            filled = self.dict["filled_at"]
            filled[...] = 0
            for i, placed in enumerate(state.core.game().board):
                x, y = placed["at"][0] + self.radius, placed["at"][1] + self.radius
                if 0 <= x < filled.shape[1] and 0 <= y < filled.shape[0]:
                    filled[y, x] = i + 1

    def string_from(self, state: CarcassonneState, player: int) -> str:
        if self.perfect_recall:
            return f"seat {player}: " + " | ".join(state.log)
        return f"seat {player}\n" + _text(state)


class PlayoutEvaluator:
    """An evaluator for OpenSpiel's MCTS (`open_spiel.python.algorithms.mcts`)
    whose random rollouts run in Rust: from a state, `n_rollouts` times, the
    bag is shuffled anew and `Game.playout` plays random legal moves to the
    end; the value is the mean of the returns (+1 / -1 / 0 as `returns()`).
    The same estimate as OpenSpiel's `RandomRolloutEvaluator`, thousands of
    times faster. `prior` is uniform, as there."""

    def __init__(self, n_rollouts: int = 1, seed: int = 0):
        self.n_rollouts = n_rollouts
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state: CarcassonneState) -> np.ndarray:
        if state.is_chance_node() and not state.is_terminal():
            # Draw first, so that no stand-in takes part in the rollouts.
            state = state.clone()
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(self._rng.choice(outcomes, p=probs)))
        if state.is_terminal():
            return np.array(state.returns())
        n = state.get_game().players
        game = state.core.game()
        seat = game.to_move or 0
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            g = game.sample(seat, int(self._rng.integers(0, 2**63)))  # the bag's order redrawn
            g.playout(int(self._rng.integers(0, 2**63)))
            winners = set(g.winners)
            if len(winners) < n:
                total += [1.0 if s in winners else -1.0 for s in range(n)]
        return total / self.n_rollouts

    def prior(self, state: CarcassonneState) -> List[Tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class EngineBot(pyspiel.Bot):
    """One of the package's own bots (`carcassonne.Bot` spec: `greedy`,
    `mcts:500it`, `hard` …) as an OpenSpiel bot: it chooses from the view
    of the player to move and answers with the action of its move."""

    def __init__(self, spec: str = "greedy", seed: int = 0):
        pyspiel.Bot.__init__(self)
        from ._carcassonne import Bot

        self.bot = Bot(spec, seed)

    def step(self, state: CarcassonneState) -> int:
        game = state.core.game()
        move = self.bot(game.view(game.to_move or 0))
        action = None if move is None else state.core.encode(move)
        if action is None:
            raise ValueError(f"{move!r} lies outside the action space's window")
        return int(action)

    def restart_at(self, state: CarcassonneState) -> None:
        pass

    def inform_action(self, state: CarcassonneState, player_id: int, action: int) -> None:
        pass


def play(game: CarcassonneGame, bots: List[pyspiel.Bot], rng: np.random.RandomState) -> CarcassonneState:
    """One game: `bots[p].step(state)` for player p's moves, the draws from
    `rng` by their probabilities; returns the final state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            if action not in state.legal_actions():
                raise ValueError(f"bot {state.current_player()} chose action {action}, which is not legal")
            state.apply_action(action)
    return state


pyspiel.register_game(_GAME_TYPE, CarcassonneGame)

__all__ = ["NAME", "CarcassonneGame", "CarcassonneObserver", "CarcassonneState", "EngineBot", "PlayoutEvaluator",
           "play"]
