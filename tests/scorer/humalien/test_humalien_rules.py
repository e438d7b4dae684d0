"""Humalien scoring: the digest's worked examples, each rule alone, and the precise refusals."""

import pytest

from scorer.humalien import fold, resolve_player
from scorer.humalien.errors import (
    BadPlayers, CountOutOfRange, MatchInProgress, MatchOver, NoMatch, NothingToRedo, NothingToUndo,
    SecondSixSixSix, UnknownPlayer,
)
from scorer.humalien.events import (
    AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)
from scorer.humalien.fold import apply

A, B = "Alice", "Bob"
GAME1 = [Flow(A, 2), Skull(B, 1), Finish(A, 7)]
GAME2 = [SixSixSix(B), Flow(A, 3), Finish(A, 5)]
GAME3 = [GodIsland(A), AngelCut(B), Foul(B, 9)]


def sheet(*events, remote=False):
    return fold([NewMatch((A, B), remote=remote), *events]).match


def test_worked_example_1_flow_skull_finish():
    match = sheet(*GAME1)
    assert match.games[0].points == (14, 1)
    assert match.totals == (14, 1)
    assert match.game == 2


def test_worked_example_2_666_triples_the_finish():
    match = sheet(*GAME1, *GAME2)
    assert match.games[1].points == (3 + 30, 6)
    assert match.games[1].multiplier == 3


def test_worked_example_3_god_island_angel_cut_foul_finish():
    match = sheet(*GAME1, *GAME2, *GAME3)
    assert match.games[2].points == (30 + 14, 5)
    assert match.over and match.winner == A and not match.draw
    assert match.totals == (14 + 33 + 44, 1 + 6 + 5)


def test_example_sheet_as_json():
    data = sheet(*GAME1).to_dict()
    assert data == {
        "players": [A, B], "remote": False, "game": 2, "over": False,
        "games": [
            {"number": 1, "points": {A: 14, B: 1}, "multiplier": 1, "ended_by": {"player": A, "how": "finish"}},
            {"number": 2, "points": {A: 0, B: 0}, "multiplier": 1, "ended_by": None},
        ],
        "totals": {A: 14, B: 1}, "winner": None, "draw": False,
    }


@pytest.mark.parametrize("piles", range(6))
def test_flow_scores_the_empty_piles_including_zero(piles):
    # HU-R2: the event carries the count; 0 is allowed and recorded.
    assert sheet(Flow(B, piles)).totals == (0, piles)


def test_two_angels_one_at_a_time_score_two_flows():
    # The manual's tip: with 3 own piles empty, two separate forced flows score 3 + 3.
    assert sheet(Flow(A, 3), Flow(A, 3)).totals == (6, 0)


@pytest.mark.parametrize("game, cards, points", [(1, 1, 1), (1, 3, 3), (2, 1, 2), (3, 6, 18)])
def test_skull_is_game_number_times_cards(game, cards, points):
    before = [Finish(A, 1)] * (game - 1)
    match = sheet(*before, Skull(B, cards))
    assert match.games[game - 1].points[1] == points


def test_666_scores_three_skull_cards_and_triples_the_end_points():
    match = sheet(Finish(A, 1), Finish(A, 1), SixSixSix(A), Finish(B, 10))
    assert match.games[2].points == (9, 45)


def test_666_multiplier_applies_to_the_opponent_who_finishes():
    match = sheet(SixSixSix(A), Finish(B, 3))
    assert match.games[0].points == (3, 24)


def test_666_multiplier_applies_to_a_foul_finish():
    # HU-R4: "the points at the end of that game" include the foul finish.
    match = sheet(SixSixSix(A), Foul(A, 4))
    assert match.games[0].points == (3, 27)


def test_multiplier_resets_in_the_next_game():
    match = sheet(SixSixSix(A), Finish(A, 1), Finish(A, 2))
    assert [g.multiplier for g in match.games] == [3, 1, 1]
    assert match.games[1].points == (7, 0)


def test_remote_match_allows_two_666_in_a_game_for_x9():
    match = sheet(SixSixSix(A), SixSixSix(B), Finish(A, 1), remote=True)
    assert match.games[0].multiplier == 9
    assert match.games[0].points == (3 + 54, 3)


def test_one_box_refuses_a_second_666_in_the_same_game():
    with pytest.raises(SecondSixSixSix, match=r"666 by Bob refused: game 1 already had 1 666.*one box"):
        sheet(SixSixSix(A), SixSixSix(B))


def test_remote_refuses_a_third_666():
    with pytest.raises(SecondSixSixSix, match="already had 2"):
        sheet(SixSixSix(A), SixSixSix(B), SixSixSix(A), remote=True)


def test_one_box_allows_a_666_in_each_game():
    match = sheet(SixSixSix(A), Finish(A, 1), SixSixSix(A))
    assert match.games[1].multiplier == 3


def test_god_island_scores_30_in_any_game():
    assert sheet(Finish(A, 1), Finish(A, 1), GodIsland(B)).games[2].points == (0, 30)


def test_angel_cut_scores_the_forced_flow_of_5_and_empties_the_piles():
    match = sheet(AngelCut(A))
    assert match.totals == (5, 0)
    assert match.current.piles == (5, 0)


def test_angel_cut_with_empty_hand_is_recorded_with_the_finish():
    match = sheet(AngelCut(A), Finish(A, 12))
    assert match.games[0].points == (5 + 17, 0)
    assert match.games[0].ended_by.how == "finish"


def test_finish_is_five_plus_the_opponents_cards():
    assert sheet(Finish(A, 7)).games[0].points == (12, 0)


def test_foul_finish_scores_the_opponent_with_their_own_cards():
    match = sheet(Foul(B, 9))
    assert match.games[0].points == (14, 0)
    assert match.games[0].ended_by.player == B and match.games[0].ended_by.how == "foul"


def test_equal_totals_after_game_3_are_a_draw():
    # HU-R1: no tie-break in the manual.
    draw = sheet(Finish(A, 5), Finish(B, 11), Finish(A, 1))
    assert draw.totals == (16, 16)
    assert draw.over and draw.draw and draw.winner is None and draw.leader is None
    assert draw.to_dict()["winner"] is None and draw.to_dict()["draw"] is True


def test_the_higher_total_after_game_3_wins():
    match = sheet(Finish(A, 5), Finish(B, 10), Skull(B, 1), Finish(A, 1))
    assert match.winner == B and not match.draw


def test_no_winner_before_game_3_ends():
    match = sheet(Finish(A, 30), Finish(A, 30))
    assert match.winner is None and not match.over and match.leader == A


# --- refusals: a ScoreError (a ValueError) naming the input and the state ---------------------

def test_scoring_before_any_match_is_refused():
    with pytest.raises(NoMatch, match="no match to score flow for 'Alice'"):
        fold([Flow(A, 1)])


def test_unknown_player_is_refused_naming_the_match():
    with pytest.raises(UnknownPlayer, match=r"no player 'Carol' in the match Alice v Bob"):
        sheet(Skull("Carol", 1))


@pytest.mark.parametrize("event, message", [
    (Flow(A, 6), r"empty piles 6 is out of range 0–5 \(Alice, game 1\)"),
    (Flow(A, -1), "empty piles -1 is out of range 0–5"),
    (Skull(A, 0), r"skull cards in one play 0 is out of range 1–6 \(Alice, game 1, one-box match\)"),
    (Skull(A, 7), "skull cards in one play 7 is out of range 1–6"),
    (Finish(A, 31), r"opponent's cards left 31 is out of range 0–30 \(Alice, game 1: hand \+ stock piles of Bob\)"),
    (Foul(B, 31), r"winner's own cards left 31 is out of range 0–30 \(Bob, game 1: hand \+ stock piles of Alice\)"),
])
def test_counts_out_of_range_are_refused(event, message):
    with pytest.raises(CountOutOfRange, match=message):
        sheet(event)


def test_remote_matches_accept_skull_plays_up_to_12():
    # HU-R3: the hand from one's own box, the stock from the other's: 8 sixes and 4 Humaliens.
    assert sheet(Skull(A, 12), remote=True).totals == (12, 0)
    with pytest.raises(CountOutOfRange, match="1–12"):
        sheet(Skull(A, 13), remote=True)


def test_events_after_the_match_is_over_are_refused_but_undo_works():
    events = [NewMatch((A, B)), *GAME1, *GAME2, *GAME3]
    state = fold(events)
    with pytest.raises(MatchOver, match=r"the match Alice v Bob is over \(Alice won 91 to 12\): no flow after game 3"):
        apply(state, Flow(A, 1))
    undone, _ = apply(state, Undo())
    assert not undone.match.over and undone.match.game == 3


def test_a_new_match_may_follow_a_finished_one():
    state = fold([NewMatch((A, B)), *GAME1, *GAME2, *GAME3, NewMatch(("Ken", "Mio"))])
    assert state.match.players == ("Ken", "Mio") and state.match.totals == (0, 0)


def test_a_new_match_over_an_unfinished_one_needs_abandon():
    with pytest.raises(MatchInProgress, match="Alice v Bob is in game 2 and unfinished"):
        fold([NewMatch((A, B)), *GAME1, NewMatch(("Ken", "Mio"))])
    state = fold([NewMatch((A, B)), *GAME1, NewMatch(("Ken", "Mio"), abandon=True)])
    assert state.match.players == ("Ken", "Mio")


@pytest.mark.parametrize("players, message", [
    (("Aki", "aki"), "must differ, not 'Aki' twice"),
    (("Aki", " "), "two player names"),
])
def test_bad_player_names_are_refused(players, message):
    with pytest.raises(BadPlayers, match=message):
        fold([NewMatch(players)])


def test_undo_with_nothing_to_undo_is_refused():
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        fold([Undo()])
    with pytest.raises(NothingToUndo, match="everything is already undone"):
        fold([NewMatch((A, B)), Undo(), Undo()])


def test_redo_needs_an_undo_since_the_last_scoring_event():
    with pytest.raises(NothingToRedo, match="nothing to redo"):
        fold([NewMatch((A, B)), Flow(A, 1), Redo()])
    with pytest.raises(NothingToRedo):
        fold([NewMatch((A, B)), Flow(A, 1), Undo(), Flow(B, 2), Redo()])


def test_undo_and_redo_walk_back_and_forth():
    state = fold([NewMatch((A, B)), Flow(A, 1), Skull(B, 2), Undo(), Undo()])
    assert state.match.totals == (0, 0)
    state = fold([Redo()], state)
    assert state.match.totals == (1, 0)
    state = fold([Redo()], state)
    assert state.match.totals == (1, 2)


def test_undo_of_a_finish_reopens_the_game():
    state = fold([NewMatch((A, B)), Finish(A, 7), Undo()])
    assert state.match.game == 1 and state.match.games[0].ended_by is None
    assert len(state.match.games) == 1


def test_undo_of_a_new_match_returns_to_the_previous_one():
    state = fold([NewMatch((A, B)), *GAME1, *GAME2, *GAME3, NewMatch(("Ken", "Mio")), Undo()])
    assert state.match.players == (A, B) and state.match.over
    assert fold([NewMatch((A, B)), Undo()]).match is None


def test_players_match_any_case_and_unique_prefix():
    match = sheet()
    assert resolve_player(match, "alice") == A
    assert resolve_player(match, "B") == B
    close = fold([NewMatch(("Al", "Alice"))]).match
    assert resolve_player(close, "al") == "Al"
    assert resolve_player(close, "ali") == "Alice"
    with pytest.raises(UnknownPlayer, match="'Carol'"):
        resolve_player(match, "Carol")
    ambiguous = fold([NewMatch(("Aki", "Ami"))]).match
    with pytest.raises(UnknownPlayer, match="'a' could be Aki or Ami"):
        resolve_player(ambiguous, "a")


def test_refused_events_leave_the_state_untouched():
    state = fold([NewMatch((A, B)), Flow(A, 2)])
    with pytest.raises(CountOutOfRange):
        apply(state, Flow(A, 9))
    assert state.match.totals == (2, 0)
