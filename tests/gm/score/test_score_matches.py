"""Matches kept across evenings: each command folds only the current match (the match index),
old journals without an index, an index that no longer fits, `gm score matches`, `show --match`."""

import json

import pytest
from typer.testing import CliRunner

import gm.score.journal as journal_module
from fakes import count_calls
from gm.cli import app
from gm.score.journal import Journal, JournalError, encode
from gm.score.matches import INDEX_FORMAT, index_path
from scorer.humalien import fold
from scorer.humalien.events import Finish, Flow, NewMatch, Skull, Undo

A, B = "Alice", "Bob"
runner = CliRunner()


def whole_match(winner=A, left=3):
    return [NewMatch((A, B), abandon=True), Flow(A, 2), Finish(winner, left), Finish(B, 1), Finish(winner, left)]


def write(path, events):
    journal = Journal(path, warn=lambda note: None)
    for event in events:
        journal.append(lambda _state, event=event: event)
    return journal


@pytest.fixture
def decoded(monkeypatch):
    """Counts the journal records decoded (the work a command does on the journal)."""
    return count_calls(monkeypatch, journal_module, "from_record")


def test_a_command_folds_only_the_current_match(tmp_path, decoded):
    events = whole_match() * 20 + [NewMatch((A, B)), Flow(A, 3), Skull(B, 2)]
    journal = write(tmp_path / "m.jsonl", events)
    decoded[0] = 0
    state = journal.load()
    assert decoded[0] == 3  # the current match's new, flow and skull
    assert state.match == fold(events).match and state.match.totals == (3, 2)
    decoded[0] = 0
    journal.append(lambda state: Flow(B, 1))
    assert decoded[0] == 3


def test_an_old_journal_without_an_index_loads_and_gains_one(tmp_path, decoded):
    path = tmp_path / "m.jsonl"
    events = whole_match() * 3 + [NewMatch((A, B)), Flow(A, 1)]
    write(path, events)
    index_path(path).unlink()
    decoded[0] = 0
    assert Journal(path).load().match == fold(events).match
    assert decoded[0] == 3  # the first line (is it a journal?), then the current match from its `new` line
    assert not index_path(path).exists()  # showing the sheet leaves the index to a command that needs it
    decoded[0] = 0
    assert [m.number for m in Journal(path).matches()] == [1, 2, 3, 4]
    assert decoded[0] == len(events)
    assert len(index_path(path).read_text().splitlines()) == 4
    decoded[0] = 0
    assert Journal(path).load().match == fold(events).match
    assert decoded[0] == 2


@pytest.mark.parametrize("damage", [b"garbage\n", b'{"match":', b""])
def test_a_damaged_or_stale_index_is_rebuilt_from_the_journal(tmp_path, damage):
    path = tmp_path / "m.jsonl"
    events = whole_match() * 2 + [NewMatch((A, B)), Flow(A, 4)]
    write(path, events)
    index_path(path).write_bytes(index_path(path).read_bytes()[:-40] + damage)
    journal = Journal(path)
    assert journal.load().match == fold(events).match
    assert [m.number for m in journal.matches()] == [1, 2, 3]
    assert journal.load().match.totals == (4, 0)


def test_a_journal_cut_back_before_the_current_match_is_folded_from_what_it_holds(tmp_path):
    path = tmp_path / "m.jsonl"
    first = whole_match()
    write(path, first)
    kept = path.read_bytes()
    write(path, [NewMatch((A, B)), Flow(A, 5)])
    path.write_bytes(kept)  # the second match's lines gone (a backup restored)
    journal = Journal(path)
    assert journal.load().match == fold(first).match
    assert [m.number for m in journal.matches()] == [1]


def test_undo_reaches_back_through_the_start_of_the_current_match(tmp_path):
    path = tmp_path / "m.jsonl"
    journal = write(path, whole_match(left=7) + [NewMatch((A, B)), Flow(A, 1)])
    for _ in range(3):  # the flow, the new match, then the last finish of the first match
        journal.append(lambda state: Undo())
    expected = fold(whole_match(left=7) + [NewMatch((A, B)), Flow(A, 1), Undo(), Undo(), Undo()])
    assert Journal(path).load().match == expected.match
    assert expected.match.game == 3 and not expected.match.over


def test_damage_in_the_current_match_still_names_its_line(tmp_path):
    path = tmp_path / "m.jsonl"
    write(path, whole_match() + [NewMatch((A, B))])
    path.write_bytes(path.read_bytes() + b'{"v":1,"kind":"flow","player":"Zed","piles":1}\n')
    with pytest.raises(JournalError, match="m.jsonl line 7: no player 'Zed'"):
        Journal(path).load()


@pytest.fixture
def gm(tmp_path, monkeypatch):
    monkeypatch.setenv("GM_SCORE_FILE", str(tmp_path / "match.jsonl"))
    return lambda *args: runner.invoke(app, ["score", *args])


def test_matches_lists_players_date_result_and_the_current_one(gm):
    for args in (["new", "Alice", "Bob"], ["finish", "a", "3"], ["finish", "b", "1"], ["finish", "a", "2"],
                 ["new", "健", "美緒"], ["flow", "健", "2"]):
        assert gm(*args).exit_code == 0
    listing = json.loads(gm("matches", "--json").stdout)
    assert [(m["match"], m["players"], m["current"], m["result"]) for m in listing] == [
        (1, ["Alice", "Bob"], False, "Alice won (Alice 15, Bob 6)"),
        (2, ["健", "美緒"], True, "game 1 in play (健 2, 美緒 0)"),
    ]
    assert all(m["started_at"].endswith("+00:00") for m in listing)
    lines = gm("matches").stdout.splitlines()
    assert lines[0].startswith("    1  ") and lines[0].endswith("Alice v Bob: Alice won (Alice 15, Bob 6)")
    assert lines[1].startswith("*   2  ") and "健 v 美緒" in lines[1]


def test_show_match_shows_a_finished_match_after_later_ones(gm):
    for args in (["new", "Alice", "Bob"], ["finish", "a", "3"], ["finish", "b", "1"], ["finish", "a", "2"],
                 ["new", "Alice", "Bob"], ["finish", "b", "9"], ["new", "Cy", "Di", "--abandon"]):
        assert gm(*args).exit_code == 0
    old = json.loads(gm("show", "--match", "1", "--json").stdout)
    assert old["totals"] == {"Alice": 15, "Bob": 6} and old["winner"] == "Alice"
    left = json.loads(gm("show", "--match", "2", "--json").stdout)
    assert left["totals"] == {"Alice": 0, "Bob": 14} and left["over"] is False
    assert json.loads(gm("show", "--json").stdout)["players"] == ["Cy", "Di"]
    assert "Alice" in gm("show", "--match", "1").stdout


def test_a_match_taken_back_and_a_missing_number_are_one_line_errors(gm):
    for args in (["new", "Alice", "Bob"], ["new", "Cy", "Di", "--abandon"], ["undo"], ["flow", "a", "1"]):
        assert gm(*args).exit_code == 0
    result = gm("show", "--match", "2")
    assert result.exit_code == 2 and result.stderr == "gm: match 2 (Cy v Di) was taken back (undone)\n"
    result = gm("show", "--match", "3")
    assert result.exit_code == 2 and result.stderr == "gm: no match 3: the journal holds matches 1–2\n"
    assert json.loads(gm("matches", "--json").stdout)[0]["current"] is True


def test_matches_lists_the_most_recent_and_all_of_them_with_all(tmp_path, monkeypatch):
    from gm.commands.score import LISTED

    path = tmp_path / "match.jsonl"
    path.write_bytes(b"".join(map(encode, [NewMatch((A, B), abandon=True), Flow(A, 1)] * (LISTED + 3))))
    monkeypatch.setenv("GM_SCORE_FILE", str(path))
    lines = runner.invoke(app, ["score", "matches"]).stdout.splitlines()
    assert lines[0] == "3 earlier matches not shown: gm score matches --all lists every one."
    assert [int(line[1:5]) for line in lines[1:]] == list(range(4, LISTED + 4))  # newest last
    every = runner.invoke(app, ["score", "matches", "--all"]).stdout.splitlines()
    assert len(every) == LISTED + 3 and every[0].split()[0] == "1" and every[-1].startswith("*")
    listed = json.loads(runner.invoke(app, ["score", "matches", "--json"]).stdout)
    assert [m["match"] for m in listed] == list(range(4, LISTED + 4)) and listed[-1]["current"] is True
    assert [m["match"] for m in json.loads(runner.invoke(app, ["score", "matches", "--json", "--all"]).stdout)] == \
        list(range(1, LISTED + 4))


def test_matches_on_an_empty_journal(gm):
    result = gm("matches")
    assert result.exit_code == 2 and "no match in" in result.stderr
    assert json.loads(gm("matches", "--json").stdout) == []


def test_an_index_written_for_another_shape_of_sheet_is_rebuilt(tmp_path, decoded):
    path = tmp_path / "m.jsonl"
    events = whole_match() + [NewMatch((A, B)), Flow(A, 2)]
    write(path, events)
    index = index_path(path)
    index.write_text(index.read_text().replace(f'["{INDEX_FORMAT}",', '["older",'))
    decoded[0] = 0
    warned: list[str] = []
    assert Journal(path, warned.append).load().match == fold(events).match
    assert decoded[0] == len(events)
    assert all(json.loads(line)[0] == INDEX_FORMAT for line in index.read_text().splitlines())
    assert warned == []  # another version's index is no damage: rebuilt without a word
    index.write_text('{"match":1,"offset":0,"format":"0123456789ab"}\n')  # as versions that kept sheets wrote it
    assert Journal(path, warned.append).load().match == fold(events).match and warned == []


def test_every_field_of_a_sheet_comes_back_from_a_checkpoint():
    from gm.score.checkpoint import sheet_from, sheet_record
    from scorer.humalien.sheet import Ending, Game, Match

    games = (Game(1, (3, 4), 1, (2, 0), 1, 1, Ending("健", "foul")), Game(2))
    sheet = Match(("健", "美緒"), True, games, (("健", "けん"),))
    assert sheet_from(json.loads(json.dumps(sheet_record(sheet)))) == sheet



SOUND = ["r2", 2, 300, 120, 10, "0123456789abcdef", "2026-01-01T10:00:00", ["Alice", "Bob"], [5, 3, 3, "Alice", False],
         1]
FIRST = ["r2", 1, 0, 120, 1, "0123456789abcdef", None, ["Alice", "Bob"], None, None]
HIGH = 1 << 62


def changed(**values):
    """The second index line of SOUND with `values` in place of its own."""
    from gm.score.matches import ENTRY_FIELDS

    return [values.get(name, value) for name, value in zip(ENTRY_FIELDS, SOUND)]


@pytest.mark.parametrize("second, read, damage", [
    (SOUND, 2, None),
    (changed(at=None, before=None, before_owner=None), 2, None),
    (changed(format="older"), 1, None),  # another version's line: read up to it, no damage
    ({"match": 2, "format": "0123456789ab"}, 1, None),
    ({"match": 2, "format": "r2"}, 1, "not an index entry of format r2: {'match': 2, 'format': 'r2'}"),
    (7, 1, "not an index entry of format r2: 7"),
    (SOUND[:-1], 1, "not an index entry of format r2: ['r2', 2, 300, 120, 10, '0123456789abcde"),
    ([], 1, "not an index entry of format r2: []"),
    (changed(match=0), 1, "match 0 is not a whole number from 1 to 1000000000"),
    (changed(match=True, offset=-1), 1, "match True is not a whole number from 1 to 1000000000"),
    (changed(offset="0"), 1, f"offset '0' is not a whole number from 0 to {HIGH}"),
    (changed(offset=-1, length=0), 1, f"offset -1 is not a whole number from 0 to {HIGH}"),
    (changed(length=10**15), 1, "length 1000000000000000 is not a whole number from 1 to 65536"),
    (changed(line=1.5), 1, f"line 1.5 is not a whole number from 1 to {HIGH}"),
    (changed(before_owner=0), 1, "before_owner 0 is not a whole number from 1 to 1000000000"),
    (changed(before_owner=10**400), 1, f"before_owner 1{'0' * 39} is not a whole number from 1 to 1000000000"),
    (changed(players=None), 1, "players None are not two names"),
    (changed(players=["a", "b", "c"]), 1, "players ['a', 'b', 'c'] are not two names"),
    (changed(players=["a", 3]), 1, "players ['a', 3] are not two names"),
    (changed(check="abc"), 1, "not a check and a time"),
    (changed(at=5), 1, "not a check and a time"),
    (changed(before="sheet"), 1, "'sheet' is not the result of a match"),
    (changed(before=[1, 2, 1, "a", True]), 1, "[1, 2, 1, 'a', True] is not the result of a match"),
    (changed(before=[1, 2, 4, None, False]), 1, "[1, 2, 4, None, False] is not the result of a match"),
    (changed(match=3), 1, "out of order"),
    (changed(line=0, players=None), 1, f"line 0 is not a whole number from 1 to {HIGH}"),  # the first check named
    (changed(players=None, check="abc"), 1, "players None are not two names"),
    (changed(check="abc", before="sheet"), 1, "not a check and a time"),
])
def test_an_index_line_is_read_or_named_for_what_is_wrong(tmp_path, second, read, damage):
    """Each check of an index line: the entries read before it, and the damage it names."""
    from gm.score.matches import read_all

    journal = tmp_path / "m.jsonl"
    index_path(journal).write_text(f"{json.dumps(FIRST)}\n{json.dumps(second)}\n")
    found = read_all(journal)
    assert found.damage == (None if damage is None else f"line 2: {damage}")
    assert [entry.match for entry in found.entries] == list(range(1, read + 1))
