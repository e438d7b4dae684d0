"""The checkpoint of a long match, kept beside its journal (`.state`): the sheet folded up to a
place in the journal where nothing was undone, so a command folds only the lines after it.

Like the match index it is derived data, checked against the journal's bytes before that place;
a checkpoint gm did not write (another shape of sheet, a damaged file) is passed over and the
journal folded from further back.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints
from collections.abc import Callable

from gm.score.matches import (
    CHECK_LENGTH, MAX_LINE_BYTES, MAX_NUMBER, MAX_PLACE, Damaged, Number, check_numbers, replace_file,
)
from scorer.humalien import Match
from scorer.humalien.sheet import GAMES
from scorer.humalien.sheet import Ending, Game


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return {item.name: _plain(getattr(value, item.name)) for item in fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _typed(kind: Any, data: Any) -> Any:
    """`data` (from `_plain`) back as a value of `kind`: a dataclass, a tuple, an optional, a plain
    value; Damaged unless every part has the type and a sensible size."""
    return _reader(kind)(data)


Reader = Callable[[Any], Any]


@functools.cache
def _reader(kind: Any) -> Reader:
    """How to read a value of `kind` (worked out once per kind: resolving types is slow)."""
    origin = get_origin(kind)
    if origin in (Union, UnionType):
        inner = _reader(next(a for a in get_args(kind) if a is not type(None)))
        return lambda data: None if data is None else inner(data)
    if origin is tuple:
        return _tuple_reader(get_args(kind))
    if isinstance(kind, type) and issubclass(kind, Enum):
        return functools.partial(_enum, kind)
    if isinstance(kind, type) and is_dataclass(kind):
        hints = get_type_hints(kind)
        readers = tuple((item.name, _reader(hints[item.name])) for item in fields(kind))
        return functools.partial(_dataclass, kind, readers)
    if kind in (int, bool, str):
        return functools.partial(_plain_value, kind)
    raise TypeError(f"no {kind!r} in an index")


def _tuple_reader(args: tuple[Any, ...]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _reader(args[0])

        def many(data: Any) -> tuple[Any, ...]:
            return tuple(map(item, _list(data)))

        return many
    readers = tuple(map(_reader, args))

    def fixed(data: Any) -> tuple[Any, ...]:
        if len(_list(data)) != len(readers):
            raise Damaged(f"{len(data)} values where {len(readers)} belong")
        return tuple(read(d) for read, d in zip(readers, data))

    return fixed


def _list(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise Damaged(f"{data!r:.40} is not a list")
    return data


def _enum(kind: type[Enum], data: Any) -> Enum:
    try:
        return kind(data)
    except (ValueError, TypeError):
        raise Damaged(f"{data!r:.40} is not a {kind.__name__}") from None


def _dataclass(kind: type, readers: tuple[tuple[str, Reader], ...], data: Any) -> Any:
    if not isinstance(data, dict):
        raise Damaged(f"{data!r:.40} is not an object")
    try:
        return kind(**{name: read(data[name]) for name, read in readers})
    except KeyError as missing:
        raise Damaged(f"no {missing}") from None


def _plain_value(kind: type, data: Any) -> Any:
    if kind is int:
        if type(data) is not int or not -MAX_NUMBER <= data <= MAX_NUMBER:
            raise Damaged(f"{data!r:.40} is not a whole number of a sensible size")
    elif kind is bool:
        if type(data) is not bool:
            raise Damaged(f"{data!r:.40} is not true or false")
    elif not isinstance(data, str) or len(data) > MAX_LINE_BYTES:
        raise Damaged(f"{data!r:.40} is not a short string")
    return data


def _sheet_format() -> str:
    """The shape of a sheet (its classes' fields): a checkpoint kept for another shape is passed over."""
    shape = [(cls.__name__, [(item.name, str(item.type)) for item in fields(cls)]) for cls in (Match, Game, Ending)]
    return hashlib.sha256(repr(shape).encode()).hexdigest()[:12]


SHEET_FORMAT = _sheet_format()


def sheet_record(match: Match) -> dict[str, Any]:
    """A sheet as JSON-ready data, every field of every game (not only what `show --json` prints)."""
    record: dict[str, Any] = _plain(match)  # a dataclass is made a dict
    return record


def sheet_from(record: Any) -> Match:
    """The sheet a record describes; Damaged unless it is one gm could have written."""
    match: Match = _typed(Match, record)
    if not 1 <= len(match.games) <= GAMES or any(g.number != n for n, g in enumerate(match.games, start=1)) \
            or any(not 0 <= g.sixes <= match.max_sixes for g in match.games):
        raise Damaged("not a sheet of a match")
    return match


@dataclass(frozen=True)
class Checkpoint:
    """The fold of the journal's first `offset` bytes (its lines before line `line`) where nothing
    was undone: the sheet, the number of the match it belongs to and of matches started. `check`
    hashes the bytes just before `offset`, so a journal cut back or replaced is noticed."""

    offset: int
    line: int
    check: str
    sheet: Match
    owner: int
    matches: int

    def to_json(self) -> dict[str, Any]:
        return {"offset": self.offset, "line": self.line, "check": self.check, "sheet": sheet_record(self.sheet),
                "owner": self.owner, "matches": self.matches, "format": SHEET_FORMAT}


MAX_CHECKPOINT_BYTES = 1 << 16  # a sheet of three games is a few KB
_NUMBERS = tuple(Number(name, name, low, high) for name, low, high in (
    ("offset", 1, MAX_PLACE), ("line", 2, MAX_PLACE), ("owner", 1, MAX_NUMBER), ("matches", 1, MAX_NUMBER)))


def checkpoint_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".state")


def read_checkpoint(journal: Path) -> Checkpoint | None:
    """The checkpoint kept beside the journal; None when there is none or it is not one gm wrote
    (it is only a shortcut: the journal is folded from further back instead)."""
    try:
        fd = os.open(checkpoint_path(journal), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, MAX_CHECKPOINT_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        record = json.loads(data) if len(data) <= MAX_CHECKPOINT_BYTES else None
        if not isinstance(record, dict) or record.get("format") != SHEET_FORMAT or not isinstance(
                record["check"], str) or len(record["check"]) != CHECK_LENGTH:
            return None
        check_numbers(record, _NUMBERS)
        return Checkpoint(record["offset"], record["line"], record["check"], sheet_from(record["sheet"]),
                          record["owner"], record["matches"])
    except (Damaged, ValueError, KeyError, RecursionError):
        return None


def write_checkpoint(journal: Path, checkpoint: Checkpoint) -> None:
    """Replace the checkpoint in one step (the caller holds the journal's exclusive lock); one that
    cannot be written only makes later commands fold more of the journal."""
    replace_file(checkpoint_path(journal), json.dumps(checkpoint.to_json(), ensure_ascii=False).encode("utf-8"))
