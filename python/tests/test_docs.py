"""The examples in the package's docstrings and in python/README.md run."""

import doctest
import os
import pathlib
import re
import subprocess
import sys

import pytest

import carcassonne
import carcassonne.bots
import carcassonne.env


@pytest.mark.parametrize("module", [carcassonne, carcassonne.bots, carcassonne.env])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def readme_snippets():
    """The README's Python code blocks, each with the heading it is under."""
    heading, blocks, lines, inside = "", [], [], False
    for line in README.read_text(encoding="utf-8").splitlines():
        if not inside and line.startswith("#"):
            heading = line.lstrip("# ")
        elif not inside and line.strip() == "```python":
            inside, lines = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append(pytest.param("\n".join(lines) + "\n", id=f"{heading}-{len(blocks)}"))
        elif inside:
            lines.append(line)
    return blocks


@pytest.mark.parametrize("code", readme_snippets())
def test_readme_snippet_runs_pasted_alone(code, tmp_path):
    """Each Python block of python/README.md runs as pasted, alone, in a fresh
    interpreter (a `>>>` block as a doctest of its own), in an empty folder."""
    if code.lstrip().startswith(">>>"):
        run = ("import doctest, sys\n"
               "t = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, 'README', 'README.md', 0)\n"
               "r = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)\n"
               "r.run(t)\n"
               "sys.exit(1 if r.failures else 0)\n")
        proc = subprocess.run([sys.executable, "-c", run], input=code, text=True, capture_output=True,
                              cwd=tmp_path, timeout=600)
    else:
        proc = subprocess.run([sys.executable, "-"], input=code, text=True, capture_output=True, cwd=tmp_path,
                              timeout=600)
    missing = re.search(r"ModuleNotFoundError: No module named '(\w+)", proc.stderr + proc.stdout)
    if proc.returncode != 0 and missing and missing.group(1) != "carcassonne" and not os.environ.get("CI"):
        pytest.skip(f"needs {missing.group(1)}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
