"""Files gm writes are read at any size, line by line: a score journal or a group's file past the
cap on files read whole is shown and goes on, in bounded memory; one line's length stays capped."""

import json
import os
import tracemalloc
from unittest.mock import patch

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fakes import count_calls
from gm import durable
from gm.cli import app
from gm.files import MAX_FILE_BYTES
from gm.night.groups import GroupFile, read_record, read_summary
import gm.score.journal as journal_module
from gm.score.journal import MAX_EVENT_BYTES, Journal, encode
from gm.score.checkpoint import checkpoint_path, read_checkpoint
from gm.score.matches import index_path
from scorer.humalien import fold
from scorer.humalien.events import Flow, NewMatch
from gm.text.lines import Pack
from scorer.werewolf.evening import Night, night, night_json
from humalien_events import valid_events

runner = CliRunner()
PAST_THE_CAP = MAX_FILE_BYTES + (1 << 20)


def padded(line: bytes, width: int) -> bytes:
    """A JSON line widened with spaces inside its object to `width` bytes (still the same record)."""
    return line[:-2] + b" " * (width - len(line)) + line[-2:]


def big_journal(path):
    """A match past the cap: its events are lines as wide as an event line may be."""
    events = [NewMatch(("Aki", "Ken"))] + [Flow("Aki" if n % 2 else "Ken", 0) for n in range(1, 8)]
    with open(path, "wb") as out:
        out.write(encode(events[0]))
        line = padded(encode(Flow("Ken", 0)), MAX_EVENT_BYTES)
        count = PAST_THE_CAP // len(line) + 1
        out.write(line * count)
    return [events[0]] + [Flow("Ken", 0)] * count


@pytest.mark.slow  # writes and reads a file past the 64 MB cap
def test_a_journal_past_the_cap_on_whole_files_is_shown_and_the_match_goes_on(tmp_path):
    path = tmp_path / "big.jsonl"
    events = big_journal(path)
    assert path.stat().st_size > MAX_FILE_BYTES
    shown = runner.invoke(app, ["score", "show", "--file", str(path), "--json"], env={"GM_SPEECH": "off"})
    assert shown.exit_code == 0, shown.stderr
    assert json.loads(shown.stdout) == fold(events).match.to_dict()
    flowed = runner.invoke(app, ["score", "flow", "Aki", "2", "--file", str(path), "--json"], env={"GM_SPEECH": "off"})
    assert flowed.exit_code == 0, flowed.stderr
    assert Journal(path).load().match == fold([*events, Flow("Aki", 2)]).match


@pytest.mark.slow  # writes and reads a file past the 64 MB cap
def test_reading_a_journal_past_the_cap_holds_little_of_it_in_memory(tmp_path):
    path = tmp_path / "big.jsonl"
    events = big_journal(path)
    tracemalloc.start()
    try:
        state = Journal(path).load()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert state.match == fold(events).match
    assert peak < 16 * durable.CHUNK  # a chunk and a line at a time, never the file


@pytest.mark.slow  # writes and reads a file past the 64 MB cap
def test_a_group_file_past_the_cap_is_shown(tmp_path):
    path = tmp_path / "friday.jsonl"
    players = ("Aki", "Ken", "Mio", "Sora")
    nights = [night(players, "villagers", winners, {}, evening) for winners, evening in ((["Ken", "Mio"], "e1"),
                                                                                          (["Aki"], "e2"))]
    lines = [padded((json.dumps({"group": "Friday", **night_json(each)}) + "\n").encode(), 60_000)
             for each in nights]
    with open(path, "wb") as out:
        out.write(lines[0] * (PAST_THE_CAP // len(lines[0]) + 1) + lines[1] * 3)
    result = runner.invoke(app, ["werewolf", "evening", "--file", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    nights = PAST_THE_CAP // len(lines[0]) + 4
    assert shown["group"] == "Friday" and shown["evenings"] == 2 and shown["all_time"]["nights"] == nights
    assert shown["tonight"]["nights"] == 3
    assert {p["name"]: p["wins"] for p in shown["tonight"]["players"]} == {"Aki": 3, "Ken": 0, "Mio": 0, "Sora": 0}


def test_a_line_longer_than_any_night_is_skipped_and_named(tmp_path):
    path = tmp_path / "g.jsonl"
    fine = json.dumps(night_json(night(("Aki", "Ken"), "villagers", ["Aki"]))).encode() + b"\n"
    path.write_bytes(fine + b"[" * (3 << 20) + b"\n" + fine)
    skipped = []
    shown = read_summary(path, lambda line, why: skipped.append((line, why)))
    assert shown.all_time.nights == 2 and [line for line, _ in skipped] == [2]


@settings(deadline=None, max_examples=200)
@given(data=st.binary(max_size=300).map(lambda b: b.replace(b"x", b"\n")) | st.lists(
    st.sampled_from([b"\n", b"ab", b"\n\n", b"0123456789"]), max_size=40).map(b"".join),
       chunk=st.integers(1, 17), offset=st.integers(0, 20), longest=st.integers(0, 12))
def test_lines_read_a_chunk_at_a_time_are_the_file_s_lines(tmp_path_factory, data, chunk, offset, longest):
    path = tmp_path_factory.mktemp("lines") / "f"
    path.write_bytes(data)
    offset = min(offset, len(data))
    expected, at = [], offset
    parts = data[offset:].split(b"\n")
    for line in [part + b"\n" for part in parts[:-1]] + [parts[-1]] * bool(parts[-1]):
        expected.append((at, line if len(line.rstrip(b"\n")) <= longest else None))
        at += len(line)
    fd = os.open(path, os.O_RDONLY)
    real = durable.CHUNK
    durable.CHUNK = chunk
    try:
        assert list(durable.lines(fd, offset, longest)) == expected
    finally:
        durable.CHUNK = real
        os.close(fd)


def _answers(journal, before=lambda: None):
    """What the commands show: the current sheet, the matches listed, and every match's last sheet
    (`before` is called before each)."""
    before()
    state = journal.load()
    before()
    listed = [(m.number, m.players, m.current, m.result) for m in journal.matches()]
    before()
    return state.match, listed, [(m.number, m.sheet) for m in journal.matches(sheets=True)]


@pytest.mark.slow  # 60 journals of up to 30 events folded at every cut
@settings(deadline=None, max_examples=60)
@given(events=valid_events(max_size=30), split=st.floats(0, 1), cut=st.none() | st.floats(0, 1),
       every=st.sampled_from([1, 3, journal_module.CHECKPOINT_LINES]), chunk=st.sampled_from([7, 64, 1 << 20]))
def test_the_index_backed_answers_equal_a_fold_of_the_whole_journal(tmp_path_factory, events, split, cut, every,
                                                                    chunk):
    """With the match index and checkpoints (kept every `every` lines folded), each append's state
    and every answer equal the fold of the whole journal; with no index, the sheet found from the
    last `new` line (searched `chunk` bytes at a time) too."""
    folder = tmp_path_factory.mktemp("index")
    path = folder / "m.jsonl"
    first = int(len(events) * split)
    path.write_bytes(b"".join(encode(event) for event in events[:first]))
    quiet = Journal(path, warn=lambda note: None)
    with patch.object(journal_module, "CHECKPOINT_LINES", every):
        if first:
            quiet.load()  # the index built from the journal as it was
        for n, event in enumerate(events[first:], start=first + 1):
            state, _ = quiet.append(lambda _state, event=event: event)  # and kept as matches start
            assert state.match == fold(events[:n]).match
    data = path.read_bytes()
    if cut is not None:  # cut back anywhere, a line cut short included
        data = data[:int(len(data) * cut)]
        path.write_bytes(data)
    plain = folder / "plain.jsonl"
    plain.write_bytes(data)
    whole = data.count(b"\n")
    unindexed = _answers(Journal(plain, warn=lambda note: None), lambda: index_path(plain).unlink(missing_ok=True))
    with patch.object(journal_module, "CHECKPOINT_LINES", every):
        assert _answers(quiet) == unindexed
        assert quiet.load().match == fold(events[:whole]).match
    index_path(plain).unlink(missing_ok=True)
    with patch.object(journal_module, "CHUNK", chunk):
        assert Journal(plain, warn=lambda note: None).load().match == fold(events[:whole]).match


def test_an_append_to_a_long_match_folds_only_what_came_after_the_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "long.jsonl"
    events = [NewMatch(("Aki", "Ken"))] + [Flow("Aki" if n % 2 else "Ken", 0) for n in range(3000)]
    path.write_bytes(b"".join(map(encode, events)))
    journal = Journal(path)
    journal.append(lambda state: Flow("Aki", 1))  # the first command folds the match and keeps a checkpoint
    decoded = count_calls(monkeypatch, journal_module, "from_record")
    for n in range(3):
        assert journal.append(lambda state: Flow("Ken", 2))[0].match.totals == (1, 2 * (n + 1))
    assert journal.load().match == fold([*events, Flow("Aki", 1), *[Flow("Ken", 2)] * 3]).match
    assert decoded[0] <= 10  # not the 3,000 lines of the match


@pytest.mark.parametrize("state", [b"garbage", b"", b'{"offset": 1}', "link to /dev/zero", "fifo", "other journal"])
def test_a_checkpoint_that_is_not_the_journal_s_is_passed_over(tmp_path, state):
    path = tmp_path / "long.jsonl"
    events = [NewMatch(("Aki", "Ken"))] + [Flow("Aki" if n % 2 else "Ken", n % 3) for n in range(1200)]
    path.write_bytes(b"".join(map(encode, events)))
    Journal(path).matches()  # the whole journal folded: the index and a checkpoint kept
    kept = checkpoint_path(path)
    assert kept.exists()
    if state == "other journal":  # the same checkpoint beside a journal whose lines differ
        path.write_bytes(b"".join(map(encode, events[:-1] + [Flow("Ken", 1)])))
        events = events[:-1] + [Flow("Ken", 1)]
    else:
        kept.unlink()
        if state == "fifo":
            os.mkfifo(kept)
        elif isinstance(state, str):
            kept.symlink_to("/dev/zero")
        else:
            kept.write_bytes(state)
    assert Journal(path).load().match == fold(events).match



@pytest.mark.parametrize("name, value", [("offset", 0), ("offset", True), ("line", 1), ("owner", 0), ("owner", None),
                                         ("matches", "1"), ("matches", 10**9 + 1)])
def test_a_checkpoint_with_a_number_out_of_its_bounds_or_missing_is_passed_over(tmp_path, name, value):
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"".join(map(encode, [NewMatch(("Aki", "Ken"))] + [Flow("Aki", 0)] * 1200)))
    Journal(path).matches()  # the whole journal folded: a checkpoint kept
    kept = checkpoint_path(path)
    record = json.loads(kept.read_text())
    assert read_checkpoint(path) is not None
    kept.write_text(json.dumps({**record, name: value}))
    assert read_checkpoint(path) is None
    del record[name]
    kept.write_text(json.dumps(record))
    assert read_checkpoint(path) is None

# -- a group's kept tally ---------------------------------------------------------------------------
def night_line(winner: int, evening: str, seated: tuple[str, ...] = ("Aki", "Ken", "Mio")) -> bytes:
    sides = {name: "werewolves" if n == winner else "villagers" for n, name in enumerate(seated)}
    each = night(seated, "werewolves", [seated[winner]], sides, evening)
    return (json.dumps({"group": "Friday", **night_json(each)}) + "\n").encode()


seats = st.permutations(["Aki", "Ken", "Mio", "Sora"]).map(lambda names: tuple(names[:3]))
pieces = st.one_of(st.tuples(st.integers(0, 2), st.sampled_from(["e1", "e2", "e3"]), seats).map(
    lambda p: night_line(*p)), st.sampled_from([b"garbage\n", b"\n", b'{"winning_side": "wolves", "winners": []}\n',
                                                 b"[" * 70_000 + b"\n"]))


@settings(deadline=None, max_examples=60)
@given(parts=st.lists(st.tuples(st.lists(pieces, max_size=8), st.none() | st.binary(max_size=20) | pieces.map(
    lambda line: line[:-1])), min_size=1, max_size=4), every=st.sampled_from([1, 2, 1000]))
def test_a_summary_read_from_the_kept_tally_equals_a_reading_of_the_whole_file(tmp_path_factory, parts, every):
    """Read after each batch of lines (the tally kept every `every` lines read), a batch maybe
    ending in a line cut short (the next starts a line of its own): what is shown and the lines
    said to be skipped equal a reading with no tally."""
    from gm.night import groups

    path = tmp_path_factory.mktemp("group") / "friday.jsonl"
    path.write_bytes(b"")
    with patch.object(groups, "TALLY_LINES", every):
        for batch, torn in parts:
            data = path.read_bytes()
            with open(path, "ab") as out:
                out.write((b"\n" if data and not data.endswith(b"\n") else b"") + b"".join(batch) + (torn or b""))
            told: list = []
            shown = read_summary(path, lambda line, why, told=told: told.append((line, why)))
            record, skipped = read_record(path)  # every night in a list, counted the plain way
            assert (shown.to_json(), shown.group, told) == (record.to_json(), record.group, skipped)


def test_a_second_reading_reads_only_the_nights_added_since(tmp_path, monkeypatch):
    from gm.night import groups

    path = tmp_path / "friday.jsonl"
    path.write_bytes(b"".join(night_line(n % 3, f"e{n // 5}") for n in range(3000)))
    assert read_summary(path, lambda *_: None).all_time.nights == 3000
    decoded = count_calls(monkeypatch, groups, "night_from_json")
    with open(path, "ab") as out:
        out.write(night_line(0, "e9999") * 2)
    shown = read_summary(path, lambda *_: None)
    assert shown.all_time.nights == 3002 and shown.tonight.nights == 2 and shown.evenings == 601
    assert decoded[0] == 2


def _played(winner: int) -> Night:
    seated = ("Aki", "Ken", "Mio")
    return night(seated, "werewolves", [seated[winner]],
                 {name: "werewolves" if n == winner else "villagers" for n, name in enumerate(seated)})


def _evening_json(path) -> dict:
    result = runner.invoke(app, ["werewolf", "evening", "--file", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_file_gm_writes_keeps_its_tally_current_night_by_night(tmp_path, monkeypatch):
    """Each night gm appends is decoded once, as it is kept: the first `evening` decodes none."""
    from gm.night import groups

    path = tmp_path / "friday.jsonl"
    decoded = count_calls(monkeypatch, groups, "night_from_json")
    keep = GroupFile("Friday", Pack("en"), path)
    for n in range(7):
        keep(_played(n % 3))
    assert decoded[0] == 7
    shown = _evening_json(path)
    assert decoded[0] == 7 and shown["all_time"]["nights"] == shown["tonight"]["nights"] == 7
    record, skipped = read_record(path)
    assert {key: shown[key] for key in record.to_json()} == record.to_json() and skipped == []


def test_an_older_file_gets_its_tally_on_first_reading_and_gm_s_appends_keep_it(tmp_path, monkeypatch):
    """A file with no tally (an older gm's) is read whole once, as before; after that the nights
    gm appends are each decoded once, when kept, and `evening` decodes none."""
    from gm.night import groups

    path = tmp_path / "friday.jsonl"
    path.write_bytes(b"".join(night_line(n % 3, f"e{n // 5}") for n in range(3000)))
    decoded = count_calls(monkeypatch, groups, "night_from_json")
    keep = GroupFile("Friday", Pack("en"), path)
    keep(_played(0))
    assert decoded[0] == 0 and not groups.tally_path(path).exists()  # no full read while the table waits
    assert _evening_json(path)["all_time"]["nights"] == 3001 and decoded[0] == 3001
    for n in range(5):
        keep(_played(n % 3))
    assert decoded[0] == 3006
    shown = _evening_json(path)
    assert decoded[0] == 3006 and shown["all_time"]["nights"] == 3006 and shown["tonight"]["nights"] == 6


def test_a_tally_that_cannot_be_kept_never_costs_the_night(tmp_path, monkeypatch):
    from gm.night import groups

    path = tmp_path / "friday.jsonl"
    warned: list[str] = []
    keep = GroupFile("Friday", Pack("en"), path, warn=warned.append)
    keep(_played(0))

    def fails(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(groups, "write_new_file", fails)
    keep(_played(1))  # the tally's own write fails
    monkeypatch.setattr(groups, "tally_on", fails)
    keep(_played(2))  # bringing the tally up fails before writing
    assert warned == [] and [each.winners for each in read_record(path)[0].nights] == [("Aki",), ("Ken",), ("Mio",)]
    assert _evening_json(path)["all_time"]["nights"] == 3


@pytest.mark.parametrize("chunk", [1, 5, 20, 21, 22, 100, 1 << 20])
def test_with_no_index_the_sheet_is_folded_from_the_last_new_line_found_from_the_end(tmp_path, monkeypatch,
                                                                                    chunk):
    path = tmp_path / "m.jsonl"
    match = [NewMatch(("Aki", "Ken"), abandon=True), Flow("Aki", 1), Flow("Ken", 2)]
    path.write_bytes(b"".join(map(encode, match * 5 + [Flow("Aki", 2)])) + b'{"v":1,"kind":"new","pla')
    monkeypatch.setattr(journal_module, "CHUNK", chunk)
    decoded = count_calls(monkeypatch, journal_module, "from_record")
    assert Journal(path, warn=lambda note: None).load().match == fold(match * 5 + [Flow("Aki", 2)]).match
    assert decoded[0] == 1 + 4  # the first line, then the last match (the torn `new` after it is no start)
