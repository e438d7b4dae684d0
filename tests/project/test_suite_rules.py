"""The suite's own promises: nothing in it depends on the machine's speed."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings
from paths import TESTS



def test_property_tests_have_no_deadline():
    assert settings.default.deadline is None


def test_no_test_compares_a_wall_clock_time():
    """A time difference held against a bound fails on a busy machine: benchmarks measure speed."""
    compared = re.compile(r"^\s*assert .*(time\.(monotonic|perf_counter|time)\(\)\s*-|elapsed|duration).*[<>]")
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(TESTS.rglob("*.py")) if path.name != Path(__file__).name
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if compared.search(line)]
    assert found == []


ROOT = TESTS.parent


def test_slow_is_a_registered_marker_that_the_quick_loop_leaves_out(pytestconfig):
    """`pytest -m "not slow"` is the contributor's quick loop: `slow` is declared in pyproject.toml
    (a typo such as `@pytest.mark.slwo` is then a warning, not a test silently kept in)."""
    declared = {line.split(":")[0].strip() for line in pytestconfig.getini("markers")}
    assert "slow" in declared


def test_the_readmes_test_command_runs_every_test():
    """The README's test command (run by .ci/run) selects nothing away: no -m, -k or --deselect. (The
    quick loop the maintainers' section names is another command.)"""
    commands = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
                if re.search(r"-m pytest\b", line) and "setup.sh --test" in line]
    assert commands, "the README names its test command"
    for command in commands:
        pytest_args = command.split("-m pytest", 1)[1].split()
        assert not [a for a in pytest_args if a.startswith(("-m", "-k", "--deselect"))], command
    assert "-m pytest -q" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


class _Item:
    """As much of a collected test as the collection hook reads."""

    def __init__(self, fixtures=(), markers=()):
        self.fixturenames = list(fixtures)
        self.keywords = dict.fromkeys(markers, True)

    def add_marker(self, mark):
        self.keywords[mark.name] = mark


class _Config:
    def getoption(self, name):
        return "not slow"


def test_what_renders_speech_or_decodes_audio_is_slow():
    """A test with the `engine` fixture, or marked `espeak` or `vosk_model`, runs only in the
    whole suite; others are left as they are."""
    from conftest import pytest_collection_modifyitems

    speech, model, espeak, plain = _Item(["engine", "tmp_path"]), _Item(markers=["vosk_model"]), \
        _Item(markers=["espeak"]), _Item(["tmp_path"])
    pytest_collection_modifyitems(_Config(), [speech, model, espeak, plain])
    assert ["slow" in item.keywords for item in (speech, model, espeak, plain)] == [True, True, True, False]
