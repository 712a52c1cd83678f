"""The examples in the package's docstrings run."""

import doctest

import pytest

import carcassonne
import carcassonne.bots
import carcassonne.env


@pytest.mark.parametrize("module", [carcassonne, carcassonne.bots, carcassonne.env])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
