"""HU-R6: what real cards cannot produce is refused, with the reason, in the fold, on the command
line and in `gm score play`; 666 and Angel Cut carry their forced flow (one event each)."""

import json

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.score.entry import BadEntry, build
from gm.score.journal import Journal
from scorer.humalien import fold
from scorer.humalien.errors import Impossible
from scorer.humalien.events import (
    AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, SixSixSix, from_record, to_record,
)
from scorer.humalien.fold import apply
from tests.gm.score.test_score_play import play

A, B = "Alice", "Bob"
runner = CliRunner()


def state_of(*events, remote=False):
    """The state after a new match and `events`, each checked as a new entry would be."""
    return fold([NewMatch((A, B), remote=remote), *events], strict=True)


# --- the fold ----------------------------------------------------------------------------------

@pytest.mark.parametrize("event, reason", [
    (Finish(A, 0), r"finish by Alice with Bob holding 0 cards refused: Bob would have finished first \(HU-R6\)"),
    (Foul(A, 0), r"foul finish by Alice with Bob holding 0 cards refused: Bob would have finished first"),
])
def test_hu_r6_the_other_player_cannot_hold_0_cards_at_a_finish(event, reason):
    with pytest.raises(Impossible, match=reason):
        state_of(event)


@pytest.mark.parametrize("first, second, reason", [
    (GodIsland(A), GodIsland(B), r"God Island by Bob refused: game 1 already had 1 \(one box has only four Owls"),
    (AngelCut(A), AngelCut(B), r"Angel Cut by Bob refused: game 1 already had 1 \(one box has only four 7s"),
    (AngelCut(A, 2), AngelCut(A, 3), r"Angel Cut by Alice refused"),
])
def test_hu_r6_one_box_allows_one_god_island_and_one_angel_cut_a_game(first, second, reason):
    with pytest.raises(Impossible, match=reason):
        state_of(first, second)
    assert state_of(first, Finish(A, 3), second).match.games[1].points != (0, 0)  # the next game may


def test_hu_r6_remote_play_allows_two_of_each_but_not_three():
    state = state_of(GodIsland(A), GodIsland(B), AngelCut(A), AngelCut(B), remote=True)
    assert state.match.totals == (35, 35)
    with pytest.raises(Impossible, match="two boxes allow at most two"):
        fold([GodIsland(A)], state, strict=True)
    with pytest.raises(Impossible, match="two boxes allow at most two"):
        fold([AngelCut(B)], state, strict=True)


@pytest.mark.parametrize("before, refused", [
    ([Flow(A, 3)], Flow(A, 1)),
    ([AngelCut(A)], Flow(A, 2)),  # a discarded stock: all 5 piles stay empty
    ([AngelCut(A, 3)], Flow(A, 2)),  # the stock kept: the piles empty then stay empty
    ([Flow(A, 4)], SixSixSix(A, 3)),
    ([Flow(A, 4)], AngelCut(A, 1)),
])
def test_hu_r6_empty_piles_never_come_back_in_a_game(before, refused):
    state = state_of(*before)
    with pytest.raises(Impossible,
                       match=r"refused: Alice already had \d empty in game 1, and empty piles never come back"):
        fold([refused], state, strict=True)


def test_empty_piles_count_again_from_0_in_the_next_game_and_per_player():
    state = state_of(Flow(A, 5), Flow(B, 1), Finish(A, 4), Flow(A, 0))
    assert state.match.current.piles == (0, 0)
    assert fold([Flow(B, 0)], state_of(Flow(A, 5)), strict=True).match.totals == (5, 0)


def test_a_refused_event_leaves_the_state_as_it_was():
    state = state_of(Flow(A, 3))
    with pytest.raises(Impossible):
        apply(state, Flow(A, 2))
    assert fold([Flow(A, 3)], state, strict=True).match.totals == (6, 0)


def test_666_records_its_forced_flow_with_it():
    state, change = apply(state_of(Flow(B, 2)), SixSixSix(B, 2))
    assert state.match.totals == (0, 2 + 3 + 2)
    assert [(a.how, a.points, a.total) for a in change.awards] == [("666", 3, 5), ("flow", 2, 7)]
    assert state.match.current.piles == (0, 2)


def test_666_with_no_empty_pile_is_one_award():
    _, change = apply(state_of(), SixSixSix(A, 0))
    assert [(a.how, a.points) for a in change.awards] == [("666", 3)]


def test_angel_cut_keeping_the_stock_scores_the_piles_actually_empty():
    state = state_of(Flow(A, 1), AngelCut(A, 2))
    assert state.match.totals == (1 + 2, 0)
    assert state.match.current.piles == (2, 0)
    assert fold([Flow(A, 2)], state, strict=True).match.totals == (5, 0)


def test_records_of_666_and_angel_cut_before_they_carried_their_flow_still_read():
    assert from_record({"v": 1, "kind": "666", "player": A}) == SixSixSix(A)
    assert from_record({"v": 1, "kind": "angel_cut", "player": A}) == AngelCut(A)
    assert state_of(Flow(A, 4), SixSixSix(A)).match.totals == (4 + 3, 0)  # no flow scored twice
    for event in (SixSixSix(A, 0), SixSixSix(A, 4), AngelCut(A), AngelCut(A, 0), AngelCut(A, 5)):
        assert from_record(json.loads(json.dumps(to_record(event)))) == event
    assert "piles" not in to_record(AngelCut(A))


def test_a_journal_kept_before_hu_r6_still_reads_as_it_was(tmp_path):
    lines = [{"kind": "new", "players": [A, B], "remote": False}, {"kind": "flow", "player": A, "piles": 3},
             {"kind": "flow", "player": A, "piles": 1}, {"kind": "god_island", "player": A},
             {"kind": "god_island", "player": B}, {"kind": "finish", "player": A, "opponent_left": 0}]
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps({"v": 1, **line}) + "\n" for line in lines))
    journal = Journal(path)
    match = journal.load().match
    assert match.games[0].points == (3 + 1 + 30 + 5, 30) and match.game == 2
    with pytest.raises(Impossible, match="would have finished first"):
        journal.append(lambda state: Finish(B, 0))


def test_typed_666_and_angel_cut_take_their_piles():
    state = state_of(Flow(A, 3))
    assert build("666", ["a"], state) == SixSixSix(A, 3)
    assert build("666", ["a", "4"], state) == SixSixSix(A, 4)
    assert build("angel-cut", ["a"], state) == AngelCut(A)
    assert build("angel-cut", ["a", "--keep-stock"], state) == AngelCut(A, 3)
    assert build("angel-cut", ["a", "--keep-stock", "4"], state) == AngelCut(A, 4)
    with pytest.raises(BadEntry, match="PILES only with --keep-stock"):
        build("angel-cut", ["a", "4"], state)
    with pytest.raises(BadEntry, match="usage: flow PLAYER"):
        build("flow", ["a", "--keep-stock"], state)


# --- the command line and `gm score play` -------------------------------------------------------

@pytest.mark.parametrize("setup, refused, reason", [
    ([], ["finish", "a", "0"],
     "gm: finish by Alice with Bob holding 0 cards refused: Bob would have finished first (HU-R6)\n"),
    ([], ["foul", "b", "0"],
     "gm: foul finish by Bob with Alice holding 0 cards refused: Alice would have finished first (HU-R6)\n"),
    ([["god-island", "a"]], ["god-island", "b"],
     "gm: God Island by Bob refused: game 1 already had 1 (one box has only four Owls; HU-R6)\n"),
    ([["angel-cut", "a"]], ["angel-cut", "b"],
     "gm: Angel Cut by Bob refused: game 1 already had 1 (one box has only four 7s; HU-R6)\n"),
    ([["flow", "a", "3"]], ["flow", "a", "1"], "gm: flow of 1 empty pile for Alice refused: Alice already had 3 "
     "empty in game 1, and empty piles never come back (HU-R6)\n"),
    ([["angel-cut", "a"]], ["flow", "a", "2"], "gm: flow of 2 empty piles for Alice refused: Alice already had 5 "
     "empty in game 1, and empty piles never come back (HU-R6)\n"),
])
def test_hu_r6_refusals_are_one_line_exit_2_and_nothing_written(gm, setup, refused, reason):
    for args in (["new", "Alice", "Bob"], *setup):
        assert gm(*args).exit_code == 0
    before = gm.path.read_bytes()
    result = gm(*refused)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", reason)
    assert gm.path.read_bytes() == before


def test_666_and_angel_cut_on_the_command_line_are_one_event_each(gm):
    gm("new", "Alice", "Bob")
    gm("flow", "b", "2")
    assert gm("666", "b").stdout == ("Bob +3 (666: 3 cards × game 1; end points ×3) → 5\n"
                                     "Bob +2 (flow: 2 empty piles) → 7\n")
    assert gm("angel-cut", "a", "--keep-stock", "1").stdout == (
        "Alice +1 (Angel Cut, stock kept: forced flow, 1 empty pile) → 1\n")
    records = [json.loads(line) for line in gm.path.read_text().splitlines()]
    assert [(r["kind"], r.get("piles")) for r in records] == [("new", None), ("flow", 2), ("666", 2), ("angel_cut", 1)]


def test_666_json_lists_both_awards(gm):
    gm("new", "Alice", "Bob")
    data = json.loads(gm("666", "a", "4", "--json").stdout)
    assert data["event"] == {"kind": "666", "player": "Alice", "piles": 4}
    assert [(a["how"], a["points"]) for a in data["awards"]] == [("666", 3), ("flow", 4)]


def test_refusals_in_play_are_one_line_and_the_loop_goes_on(tmp_path):
    path = tmp_path / "m.jsonl"
    runner.invoke(app, ["score", "new", "Alice", "Bob", "--file", str(path)])
    result = play(path, "f a 3\nf a 1\nfi b 0\ng a\ng b\na a --keep-stock\n\na b\nq\n")
    out = result.stdout
    assert result.exit_code == 0
    assert "score> f a 1\n? flow of 1 empty pile for Alice refused: Alice already had 3 empty in game 1" in out
    assert ("score> fi b 0\n? finish by Bob with Alice holding 0 cards refused: "
            "Alice would have finished first (HU-R6)\n") in out
    assert "score> g b\n? God Island by Bob refused: game 1 already had 1 (one box has only four Owls; HU-R6)\n" in out
    assert "score> \nAlice +3 (Angel Cut, stock kept: forced flow, 3 empty piles) → 36\n" in out
    assert "score> a b\n? Angel Cut by Bob refused" in out
    kinds = [json.loads(line)["kind"] for line in path.read_text().splitlines()]
    assert kinds == ["new", "flow", "god_island", "angel_cut"]
