"""The hand-worked scenario records (tests/scenarios): Python gives the
scores, events and errors they expect, and exactly what `carcassonne score`
prints."""

import json
import subprocess

import pytest

import carcassonne

from conftest import scenario_files


def test_there_are_scenarios():
    assert len(scenario_files()) >= 110


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.stem)
def test_scenario(path, cli):
    doc = json.loads(path.read_text())
    expect = doc["expect"]
    cli_run = subprocess.run([cli, "score", str(path)], capture_output=True, text=True, timeout=60) if cli else None
    if "error" in expect:
        with pytest.raises(carcassonne.RecordError) as e:
            carcassonne.score_record(path)
        assert e.value.code == expect["error"]["code"]
        assert e.value.move_no == expect["error"].get("move")
        if cli_run:
            assert cli_run.returncode == 2
            assert cli_run.stderr.strip() == str(e.value), "the same message as the CLI"
        return
    out = carcassonne.score_record(path)
    if cli_run:
        assert cli_run.returncode == 0, cli_run.stderr
        assert out == cli_run.stdout, "byte for byte what `carcassonne score` prints"
    got = json.loads(out)
    assert got["scores"] == expect["scores"]
    game = carcassonne.Game.from_record(path)
    assert game.scores == expect["scores"]
    if "finished" in expect:
        assert game.finished == expect["finished"]
