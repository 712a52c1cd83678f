"""The observation forms (python/README.md, "Flat observations"): the flat
vector beside the mask as PettingZoo's classic games give it, the single
environment without the mask, and the board's true bounds."""

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from carcassonne.env import FLAT_KEYS, SingleAgentEnv, env, flat_layout, flat_space, flatten, observation_space


def test_api_and_seed_tests_pass_on_the_flat_form():
    api_test(env(observation="flat"))
    seed_test(lambda: env(observation="flat"))


def test_the_flat_form_follows_the_pettingzoo_convention():
    e = env(observation="flat", players=3)
    e.reset(seed=4)
    space = e.observation_space("player_0")
    assert set(space.spaces) == {"observation", "action_mask"}
    obs = e.observe(e.agent_selection)
    assert set(obs) == {"observation", "action_mask"}
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert space.contains(obs)
    assert np.array_equal(np.flatnonzero(obs["action_mask"]), e.core.legal_actions())
    assert e.infos[e.agent_selection] == {}  # as PettingZoo's classic games: the mask says it all


def test_flat_vector_is_the_dict_observation_in_order():
    """Every part of the flat vector, cut out by `flat_layout`, is the same
    array of the dict observation of the same game."""
    d, f = env(rules="standard,hand=3", players=3), env(rules="standard,hand=3", players=3, observation="flat")
    d.reset(seed=9)
    f.reset(seed=9)
    rng = np.random.default_rng(0)
    for _ in range(30):
        agent = d.agent_selection
        for seat in d.agents:
            od, of = d.observe(seat), f.observe(seat)
            layout = flat_layout(d.core)
            assert list(layout) == list(FLAT_KEYS)
            for key, (part, shape) in layout.items():
                assert np.array_equal(of["observation"][part].reshape(shape), od[key]), key
            assert layout["to_move"][0].stop == of["observation"].size == flat_space(d.core).shape[0]
            assert np.array_equal(of["action_mask"], od["action_mask"])
        action = int(rng.choice(d.infos[agent]["legal_actions"]))
        d.step(action)
        f.step(action)


@pytest.mark.parametrize("form", ["dict", "flat"])
@pytest.mark.parametrize("mask", [True, False])
def test_single_agent_forms_pass_check_env(form, mask):
    e = SingleAgentEnv(opponents="random", observation=form, action_mask=mask)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(e)
    obs, info = e.reset(seed=3)
    assert e.observation_space.contains(obs)
    if form == "flat" and not mask:
        assert obs.shape == flat_space(e.core).shape  # the vector alone: MlpPolicy's Box
    elif form == "flat":
        assert set(obs) == {"observation", "action_mask"}
    else:
        assert ("action_mask" in obs) == mask
    assert np.array_equal(np.flatnonzero(e.action_masks()), info["legal_actions"])
    expect, _ = SingleAgentEnv(opponents="random").reset(seed=3)  # the same deal in the default form
    if form == "dict":
        assert all(np.array_equal(obs[k], expect[k]) for k in FLAT_KEYS)
    else:
        assert np.array_equal(obs["observation"] if mask else obs, flatten(expect))


def test_board_bounds_are_true_and_not_an_image():
    """The board's space bounds each plane by what it holds, so that
    Stable-Baselines3 does not take it for an image (0 to 255 uint8): its CNN
    for Atari frames cannot take a 31-cell board."""
    e = env(rules="first-edition,river=true,abbot=true", players=4)
    space = observation_space(e.core)["board"]
    assert not (np.all(space.low == 0) and np.all(space.high == 255))
    names = e.core.plane_names
    assert space.high[names.index("tile"), 0, 0] == 43 and space.high[names.index("occupied"), 0, 0] == 1
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        assert space.contains(obs["board"])
        e.step(None if term or trunc else int(rng.choice(info["legal_actions"])))


def test_bad_observation_form_is_refused():
    with pytest.raises(ValueError, match="observation must be one of"):
        env(observation="image")
    with pytest.raises(ValueError, match="observation must be one of"):
        SingleAgentEnv(observation="image")


def test_action_shape_factors_every_legal_action():
    """Each legal flat action, unravelled in `action_shape`, is its move's
    hand slot, cell (row y + radius, column x + radius), rotation and
    decision, over rule sets with hands, The River and The Abbot."""
    from carcassonne.env import action_shape

    for rules, players in (("standard", 2), ("standard,hand=3,abbot=true", 3), ("first-edition,river=true", 2)):
        e = env(rules=rules, players=players, radius=9)
        e.reset(seed=7)
        shape = action_shape(e.core)
        assert int(np.prod(shape)) == e.action_space("player_0").n
        rng = np.random.default_rng(7)
        for _ in range(25):
            agent = e.agent_selection
            hand = e.core.game().hand(e.core.to_move)
            for a in e.infos[agent]["legal_actions"]:
                slot, row, col, rot, decision = np.unravel_index(int(a), shape)
                move = e.core.decode(int(a))
                assert hand[slot] == move.tile
                assert (col - 9, row - 9) == tuple(move.at) and rot == move.rot
                assert (decision == 0) == (move.meeple is None and move.abbot is None and not move.recall)
            e.step(int(rng.choice(e.infos[agent]["legal_actions"])))
