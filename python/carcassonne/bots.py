"""The built-in bots, by name. Each returns a `carcassonne.Bot`: call it on
a view to get its move.

>>> import carcassonne
>>> from carcassonne import bots
>>> game = carcassonne.Game(seed=1)
>>> move = bots.greedy()(game.view(game.to_move))
>>> game.play(move)

The search (`mcts`) runs in Rust without the GIL, so Python threads can run
several bots at once.
"""

from typing import Union

from ._carcassonne import Bot


def random(seed: int = 0) -> Bot:
    """A bot that plays a uniformly random legal move."""
    return Bot("random", seed)


def greedy(seed: int = 0) -> Bot:
    """A bot that plays the move with the best immediate evaluation."""
    return Bot("greedy", seed)


def mcts(budget: Union[str, int, float] = "1s", seed: int = 0, threads: int = 1) -> Bot:
    """The Monte Carlo tree search bot (docs/ai.md).

    `budget` is a number of iterations (an int: reproducible), seconds (a
    float), or the spec's own text (`"1s"`, `"250ms"`, `"5000it"`).
    """
    if isinstance(budget, bool):
        raise TypeError("budget is iterations (int), seconds (float) or text")
    if isinstance(budget, int):
        text = f"{budget}it"
    elif isinstance(budget, float):
        text = f"{budget}s"
    else:
        text = budget
    spec = f"mcts:{text}" + (f":{threads}t" if threads > 1 else "")
    return Bot(spec, seed)


def level(name: str, seed: int = 0) -> Bot:
    """The web game's levels: `easy`, `normal` or `hard`."""
    return Bot(name, seed)


__all__ = ["Bot", "greedy", "level", "mcts", "random"]
