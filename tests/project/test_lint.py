"""The code checks written down in pyproject.toml ([tool.ruff], [tool.mypy], which is `mypy --strict`) pass on the
whole tree."""

from __future__ import annotations

import subprocess
import sys
import tomllib

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


def test_mypy_is_strict_on_every_package():
    """The project's mypy setting is `--strict` over gm, scorer and voices: no module of theirs is let
    off a strict check (only the CLI's click subclasses, where Typer's type hints fall short), and only
    libraries without types are read as Any."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert sorted(config["packages"]) == ["gm", "scorer", "voices"]
    for override in config.get("overrides", []):
        ours = [m for m in override["module"] if m.split(".")[0] in config["packages"]]
        settings = set(override) - {"module"}
        if ours:
            assert set(ours) <= {"gm.cli", "gm.commands.common", "gm.commands.score"}, override
            assert settings == {"disable_error_code"}, override
            assert set(override["disable_error_code"]) <= {"override", "misc", "has-type"}, override
        else:
            assert settings <= {"ignore_missing_imports", "follow_imports"}, override


def test_no_function_of_the_hearing_is_above_complexity_ten():
    """The listener stays readable: one question asked by voice is a state machine of small
    steps (gm/hearing/asking.py), not one loop of thirty branches (ruff's mccabe, C901)."""
    result = _run("ruff", "check", "--no-cache", "--select", "C901", "--config", "lint.mccabe.max-complexity=10",
                  "gm/hearing")
    assert result.returncode == 0, result.stdout + result.stderr
