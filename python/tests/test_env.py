"""The PettingZoo environment and the Gymnasium wrapper."""

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import carcassonne
from carcassonne import EnvCore
from carcassonne.env import SingleAgentEnv, env, raw_env

RULE_SETS = [
    ("standard", 2),
    ("first-edition,river=true", 3),
    ("standard,abbot=true,hand=3", 4),
    ("beginner,draw_at_turn_end=true", 2),
    ("standard,farms=per-city,hole_bonus_turn=true", 6),
]


@pytest.mark.parametrize("rules,players", RULE_SETS)
def test_pettingzoo_api_test_passes(rules, players):
    api_test(env(rules=rules, players=players), num_cycles=400)


def test_pettingzoo_seed_test_passes():
    seed_test(lambda render_mode=None: env(rules="standard,hand=2"), num_cycles=200)


def play_random(core, rng, until=None):
    """Random legal actions until the end (or `until` moves)."""
    n = 0
    while not core.finished and (until is None or n < until):
        legal = core.legal_actions()
        core.step(int(legal[rng.randrange(len(legal))]))
        n += 1


def same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype for k in a)


@pytest.mark.parametrize("rules", ["standard,hand=3", "standard,draw_at_turn_end=true,abbot=true", "standard",
                                   "first-edition,river=true,hand=2"])
def test_an_observation_never_holds_what_the_observer_cannot_see(rules):
    """Games that differ only in what a seat cannot see (the bag's order,
    other players' hidden hands) give that seat identical observations; the
    other seats' observations do change, so the check can fail."""
    players = 3
    changed = 0
    for seed in range(12):
        rng = random.Random(seed)
        core = EnvCore(rules, players, 15, seed)
        play_random(core, rng, until=rng.randrange(0, 50))
        if core.finished:
            continue
        for seat in range(players):
            others_before = [core.observe(p) for p in range(players)]
            mine = core.observe(seat)
            core.resample_hidden(seat, seed * 7 + seat)
            assert same(mine, core.observe(seat)), f"seat {seat} sees a difference after move {seed}"
            changed += any(not same(others_before[p], core.observe(p)) for p in range(players) if p != seat)
        hand_rule = "hand=" in rules or "draw_at_turn_end" in rules
        obs = core.observe(0)
        if hand_rule:
            assert obs["hands"][1:].sum() == 0, "no row for another seat's hidden hand"
            assert obs["hands"][0].sum() == obs["hand_sizes"][0]
    if "hand" in rules or "draw_at_turn_end" in rules:
        assert changed > 0, "resampling changed no other seat's observation: the test would be blind"


def test_masks_legal_actions_and_moves_agree():
    rng = random.Random(5)
    for rules, players in RULE_SETS:
        core = EnvCore(rules, players, 15, rng.randrange(1 << 30))
        while not core.finished:
            seat = core.to_move
            mask = core.observe(seat)["action_mask"]
            legal = core.legal_actions()
            assert np.array_equal(np.flatnonzero(mask), legal)
            for p in range(players):
                if p != seat:
                    assert core.mask(p).sum() == 0, "only the player to move has legal actions"
            moves = core.game().legal_moves()
            assert len(legal) == len(moves) - core.moves_outside()
            for a in legal[:: max(1, len(legal) // 8)]:
                move = core.decode(int(a))
                assert move in moves
                assert core.encode(move) == a
            core.step(int(legal[rng.randrange(len(legal))]))


def test_an_illegal_action_is_refused_and_changes_nothing():
    core = EnvCore("standard", 2, 15, 3)
    before = core.game().to_record()
    illegal = int(np.flatnonzero(core.mask(0) == 0)[0])
    with pytest.raises(ValueError):
        core.step(illegal)
    with pytest.raises(ValueError):
        core.step(core.action_size)
    assert core.game().to_record() == before


def test_board_planes_and_relative_seats():
    core = EnvCore("standard", 3, 15, 8)
    play_random(core, random.Random(8), until=30)
    names = core.plane_names
    game = core.game()
    for seat in range(3):
        obs = core.observe(seat)
        board = obs["board"]
        assert board.shape == (len(names), 31, 31) and board.dtype == np.uint8
        assert board[names.index("occupied")].sum() == len(game.board)
        d = board[:, 15, 15]  # the start tile D, rotation 0: city north, roads east and west
        assert d[names.index("city_n")] == 1 and d[names.index("road_e")] == 1 and d[names.index("road_w")] == 1
        assert d[names.index("tile")] == carcassonne.tile("D").index + 1
        assert list(obs["scores"]) == [game.scores[(seat + r) % 3] for r in range(3)]
        assert list(obs["supply"]) == [game.supply((seat + r) % 3) for r in range(3)]
        assert obs["to_move"][(game.to_move - seat) % 3] == 1
        for f in game.followers:
            x, y = f["at"]
            assert board[names.index(f"follower_seat_{(f['seat'] - seat) % 3}"), y + 15, x + 15] == 1
            assert board[names.index(f["role"]), y + 15, x + 15] == 1
        last = game.history[-1]
        assert board[names.index("last_placed"), last.at[1] + 15, last.at[0] + 15] == 1
        assert obs["unseen"].sum() == game.tiles_left


def test_a_window_too_small_truncates_the_game():
    e = raw_env(radius=1)
    e.reset(seed=1)
    steps = 0
    for agent in e.agent_iter(max_iter=500):
        obs, _r, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(info["legal_actions"][0]))
        steps += 1
    assert all(e.truncations.get(a, True) for a in e.possible_agents) or not e.agents
    assert steps < 70, "the game stopped once no move fit in the 3 × 3 window"


@pytest.mark.parametrize("reward", ["win", "score"])
def test_aec_rewards(reward):
    e = raw_env(players=3, reward=reward)
    e.reset(seed=4)
    totals = {a: 0.0 for a in e.possible_agents}
    rng = random.Random(4)
    for agent in e.agent_iter():
        obs, r, terminated, truncated, info = e.last()
        totals[agent] += r
        action = None if terminated or truncated else int(rng.choice(info["legal_actions"]))
        e.step(action)
    scores = e.core.scores
    if reward == "score":
        assert [totals[a] for a in e.possible_agents] == [float(s) for s in scores]
    else:
        best = max(scores)
        assert [totals[a] for a in e.possible_agents] == [1.0 if s == best else -1.0 for s in scores]


def test_single_agent_env_passes_gymnasiums_checker_and_plays():
    check_env(SingleAgentEnv(opponents="random"))
    strict = SingleAgentEnv(opponents="random", illegal="raise")
    obs, info = strict.reset(seed=1)
    with pytest.raises(carcassonne.IllegalMoveError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[5]))
    lenient = SingleAgentEnv(opponents="random")
    obs, info = lenient.reset(seed=1)
    _, r, terminated, _, info = lenient.step(int(np.flatnonzero(obs["action_mask"] == 0)[5]))
    assert (r, terminated, info["illegal"]) == (-1.0, True, True)
    with pytest.raises(ValueError, match="reset"):
        lenient.step(int(info["legal_actions"][0]))  # the episode is over
    envs = [SingleAgentEnv(opponents="random", seat=1, reward="score"),
            SingleAgentEnv(rules="standard,river=true", players=3, opponents=["greedy", "random"], seat=2)]
    for e in envs:
        obs, info = e.reset(seed=3)
        rng = random.Random(3)
        total, done = 0.0, False
        while not done:
            assert obs["to_move"][0] == 1, "the agent is to move after reset and step"
            assert np.array_equal(np.flatnonzero(e.action_masks()), info["legal_actions"])
            obs, r, terminated, truncated, info = e.step(int(rng.choice(info["legal_actions"])))
            total += r
            done = terminated or truncated
        if e.reward_mode == "score":
            assert total == e.core.scores[e.seat]
        else:
            assert total in (-1.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        SingleAgentEnv(opponents="nobody")
    with pytest.raises(ValueError):
        SingleAgentEnv(players=3, opponents=["greedy"])


def test_ansi_render_draws_the_board():
    e = raw_env(render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert "D0" in text and "seat 0 to move" in text
