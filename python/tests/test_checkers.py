"""Every checker of PettingZoo and Gymnasium, run with its defaults on the
environments as they are made by default (python/README.md, "Checkers")."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state as state_test
from pettingzoo.test.state_test import test_state_space as state_space_test

import carcassonne
from carcassonne.env import GYM_ID, SingleAgentEnv, env, raw_env


def test_api_test_with_defaults():
    api_test(env())


def test_seed_test_with_defaults():
    seed_test(env)


def test_render_test_every_mode():
    render_test(env)


@pytest.mark.parametrize("make", [env, raw_env])
def test_state_test(make):
    e = make(players=3)
    state_space_test(e)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning (not an array, a changing shape) fails
        state_test(e, num_cycles=30)


def test_gymnasium_check_env_with_defaults():
    check_env(SingleAgentEnv())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # through gymnasium.make it also checks every render mode, warning-free
        check_env(gymnasium.make(GYM_ID).unwrapped)


def test_gymnasium_check_env_renders():
    for mode in ("ansi", "rgb_array"):
        check_env(SingleAgentEnv(render_mode=mode))


def test_state_holds_every_hand_and_the_bag_but_not_its_order():
    e = raw_env(rules="standard,hand=3", players=3)
    e.reset(seed=2)
    core = e.core
    s = e.state()
    assert s.shape == e.state_space.shape and s.dtype == np.int32 and e.state_space.contains(s)
    planes = len(core.plane_names) * core.width**2
    kinds = carcassonne.TILE_KINDS
    hands = s[planes:planes + 3 * 3 * kinds].reshape(3, 3, kinds)
    game = core.game()
    for seat in range(3):
        held = sorted(carcassonne.tiles()[int(i)].id for i in np.flatnonzero(hands[seat].sum(axis=0)))
        assert held == sorted(set(game.hand(seat)))
    bag = s[planes + 9 * kinds + 3: planes + 9 * kinds + 3 + kinds]
    assert bag.sum() == game.tiles_left
    def parts(state):
        hands = state[planes:planes + 9 * kinds].reshape(3, 3, kinds)
        rest = state[planes + 9 * kinds + 3:]
        return state[:planes], hands, rest[:kinds], rest[kinds:]

    board, hands, bag, tail = parts(s)
    core.resample_hidden(0, 7)  # what seat 0 cannot see is redrawn: seats 1 and 2's hands and the bag
    board2, hands2, bag2, tail2 = parts(e.state())
    assert np.array_equal(board, board2) and np.array_equal(tail, tail2)
    assert np.array_equal(hands[0], hands2[0])
    assert not np.array_equal(hands[1:], hands2[1:]), "the state holds the hidden hands"
    assert np.array_equal(hands[1:].sum(axis=(0, 1)) + bag, hands2[1:].sum(axis=(0, 1)) + bag2)


def test_rgb_array_is_an_image_of_the_board():
    e = raw_env(render_mode="rgb_array")
    e.reset(seed=3)
    first = e.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[:2] == (3 * 48, 3 * 48), "the start tile and a free cell around it"
    for _ in range(6):
        e.step(int(e.infos[e.agent_selection]["legal_actions"][0]))
    img = e.render()
    board = e.core.game().board
    cols = max(t["at"][0] for t in board) - min(t["at"][0] for t in board) + 3
    rows = max(t["at"][1] for t in board) - min(t["at"][1] for t in board) + 3
    assert img.shape == (rows * 48, cols * 48, 3)
    colours = {tuple(c) for c in img.reshape(-1, 3)[:: 7]}
    assert (0x8D, 0xBB, 0x57) in colours and (0xDA, 0xB2, 0x7A) in colours, "fields green, cities tan"
    # The start tile D: a city on its north edge, a road across, fields.
    x0 = -min(t["at"][0] for t in board) + 1
    y0 = -min(t["at"][1] for t in board) + 1
    tile = img[y0 * 48:(y0 + 1) * 48, x0 * 48:(x0 + 1) * 48]
    assert tuple(tile[4, 24]) == (0xDA, 0xB2, 0x7A), "the city at the top"
    assert tuple(tile[24, 4]) == (0xEF, 0xE3, 0xC1), "the road on the west edge"
    assert tuple(tile[40, 24]) == (0x8D, 0xBB, 0x57), "the field at the bottom"


def test_followers_are_drawn_in_the_seats_colours():
    game = carcassonne.Game(players=2, seed=4)
    move = next(m for m in game.legal_moves() if m.meeple)
    game.play(move)
    img = game.to_rgb(48)
    yellow = np.all(img == (0xF0, 0xE4, 0x42), axis=2)
    assert yellow.sum() > 20, "seat 0's follower, in yellow"
    assert not np.all(carcassonne.Game(seed=4).to_rgb(48) == (0xF0, 0xE4, 0x42), axis=2).any()


def test_ansi_returns_the_text_and_prints_nothing(capsys):
    e = raw_env(render_mode="ansi")
    e.reset(seed=2)
    e.step(int(e.infos[e.agent_selection]["legal_actions"][0]))
    text = e.render()
    assert isinstance(text, str) and "D0" in text
    assert capsys.readouterr().out == ""


def test_human_prints_the_board_each_step(capsys):
    e = SingleAgentEnv(render_mode="human", opponents="random")
    e.reset(seed=1)
    e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert e.render() is None
    out = capsys.readouterr().out
    assert out.count("scores") == 3, "after reset, after the step, and render()"


def test_an_illegal_action_ends_the_aec_game_for_the_agent():
    e = raw_env(players=3)
    e.reset(seed=5)
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.infos[agent]["illegal"] is True
    assert e._cumulative_rewards[agent] == -1.0
    assert sorted(e._cumulative_rewards.values()) == [-1.0, 0.0, 0.0]
    strict = raw_env(illegal="raise")
    strict.reset(seed=5)
    with pytest.raises(carcassonne.IllegalMoveError):
        strict.step(illegal)
    assert not any(strict.terminations.values())


def test_no_gymnasium_warning_for_the_batched_infos():
    envs = gymnasium.vector.SyncVectorEnv([lambda: SingleAgentEnv(opponents="random") for _ in range(3)])
    _, infos = envs.reset(seed=0)
    assert infos["scores"].shape == (3, 2)
    envs.close()


def test_calls_before_reset_are_refused_as_pettingzoos_order_wrapper_would():
    e = env()
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.last(), lambda: e.state(),
                 lambda: e.render()):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    e.reset(seed=1)
    e.last()
