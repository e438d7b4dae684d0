"""The journal: append + fsync, torn last lines set aside, damage named by line, locking, crashes."""

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from killed_writers import KilledWriters
from gm.score.journal import Journal, JournalError
from scorer.humalien import fold
from scorer.humalien.errors import CountOutOfRange
from scorer.humalien.events import Finish, Flow, NewMatch, Skull, Undo

A, B = "Alice", "Bob"


def journal_with(path, *events):
    notes = []
    journal = Journal(path, warn=notes.append)
    for event in events:
        journal.append(lambda _state, event=event: event)
    return journal, notes


def test_each_event_is_one_versioned_json_line(tmp_path):
    path = tmp_path / "m.jsonl"
    journal, _ = journal_with(path, NewMatch((A, B)), Flow(A, 2), Undo())
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["kind"] for r in records] == ["new", "flow", "undo"]
    assert all(r["v"] == 1 and "at" in r for r in records)
    assert records[1]["player"] == A and records[1]["piles"] == 2
    assert journal.load() == fold([NewMatch((A, B)), Flow(A, 2), Undo()])


def test_a_missing_journal_is_an_empty_state_and_is_not_created(tmp_path):
    journal = Journal(tmp_path / "none" / "m.jsonl")
    assert journal.load().match is None
    assert not (tmp_path / "none").exists()


def test_the_journal_directory_is_created_on_first_append(tmp_path):
    journal_with(tmp_path / "deep" / "dir" / "m.jsonl", NewMatch((A, B)))
    assert (tmp_path / "deep" / "dir" / "m.jsonl").exists()


def test_a_refused_event_writes_nothing(tmp_path):
    path = tmp_path / "m.jsonl"
    journal, _ = journal_with(path, NewMatch((A, B)))
    before = path.read_bytes()
    with pytest.raises(CountOutOfRange):
        journal.append(lambda state: Flow(A, 9))
    assert path.read_bytes() == before


@pytest.mark.parametrize("tail", [b'{"v":1,"kind":"flow","pla', b"\x00" * 40,
                                  b'{"v":1,"kind":"flow","player":"Bob","piles":1}'])
def test_a_torn_last_line_is_reported_ignored_then_set_aside_and_cut(tmp_path, tail):
    path = tmp_path / "m.jsonl"
    journal, notes = journal_with(path, NewMatch((A, B)), Flow(A, 2))
    good = path.read_bytes()
    path.write_bytes(good + tail)
    assert journal.load().match.totals == (2, 0)
    assert notes == [f"{path} line 3 is a torn write ({len(tail)} bytes, cut short and never acknowledged); ignored"]
    assert path.read_bytes() == good + tail  # reading changes nothing
    journal.append(lambda state: Skull(B, 1))
    aside = tmp_path / f"m.jsonl.torn-{len(good)}"
    assert aside.read_bytes() == tail
    assert "kept in m.jsonl.torn-" in notes[-1]
    assert path.read_bytes().startswith(good)  # no acknowledged line rewritten
    notes.clear()
    assert journal.load().match.totals == (2, 1) and notes == []


def test_a_second_torn_tail_at_the_same_place_is_kept_separately(tmp_path):
    path = tmp_path / "m.jsonl"
    journal, _ = journal_with(path, NewMatch((A, B)))
    good = path.read_bytes()
    for piece in (b'{"v":1,', b'{"v":1,"kind"'):
        path.write_bytes(path.read_bytes() + piece)
        journal.append(lambda state: Flow(A, 1))
        path.write_bytes(good)  # the appended flow dropped again, so the next tear lands at the same offset
    assert sorted(p.name for p in tmp_path.glob("m.jsonl.torn-*")) == [
        f"m.jsonl.torn-{len(good)}", f"m.jsonl.torn-{len(good)}.1"]


@pytest.mark.parametrize("line, message", [
    (b"not json", "line 2: not a JSON event record"),
    (b'{"v":1,"kind":"flow","player":"Zed","piles":1}', "line 2: no player 'Zed' in the match Alice v Bob"),
    (b'{"v":1,"kind":"flow","player":"Bob","piles":9}', "line 2: empty piles 9 is out of range"),
    (b'{"v":2,"kind":"flow","player":"Bob","piles":1}', "line 2: record version 2 is not 1"),
    (b'{"v":1,"kind":"joker","player":"Bob"}', "line 2: unknown event kind 'joker'"),
    (b'{"v":1,"kind":"flow","player":"Bob","piles":"2"}', "line 2: flow record: piles must be a whole number"),
    (b'{"v":1,"kind":"skull","player":"Bob"}', "line 2: skull record has no 'cards'"),
    (b"", "line 2: not a JSON event record"),
    (b"\xff\xfe", "line 2: not a JSON event record"),
])
def test_a_damaged_line_is_an_error_naming_file_and_line_and_nothing_changes(tmp_path, line, message):
    path = tmp_path / "m.jsonl"
    journal, _ = journal_with(path, NewMatch((A, B)))
    path.write_bytes(path.read_bytes() + line + b"\n" + b'{"v":1,"kind":"flow","player":"Bob","piles":1}\n')
    before = path.read_bytes()
    with pytest.raises(JournalError, match=f"{path.name} {message}"):
        journal.load()
    with pytest.raises(JournalError):
        journal.append(lambda state: Flow(A, 1))
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("*.torn-*"))


def test_the_event_is_built_from_the_state_read_under_the_lock(tmp_path):
    path = tmp_path / "m.jsonl"
    journal, _ = journal_with(path, NewMatch((A, B)), Flow(A, 4))
    seen = []
    journal.append(lambda state: seen.append(state.match.totals) or Finish(A, 3))
    assert seen == [(4, 0)]


CHILD = textwrap.dedent("""
    import sys
    from gm.score.journal import Journal
    from scorer.humalien.events import Flow, NewMatch
    path, count = sys.argv[1], int(sys.argv[2])
    journal = Journal(path, warn=lambda note: None)
    for i in range(count):
        journal.append(lambda state, i=i: NewMatch(("Alice", "Bob")) if state.match is None
                       else Flow("Alice", 5))
    print("done", flush=True)
""")


@pytest.mark.slow
def test_concurrent_processes_never_interleave(tmp_path):
    path = tmp_path / "m.jsonl"
    children = [subprocess.Popen([sys.executable, "-c", CHILD, str(path), "30"], stdout=subprocess.PIPE, text=True)
                for _ in range(4)]
    for child in children:
        assert child.communicate(timeout=60)[0].strip() == "done"
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) - 1 == 120
    state = Journal(path).load()
    assert state.match.players == (A, B)
    assert state.match.totals[0] == 5 * (120 - 1)  # one append became the new match


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="SIGKILL test forks (POSIX)")
def test_sigkill_while_appending_never_loses_an_acknowledged_event(tmp_path):
    """250 runs on one journal: kill the writer at a random moment; every acknowledged event
    stays, the journal always loads, and the torn tails are cut before the next append."""
    rng = random.Random(20261129)
    path = tmp_path / "m.jsonl"
    acked: dict[int, str] = {}
    waited = 0
    with KilledWriters("journal") as writers:
        for _ in range(250):
            first = rng.randrange(3)
            waited += first
            for line in writers.run(path, first, rng.uniform(0, 0.003)):
                _, number, value = line.split()
                acked[int(number)] = value
            state = Journal(path, warn=lambda note: None).load()  # a torn tail is only a note
            data = path.read_bytes() if path.exists() else b""
            records = [json.loads(line) for line in data.split(b"\n")[:-1]]
            for number, value in acked.items():
                record = records[number - 1]
                assert record["kind"] == value if value in ("new", "undo") else record["cards"] == int(value)
            assert state.match is not None or not acked
    assert len(acked) >= waited > 0, "every writer is killed only after its first acknowledgements"


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_sigkill_of_the_real_cli_keeps_every_acknowledged_entry(tmp_path):
    """The real `gm score flow`, killed at random moments around its append (12 runs)."""
    path = tmp_path / "m.jsonl"
    Journal(path).append(lambda state: NewMatch((A, B)))
    rng = random.Random(7)
    acknowledged = 0
    for _ in range(12):
        child = subprocess.Popen([sys.executable, "-m", "gm", "score", "flow", "a", "1", "--file", str(path)],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            child.wait(timeout=rng.uniform(0.2, 0.9))
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=10)
        if child.returncode == 0 and out.startswith("Alice +1"):
            acknowledged += 1
        state = Journal(path, warn=lambda note: None).load()
        assert state.match.totals[0] >= acknowledged
    assert Journal(path).load().match.totals[0] <= 12


def test_two_journals_creating_the_file_at_the_same_moment_both_append(tmp_path, monkeypatch):
    """The other process creates the journal between our 'not there' and our create: we append to it."""
    path = tmp_path / "m.jsonl"
    real_open = os.open
    raced = []

    def racing_open(name, flags, *mode):
        if flags & os.O_EXCL and not raced:
            raced.append(True)
            Journal(path).append(lambda state: NewMatch((A, B)))  # the other process wins the race
        return real_open(name, flags, *mode)

    monkeypatch.setattr(os, "open", racing_open)
    Journal(path).append(lambda state: NewMatch((A, B)) if state.match is None else Skull(A, 3))
    monkeypatch.undo()
    assert raced and [json.loads(line)["kind"] for line in path.read_text().splitlines()] == ["new", "skull"]
    assert Journal(path).load().match.totals[0] == 3


def test_an_empty_journal_given_up_while_we_waited_is_not_written_into(tmp_path, monkeypatch):
    """We opened the journal, then its creator removed it (empty, its write failed) before we had the
    lock: our event goes to the journal at the path, never into the removed file."""
    import gm.score.journal as journal_module

    path = tmp_path / "m.jsonl"
    path.touch()
    real_locked = journal_module._locked
    removed = []

    @contextlib.contextmanager
    def locked_after_removal(fd, where, exclusive):
        if not removed:
            removed.append(True)
            path.unlink()
        with real_locked(fd, where, exclusive):
            yield

    monkeypatch.setattr(journal_module, "_locked", locked_after_removal)
    Journal(path).append(lambda state: NewMatch((A, B)))
    assert removed and [json.loads(line)["kind"] for line in path.read_text().splitlines()] == ["new"]
