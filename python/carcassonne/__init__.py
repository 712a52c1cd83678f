"""Carcassonne for Python: the project's Rust rules engine, its bots and a
PettingZoo environment.

>>> import carcassonne
>>> game = carcassonne.Game(rules="first-edition,river=true", players=3, seed=7)
>>> while not game.finished:
...     game.play(game.legal_moves()[0])
>>> len(game.scores)
3

Every rule option of the engine is here: the three farm rules, the
small-city rule, The River, The Abbot, Inns & Cathedrals, Traders &
Builders (the `big-box` preset) and the house rules (`rules()` and
`explain_rules()` read a rule set; `carcassonne rules` on the command line
prints the same). Tiles go by their letter id (`D`) or, for base tiles, by
their CMSC 22001 course name (`CRFR50`).

- `Game`, `Move`, `View`: play, check and inspect games; records in and out.
- `Bot` and `bots`: the built-in bots (`random`, `greedy`, `mcts`).
- `arena(...)`: paired games between bots, the CLI's `arena --json` report.
- `score_record(...)`: what `carcassonne score` prints for a record.
- `carcassonne.env`: the PettingZoo AEC environment and a Gymnasium wrapper
  (needs the `env` extra: `pip install "./python[env]"`).
- `carcassonne.vector`: a batch of games stepped in Rust, as a Gymnasium
  vector environment (`CarcassonneVectorEnv`, the same extra).
- `carcassonne.openspiel`: registers the OpenSpiel game `python_carcassonne`
  (needs the `openspiel` extra).
"""

from ._carcassonne import (
    ALL_DECISIONS,
    ALL_TILE_KINDS,
    DECISION_NAMES,
    DECISIONS,
    DEFAULT_RADIUS,
    EXPANSION_RADIUS,
    TILE_KINDS,
    Bot,
    CarcassonneError,
    EnvCore,
    Game,
    IllegalMoveError,
    Move,
    RecordError,
    RulesError,
    Tile,
    VecCore,
    View,
    arena,
    explain_rules,
    rules,
    score_record,
    tile,
    tiles,
)
from . import bots

__all__ = [
    "ALL_DECISIONS",
    "ALL_TILE_KINDS",
    "DECISION_NAMES",
    "DECISIONS",
    "DEFAULT_RADIUS",
    "EXPANSION_RADIUS",
    "TILE_KINDS",
    "Bot",
    "CarcassonneError",
    "EnvCore",
    "Game",
    "IllegalMoveError",
    "Move",
    "RecordError",
    "RulesError",
    "Tile",
    "VecCore",
    "View",
    "arena",
    "bots",
    "explain_rules",
    "rules",
    "score_record",
    "tile",
    "tiles",
]

__version__ = "0.1.0"
