"""The environments, the batched environment and the OpenSpiel game with the
expansions (Inns & Cathedrals, Traders & Builders: the `big-box` preset and
any rule set with an expansion), beside the base game's rules: every
checker passes on both, the spaces of the base game's rules stay as they
were, and the masks are exactly the engine's legal moves (python/README.md,
"The expansions")."""

import copy
import functools
import os
import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import carcassonne
from carcassonne import DECISION_NAMES, DECISIONS, EnvCore
from carcassonne.env import GYM_ID, SingleAgentEnv, action_shape, env, flat_layout, flatten, observation_space
from carcassonne.vector import CarcassonneVectorEnv

RULES = ["standard", "big-box"]
# Rule sets with one expansion, or a part of one switched off, a hand.
EXPANSION_RULES = ["big-box", "standard,inns_cathedrals=true", "standard,traders_builders=true,pig=false",
                   "first-edition,traders_builders=true,hand=2", "big-box,big_follower=false,builder=false"]


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_seed_and_render_tests(rules):
    api_test(env(rules=rules, players=3), num_cycles=400)
    api_test(env(rules=rules, observation="flat"), num_cycles=200)
    seed_test(functools.partial(env, rules=rules))
    render_test(functools.partial(env, rules=rules))


@pytest.mark.parametrize("rules", RULES)
def test_gymnasium_check_env(rules):
    check_env(SingleAgentEnv(rules=rules, opponents="random"))
    check_env(SingleAgentEnv(rules=rules, observation="flat", action_mask=False))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # through gymnasium.make it also checks every render mode, warning-free
        check_env(gymnasium.make(GYM_ID, rules=rules).unwrapped)


@pytest.mark.parametrize("rules", RULES)
def test_openspiels_random_simulation_test(rules):
    if os.environ.get("CI"):
        import pyspiel  # noqa: F401  (CI must run it, not skip it)
    pyspiel = pytest.importorskip("pyspiel")
    import carcassonne.openspiel  # noqa: F401

    game = pyspiel.load_game("python_carcassonne", {"rules": rules})
    assert game.num_distinct_actions() == EnvCore(rules).action_size
    assert game.max_chance_outcomes() == EnvCore(rules).tile_kinds
    assert game.get_parameters()["radius"] == EnvCore(rules).radius
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_base_games_spaces_are_unchanged():
    """The shapes researchers' code depends on, on the base game's rules."""
    core = EnvCore()
    assert (core.radius, core.decisions, core.tile_kinds, core.action_size) == (15, 18, 43, 69_192)
    assert core.decision_names == DECISION_NAMES[:DECISIONS] and not core.expansions
    obs = core.observe(0)
    assert list(obs) == ["board", "hands", "hand_sizes", "unseen", "scores", "supply", "abbot", "to_move",
                         "action_mask"]
    assert obs["board"].shape == (27, 31, 31) and obs["hands"].shape == (2, 1, 43)
    assert core.plane_names[-1] == "follower_spot" and core.state_size == 26_086
    assert flatten(obs).shape == (26_086,)
    assert action_shape(core) == (1, 31, 31, 4, 18)
    abbot = EnvCore("standard,abbot=true,river=true", 3)
    assert abbot.decisions == 18 and abbot.tile_kinds == 43 and len(abbot.plane_names) == 28


def test_the_spaces_with_the_expansions():
    core = EnvCore("big-box", 3)
    assert core.expansions and core.radius == carcassonne.EXPANSION_RADIUS == 20
    assert core.decisions == carcassonne.ALL_DECISIONS == len(DECISION_NAMES) == 46
    assert core.decision_names == DECISION_NAMES and DECISION_NAMES[:18] == EnvCore().decision_names
    assert core.tile_kinds == carcassonne.ALL_TILE_KINDS == len(carcassonne.tiles())
    assert core.action_size == 41 * 41 * 4 * 46
    assert action_shape(core) == (1, 41, 41, 4, 46)
    names = core.plane_names
    assert names[:27 + 1] == EnvCore("standard", 3, 20).plane_names  # the base game's planes first
    assert names[28:] == ["big_follower", "builder", "pig", "inn_n", "inn_e", "inn_s", "inn_w", "cathedral",
                          "wine", "wheat", "cloth"]
    obs = core.observe(0)
    shapes = {k: v.shape for k, v in obs.items()}
    assert shapes["hands"] == (3, 1, core.tile_kinds) and shapes["unseen"] == (core.tile_kinds,)
    assert shapes["big_follower"] == shapes["builder"] == shapes["pig"] == (3,)
    assert shapes["goods"] == (3, 3) and shapes["bonus"] == (1,)
    assert core.goods_high == [9, 6, 5]
    assert list(flat_layout(core))[-5:] == ["big_follower", "builder", "pig", "goods", "bonus"]
    assert core.state().shape == (core.state_size,)
    # Any expansion gives the whole layout; the base game's rules never do.
    for rules in EXPANSION_RULES:
        assert EnvCore(rules).decisions == 46
    # An explicit radius is kept.
    assert EnvCore("big-box", 2, 15).action_size == 31 * 31 * 4 * 46


def _decision_kind(name):
    return name.split(" ")[0]


@pytest.mark.parametrize("rules", RULES + EXPANSION_RULES[1:])
def test_masks_are_exactly_the_engines_legal_moves(rules):
    """Over random games: the legal actions, the mask's ones and the legal
    moves of the engine inside the window are the same set, one action per
    move, and each action decodes to its move."""
    rng = np.random.default_rng(7)
    kinds = set()
    for seed in range(3):
        core = EnvCore(rules, 2 + seed, None, seed)
        while not core.finished:
            legal = core.game().legal_moves()
            actions = core.legal_actions()
            encoded = [core.encode(m) for m in legal]
            inside = [a for a in encoded if a is not None]
            assert len(legal) - len(inside) == core.moves_outside()
            assert len(set(inside)) == len(inside), "two moves share an action"
            assert sorted(inside) == actions.tolist()
            mask = core.mask(core.to_move)
            assert np.flatnonzero(mask).tolist() == actions.tolist()
            for seat in range(core.players):
                if seat != core.to_move:
                    assert not core.mask(seat).any()
            for a in actions:
                move = core.decode(int(a))
                assert move in legal and core.is_legal(int(a))
                kinds.add(_decision_kind(core.decision_names[int(a) % core.decisions]))
            if len(actions) == 0:
                break
            core.step(int(rng.choice(actions)))
    expected = {"pass", "follower"}
    if rules == "big-box":
        expected |= {"abbot", "big_follower", "builder", "pig"}
    assert expected <= kinds


def test_observations_show_the_expansions_figures_goods_and_bonus_turn():
    """Big Box games: each seat's big follower, builder and pig is either in
    supply or on exactly one cell of its plane (in the seat's plane); goods
    only grow, within their bounds; `bonus` is set exactly when the player
    who just moved moves again (the builder's second tile)."""
    rng = np.random.default_rng(3)
    seen_bonus = 0
    for seed in range(4):
        e = env(rules="big-box", players=2 + seed % 2)
        e.reset(seed=seed)
        core = e.core
        names = core.plane_names
        space = observation_space(core)
        goods = np.zeros((core.players, 3), np.uint8)
        mover = None
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            seat = e.possible_agents.index(agent)
            assert space.contains(obs)
            assert obs["bonus"][0] == (seat == mover), "the bonus flag is the builder's second tile"
            seen_bonus += int(obs["bonus"][0])
            board = obs["board"]
            for plane in ("big_follower", "builder", "pig"):
                cells = np.argwhere(board[names.index(plane)])
                for rel in range(core.players):
                    on_board = [c for c in cells if board[names.index(f"follower_seat_{rel}"), c[0], c[1]]]
                    assert len(on_board) == 1 - int(obs[plane][rel]), (plane, rel)
            big = board[names.index("big_follower")].astype(bool)
            roles = sum(board[names.index(r)] for r in ("thief", "knight", "monk", "farmer"))
            assert (roles[big] == 1).all(), "a big follower also shows its role"
            absolute = np.roll(obs["goods"], seat, axis=0)  # seats relative to the observer
            assert (absolute >= goods).all()
            goods = absolute
            mover = seat
            e.step(int(rng.choice(info["legal_actions"])))
        assert (goods.sum(axis=0) <= core.goods_high).all()
    assert seen_bonus > 0


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("form", ["flat", "legal"])
def test_the_batch_is_the_single_environments_game(rules, form):
    """Game i of the batch is SingleAgentEnv's game of seed s + i, step by
    step to the end (every observation key, the flat mask, the legal
    actions, rewards and ends), and every observation is in the space."""
    import test_vector

    test_vector.test_each_game_is_the_single_environments_game(rules, 2, 1, "random", form)
    envs = CarcassonneVectorEnv(num_envs=4, rules=rules, opponents="self", players=3, threads=2, action_mask=True)
    obs, info = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(150):
        assert envs.observation_space.contains(obs)
        mask = envs.action_masks()
        for i in range(envs.num_envs):
            assert np.flatnonzero(mask[i]).tolist() == info["legal_actions"][i][:info["legal_count"][i]].tolist()
        obs, _, _, _, info = envs.step(test_vector.random_picks(rng, info) if form == "legal" else np.array(
            [row[k] if n else 0 for row, k, n in
             zip(info["legal_actions"], test_vector.random_picks(rng, info), info["legal_count"])]))


def test_expansion_environments_pickle_and_deep_copy():
    e = env(rules="big-box")
    e.reset(seed=5)
    for _ in range(30):
        e.step(int(e.infos[e.agent_selection]["legal_actions"][-1]))
    for twin in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        for agent in e.possible_agents:
            a, b = e.observe(agent), twin.observe(agent)
            assert all(np.array_equal(a[k], b[k]) for k in a)
        assert np.array_equal(e.state(), twin.state())
    single = SingleAgentEnv(rules="big-box", opponents="random")
    single.reset(seed=1)
    twin = pickle.loads(pickle.dumps(single))
    action = int(np.flatnonzero(single.action_masks())[0])
    a, b = single.step(action), twin.step(action)
    assert all(np.array_equal(a[0][k], b[0][k]) for k in a[0]) and a[1:4] == b[1:4]
    envs = CarcassonneVectorEnv(num_envs=3, rules="big-box", opponents="random", threads=1)
    envs.reset(seed=3)
    for twin in (pickle.loads(pickle.dumps(envs)), copy.deepcopy(envs)):
        for k, v in envs._buffers.items():
            assert np.array_equal(twin._buffers[k], v), k


def test_openspiel_big_box_chance_nodes_show_no_stand_in_and_the_builders_second_draw():
    """Every draw of a Big Box game is a chance node over the bag's tiles;
    observations count the whole bag unseen and put no stand-in in a hand;
    the builder's second tile is drawn at a chance node of its own, after
    which the same player moves again with the `bonus` flag set."""
    if os.environ.get("CI"):
        import pyspiel  # noqa: F401
    pyspiel = pytest.importorskip("pyspiel")
    import carcassonne.openspiel  # noqa: F401
    from collections import Counter
    import json

    tile_ids = [t.id for t in carcassonne.tiles()]
    game = pyspiel.load_game("python_carcassonne", {"rules": "big-box"})
    deck = Counter(json.loads(carcassonne.Game(rules="big-box").to_record())["deck"])
    observer = game.make_py_observer()
    second_tiles = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        last_mover = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = dict(state.chance_outcomes())
                assert abs(sum(outcomes.values()) - 1) < 1e-9
                left = deck - Counter(tile_ids[t] for t in state.drawn)
                assert {tile_ids[t] for t in outcomes} <= set(left)
                for player in range(2):
                    observer.set_from(state, player)
                    assert {t: int(n) for t, n in zip(tile_ids, observer.dict["unseen"]) if n} == dict(left)
                    assert observer.dict["hands"].sum() == 0
                outcomes_list, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes_list, p=probs)))
                continue
            player = state.current_player()
            observer.set_from(state, player)
            again = player == last_mover
            assert observer.dict["bonus"][0] == again
            second_tiles += again
            last_mover = player
            # The builder first, then knights and thieves (which let a builder
            # follow), so that second tiles come often.
            actions = state.legal_actions()
            names = [state.core.decision_names[a % state.core.decisions] for a in actions]
            for prefix in ("builder", "follower N", "follower E", "follower S", "follower W", ""):
                chosen = [a for a, n in zip(actions, names) if n.startswith(prefix)]
                if chosen:
                    break
            state.apply_action(int(rng.choice(chosen)))
        if second_tiles >= 2:
            break
    assert second_tiles >= 2
