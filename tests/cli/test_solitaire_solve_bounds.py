"""`gm solitaire solve` with a state budget (SS-R6), its progress, and seeds from 0 only (SS-R5)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.solitaire.compiled import compiled_search
from gm.solitaire.solving import solve_reporting
from scorer.solitaire.deal import BadDeal, check_seed, deal_from_seed
from scorer.solitaire.engine import replay
from scorer.solitaire.moves import move_from_json
from scorer.solitaire.solver import solve

runner = CliRunner()
KEYS = {"seed", "rows", "capped", "max_states", "states", "best_left", "at_least", "at_most", "moves"}


@pytest.mark.parametrize("seed", [-1, -7])
def test_ss_r5_a_negative_seed_is_refused_not_aliased(seed):
    with pytest.raises(BadDeal, match=rf"seed must be 0 or more, not {seed} .*same as {-seed}; SS-R5"):
        deal_from_seed(seed)
    assert check_seed(0) == 0


@pytest.mark.parametrize("args", [
    ["solve", "--seed", "-1"],
    ["simulate", "--seed", "-1", "--deals", "2"],
    ["play", "--seed", "-1", "--speech", "off"],
])
def test_ss_r5_every_command_taking_a_seed_refuses_a_negative_one(args):
    result = runner.invoke(app, ["solitaire", *args], input="quit\n")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "gm: seed must be 0 or more, not -1 (a negative seed would deal the same as 1; SS-R5)\n"


@pytest.mark.solver
def test_ss_r6_a_capped_solve_says_so_and_gives_its_bounds():
    args = ["solitaire", "solve", "--rows", "9", "--seed", "0", "--max-states", "1000"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("seed 0, 9 rows: capped at 1000 states (--max-states), not proven: between ")
    data = json.loads(runner.invoke(app, args + ["--json"]).stdout)
    assert set(data) == KEYS
    assert data["capped"] is True and data["best_left"] is None and data["moves"] == []
    assert data["max_states"] == 1000 and data["states"] >= 1000
    assert 0 <= data["at_least"] <= data["at_most"] <= 45
    assert f"between {data['at_least']} and {data['at_most']} left" in result.stdout


@pytest.mark.solver
def test_ss_r6_a_search_within_its_cap_is_the_full_answer():
    data = json.loads(runner.invoke(app, ["solitaire", "solve", "--seed", "7", "--max-states", "10000000",
                                          "--json"]).stdout)
    assert set(data) == KEYS and data["capped"] is False
    assert data["at_least"] == data["at_most"] == data["best_left"]
    end = replay(deal_from_seed(7), [move_from_json(m) for m in data["moves"]])
    assert end.over and end.left == data["best_left"]


@pytest.mark.solver
def test_a_long_search_is_announced_before_it_starts():
    long = runner.invoke(app, ["solitaire", "solve", "--rows", "8", "--seed", "2", "--max-states", "500"])
    assert "gm: a 8-row pyramid may take many minutes to solve; progress below\n" in long.stderr
    uncapped_note = runner.invoke(app, ["solitaire", "solve", "--rows", "9", "--max-states", "100"]).stderr
    assert "may take many minutes" in uncapped_note
    assert "may take" not in runner.invoke(app, ["solitaire", "solve", "--rows", "7", "--seed", "3"]).stderr


@pytest.mark.solver
def test_progress_ends_with_the_states_the_search_expanded():
    deal = deal_from_seed(11, 6)
    reports: list[tuple[int, bool]] = []
    solution = solve_reporting(deal, None, lambda states, done: reports.append((states, done)), every=0.0)
    assert reports[-1] == (solution.nodes, True)
    assert all(not done for _, done in reports[:-1])
    assert all(a <= b for (a, _), (b, _) in zip(reports, reports[1:]))
    assert solution == solve(deal, search=compiled_search())
