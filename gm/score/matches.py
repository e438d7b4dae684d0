"""The journal's match index: one JSON line per match started, so a command reads only the current match.

Each line records where a `new` event sits in the journal (byte offset, line number, a hash of
the bytes around it), when it was made, its players, and the sheet it replaced with the number
of the match that sheet belonged to. The index is derived data: the journal stays the only truth.
A line that does not match the journal (a journal cut back, a damaged index) is dropped and
the index rebuilt from the journal itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from gm.errors import GmError
from scorer.humalien import Match
from scorer.humalien.sheet import Ending, Game

CHECKED_BYTES = 4096  # how much of the journal before each `new` line its hash covers
_TAIL = 1 << 16


class NoSuchMatch(GmError):
    """A match number the journal does not hold, or a match that was taken back."""


@dataclass(frozen=True)
class Entry:
    """One match started: its `new` line's place in the journal, and the sheet it replaced."""

    match: int
    offset: int
    length: int
    line: int
    check: str
    at: str | None
    players: tuple[str, str]
    before: Match | None
    before_owner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"match": self.match, "offset": self.offset, "length": self.length, "line": self.line,
                "check": self.check, "at": self.at, "players": list(self.players),
                "before": None if self.before is None else sheet_record(self.before),
                "before_owner": self.before_owner, "format": SHEET_FORMAT}


def index_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".matches")


def check_of(window: bytes) -> str:
    return hashlib.sha256(window).hexdigest()[:32]


def window(data: bytes, data_start: int, offset: int, length: int) -> bytes:
    """The bytes an entry's hash covers, cut from `data` (which starts at `data_start` in the journal)."""
    return data[max(0, offset - CHECKED_BYTES) - data_start:offset + length - data_start]


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return {item.name: _plain(getattr(value, item.name)) for item in fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _typed(kind: Any, data: Any) -> Any:
    """`data` (from `_plain`) back as a value of `kind`: a dataclass, a tuple, an optional, a plain value."""
    if get_origin(kind) in (Union, UnionType):
        inner = [a for a in get_args(kind) if a is not type(None)]
        return None if data is None else _typed(inner[0], data)
    if get_origin(kind) is tuple:
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], d) for d in data)
        return tuple(_typed(a, d) for a, d in zip(args, data))
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(data)
    if isinstance(kind, type) and is_dataclass(kind):
        hints = get_type_hints(kind)
        return kind(**{item.name: _typed(hints[item.name], data[item.name]) for item in fields(kind)})
    return data


def _sheet_format() -> str:
    """The shape of a sheet (its classes' fields): an index written for another shape is rebuilt."""
    shape = [(cls.__name__, [(item.name, str(item.type)) for item in fields(cls)]) for cls in (Match, Game, Ending)]
    return hashlib.sha256(repr(shape).encode()).hexdigest()[:12]


SHEET_FORMAT = _sheet_format()


def sheet_record(match: Match) -> dict:
    """A sheet as JSON-ready data, every field of every game (not only what `show --json` prints)."""
    return _plain(match)


def sheet_from(record: dict) -> Match:
    return _typed(Match, record)


def _entry(record: dict) -> Entry:
    if record["format"] != SHEET_FORMAT:
        raise ValueError(f"an index of sheets shaped {record['format']}, not {SHEET_FORMAT}")
    before = record["before"]
    return Entry(record["match"], record["offset"], record["length"], record["line"], record["check"],
                 record["at"], tuple(record["players"]), None if before is None else sheet_from(before),
                 record["before_owner"])


def _parsed(lines: list[bytes]) -> list[Entry]:
    """The entries of the sound lines, up to the first damaged one."""
    entries = []
    for raw in lines:
        try:
            entries.append(_entry(json.loads(raw)))
        except (ValueError, KeyError, TypeError):
            break
    return entries


def read_all(journal: Path) -> list[Entry]:
    """Every sound entry of the index, in order (none when there is no index)."""
    try:
        data = index_path(journal).read_bytes()
    except OSError:
        return []
    return _parsed(data.split(b"\n")[:-1])


def read_last(journal: Path) -> Entry | None:
    """The last entry, read from the end of the index alone; None when there is none or it is damaged."""
    try:
        with open(index_path(journal), "rb") as index:
            size = index.seek(0, os.SEEK_END)
            index.seek(max(0, size - _TAIL))
            tail = index.read()
    except OSError:
        return None
    lines = tail.split(b"\n")
    if len(lines) < 2 or lines[-1]:
        return None
    found = _parsed(lines[-2:-1])
    return found[0] if found else None


def _line(entry: Entry) -> bytes:
    return json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def add(journal: Path, entries: list[Entry]) -> None:
    """Append entries (the caller holds the journal's exclusive lock); an index that cannot be
    written only makes later commands read more of the journal."""
    with contextlib.suppress(OSError), open(index_path(journal), "ab") as index:
        index.write(b"".join(map(_line, entries)))


def rewrite(journal: Path, entries: list[Entry]) -> None:
    """Replace the index with `entries` in one step (a temporary file renamed over it)."""
    import tempfile

    target = index_path(journal)
    with contextlib.suppress(OSError):
        fd, name = tempfile.mkstemp(prefix=target.name + ".", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(b"".join(map(_line, entries)))
            os.replace(name, target)
        except OSError:
            os.unlink(name)
            raise


@dataclass(frozen=True)
class Kept:
    """A match in the journal as `gm score matches` lists it."""

    number: int
    players: tuple[str, str]
    at: str | None
    sheet: Match | None  # None: taken back (its `new` undone) before it was replaced
    current: bool

    @property
    def result(self) -> str:
        sheet = self.sheet
        if sheet is None:
            return "taken back"
        a, b = sheet.totals
        score = f"{sheet.players[0]} {a}, {sheet.players[1]} {b}"
        if sheet.draw:
            return f"a draw ({score})"
        if sheet.winner:
            return f"{sheet.winner} won ({score})"
        return f"game {sheet.game} in play ({score})" if self.current else f"left in game {sheet.game} ({score})"

    def to_json(self) -> dict[str, Any]:
        return {"match": self.number, "players": list(self.players), "started_at": self.at,
                "current": self.current, "result": self.result,
                "sheet": None if self.sheet is None else self.sheet.to_dict()}


def kept(entries: list[Entry], current: Match | None, owner: int | None) -> list[Kept]:
    """Every match started, with its last sheet: the current one's live, the others' as they
    stood when a later match replaced them."""
    last: dict[int, Match] = {}
    for entry in entries:
        if entry.before_owner is not None and entry.before is not None:
            last[entry.before_owner] = entry.before
    if owner is not None and current is not None:
        last[owner] = current
    return [Kept(e.match, e.players, e.at, last.get(e.match), e.match == owner) for e in entries]


def one(matches: list[Kept], number: int) -> Kept:
    """Match `number` (1 = the first kept), or NoSuchMatch naming what there is."""
    if not 1 <= number <= len(matches):
        raise NoSuchMatch(f"no match {number}: the journal holds "
                          + (f"matches 1–{len(matches)}" if matches else "no match yet"))
    found = matches[number - 1]
    if found.sheet is None:
        raise NoSuchMatch(f"match {number} ({found.players[0]} v {found.players[1]}) was taken back (undone)")
    return found
