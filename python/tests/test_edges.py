"""The small edges: argument checking, record arguments, tile names, the
README's figures, and a build that never downloads a toolchain."""

import importlib.util
import json
import os
import pathlib
import re

import numpy as np
import pytest

import carcassonne
from carcassonne.env import SingleAgentEnv, env, raw_env

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_readme_counts_the_tile_kinds():
    readme = (ROOT / "python" / "README.md").read_text()
    # The environments observe the base game's and the river's tiles, the
    # first 43 of tiles(); the expansions' 41 follow them.
    assert carcassonne.TILE_KINDS == 43
    assert len(carcassonne.tiles()) == 43 + 17 + 24
    assert all(not t.id.startswith(("IC", "TB")) for t in carcassonne.tiles()[:43])
    stated = {int(n) for n in re.findall(r"\((?:players, slots, |)(\d+)\) uint8", readme)}
    assert stated == {carcassonne.TILE_KINDS}


@pytest.mark.parametrize("call", [
    lambda: carcassonne.Game(seed=-1),
    lambda: carcassonne.Game(players=-2),
    lambda: carcassonne.Game().view(-1),
    lambda: carcassonne.Game().hand(-1),
    lambda: carcassonne.Game().supply(-1),
    lambda: carcassonne.Game().view(0).hand_len(-1),
    lambda: carcassonne.Bot("random", -5),
    lambda: carcassonne.Move("D", (1, 0), rot=-1),
    lambda: carcassonne.EnvCore("standard", 2, 15, -1),
    lambda: carcassonne.EnvCore().step(-1),
    lambda: carcassonne.EnvCore().observe(-1),
    lambda: carcassonne.Game(seed=2**64),
    lambda: carcassonne.arena(["random", "random"], games=-1),
    lambda: carcassonne.Move("D", (2**40, 0)),
    lambda: carcassonne.Move.from_dict({"tile": "D", "at": [0, -2**70]}),
    lambda: carcassonne.Move.from_dict({"tile": "D", "at": [1, 0], "rot": -1}),
])
def test_a_negative_or_huge_integer_is_a_value_error(call):
    with pytest.raises(ValueError) as info:
        call()
    assert not isinstance(info.value, OverflowError)


@pytest.mark.parametrize("make", [raw_env, env])
def test_aec_refuses_non_integer_and_out_of_range_actions(make):
    e = make()
    e.reset(seed=1)
    legal = int(e.infos[e.agent_selection]["legal_actions"][0]) if make is raw_env else None
    before = e.unwrapped.core.game().to_record()
    with pytest.raises(TypeError):
        e.step(3.7)
    with pytest.raises(TypeError):
        e.step(float(legal or 0))
    for bad in (-1, 10**6, e.unwrapped.core.action_size):
        with pytest.raises(ValueError):
            e.step(bad)
    assert e.unwrapped.core.game().to_record() == before, "nothing changed"
    assert not any(e.unwrapped.terminations.values())
    e.step(np.int64(e.unwrapped.infos[e.agent_selection]["legal_actions"][0]))  # numpy integers are integers


def test_single_agent_refuses_non_integer_and_out_of_range_actions():
    for illegal in ("lose", "raise"):
        e = SingleAgentEnv(illegal=illegal, opponents="random")
        e.reset(seed=1)
        before = e.core.game().to_record()
        with pytest.raises(TypeError):
            e.step(3.7)
        for bad in (-1, 10**6, e.action_space.n):
            with pytest.raises(ValueError):
                e.step(bad)
        assert e.core.game().to_record() == before


def test_from_record_reads_json_text_from_a_str_and_files_from_paths(tmp_path):
    game = carcassonne.Game(seed=2)
    game.play(game.legal_moves()[0])
    record = game.to_record()
    path = tmp_path / "game.json"
    path.write_text(record)
    for source in (record, json.loads(record), path, pathlib.PurePath(path)):
        assert carcassonne.Game.from_record(source).to_record() == record
    with pytest.raises(carcassonne.RecordError) as info:
        carcassonne.Game.from_record(str(path))
    assert "pathlib.Path" in str(info.value)
    with pytest.raises(carcassonne.RecordError):
        carcassonne.score_record(str(path))


def test_course_names_in_any_case_and_the_garden_copies():
    assert carcassonne.tile("crfr50").id == "D"
    assert carcassonne.tile("CrFr50").id == "D"
    assert carcassonne.tile("vg").id == "Vg"
    for t in carcassonne.tiles():
        # The river's tiles and the expansions' have no course names
        # (expansions.md: "No course names exist for them").
        if t.river or t.id.startswith(("IC", "TB")):
            assert t.course is None
            continue
        assert t.course is not None, t.id
        assert carcassonne.tile(t.course).id == t.id
        assert carcassonne.tile(t.course.lower()).id == t.id
        if t.garden:
            plain = carcassonne.tile(t.id[:-1])
            assert t.course == plain.course + "g" and t.edges == plain.edges
    assert carcassonne.tile("FFRR50g").id == "Vg"
    move = carcassonne.Move("ffrr50g", (0, 1))
    assert move.tile == "Vg" and move.course == "FFRR50g"
    assert carcassonne.Move.from_dict({"tile": "cfff50", "at": [0, -1]}).tile == "E"
    with pytest.raises(carcassonne.CarcassonneError):
        carcassonne.tile("CRFR51")


def test_the_build_backend_never_asks_for_a_toolchain(monkeypatch, tmp_path):
    """pip asks the backend what it needs to build; without cargo on PATH,
    maturin's own backend asks for `puccinialin`, which downloads Rust. Ours
    does not (python/README.md, "Install")."""
    spec = importlib.util.spec_from_file_location("_carcassonne_build", ROOT / "python" / "_build" / "backend.py")
    monkeypatch.delenv("MATURIN_NO_INSTALL_RUST", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no cargo here
    monkeypatch.chdir(ROOT / "python")  # as pip runs it
    maturin = pytest.importorskip("maturin")
    if not hasattr(maturin, "get_requires_for_build_wheel"):
        # (Run from a folder that holds a `maturin` directory, such as
        # target/, that directory is imported as an empty namespace package.)
        pytest.skip("maturin's build backend is not installed")
    assert "puccinialin" in maturin.get_requires_for_build_wheel(), "maturin's own backend would fetch Rust"
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    assert os.environ["MATURIN_NO_INSTALL_RUST"] == "1"
    assert "puccinialin" not in backend.get_requires_for_build_wheel()
    assert "puccinialin" not in backend.get_requires_for_build_sdist()
    pyproject = (ROOT / "python" / "pyproject.toml").read_text()
    assert 'build-backend = "backend"' in pyproject and 'backend-path = ["_build"]' in pyproject


def test_positions_may_be_negative_but_not_floats():
    assert carcassonne.Move("D", (-3, -4)).at == (-3, -4)
    assert carcassonne.Move.from_dict({"tile": "D", "at": [np.int64(-1), 0]}).at == (-1, 0)
    with pytest.raises(TypeError):
        carcassonne.Move("D", (0.5, 1))
