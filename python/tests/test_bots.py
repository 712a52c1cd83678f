"""The built-in bots and the arena from Python."""

import json
import subprocess
import threading

import pytest

import carcassonne
from carcassonne import Bot, Game, bots


@pytest.mark.parametrize("bot", [bots.random(1), bots.greedy(1), bots.mcts(50, seed=1), bots.level("easy", 1)])
def test_a_bot_plays_legal_moves_to_the_end(bot):
    game = Game(rules="standard,abbot=true", players=2, seed=8)
    while not game.finished:
        move = bot(game.view(game.to_move))
        assert move in game.legal_moves()
        game.play(move)
    assert bot(game.view(0)) is None, "no move once the game is over"


def test_bots_are_named_and_bad_specs_refused():
    assert bots.mcts(5000).name == "mcts:5000it"
    assert bots.mcts(0.25).name == "mcts:250ms"
    assert bots.mcts("1s", threads=2).name == "mcts:1s:2t"
    assert repr(Bot("greedy")) == "Bot('greedy')"
    for bad in ["alphazero", "mcts:fast", ""]:
        with pytest.raises(ValueError):
            Bot(bad)
    with pytest.raises(TypeError):
        bots.mcts(True)


def test_a_seeded_bot_repeats_itself():
    game = Game(seed=3)
    view = game.view(0)
    assert bots.mcts(200, seed=4)(view) == bots.mcts(200, seed=4)(view)


def test_the_search_releases_the_gil():
    """Another Python thread runs while the search thinks."""
    game = Game(seed=2)
    view = game.view(0)
    done = threading.Event()
    ticks = 0

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = ticks
        bots.mcts(0.3)(view)
        during = ticks - before
    finally:
        done.set()
        counter.join()
    assert during > 1000, f"the counting thread advanced only {during} times during the search"


def without_times(report):
    """The report less what depends on the machine's speed."""
    timing = {"elapsed_s", "move_ms_mean", "move_ms_max"}
    if isinstance(report, dict):
        return {k: without_times(v) for k, v in report.items() if k not in timing}
    if isinstance(report, list):
        return [without_times(v) for v in report]
    return report


def test_the_arena_gives_the_cli_report(cli):
    report = carcassonne.arena(["greedy", "random"], games=6, rules="first-edition", seed=3)
    assert [b["bot"] for b in report["bots"]] == ["greedy", "random"]
    assert report["games"] == 6
    greedy = report["bots"][0]
    assert greedy["wins"] + greedy["ties"] + greedy["losses"] == 6
    assert 0 <= greedy["win_rate_95"][0] <= greedy["win_rate"] <= greedy["win_rate_95"][1] <= 1
    again = carcassonne.arena("greedy,random", games=6, rules="first-edition", seed=3)
    assert without_times(again) == without_times(report)
    if cli is None:
        pytest.skip("no carcassonne binary built: the comparison with its report is skipped")
    out = subprocess.run([cli, "arena", "--bots", "greedy,random", "--games", "6", "--rules", "first-edition",
                          "--seed", "3", "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert without_times(json.loads(out.stdout)) == without_times(report), "the same report as the CLI's --json"
    with pytest.raises(ValueError):
        carcassonne.arena(["greedy"], games=2)
