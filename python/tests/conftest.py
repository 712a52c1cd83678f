"""Shared helpers: the repository's scenario records and the CLI binary."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def scenario_files():
    return sorted(SCENARIOS.glob("*.json"))


@pytest.fixture(scope="session")
def cli():
    """The `carcassonne` binary: $CARCASSONNE_BIN, else one built in target/,
    else None (the checks against it are skipped; under CI a missing
    binary fails the run instead)."""
    candidates = [os.environ.get("CARCASSONNE_BIN"), ROOT / "target" / "debug" / "carcassonne",
                  ROOT / "target" / "release" / "carcassonne", shutil.which("carcassonne")]
    for c in candidates:
        if c and pathlib.Path(c).is_file():
            return str(c)
    if os.environ.get("CI"):
        pytest.fail("no carcassonne binary: build it (cargo build) or set CARCASSONNE_BIN")
    return None
