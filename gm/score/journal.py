"""The match journal: an append-only JSON-lines file of events, fsync'ed before success is reported.

State is the fold of the file. Every command holds a lock on the file while it reads, checks
and appends, so concurrent `gm score` processes never interleave. A torn last line (a write
cut short, so never acknowledged) is reported, kept aside next to the journal and cut off
before the next append; any other bad line stops the command with the file and line number.
An acknowledged line is never rewritten.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

from scorer.humalien import Change, Event, ScoreError, State, apply, from_record, to_record
from scorer.humalien.fold import advance

FILE_NAME = "score.jsonl"
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


class JournalError(ValueError):
    """A journal line that is not a valid event in its place; names the file and line number."""


def default_path() -> Path:
    """The journal in the user data dir (e.g. ~/.local/share/gm/score.jsonl)."""
    import platformdirs

    return platformdirs.user_data_path("gm") / FILE_NAME


@dataclass(frozen=True)
class Contents:
    """A parsed journal: the folded state, the length of its good part, and any torn tail."""

    state: State
    good_length: int
    lines: int
    torn: bytes = b""


def parse(data: bytes, path: Path | str) -> Contents:
    """Fold the complete lines of `data`; the bytes after the last newline are a torn tail."""
    end = data.rfind(b"\n") + 1
    lines = data[:end].split(b"\n")[:-1]
    state = State()
    for number, record in enumerate(_records(lines, path), start=1):
        try:
            state = advance(state, from_record(record))
        except ScoreError as error:
            raise JournalError(f"{path} line {number}: {error}") from None
    return Contents(state, end, len(lines), data[end:])


def _records(lines: list[bytes], path: Path | str) -> list:
    """The JSON value of every line: all in one parse when the file is sound, else line by line."""
    with contextlib.suppress(ValueError):
        records = json.loads(b"[" + b",".join(lines) + b"]")
        if len(records) == len(lines):
            return records
    records = []
    for number, raw in enumerate(lines, start=1):
        try:
            records.append(json.loads(raw))
        except ValueError as error:  # JSON or UTF-8 damage
            raise JournalError(f"{path} line {number}: not a JSON event record ({error})") from None
    return records


def encode(event: Event, at: datetime | None = None) -> bytes:
    record = to_record(event)
    record["at"] = (at or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class Journal:
    """One journal file; `warn` receives one-line notes (a torn tail found or set aside)."""

    def __init__(self, path: Path | str, warn: Callable[[str], None] | None = None) -> None:
        self.path = Path(path)
        self.warn = warn or (lambda message: print(f"gm: warning: {message}", file=sys.stderr))

    def load(self) -> State:
        """The state the journal holds (an empty state when there is no file yet)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | _BINARY)
        except FileNotFoundError:
            return State()
        try:
            with _locked(fd, self.path, exclusive=False):
                contents = parse(_read_all(fd), self.path)
        finally:
            os.close(fd)
        if contents.torn:
            self.warn(f"{self.path} line {contents.lines + 1} is a torn write ({len(contents.torn)} bytes, "
                      "cut short and never acknowledged); ignored")
        return contents.state

    def append(self, make: Callable[[State], Event]) -> tuple[State, Change]:
        """Under the lock: load, build the event from the fresh state, check it, append and fsync.

        Nothing is written when the journal is damaged or the event is refused (the error
        propagates); when this returns, the event is on disk.
        """
        flags = os.O_RDWR | os.O_APPEND | _BINARY
        try:
            fd = os.open(self.path, flags)
        except FileNotFoundError:
            apply(State(), make(State()))  # a refused first event creates no file
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, flags | os.O_CREAT, 0o644)
            _fsync_dir(self.path.parent)
        try:
            with _locked(fd, self.path, exclusive=True):
                contents = parse(_read_all(fd), self.path)
                event = make(contents.state)
                state, change = apply(contents.state, event)
                if contents.torn:
                    self._set_aside(fd, contents)
                _write_all(fd, encode(event))
                _sync(fd)
        finally:
            os.close(fd)
        return state, change

    def _set_aside(self, fd: int, contents: Contents) -> None:
        """Copy the torn tail next to the journal, then cut it off (it was never acknowledged)."""
        aside = self.path.with_name(f"{self.path.name}.torn-{contents.good_length}")
        n = 1
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.torn-{contents.good_length}.{n}")
            n += 1
        with open(aside, "wb") as out:
            out.write(contents.torn)
            out.flush()
            os.fsync(out.fileno())
        _fsync_dir(self.path.parent)
        os.ftruncate(fd, contents.good_length)
        _sync(fd)
        self.warn(f"{self.path} line {contents.lines + 1} was a torn write (never acknowledged); "
                  f"kept in {aside.name} and cut off")


def _read_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    chunks = []
    offset = 0
    while True:
        chunk = _read_at(fd, offset, max(size - offset, 1 << 16))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


def _read_at(fd: int, offset: int, size: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _sync(fd: int) -> None:
    """Flush to the disk itself: fsync, or F_FULLFSYNC on macOS where fsync stops at the drive cache."""
    with contextlib.suppress(ImportError, OSError):
        import fcntl

        if hasattr(fcntl, "F_FULLFSYNC"):
            fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
            return
    os.fsync(fd)


def _fsync_dir(directory: Path) -> None:
    """Make a new file's name durable too (POSIX; a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


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
                msvcrt.locking(lock_fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
                break
            except OSError:
                time.sleep(0.01)
        try:
            yield
        finally:
            os.lseek(lock_fd, 0, os.SEEK_SET)
            msvcrt.locking(lock_fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
    finally:
        os.close(lock_fd)
