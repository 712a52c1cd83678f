"""The batched environment (carcassonne.vector) against the single-agent
environment it batches, and against Gymnasium's vector-environment
contract. Gymnasium 1.4 has no checker for vector environments
(`gymnasium.utils.env_checker.check_env` takes a single `Env`), so the
contract is tested here: spaces hold every observation, dtypes and shapes,
next-step autoreset, seeding, bad input, and Gymnasium's own vector
wrappers running on it."""

import doctest

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import carcassonne.vector
from carcassonne import CarcassonneError, EnvCore, IllegalMoveError
from carcassonne.env import SingleAgentEnv, _end_rewards
from carcassonne.vector import CarcassonneVectorEnv

# (rules, players, seat, opponents): each against the single environment.
TABLES = [
    ("standard", 2, 0, "random"),
    ("standard", 2, 1, "greedy"),
    ("first-edition,river=true", 3, 2, ["greedy", "random"]),
    ("standard,abbot=true,hand=3", 2, 0, "random"),
    ("standard,hand=2,hand_visible=true", 4, 1, "random"),
]


def legal_rows(info):
    """Each game's legal actions (the padded rows cut to their length)."""
    return [row[:n] for row, n in zip(info["legal_actions"], info["legal_count"])]


def random_picks(rng, info):
    """A random legal index per game (0 where a game has none)."""
    return (rng.random(len(info["legal_count"])) * info["legal_count"]).astype(np.int64)


def assert_same_observation(single_obs, obs, i, where):
    for key, value in single_obs.items():
        assert np.array_equal(value, obs[key][i]), (where, key)


@pytest.mark.parametrize("rules,players,seat,opponents", TABLES)
@pytest.mark.parametrize("form", ["flat", "legal"])
def test_each_game_is_the_single_environments_game(rules, players, seat, opponents, form):
    """Game i of reset(seed=s) is SingleAgentEnv's reset(seed=s+i): the same
    observation (every key, the flat mask included), legal actions,
    rewards and ends, step by step to the end, with either action form."""
    n, seed = 3, 11
    kwargs = dict(rules=rules, players=players, seat=seat, opponents=opponents, reward="score")
    envs = CarcassonneVectorEnv(num_envs=n, actions=form, action_mask=True, threads=2, **kwargs)
    singles = [SingleAgentEnv(**kwargs) for _ in range(n)]
    obs, info = envs.reset(seed=seed)
    for i, single in enumerate(singles):
        single_obs, single_info = single.reset(seed=seed + i)
        assert_same_observation(single_obs, obs, i, "reset")
        assert np.array_equal(single_info["legal_actions"], legal_rows(info)[i])
        assert np.array_equal(single_info["scores"], info["scores"][i])
    rng = np.random.default_rng(5)
    live = [True] * n
    steps = 0
    while any(live):
        picks = random_picks(rng, info)
        flat = [int(row[k]) if len(row) else 0 for row, k in zip(legal_rows(info), picks)]
        obs, reward, terminated, truncated, info = envs.step(picks if form == "legal" else np.array(flat))
        steps += 1
        for i, single in enumerate(singles):
            if not live[i]:
                continue
            single_obs, single_reward, single_term, single_trunc, single_info = single.step(flat[i])
            assert_same_observation(single_obs, obs, i, steps)
            assert np.array_equal(single_info["legal_actions"], legal_rows(info)[i])
            assert np.array_equal(single_info["scores"], info["scores"][i])
            assert (reward[i], terminated[i], truncated[i]) == (single_reward, single_term, single_trunc)
            live[i] = not (single_term or single_trunc)
    assert steps >= 71 // players - 2  # every game to its end


@pytest.mark.parametrize("rules,players", [("standard", 2), ("first-edition,river=true", 3),
                                           ("standard,abbot=true,hand=2", 4)])
@pytest.mark.parametrize("reward", ["win", "score"])
def test_self_play_is_the_game_seen_by_the_seat_to_move(rules, players, reward):
    """With opponents="self", each step is one move of the seat to move; the
    observation is EnvCore.observe of the seat to move next, the reward the
    mover's, the infos its legal actions, seat and scores, to the end."""
    n, seed = 3, 21
    envs = CarcassonneVectorEnv(num_envs=n, rules=rules, players=players, opponents="self", reward=reward,
                                action_mask=True, threads=2)
    obs, info = envs.reset(seed=seed)
    cores = []
    for i in range(n):
        single = SingleAgentEnv(rules=rules, players=players, opponents="random")
        single.reset(seed=seed + i)
        core = EnvCore(rules, players)
        core.reset(single._game_seed)  # the game seed SingleAgentEnv draws from seed + i
        cores.append(core)

    def check(where):
        for i, core in enumerate(cores):
            if core.finished:
                continue
            seat = core.to_move
            assert info["seat"][i] == seat, where
            assert_same_observation(core.observe(seat), obs, i, where)
            assert np.array_equal(core.legal_actions(), legal_rows(info)[i]), where
            assert list(info["scores"][i]) == list(core.scores), where

    check("reset")
    rng = np.random.default_rng(2)
    live, steps = [True] * n, 0
    while any(live):
        picks = random_picks(rng, info)
        flat = [int(row[k]) if len(row) else 0 for row, k in zip(legal_rows(info), picks)]
        movers = [core.to_move for core in cores]
        before = [core.scores for core in cores]
        obs, rewards, terminated, truncated, info = envs.step(np.array(flat))
        steps += 1
        for i, core in enumerate(cores):
            if not live[i]:
                continue
            core.step(flat[i])
            m = movers[i]
            expected = float(core.scores[m] - before[i][m]) if reward == "score" else 0.0
            if core.finished:
                expected += _end_rewards(core, reward)[m]
            assert rewards[i] == expected, (steps, i)
            assert terminated[i] == core.finished
            live[i] = not (terminated[i] or truncated[i])
        check(steps)
    assert steps >= 50  # one move a step, every game to its end


def test_spaces_dtypes_and_metadata():
    envs = CarcassonneVectorEnv(num_envs=5, opponents="random", action_mask=True)
    assert isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.action_space.shape == (5,) and envs.single_action_space.n == 69_192
    single = SingleAgentEnv(opponents="random")
    assert envs.single_observation_space == single.observation_space
    obs, info = envs.reset(seed=1)
    assert envs.observation_space.contains(obs)
    assert info["legal_actions"].shape == (5, envs.core.max_legal) and info["legal_actions"].dtype == np.int32
    assert info["_legal_actions"].all()
    rng = np.random.default_rng(0)
    for _ in range(80):
        obs, reward, terminated, truncated, info = envs.step(
            np.array([row[k] if len(row) else 0 for row, k in zip(legal_rows(info), random_picks(rng, info))])
        )
        assert envs.observation_space.contains(obs)
        assert reward.dtype == np.float64 and terminated.dtype == np.bool_ and truncated.dtype == np.bool_
        assert reward.shape == terminated.shape == truncated.shape == (5,)
        for row, count, pad in zip(legal_rows(info), info["legal_count"], info["legal_actions"]):
            assert len(row) == count and np.all(row >= 0) and np.all(np.diff(row) > 0)
            assert np.all(pad[count:] == -1)
        for mask, row in zip(obs["action_mask"], legal_rows(info)):
            assert np.array_equal(np.flatnonzero(mask), row)
        assert np.array_equal(envs.action_masks(), obs["action_mask"].astype(bool))
    without = CarcassonneVectorEnv(num_envs=2, opponents="random", actions="legal")
    assert "action_mask" not in without.single_observation_space.spaces
    assert without.single_action_space.n == without.core.max_legal


def run(envs, seed, steps, picks_seed=3):
    """Every output of `steps` random steps, copied."""
    obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(picks_seed)
    out = [({k: v.copy() for k, v in obs.items()}, info["legal_actions"].copy())]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = envs.step(random_picks(rng, info))
        out.append(({k: v.copy() for k, v in obs.items()}, reward, terminated, truncated, info["legal_actions"].copy()))
    return out


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


def test_seeded_runs_repeat_over_episodes_and_threads():
    """The same seed gives the same games across autoresets, whatever the
    number of threads (20 games: chunks of 8 shared out among the threads,
    taken over by another thread when theirs comes late); another seed
    gives other games."""
    make = lambda threads: CarcassonneVectorEnv(num_envs=20, opponents="random", actions="legal", threads=threads)
    one = run(make(1), seed=7, steps=120)
    assert sum(step[2].sum() for step in one[1:]) >= 20, "every game ended at least once"
    assert same(one, run(make(2), seed=7, steps=120))
    assert same(one, run(make(3), seed=7, steps=120))
    assert not same(one, run(make(2), seed=8, steps=120))


def test_autoreset_is_next_step():
    """A game that ends is reset by the next step: its action is ignored
    (any value), its reward 0, and it starts a game from a new seed."""
    envs = CarcassonneVectorEnv(num_envs=4, opponents="random", actions="legal")
    obs, info = envs.reset(seed=2)
    rng = np.random.default_rng(1)
    seeds = envs.core.seeds
    while True:
        obs, reward, terminated, truncated, info = envs.step(random_picks(rng, info))
        if terminated.any():
            break
    ended = np.flatnonzero(terminated)
    assert np.all(info["legal_count"][ended] == 0) and np.all(obs["to_move"][ended] == 0)
    assert set(reward[ended]) <= {-1.0, 0.0, 1.0}  # "win" rewards (0 for a tie)
    picks = random_picks(rng, info)
    picks[ended] = 10**9  # ignored
    obs, reward, terminated, truncated, info = envs.step(picks)
    assert not terminated[ended].any() and not truncated[ended].any() and np.all(reward[ended] == 0)
    assert np.all(info["legal_count"][ended] > 0)
    # A fresh game: the start tile (and the bot's first tile if it moved first).
    assert np.all(obs["board"][ended, 0].sum(axis=(1, 2)) <= 2)
    assert np.all(obs["scores"][ended] == 0)
    assert all(envs.core.seeds[i] != seeds[i] for i in ended)


def test_partial_reset_and_seed_list():
    envs = CarcassonneVectorEnv(num_envs=3, opponents="random", actions="legal")
    obs, info = envs.reset(seed=[4, None, 6])
    seeds = envs.core.seeds
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs, *_, info = envs.step(random_picks(rng, info))
    before = {k: v.copy() for k, v in obs.items()}
    obs, info = envs.reset(seed=[4, 5, 6], options={"reset_mask": np.array([True, False, False])})
    assert envs.core.seeds[0] == seeds[0] and envs.core.seeds[2] == seeds[2]
    fresh, _ = CarcassonneVectorEnv(num_envs=1, opponents="random").reset(seed=4)
    assert all(np.array_equal(obs[k][0], fresh[k][0]) for k in fresh)
    assert all(np.array_equal(obs[k][1:], before[k][1:]) for k in obs)
    with pytest.raises(CarcassonneError) as e:
        envs.reset(seed=1, options={"reset_mask": np.array([1, 0, 0])})
    assert e.value.code == "bad_reset"
    with pytest.raises(CarcassonneError):
        envs.reset(seed=[1, 2])


@pytest.mark.parametrize("form", ["flat", "legal"])
def test_bad_actions_raise_and_change_nothing(form):
    envs = CarcassonneVectorEnv(num_envs=3, opponents="random", actions=form, action_mask=True, copy=True,
                                illegal="raise")
    obs, info = envs.reset(seed=9)
    size = envs.single_action_space.n
    good = np.zeros(3, dtype=np.int64) if form == "legal" else info["legal_actions"][:, 0].astype(np.int64)
    illegal = good.copy()
    illegal[1] = info["legal_count"][1] if form == "legal" else int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    cases = [
        (good.astype(np.float64), CarcassonneError, "bad_action"),
        (good[:2], CarcassonneError, "bad_action"),
        (np.array([good[0], -1, good[2]]), CarcassonneError, "bad_action"),
        (np.array([good[0], size, good[2]]), CarcassonneError, "bad_action"),
        (np.array([good[0], 2**64 - 1, good[2]], dtype=np.uint64), CarcassonneError, "bad_action"),
        (illegal, IllegalMoveError, "not_legal"),
    ]
    for actions, error, code in cases:
        with pytest.raises(error) as e:
            envs.step(actions)
        assert e.value.code == code, actions
        after = envs._observation()
        assert all(np.array_equal(obs[k], after[k]) for k in obs)
    with pytest.raises(IllegalMoveError) as e:
        envs.step(illegal)
    assert e.value.env == 1 and "game 1" in str(e.value)
    envs.step(good)  # the batch still plays


@pytest.mark.parametrize("form", ["flat", "legal"])
def test_illegal_lose_ends_that_episode(form):
    """By default (illegal="lose", as SingleAgentEnv), an illegal action ends
    that game's episode with reward -1 and info["illegal"], the observation
    unchanged, as the single environment does; the next step resets it."""
    envs = CarcassonneVectorEnv(num_envs=2, opponents="random", actions=form, action_mask=True, copy=True)
    single = SingleAgentEnv(opponents="random")
    obs, info = envs.reset(seed=3)
    single_obs, _ = single.reset(seed=4)  # game 1
    first = int(info["legal_actions"][0][0])
    not_legal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    picks = np.array([0, info["legal_count"][1]]) if form == "legal" else np.array([first, not_legal])
    after, reward, terminated, truncated, info = envs.step(picks)
    assert list(reward) == [0.0, -1.0] and list(terminated) == [False, True]
    assert list(info["illegal"]) == [False, True]
    single_after, single_reward, single_term, single_trunc, single_info = single.step(not_legal)
    assert (single_reward, single_term, single_trunc, single_info["illegal"]) == (-1.0, True, False, True)
    assert_same_observation(single_after, after, 1, "illegal")
    assert_same_observation(single_obs, after, 1, "unchanged")
    assert np.array_equal(single_info["scores"], info["scores"][1])
    obs, reward, terminated, truncated, info = envs.step(np.array([0, 0]))
    assert reward[1] == 0 and not terminated[1] and not info["illegal"][1]


def test_observations_are_written_in_place():
    envs = CarcassonneVectorEnv(num_envs=2, opponents="random", actions="legal")
    obs, info = envs.reset(seed=1)
    obs2, *_ = envs.step(np.zeros(2, dtype=np.int64))
    assert all(obs2[k] is obs[k] for k in obs)
    copying = CarcassonneVectorEnv(num_envs=2, opponents="random", actions="legal", copy=True)
    obs, info = copying.reset(seed=1)
    obs2, *_ = copying.step(np.zeros(2, dtype=np.int64))
    assert all(obs2[k] is not obs[k] for k in obs)


def test_gymnasium_vector_wrapper_counts_episodes():
    """Gymnasium's RecordEpisodeStatistics (which reads the autoreset mode)
    sees each game's episode: its length is the learner's turns."""
    envs = RecordEpisodeStatistics(CarcassonneVectorEnv(num_envs=4, opponents="random", actions="legal"))
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = []
    for _ in range(150):
        obs, reward, terminated, truncated, info = envs.step(random_picks(rng, info))
        if "episode" in info:
            done = info["_episode"]
            episodes += list(zip(info["episode"]["r"][done], info["episode"]["l"][done]))
    assert len(episodes) >= 4
    assert all(r in (-1.0, 0.0, 1.0) and 30 <= length <= 40 for r, length in episodes)


def test_a_narrow_legal_list_lists_the_first_actions():
    """With max_legal below a turn's count, the row holds its first actions,
    the count all of them; flat actions beyond the row stay playable."""
    wide = CarcassonneVectorEnv(num_envs=4, opponents="random", action_mask=True)
    narrow = CarcassonneVectorEnv(num_envs=4, opponents="random", max_legal=5)
    assert narrow.single_action_space.n == 69_192
    (obs, info), (_, narrow_info) = wide.reset(seed=2), narrow.reset(seed=2)
    assert np.array_equal(info["legal_count"], narrow_info["legal_count"]) and info["legal_count"].min() > 5
    assert np.array_equal(info["legal_actions"][:, :5], narrow_info["legal_actions"])
    last = np.array([row[-1] for row in legal_rows(info)])
    _, _, _, _, after = narrow.step(last)
    _, _, _, _, wide_after = wide.step(last)
    assert np.array_equal(after["legal_actions"], wide_after["legal_actions"][:, :5])
    short = CarcassonneVectorEnv(num_envs=4, opponents="random", actions="legal", max_legal=5)
    short.reset(seed=2)
    with pytest.raises(CarcassonneError) as e:
        short.step(np.full(4, 5))
    assert e.value.code == "bad_action"


def test_bad_construction():
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=0)
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=2, actions="short")
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=2, opponents=["random", "random"])
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=2, opponents="nobody")
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=2, seat=2)
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=2, reward="points")
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=2, max_legal=0)
    with pytest.raises(ValueError):
        CarcassonneVectorEnv(num_envs=2, illegal="ignore")


def test_docstring_example_runs():
    result = doctest.testmod(carcassonne.vector, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
