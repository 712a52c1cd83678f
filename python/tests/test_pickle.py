"""Pickling: games, views, moves, tiles and the environments go to other
processes (multiprocessing, Gymnasium's AsyncVectorEnv) and come back the
same."""

import copy
import multiprocessing
import pickle
import random

import gymnasium
import numpy as np

import carcassonne
from carcassonne import EnvCore
from carcassonne.env import SingleAgentEnv, raw_env


def random_moves(game, rng, n):
    for _ in range(n):
        if game.finished:
            break
        game.play(rng.choice(game.legal_moves()))


def test_a_pickled_game_is_the_same_game_and_plays_on_the_same():
    for rules in ("standard", "standard,hand=3,abbot=true"):
        game = carcassonne.Game(rules=rules, players=3, seed=11)
        random_moves(game, random.Random(rules), 25)
        copy_ = pickle.loads(pickle.dumps(game))
        assert copy_.to_record() == game.to_record() and copy_.players == game.players
        game.playout(5)
        copy_.playout(5)
        assert copy_.to_record() == game.to_record() and copy_.events == game.events
        assert copy.deepcopy(game).to_record() == game.to_record()


def test_a_pickled_game_keeps_its_live_bag():
    """With `unplaceable=reshuffle` a tile that fits nowhere goes back into
    the bag at a random place: the pickle carries that generator's state.
    (This game reshuffles 33 times after move 25.)"""
    game = carcassonne.Game(rules="standard,unplaceable=reshuffle,river=true", players=3, seed=17)
    random_moves(game, random.Random(17), 25)
    copy_ = pickle.loads(pickle.dumps(game))
    from_record = carcassonne.Game.from_record(game.to_record())  # a new live bag
    before = len(game.events)
    for g in (game, copy_, from_record):
        g.playout(5)
    assert any(e["kind"] == "reshuffle" for e in game.events[before:]), "tiles went back into the bag"
    assert copy_.to_record() == game.to_record() and copy_.events == game.events
    assert from_record.to_record() != game.to_record(), "without the generator the game would go otherwise"


def test_a_pickled_view_is_the_same_view():
    game = carcassonne.Game(rules="standard,hand=3", players=3, seed=4)
    random_moves(game, random.Random(4), 10)
    view = game.view(1)
    back = pickle.loads(pickle.dumps(view))
    for attr in ("seat", "scores", "to_move", "tile", "unseen", "tiles_left", "board", "followers", "events",
                 "moves_played", "rules", "players"):
        assert getattr(back, attr) == getattr(view, attr), attr
    assert [back.hand(s) for s in range(3)] == [view.hand(s) for s in range(3)]
    assert view.hand(0) is None
    assert back.legal_moves() == view.legal_moves()
    assert back.sample(3).to_record() == view.sample(3).to_record()


def test_moves_tiles_and_bots_specs():
    move = carcassonne.Move("CRFR50", (1, 0), rot=1, meeple="N")
    assert pickle.loads(pickle.dumps(move)) == move
    tile = carcassonne.tile("Vg")
    assert pickle.loads(pickle.dumps(tile)) == tile


def test_environment_cores_and_environments_pickle_mid_game():
    core = EnvCore("standard,hand=2", 2, 15, 9)
    rng = random.Random(9)
    for _ in range(12):
        legal = core.legal_actions()
        core.step(int(legal[rng.randrange(len(legal))]))
    back = pickle.loads(pickle.dumps(core))
    for seat in range(2):
        a, b = core.observe(seat), back.observe(seat)
        assert all(np.array_equal(a[k], b[k]) for k in a)
    assert np.array_equal(core.state(), back.state())

    e = raw_env(players=3)
    e.reset(seed=3)
    for _ in range(5):
        e.step(int(e.infos[e.agent_selection]["legal_actions"][0]))
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.agent_selection == e.agent_selection and e2.rewards == e.rewards
    assert np.array_equal(e2.state(), e.state())

    s = SingleAgentEnv(opponents="mcts:20it")
    s.reset(seed=2)
    s2 = pickle.loads(pickle.dumps(s))
    for _ in range(4):  # the bots answer the same in both: their choices hang on the game only
        a = int(np.flatnonzero(s.action_masks())[0])
        o1, r1, t1, _, _ = s.step(a)
        o2, r2, t2, _, _ = s2.step(a)
        assert np.array_equal(o1["board"], o2["board"]) and (r1, t1) == (r2, t2)


def play(record):
    game = carcassonne.Game.from_record(record)
    game.playout(1)
    return game


def test_games_go_to_worker_processes_and_back():
    records = []
    for seed in range(3):
        g = carcassonne.Game(seed=seed)
        g.play(g.legal_moves()[0])
        records.append(g)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        done = pool.map(play, [g.to_record() for g in records])
        back = pool.map(copy.copy, records)
    assert all(g.finished for g in done)
    assert [g.to_record() for g in back] == [g.to_record() for g in records]


def make_env():
    return SingleAgentEnv(opponents="random")


def run_vector(envs):
    obs, infos = envs.reset(seed=[1, 2])
    assert obs["board"].shape[0] == 2 and infos["legal_actions"].shape == (2,)
    for _ in range(30):
        masks = obs["action_mask"].astype(bool)
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i in range(2):
            assert np.array_equal(np.flatnonzero(obs["action_mask"][i]), infos["legal_actions"][i])
    envs.close()
    return obs


def test_sync_and_async_vector_environments_reset_and_step():
    a = run_vector(gymnasium.vector.SyncVectorEnv([make_env, make_env]))
    b = run_vector(gymnasium.vector.AsyncVectorEnv([make_env, make_env], context="spawn"))
    assert all(np.array_equal(a[k], b[k]) for k in a), "the same games in both"


def _vector_step(envs, rng):
    """A random legal action per game (the flat action; games that ended ignore theirs)."""
    legal, count = envs._buffers["legal_actions"], envs._buffers["legal_count"]
    picks = (rng.random(envs.num_envs) * np.maximum(count, 1)).astype(np.int64)
    return np.where(count > 0, legal[np.arange(envs.num_envs), picks], 0).astype(np.int64)


def _same_outputs(a, b):
    for k, v in a.items():
        assert np.array_equal(v, b[k]), k


def test_the_vector_environment_pickles_and_deep_copies_mid_game():
    """A pickled batch (and a deep copy) has the same observations, rewards,
    end flags and infos, and steps on exactly as the original, through
    episode ends and autoresets; the copy shares no array with it."""
    from carcassonne.vector import CarcassonneVectorEnv

    for kwargs in ({"opponents": "random", "rules": "standard,unplaceable=reshuffle"},
                   {"opponents": "self", "players": 3, "reward": "score", "action_mask": True},
                   {"opponents": ["greedy", "random"], "players": 3, "seat": 1, "rules": "standard,hand=3"}):
        envs = CarcassonneVectorEnv(num_envs=9, threads=2, **kwargs)
        envs.reset(seed=4)
        rng = np.random.default_rng(4)
        for _ in range(40):  # some games end (and restart) on the way
            out = envs.step(_vector_step(envs, rng))
        for twin in (pickle.loads(pickle.dumps(envs)), copy.deepcopy(envs)):
            assert twin.core.seeds == envs.core.seeds
            for k, v in envs._buffers.items():
                assert np.array_equal(twin._buffers[k], v) and not np.shares_memory(twin._buffers[k], v), k
            r1, r2 = np.random.default_rng(9), np.random.default_rng(9)
            a = copy.deepcopy(envs)
            for _ in range(60):
                o1 = a.step(_vector_step(a, r1))
                o2 = twin.step(_vector_step(twin, r2))
                _same_outputs(o1[0], o2[0])
                for x, y in zip(o1[1:4], o2[1:4]):
                    assert np.array_equal(x, y)
                _same_outputs({k: v for k, v in o1[4].items()}, o2[4])
            assert np.array_equal(a.reset(seed=1)[0]["board"], twin.reset(seed=1)[0]["board"])
        assert out[2].dtype == bool
