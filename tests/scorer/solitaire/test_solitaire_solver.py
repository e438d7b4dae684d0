"""The omniscient solver: its moves replay to its result, and no hidden-information player beats it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.solitaire.compiled import compiled_search
from scorer.solitaire import simulate, solver
from scorer.solitaire.deal import deal_from_seed
from scorer.solitaire.engine import replay
from scorer.solitaire.moves import Eye, Special
from scorer.solitaire.policies import greedy, play_out, smart
from scorer.solitaire.search_memory import new_memory
from scorer.solitaire.stats import summarize, wilson


def solve(deal, max_states=None):
    return solver.solve(deal, max_states, search=compiled_search())


def least_left(deal, max_states=None, memory=None):
    return solver.least_left(deal, max_states, memory, search=compiled_search())


def cards_left(seed, rows, policy, max_states=None):
    return simulate.cards_left(seed, rows, policy, max_states, search=compiled_search())


@pytest.mark.solver
@pytest.mark.parametrize("seed, rows", [(0, 7), (3, 7), (11, 7), (5, 4), (2, 6)])
def test_the_solution_replays_through_the_engine_to_its_result(seed, rows):
    deal = deal_from_seed(seed, rows)
    solution = solve(deal)
    end = replay(deal, list(solution.moves))
    assert end.over and end.left == solution.best_left


@pytest.mark.solver
def test_the_omniscient_eye_always_predicts_right():
    for seed in range(12):
        deal = deal_from_seed(seed)
        moves = list(solve(deal).moves)
        for index, move in enumerate(moves):
            if isinstance(move, Eye):
                state = replay(deal, moves[:index])
                assert move.guess == state.card_at(move.position) // 4 + 1
                assert isinstance(moves[index - 1], Special)


@pytest.mark.solver
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), rows=st.integers(3, 5))
def test_neither_greedy_nor_smart_ever_beats_the_solver(seed, rows):
    deal = deal_from_seed(seed, rows)
    best = solve(deal).best_left
    assert best <= play_out(deal, greedy).left
    assert best <= play_out(deal, smart).left


@pytest.mark.solver
def test_smart_plays_better_than_greedy_over_many_deals():
    greedy_left = sum(cards_left(seed, 7, "greedy") for seed in range(60))
    smart_left = sum(cards_left(seed, 7, "smart") for seed in range(60))
    assert smart_left < greedy_left * 0.6


def test_summaries_and_the_wilson_interval():
    summary = summarize([0, 0, 1, 3, 3, 12], "smart", 7)
    assert summary.distribution == {0: 2, 1: 1, 3: 2, 12: 1}
    assert summary.mean_left == pytest.approx(19 / 6)
    assert summary.clear_rate == pytest.approx(1 / 3)
    assert summary.to_json()["distribution"] == {"0": 2, "1": 1, "3": 2, "12": 1}
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="trials must be positive"):
        wilson(0, 0)


@pytest.mark.solver
def test_a_state_budget_gives_up_with_the_bound_proven_so_far():
    from scorer.solitaire.simulate import Unresolved
    from scorer.solitaire.solver import SearchLimit

    with pytest.raises(SearchLimit, match="at least 0 cards") as limit:
        solve(deal_from_seed(10), max_states=50)
    assert limit.value.at_least == 0 and limit.value.states == 51
    outcome = cards_left(10, 7, "omniscient", max_states=50)
    deal = deal_from_seed(10)
    assert outcome == Unresolved(10, 0, min(play_out(deal, greedy).left, play_out(deal, smart).left))
    assert cards_left(10, 7, "omniscient") == 0


@pytest.mark.slow
def test_an_unclearable_deal_is_proven_and_its_best_is_reached():
    deal = deal_from_seed(1081)
    solution = solve(deal)
    assert solution.best_left == 1
    assert replay(deal, list(solution.moves)).left == 1
    assert least_left(deal) == 1
    assert play_out(deal, smart).left >= 1


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), rows=st.integers(3, 6))
def test_tiny_tables_forget_but_never_answer_differently(seed, rows):
    deal = deal_from_seed(seed, rows)
    assert least_left(deal, memory=new_memory(bits=6)) == least_left(deal, memory=new_memory())


@pytest.mark.solver
@settings(max_examples=10, deadline=None)
@given(seeds=st.lists(st.integers(0, 10**6), min_size=2, max_size=5), rows=st.integers(3, 5))
def test_tables_reused_from_deal_to_deal_remember_nothing_wrong(seeds, rows):
    shared = new_memory(bits=10)
    for seed in seeds + seeds[::-1]:
        deal = deal_from_seed(seed, rows)
        assert least_left(deal, memory=shared) == least_left(deal, memory=new_memory(bits=10))


@pytest.mark.solver
def test_a_process_searches_in_one_workspace_whose_tables_are_made_once():
    """The tables every search of a process shares belong to its one Workspace: made at the first
    search, the same arrays at the next; `searched` counts the search just done."""
    first = solve(deal_from_seed(0, 7))
    shared = solver.workspace()
    small = shared.small
    assert solver.searched() == first.nodes > 0
    second = solve(deal_from_seed(3, 7))
    assert solver.workspace() is shared and shared.small is small
    assert solver.searched() == second.nodes


@pytest.mark.slow
def test_a_budget_counts_the_states_of_both_tries():
    from scorer.solitaire.solver import SMALL_STATES, SearchLimit

    with pytest.raises(SearchLimit) as limit:
        least_left(deal_from_seed(361), max_states=SMALL_STATES + 10_000)
    assert limit.value.states == SMALL_STATES + 10_001 and limit.value.at_least == 0
