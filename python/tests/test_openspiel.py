"""`python_carcassonne`, the OpenSpiel game (carcassonne.openspiel).

Skipped only when open_spiel is not installed; CI installs it (the
`open_spiel` extra) and sets CI, under which a missing open_spiel fails."""

import json
import os
from collections import Counter

import numpy as np
import pytest

if os.environ.get("CI"):
    import pyspiel  # noqa: F401  (CI must run these tests, not skip them)
pyspiel = pytest.importorskip("pyspiel")

import carcassonne  # noqa: E402
from carcassonne.openspiel import EngineBot, PlayoutEvaluator, play  # noqa: E402

TILE_IDS = [t.id for t in carcassonne.tiles()]


def test_openspiels_random_simulation_test_passes():
    pyspiel.random_sim_test(pyspiel.load_game("python_carcassonne"), num_sims=2, serialize=False, verbose=False)
    game = pyspiel.load_game("python_carcassonne", {"players": 3, "rules": "first-edition,river=true,abbot=true"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_registers_with_its_type_and_sizes():
    game = pyspiel.load_game("python_carcassonne")
    assert game.get_type().short_name == "python_carcassonne"
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == 69_192 == carcassonne.EnvCore().action_size
    assert game.max_chance_outcomes() == carcassonne.TILE_KINDS
    with pytest.raises(Exception, match="hidden hands"):
        pyspiel.load_game("python_carcassonne", {"rules": "standard,hand=3"})


def random_states(game, seed):
    """The states of a random game (chance by its probabilities): one state
    object, played on after each yield."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        yield state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    yield state


def test_chance_draws_the_bag_and_observations_show_no_stand_in():
    game = pyspiel.load_game("python_carcassonne", {"rules": "standard,river=true"})
    deck = Counter(json.loads(carcassonne.Game(rules="standard,river=true").to_record())["deck"])
    chance_nodes = 0
    for state in random_states(game, 3):
        if not state.is_chance_node():
            continue
        chance_nodes += 1
        outcomes = dict(state.chance_outcomes())
        assert abs(sum(outcomes.values()) - 1) < 1e-9
        left = deck - Counter(TILE_IDS[t] for t in state.drawn)
        river = {t for t in left if t.startswith("RV") and t != "RV02"}
        expected = river or ({"RV02"} if "RV02" in left else set(left))
        assert {TILE_IDS[t] for t in outcomes} == expected
        for expect, probability in outcomes.items():
            pool = sum(left[t] for t in expected)
            assert probability == pytest.approx(left[TILE_IDS[expect]] / pool)
        # What each player observes: the whole bag unseen, the coming draw in
        # no hand (the engine's stand-in for it shows nowhere).
        observer = game.make_py_observer()
        for player in range(2):
            observer.set_from(state, player)
            assert {t: int(n) for t, n in zip(TILE_IDS, observer.dict["unseen"]) if n} == dict(left)
            assert observer.dict["hands"].sum() == 0 and observer.dict["hand_sizes"].sum() == 0
            assert np.array_equal(np.asarray(state.observation_tensor(player)), observer.tensor)
            assert "is drawing" in state.observation_string(player) and " with " not in state.observation_string(player)
        outcome = max(outcomes, key=outcomes.get)
        after = state.clone()
        after.apply_action(outcome)
        if not after.is_chance_node() and not after.is_terminal():
            assert after.core.game().tile == TILE_IDS[outcome], "the engine's draw is the chance outcome"
    assert chance_nodes > 60


def test_clones_are_independent_and_information_states_hold_the_history():
    game = pyspiel.load_game("python_carcassonne")
    mid = next(s.clone() for i, s in enumerate(random_states(game, 5)) if i > 40 and not s.is_chance_node())
    copy = mid.clone()
    before = mid.information_state_string(0)
    copy.apply_action(copy.legal_actions()[0])
    assert mid.information_state_string(0) == before and mid.history() != copy.history()
    assert before.count("draw ") == len(mid.drawn)
    assert len(mid.information_state_tensor(0)) == len(mid.observation_tensor(0)) + 31 * 31


def test_openspiels_mcts_plays_against_our_bot():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_carcassonne")
    rng = np.random.RandomState(2)
    searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=PlayoutEvaluator(1, 2),
                            random_state=rng, solve=False)
    bots = [searcher, EngineBot("greedy", 1)]
    state = play(game, bots, rng)  # refuses an illegal action from either bot
    assert state.core.finished and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_docstring_examples_run():
    import doctest

    import carcassonne.openspiel

    result = doctest.testmod(carcassonne.openspiel, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
