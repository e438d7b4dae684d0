"""The match journal: an append-only JSON-lines file of events, fsync'ed before success is reported.

State is the fold of the file. Every command holds a lock on the file while it reads, checks
and appends, so concurrent `gm score` processes never interleave. A torn last line (a write
cut short, so never acknowledged) is reported, kept aside next to the journal and cut off
before the next append; any other bad line stops the command with the file and line number.
An acknowledged line is never rewritten.

A command reads only the current match: the match index (`gm.score.matches`) says where the
current match's `new` line is and holds the sheet that line replaced, so the fold starts there.
Should an undo reach back past that line, the whole journal is folded instead.
"""

from __future__ import annotations

import contextlib
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

from gm.score import matches as index
from gm.score.checkpoint import Checkpoint, read_checkpoint, write_checkpoint
from gm.score.matches import Entry, Kept, Result
from scorer.humalien import Change, Event, Match, ScoreError, State, apply, from_record, to_record
from scorer.humalien.events import RECORD_VERSION, NewMatch, Redo, Undo
from scorer.humalien.fold import advance
from scorer.values import Refusal
from gm.durable import CHUNK, NONBLOCK, lines, read_at, sync, sync_dir, write_all
from gm.files import ANY_SIZE, BadFile, check_regular, could_begin, json_value, to_stderr

FILE_NAME = "score.jsonl"
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
MAX_EVENT_BYTES = 1 << 16  # an event line is well under 1 KB (names are at most 40 characters)
_TRIES = 1000  # opens of a journal that another gm is creating or giving up at the same moment


class JournalError(Refusal):
    """A journal line that is not a valid event in its place; names the file and line number."""


def default_path() -> Path:
    """The journal in the user data dir (e.g. ~/.local/share/gm/score.jsonl)."""
    import platformdirs

    return platformdirs.user_data_path("gm") / FILE_NAME


@dataclass(frozen=True)
class Contents:
    """A parsed journal: the folded state, the length of its good part, and any torn tail; the
    number of the match the sheet belongs to, how many matches were started, and the `new`
    lines met on the way (as match index entries)."""

    state: State
    good_length: int
    lines: int
    torn: bytes = b""
    owner: int | None = None
    matches: int = 0
    found: tuple[Entry, ...] = ()
    first_line: int = 1  # where the fold began: the history before it is not in `state`
    guessed: bool = False  # the match count and owner come from a search, not a fold: not for the index

    @property
    def partial(self) -> bool:
        return self.first_line > 1


@dataclass(frozen=True)
class Start:
    """Where a fold begins: a byte offset and line number in the journal, with the state, its
    match's number, and the count of matches started before it."""

    offset: int = 0
    line: int = 1
    state: State = State()
    owner: int | None = None
    matches: int = 0

    @staticmethod
    def at(entry: Entry) -> Start:
        """At an entry's `new` line, the sheet before it left out (an undo that reaches it raises
        _ReachesBack)."""
        return Start(entry.offset, entry.line, State(), entry.before_owner, entry.match - 1)


@dataclass(frozen=True)
class _IndexWork:
    """Entries to add to the match index, or (`rewrite`) all the entries it should hold."""

    entries: list[Entry]
    rewrite: bool = False


class _ReachesBack(Exception):
    """An undo took back the `new` line a fold started from: the history before it is needed."""


def parse(fd: int, path: Path | str, start: Start = Start(), cut: bool = True,
          sheets: dict[int, Match] | None = None) -> Contents:
    """Fold the complete lines of the journal open as `fd` from `start`; the bytes after the last
    newline are a torn tail.

    Lines are read and folded one at a time, a chunk of the file at a time (memory is bounded by
    the current match, never by the file's size). With `cut`, the undo history is dropped below each
    `new` line that takes effect (so memory stays with the current match, not the whole journal);
    an undo that reaches past it raises _ReachesBack, for a fold that keeps it all. `sheets`, when
    given, receives every match's last sheet by its number.
    """
    fold = _Fold(fd, path, cut, sheets, start.state, start.owner, start.matches, start.offset > 0)
    number, good, torn = start.line, start.offset, b""
    for offset, raw in lines(fd, start.offset, MAX_EVENT_BYTES):
        if raw is None:  # what it would parse to could be many times its size
            raise JournalError(f"{path} line {number}: more than {MAX_EVENT_BYTES} bytes, longer than any event "
                               "gm writes")
        if not raw.endswith(b"\n"):
            torn = raw
            break
        fold.line(offset, raw, number)
        good, number = offset + len(raw), number + 1
    if good == 0 and not could_begin(torn, _FIRST_LINE):
        raise JournalError(f"{path} is not a score journal (its first line is not an event record gm "
                           "wrote, nor part of one); nothing was changed")
    if sheets is not None and fold.state.match is not None and fold.owner is not None:
        sheets[fold.owner] = fold.state.match
    return Contents(fold.state, good, number - 1, torn, fold.owner, fold.count, tuple(fold.found), start.line)


@dataclass
class _Fold:
    """A fold of the journal under way (`parse`): the state, its match's number (`owner`), how
    many matches were started, whether the history below the state is cut (`cut_below`), and the
    `new` lines met (`found`, as match index entries; each match's sheet into `sheets`)."""

    fd: int
    path: Path | str
    cut: bool
    sheets: dict[int, Match] | None
    state: State
    owner: int | None
    count: int
    cut_below: bool
    owners: dict[int, tuple[int | None, int]] = field(default_factory=dict)  # each `new` step's numbers before, after
    new_steps: list[object] = field(default_factory=list)  # keeps those steps alive, so their ids stay their own
    found: list[Entry] = field(default_factory=list)

    def line(self, offset: int, raw: bytes, number: int) -> None:
        """Fold one complete line, at byte `offset` and line `number`."""
        record = _record(raw, self.path, number)
        try:
            event = from_record(record)
            if self.cut_below and self.state.done is None and type(event) is Undo:  # it takes back a step not folded
                raise _ReachesBack
            after = advance(self.state, event)
        except ScoreError as error:
            raise JournalError(f"{self.path} line {number}: {error}") from None
        kind = type(event)
        if kind is Undo:
            self._undone(after)
        elif kind is Redo:
            self._redone()
        elif kind is NewMatch:
            after = self._new_match(after, record, offset, raw, number)
        self.state = after

    def _undone(self, after: State) -> None:
        """An undo: a `new` line taken back gives the sheet back to the match before it."""
        assert self.state.done is not None, "an undo that took effect had a step to take back"
        undone = self.state.done[0]
        if type(undone.event) is NewMatch:
            self.owner = self.owners[id(undone)][0]
        if after.done is None and self.cut_below:
            raise _ReachesBack

    def _redone(self) -> None:
        """A redo: a `new` line put back gives the sheet to its match again."""
        assert self.state.undone is not None, "a redo that took effect had a step to put back"
        redone = self.state.undone[0]
        if type(redone.event) is NewMatch:
            self.owner = self.owners[id(redone)][1]

    def _new_match(self, after: State, record: Any, offset: int, raw: bytes, number: int) -> State:
        """A `new` line: the match it starts is counted and indexed, the sheet it replaced kept;
        with `cut`, the history below it is dropped from the state it leaves."""
        assert after.done is not None and after.match is not None, "a new match that took effect leaves its step"
        step = after.done[0]
        self.count += 1
        window = read_at(self.fd, max(0, offset - index.CHECKED_BYTES), min(offset, index.CHECKED_BYTES)) + raw
        before = self.state.match
        self.found.append(Entry(self.count, offset, len(raw), number, index.check_of(window), record.get("at"),
                                after.match.players, None if before is None else Result.of(before), self.owner))
        if self.sheets is not None and before is not None and self.owner is not None:
            self.sheets[self.owner] = before
        self.new_steps.append(step)
        self.owners[id(step)] = (self.owner, self.count)
        self.owner = self.count
        if not self.cut:
            return after
        self.cut_below = True
        return State(after.match, (step, None), None)


def _fold_from(fd: int, path: Path, start: Start) -> Contents:
    """The journal folded from `start`; from its beginning where an undo reaches back past the
    `new` line it starts at, keeping the whole history where one reaches past any `new` line."""
    try:
        return parse(fd, path, start)
    except _ReachesBack:
        try:
            return parse(fd, path)
        except _ReachesBack:
            return parse(fd, path, cut=False)


_FIRST_LINE = json.dumps({"v": RECORD_VERSION, "kind": "new"}, separators=(",", ":")).encode()[:-1] + b","


def _record(raw: bytes, path: Path | str, number: int) -> Any:
    """The JSON value of one line, parsed alone (one parse of lines joined could take a value split
    over two lines, or two values on one line, for good lines)."""
    def bad(reason: str) -> JournalError:
        return JournalError(f"{path} line {number}: not a JSON event record ({reason})")

    return json_value(raw, bad)


def encode(event: Event, at: datetime | None = None) -> bytes:
    record = to_record(event)
    record["at"] = (at or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class Journal:
    """One journal file; `warn` receives one-line notes (a torn tail found or set aside)."""

    def __init__(self, path: Path | str, warn: Callable[[str], None] | None = None) -> None:
        self.path = Path(path)
        self.warn = warn or (lambda message: to_stderr(f"warning: {message}"))

    def load(self) -> State:
        """The state the journal holds (an empty state when there is no file yet)."""
        return self._contents(quick=True).state

    def matches(self, sheets: bool = False) -> list[Kept]:
        """Every match the journal holds, oldest first, with where it stood last and which is
        current; with `sheets`, each one's last sheet too (the whole journal is folded for them)."""
        contents = self._contents()
        entries = {e.match: e for e in index.read_all(self.path).entries if e.match <= contents.matches}
        entries.update((e.match, e) for e in contents.found if e.match not in entries)  # an index not written
        return index.kept([entries[n] for n in sorted(entries)], contents.state.match, contents.owner,
                          self._sheets() if sheets else None)

    def _sheets(self) -> dict[int, Match]:
        """Every match's last sheet, by its number: the whole journal folded (under a shared lock)."""
        found: dict[int, Match] = {}
        try:
            fd = os.open(self.path, os.O_RDONLY | _BINARY | NONBLOCK)
        except FileNotFoundError:
            return found
        try:
            check_regular(self.path, fd, ANY_SIZE)
            with _locked(fd, self.path, exclusive=False):
                try:
                    parse(fd, self.path, sheets=found)
                except _ReachesBack:
                    found.clear()
                    parse(fd, self.path, cut=False, sheets=found)
        finally:
            os.close(fd)
        return found

    def _contents(self, quick: bool = False) -> Contents:
        """Read under a shared lock; when the match index lags behind, bring it up to date under
        an exclusive one. `quick`: only the state is wanted (see `_read`)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | _BINARY | NONBLOCK)
        except FileNotFoundError:
            return Contents(State(), 0, 0)
        try:
            check_regular(self.path, fd, ANY_SIZE)
            with _locked(fd, self.path, exclusive=False):
                contents, stale = self._read(fd, quick=quick)
                checkpoint = None if contents.guessed else _checkpoint(fd, contents.state, contents,
                                                                       contents.good_length, contents.lines + 1)
            if stale or checkpoint:
                with _locked(fd, self.path, exclusive=True):
                    if stale:
                        self._update_index(stale)
                    if checkpoint and os.fstat(fd).st_size == contents.good_length:  # nothing appended since
                        write_checkpoint(self.path, checkpoint)
        finally:
            os.close(fd)
        if contents.torn:
            self.warn(f"{self.path} line {contents.lines + 1} is a torn write ({len(contents.torn)} bytes, "
                      "cut short and never acknowledged); ignored")
        return contents

    def _read(self, fd: int, deep: bool = False, quick: bool = False) -> tuple[Contents, _IndexWork | None]:
        """The journal folded from the current match on (from the checkpoint, when it is in the
        current match; with `deep`, from the start), and what the index needs (None: nothing).

        `quick`, for a journal with no index at all: the fold starts at its last `new` line, found
        from the end, and leaves the index to the next command that needs it (its match count and
        owner are then `guessed`)."""
        known, rewrite = self._indexed(fd)
        if quick and not known and not rewrite and (guessed := _from_last_new(fd, self.path)) is not None:
            return guessed, None
        contents = _fold_from(fd, self.path, self._start(fd, known, deep, rewrite))
        new = [e for e in contents.found if e.match > (known[-1].match if known else 0)]
        if rewrite:
            return contents, _IndexWork(known + new, rewrite=True)
        return contents, _IndexWork(new) if new else None

    def _indexed(self, fd: int) -> tuple[list[Entry], bool]:
        """The match index's entries that still fit the journal (its last one alone, when it fits),
        and whether the index is to be written anew (it is damaged, or no longer fits)."""
        last = index.read_last(self.path)
        if last is not None and _holds(fd, last):
            return [last], False
        read = index.read_all(self.path)  # no index yet, or one that no longer fits: keep what still fits
        known = read.entries
        while known and not _holds(fd, known[-1]):
            known.pop()
        if read.damage is not None:
            self.warn(f"the match index {str(index.index_path(self.path))!r} is damaged ({read.damage}); "
                      "rebuilt from the journal")
        return known, os.path.lexists(index.index_path(self.path))

    def _start(self, fd: int, known: list[Entry], deep: bool, rewrite: bool) -> Start:
        """Where the fold begins: the checkpoint, when it is the journal's and in the current match
        (and the index is not to be written anew); else the current match's `new` line; the
        journal's start with `deep` or nothing indexed."""
        if deep or not known:
            return Start()
        checkpoint = None if rewrite else read_checkpoint(self.path)
        if checkpoint and checkpoint.matches == known[-1].match and checkpoint.offset > known[-1].offset \
                and _before(fd, checkpoint.offset) == checkpoint.check:
            return Start(checkpoint.offset, checkpoint.line, State(checkpoint.sheet), checkpoint.owner,
                         checkpoint.matches)
        return Start.at(known[-1])

    def _update_index(self, work: _IndexWork) -> None:
        """Bring the index up to date (under the exclusive lock; another command may have done it
        since the journal was read, and the lines it indexed are never rewritten)."""
        if work.rewrite:
            index.rewrite(self.path, work.entries)
            return
        last = index.read_last(self.path)
        index.add(self.path, [e for e in work.entries if last is None or e.match > last.match])

    def append(self, make: Callable[[State], Event]) -> tuple[State, Change]:
        """Under the lock: load, build the event from the fresh state, check it, append and fsync.

        Nothing is written when the journal is damaged or the event is refused (the error
        propagates); when this returns, the event is on disk.
        """
        for _ in range(_TRIES):
            fd, created = self._open_to_append(make)
            try:
                check_regular(self.path, fd, ANY_SIZE)
                with _locked(fd, self.path, exclusive=True):
                    if not _still_the_journal(fd, self.path):  # its creator gave up an empty file: open again
                        continue
                    try:
                        return self._append_locked(fd, make)
                    except BaseException:
                        if created and os.fstat(fd).st_size == 0:  # a full disk leaves no empty journal behind
                            self.path.unlink(missing_ok=True)
                        raise
            finally:
                os.close(fd)
        raise BadFile(f"{str(self.path)!r} keeps being replaced while gm writes to it; try again", "replaced",
                      path=str(self.path))

    def _append_locked(self, fd: int, make: Callable[[State], Event]) -> tuple[State, Change]:
        """Append the event `make` builds from the journal's state (the caller holds the lock)."""
        contents, stale = self._read(fd)
        event = make(contents.state)
        done = contents.state.done
        if isinstance(event, Undo) and contents.partial and (done is None or done[1] is None):
            contents, stale = self._read(fd, deep=True)  # it takes back what lies before the fold's start
            event = make(contents.state)
        state, change = apply(contents.state, event)
        if contents.torn:
            self._set_aside(fd, contents)
        line = encode(event)
        self._write_line(fd, line, contents.good_length)
        if stale:
            self._update_index(stale)
        if isinstance(event, NewMatch):
            self._index_new(fd, contents, line)
        elif not isinstance(event, (Undo, Redo)):  # a scoring event: the match and its number stay
            checkpoint = _checkpoint(fd, state, contents, contents.good_length + len(line), contents.lines + 2)
            if checkpoint:
                write_checkpoint(self.path, checkpoint)
        return state, change

    def _write_line(self, fd: int, line: bytes, length: int) -> None:
        """Append `line` and fsync; should that fail (a full disk), cut the journal back to `length`
        bytes, so no part of the unacknowledged line stays, and name the journal in the error."""
        try:
            write_all(fd, line)
            sync(fd)
        except BaseException as error:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, length)
                sync(fd)
            if isinstance(error, OSError):
                raise OSError(error.errno, error.strerror, str(self.path)) from None
            raise

    def _open_to_append(self, make: Callable[[State], Event]) -> tuple[int, bool]:
        """The journal opened for appending, and whether this call created it (a first event the
        rules refuse creates nothing). Another gm creating it at the same moment is fine: both append."""
        flags = os.O_RDWR | os.O_APPEND | _BINARY | NONBLOCK
        for _ in range(_TRIES):
            try:
                return os.open(self.path, flags), False
            except FileNotFoundError:
                apply(State(), make(State()))
            if self.path.is_symlink() and not self.path.exists():
                raise BadFile(f"{str(self.path)!r} is a link to {os.readlink(self.path)!r}, which does not exist",
                              "dangling_link", path=str(self.path), target=os.readlink(self.path))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                fd = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            sync_dir(self.path.parent)
            return fd, True
        raise BadFile(f"{str(self.path)!r} keeps appearing and vanishing; try again", "vanishing",
                      path=str(self.path))

    def _index_new(self, fd: int, contents: Contents, line: bytes) -> None:
        """The match just started, in the index (after its line is on disk)."""
        offset = contents.good_length
        start = max(0, offset - index.CHECKED_BYTES)
        window = read_at(fd, start, offset - start) + line
        before = contents.state.match
        index.add(self.path, [Entry(contents.matches + 1, offset, len(line), contents.lines + 1,
                                    index.check_of(window), json.loads(line).get("at"),
                                    tuple(p.strip() for p in json.loads(line)["players"]),
                                    None if before is None else Result.of(before), contents.owner)])

    def _set_aside(self, fd: int, contents: Contents) -> None:
        """Copy the torn tail next to the journal, then cut it off (it was never acknowledged)."""
        aside = self.path.with_name(f"{self.path.name}.torn-{contents.good_length}")
        n = 1
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.torn-{contents.good_length}.{n}")
            n += 1
        try:
            with open(aside, "xb") as out:
                out.write(contents.torn)
                out.flush()
                os.fsync(out.fileno())
        except BaseException:  # a full disk leaves no empty copy behind
            aside.unlink(missing_ok=True)
            raise
        sync_dir(self.path.parent)
        os.ftruncate(fd, contents.good_length)
        sync(fd)
        self.warn(f"{self.path} line {contents.lines + 1} was a torn write (never acknowledged); "
                  f"kept in {aside.name} and cut off")


CHECKPOINT_LINES = 1000  # lines folded past the current match's start before a checkpoint is kept


def _checkpoint(fd: int, state: State, contents: Contents, offset: int, line: int) -> Checkpoint | None:
    """A checkpoint of `state` at `offset` (line `line`) when the fold that led to it was long
    and nothing is undone there (a redo would need what the checkpoint leaves out)."""
    if line - contents.first_line <= CHECKPOINT_LINES or state.match is None or state.undone is not None \
            or contents.owner is None or contents.torn:
        return None
    return Checkpoint(offset, line, _before(fd, offset), state.match, contents.owner, contents.matches)


def _before(fd: int, offset: int) -> str:
    """The check of the bytes just before `offset`."""
    start = max(0, offset - index.CHECKED_BYTES)
    return index.check_of(read_at(fd, start, offset - start))


_NEW_LINE = b"\n" + _FIRST_LINE


def _from_last_new(fd: int, path: Path) -> Contents | None:
    """The journal's state folded from its last `new` line only; None where it has none, or where
    an undo takes that match back (then the whole journal is folded)."""
    last_new = _last_new(fd, path)
    if last_new is None:
        return None
    try:
        return replace(parse(fd, path, last_new), guessed=True)
    except _ReachesBack:
        return None


def _last_new(fd: int, path: Path) -> Start | None:
    """Where the journal's last complete `new` line starts, searched from the end, with its line
    number and the count of `new` lines before it; None when there is none, or the first line is
    not an event gm wrote (the whole fold then says what is wrong)."""
    size = os.fstat(fd).st_size
    first = read_at(fd, 0, min(size, MAX_EVENT_BYTES + 1))
    if b"\n" not in first:
        return None
    try:
        from_record(_record(first[:first.index(b"\n")], path, 1))
    except (JournalError, ScoreError):
        return None
    tail_start = max(0, size - MAX_EVENT_BYTES - 1)
    end = tail_start + read_at(fd, tail_start, size - tail_start).rfind(b"\n") + 1  # a torn last line left out
    if end <= tail_start:
        return None
    found, position = -1, end
    while position > 0 and found < 0:
        start = max(0, position - CHUNK)
        chunk = read_at(fd, start, position - start + len(_NEW_LINE))[:end - start]
        at = chunk.rfind(_NEW_LINE)
        found = -1 if at < 0 else start + at + 1
        position = start
    if found < 0:
        return Start() if first.startswith(_FIRST_LINE) else None
    lines_before = news_before = 0
    for position in range(0, found, CHUNK):
        chunk = read_at(fd, position, min(CHUNK, found - position) + len(_NEW_LINE) - 1)
        counted = chunk[:min(CHUNK, found - position)]
        lines_before += counted.count(b"\n")
        news_before += sum(1 for _ in _occurrences(chunk, _NEW_LINE, min(CHUNK, found - position)))
    news_before += first.startswith(_FIRST_LINE)
    return Start(found, lines_before + 1, State(), None, news_before - 1)


def _occurrences(data: bytes, pattern: bytes, before: int) -> Iterator[int]:
    """Where `pattern` starts in `data`, at positions below `before`."""
    at = data.find(pattern)
    while 0 <= at < before:
        yield at
        at = data.find(pattern, at + 1)


def _holds(fd: int, entry: Entry) -> bool:
    """Does the journal still hold this entry's `new` line, with the same bytes before it?"""
    if entry.offset + entry.length > os.fstat(fd).st_size:
        return False
    start = max(0, entry.offset - index.CHECKED_BYTES)
    window = read_at(fd, start, entry.offset + entry.length - start)
    return index.check_of(window) == entry.check


def _still_the_journal(fd: int, path: Path) -> bool:
    """True when `fd` is still the file at `path` (not one removed since it was opened)."""
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    opened = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)

@contextmanager
def _locked(fd: int, path: Path, exclusive: bool) -> Iterator[None]:
    """flock on POSIX (shared for readers); on Windows an exclusive msvcrt lock on PATH.lock."""
    try:
        import fcntl
    except ImportError:
        with _windows_lock(path):
            yield
        return
    fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


@contextmanager
def _windows_lock(path: Path) -> Iterator[None]:
    import msvcrt
    import time

    lock_path = path.with_name(path.name + ".lock")
    lock_fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        while True:
            try:
                msvcrt.locking(lock_fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]  # Windows-only API
                break
            except OSError:
                time.sleep(0.01)
        try:
            yield
        finally:
            os.lseek(lock_fd, 0, os.SEEK_SET)
            msvcrt.locking(lock_fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]  # Windows-only API
    finally:
        os.close(lock_fd)
