"""The code checks written down in pyproject.toml ([tool.ruff], [tool.mypy]) pass on the whole tree."""

from __future__ import annotations

import subprocess
import sys

import pytest
from paths import ROOT

pytestmark = pytest.mark.slow  # ruff and mypy on the whole tree



def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", "--no-cache", "gm", "scorer", "voices", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


STRICT = ("gm/table", "gm/ports.py", "gm/hearing", "gm/speech")


def test_the_strict_packages_pass_mypy_strict():
    """The conversation layer, the ports and the hearing and speaking edges pass `mypy --strict`
    as it is (the [[tool.mypy.overrides]] in pyproject.toml keep them so in the whole-tree run)."""
    result = _run("mypy", "--strict", *STRICT)
    assert result.returncode == 0, result.stdout + result.stderr
