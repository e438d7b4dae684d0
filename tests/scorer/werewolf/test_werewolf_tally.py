"""The vote: count and roll-call rounds, the runoff among the tied, panic, HW-R4 bounds."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.werewolf.decks import custom_deck, standard_deck
from scorer.werewolf.tally import (
    GRAVEYARD, Round, TallyError, count_round, outcome, roll_call_round, vote_bounds,
)

FOUR = ["Aki", "Ken", "Mio", "Sora"]
CANDIDATES = [*FOUR, GRAVEYARD]


def test_hw_r4_bounds_by_player_count():
    assert vote_bounds(4) == (3, 4)  # the traitor has no vote with 4 players
    assert vote_bounds(5) == (5, 5)  # everyone votes with the 5-player deck
    assert vote_bounds(6) == (6, 6)  # HW-R4: without a deck, the standard 6-player deck


def test_hw_r4_bounds_follow_the_deck():
    assert vote_bounds(6, standard_deck(6)) == (6, 6)
    assert vote_bounds(6, standard_deck(6, "dead")) == (6, 6)
    assert vote_bounds(6, standard_deck(6, "magician")) == (4, 6)
    assert vote_bounds(6, standard_deck(6, swap_ins=["angel"])) == (5, 6)
    assert vote_bounds(4, standard_deck(4, swap_ins=["gorilla"])) == (3, 4)
    no_traitor = custom_deck(4, {"villager": 6, "werewolf": 1, "seer": 1, "gorilla": 1})
    assert vote_bounds(4, no_traitor) == (4, 4)
    everything = custom_deck(4, {"villager": 4, "werewolf": 1, "traitor": 1, "seer": 1, "magician": 1, "angel": 1})
    assert vote_bounds(4, everything) == (1, 4)


@pytest.mark.parametrize("players", [3, 7, 0])
def test_bounds_refuse_other_player_counts(players):
    with pytest.raises(TallyError, match=f"not {players}"):
        vote_bounds(players)


def test_bounds_refuse_a_deck_for_other_players():
    with pytest.raises(TallyError, match="the deck is for 4 players, not 5"):
        vote_bounds(5, standard_deck(4))


def test_the_most_votes_is_executed():
    first = count_round(CANDIDATES, {"Ken": 3, "Aki": 1}, 4)
    assert first.counts == {"Aki": 1, "Ken": 3, "Mio": 0, "Sora": 0, GRAVEYARD: 0}
    assert first.leaders == ("Ken",) and first.executed == "Ken" and first.total == 4
    result = outcome(first)
    assert (result.executed, result.runoff_candidates, result.panic) == ("Ken", None, False)
    assert not result.needs_runoff


def test_the_graveyard_can_be_executed():
    result = outcome(count_round(CANDIDATES, {GRAVEYARD: 2, "Mio": 1}, 4))
    assert result.executed == GRAVEYARD


def test_a_tie_asks_for_a_runoff_among_only_the_tied():
    first = count_round(CANDIDATES, {"Aki": 2, GRAVEYARD: 2}, 4)
    assert first.executed is None and first.leaders == ("Aki", GRAVEYARD)
    result = outcome(first)
    assert (result.executed, result.runoff_candidates, result.panic) == (None, ("Aki", GRAVEYARD), False)
    assert result.needs_runoff
    second = count_round(result.runoff_candidates, {GRAVEYARD: 4}, 4)
    decided = outcome(first, second)
    assert (decided.executed, decided.runoff_candidates, decided.panic) == (GRAVEYARD, ("Aki", GRAVEYARD), False)


def test_a_tie_again_is_panic():
    first = count_round(CANDIDATES, {"Aki": 1, "Ken": 1, "Mio": 1, "Sora": 1}, 4)
    second = count_round(first.leaders, {"Ken": 2, "Sora": 2}, 4)
    result = outcome(first, second)
    assert (result.executed, result.panic, result.needs_runoff) == (None, True, False)
    assert result.runoff_candidates == ("Aki", "Ken", "Mio", "Sora")


def test_a_runoff_counting_other_candidates_is_refused():
    first = count_round(CANDIDATES, {"Aki": 2, "Ken": 2}, 4)
    stray = count_round(CANDIDATES, {"Aki": 2, "Mio": 1}, 4)
    with pytest.raises(TallyError, match="among Aki, Ken only, but 'Mio' got 1 votes"):
        outcome(first, stray)
    zero_elsewhere = count_round(CANDIDATES, {"Aki": 1, "Ken": 3}, 4)
    assert outcome(first, zero_elsewhere).executed == "Ken"


def test_the_runoff_total_equals_the_first_rounds():
    # HW-R4: the runoff is 全プレイヤーによる投票のやり直し: the same voters, so the same total
    first = count_round(CANDIDATES, {"Aki": 1, "Ken": 1, "Mio": 1}, 4)
    fewer = count_round(("Aki", "Ken", "Mio"), {"Aki": 2, "Ken": 2}, 4)
    with pytest.raises(TallyError,
                       match="HW-R4: the runoff has the same voters as the first round: exactly 3 votes, not 4"):
        outcome(first, fewer)
    assert outcome(first, count_round(("Aki", "Ken", "Mio"), {"Aki": 2, "Ken": 1}, 4)).executed == "Aki"


def test_a_roll_call_runoff_has_the_same_voters():
    first = roll_call_round(CANDIDATES, {"Aki": "Ken", "Ken": "Aki", "Mio": "Sora"}, FOUR)
    swapped = roll_call_round(("Aki", "Ken", "Sora"), {"Aki": "Ken", "Ken": "Aki", "Sora": "Ken"}, FOUR)
    with pytest.raises(TallyError, match="the same voters as the first round, but Mio, Sora changed"):
        outcome(first, swapped)


def test_a_runoff_without_a_tie_is_refused():
    first = count_round(CANDIDATES, {"Aki": 3}, 4)
    with pytest.raises(TallyError, match="no runoff: Aki has the most votes"):
        outcome(first, first)


@pytest.mark.parametrize("counts, message", [
    ({"Yui": 1, "Aki": 3}, "'Yui' is not a candidate"),
    ({"Aki": -1, "Ken": 4}, "votes for 'Aki' must be a whole number ≥ 0, not -1"),
    ({"Aki": "2", "Ken": 2}, "votes for 'Aki' must be a whole number"),
    ({"Aki": True, "Ken": 3}, "votes for 'Aki' must be a whole number"),
    ({"Aki": 3, "Ken": 2}, "HW-R4: 5 votes in all, but 4 players cast between 3 and 4"),
    ({"Aki": 2}, "HW-R4: 2 votes in all, but 4 players cast between 3 and 4"),
    ({}, "HW-R4: 0 votes in all"),
])
def test_impossible_counts_are_refused(counts, message):
    with pytest.raises(TallyError, match=message):
        count_round(CANDIDATES, counts, 4)


def test_bounds_with_a_deck_at_six():
    six = ["A", "B", "C", "D", "E", "F", GRAVEYARD]
    with pytest.raises(TallyError, match="HW-R4: 5 votes in all, but 6 players cast exactly 6 votes"):
        count_round(six, {"A": 5}, 6, standard_deck(6))
    assert count_round(six, {"A": 4}, 6, standard_deck(6, "magician")).executed == "A"


def test_roll_call_counts_each_voter_once_and_allows_abstaining():
    votes = {"Aki": "Ken", "Ken": GRAVEYARD, "Mio": "Ken"}
    first = roll_call_round(CANDIDATES, votes, FOUR)
    assert first.counts["Ken"] == 2 and first.counts[GRAVEYARD] == 1 and first.executed == "Ken"
    runoff = roll_call_round(("Aki", "Ken"), {"Aki": "Ken", "Ken": "Aki", "Mio": "Ken"}, FOUR)
    assert runoff.leaders == ("Ken",)


def test_a_roll_call_records_no_vote_only_as_often_as_the_deck_allows():
    # HW-R4: with 5 players everyone votes; `A=B,C=B` is not a vote of five
    five = [*FOUR, "Yui"]
    with pytest.raises(TallyError, match="HW-R4: 2 votes in all, but 5 players cast exactly 5 votes"):
        roll_call_round([*five, GRAVEYARD], {"Aki": "Ken", "Mio": "Ken"}, five)
    with pytest.raises(TallyError, match="HW-R4: 2 votes in all, but 4 players cast between 3 and 4 votes"):
        roll_call_round(CANDIDATES, {"Aki": "Ken", "Mio": "Ken"}, FOUR)
    six = [*five, "Rin"]
    magician = standard_deck(6, "magician")
    assert roll_call_round([*six, GRAVEYARD], {p: "Aki" for p in six[2:]}, six, magician).executed == "Aki"


@pytest.mark.parametrize("votes, message", [
    ({"Yui": "Ken"}, "'Yui' is not a voter"),
    ({"Aki": "Yui"}, "Aki voted for 'Yui', not a candidate"),
    ({}, "HW-R4: 0 votes in all"),
])
def test_roll_call_refuses_unknown_names(votes, message):
    with pytest.raises(TallyError, match=message):
        roll_call_round(CANDIDATES, votes, FOUR)


def test_a_candidate_named_twice_is_refused():
    with pytest.raises(TallyError, match="named twice"):
        count_round(["Aki", "Aki", "Ken", "Mio"], {"Aki": 3}, 4)


@st.composite
def valid_counts(draw):
    players = draw(st.sampled_from([4, 5, 6]))
    names = [f"P{i}" for i in range(players)] + [GRAVEYARD]
    low, high = vote_bounds(players)
    total = draw(st.integers(low, high))
    picks = draw(st.lists(st.sampled_from(names), min_size=total, max_size=total))
    counts = {name: picks.count(name) for name in set(picks)}
    return players, names, counts


@given(valid_counts())
def test_executed_is_the_unique_maximum_or_a_runoff_among_the_tied(case):
    players, names, counts = case
    result = outcome(count_round(names, counts, players))
    top = max(counts.values())
    tied = tuple(name for name in names if counts.get(name, 0) == top)
    if len(tied) == 1:
        assert (result.executed, result.runoff_candidates, result.panic) == (tied[0], None, False)
    else:
        assert (result.executed, result.runoff_candidates, result.panic) == (None, tied, False)


@given(valid_counts(), st.data())
def test_a_runoff_executes_its_unique_maximum_or_panics(case, data):
    players, names, counts = case
    first = count_round(names, counts, players)
    tied = outcome(first).runoff_candidates
    if tied is None:
        return
    picks = data.draw(st.lists(st.sampled_from(tied), min_size=first.total, max_size=first.total))
    second = count_round(tied, {name: picks.count(name) for name in tied}, players)
    result = outcome(first, second)
    top = max(second.counts.values())
    leaders = [name for name in tied if second.counts[name] == top]
    assert result.panic == (len(leaders) > 1)
    assert result.executed == (leaders[0] if len(leaders) == 1 else None)
    assert isinstance(second, Round) and result.runoff_candidates == tied
