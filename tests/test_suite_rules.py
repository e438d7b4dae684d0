"""The suite's own promises: nothing in it depends on the machine's speed."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings

TESTS = Path(__file__).resolve().parent


def test_property_tests_have_no_deadline():
    assert settings.default.deadline is None


def test_no_test_compares_a_wall_clock_time():
    """A time difference held against a bound fails on a busy machine: benchmarks measure speed."""
    compared = re.compile(r"^\s*assert .*(time\.(monotonic|perf_counter|time)\(\)\s*-|elapsed|duration).*[<>]")
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(TESTS.glob("*.py")) if path.name != Path(__file__).name
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if compared.search(line)]
    assert found == []
