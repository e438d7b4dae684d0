"""The journal's match index: one JSON line per match started, so a command reads only the current match.

Each line records where a `new` event sits in the journal (byte offset, line number, a hash of
the bytes around it), when it was made, its players, and the result of the sheet it replaced
(totals, game, winner) with the number of the match that sheet belonged to: a line is a few
hundred bytes, whatever the match held. The index is derived data: the journal stays the only truth.
A line that does not match the journal (a journal cut back, a damaged index) is dropped and
the index rebuilt from the journal itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from scorer.values import Refusal
from gm.files import MAX_FILE_BYTES
from scorer.humalien import Match
from scorer.humalien.sheet import GAMES

CHECKED_BYTES = 4096  # how much of the journal before each `new` line its hash covers
CHECK_LENGTH = 16  # hex digits of that hash kept
_TAIL = 1 << 16
MAX_INDEX_BYTES = MAX_FILE_BYTES  # an index is far smaller than its journal


class NoSuchMatch(Refusal):
    """A match number the journal does not hold, or a match that was taken back."""


class Result(NamedTuple):  # tuples, not dataclasses: 20,000 are made in a blink for `gm score matches`
    """Where a match stood: its totals, its game, and its winner (a draw: none, and `draw`)."""

    totals: tuple[int, int]
    game: int
    winner: str | None = None
    draw: bool = False

    @staticmethod
    def of(sheet: Match) -> Result:
        return Result(sheet.totals, sheet.game, sheet.winner, sheet.draw)

    def to_json(self) -> list[Any]:
        return [*self.totals, self.game, self.winner, self.draw]


class Entry(NamedTuple):
    """One match started: its `new` line's place in the journal, and the result of the sheet it replaced."""

    match: int
    offset: int
    length: int
    line: int
    check: str
    at: str | None
    players: tuple[str, str]
    before: Result | None
    before_owner: int | None

    def to_json(self) -> list[Any]:
        """The entry as an index line holds it: its values in the order of ENTRY_FIELDS."""
        return [INDEX_FORMAT, self.match, self.offset, self.length, self.line, self.check, self.at, list(self.players),
                None if self.before is None else self.before.to_json(), self.before_owner]


INDEX_FORMAT = "r2"  # entries are lists of values and hold a Result, not the sheet

ENTRY_FIELDS = ("format", "match", "offset", "length", "line", "check", "at", "players", "before", "before_owner")


def index_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".matches")


def check_of(window: bytes) -> str:
    return hashlib.sha256(window).hexdigest()[:CHECK_LENGTH]


class Damaged(Exception):
    """An index line or a checkpoint that gm did not write; names what is wrong."""


class _OtherFormat(Damaged):
    """An index line gm wrote for sheets of another shape (another version of gm): rebuilt, no damage."""


MAX_NUMBER = 10**9  # far above any score, count or place in a journal of MAX_FILE_BYTES
MAX_LINE_BYTES = 1 << 16  # a `new` line is a few hundred bytes


MAX_PLACE = 1 << 62  # past any byte offset or line number of a journal


class Number(NamedTuple):
    """A whole number a record holds: its key (a place in a list, a name in an object), its name
    and bounds; `nullable`: it may be null."""

    key: int | str
    name: str
    low: int
    high: int
    nullable: bool = False


def check_numbers(record: Any, numbers: tuple[Number, ...]) -> None:
    """Damaged naming the first of `numbers` that `record` does not hold as a whole number within
    its bounds (one loop, no call per number: 20,000 entries are read for `gm score matches`)."""
    for key, name, low, high, nullable in numbers:
        value = record[key]
        if (type(value) is not int or not low <= value <= high) and (value is not None or not nullable):
            raise Damaged(f"{name} {value!r:.40} is not a whole number from {low} to {high}")


def _place(name: str, low: int, high: int, nullable: bool = False) -> Number:
    return Number(ENTRY_FIELDS.index(name), name, low, high, nullable)


_NUMBERS = (_place("match", 1, MAX_NUMBER), _place("offset", 0, MAX_PLACE), _place("length", 1, MAX_LINE_BYTES),
            _place("line", 1, MAX_PLACE), _place("before_owner", 1, MAX_NUMBER, nullable=True))  # null: replaced none


def _entry(record: Any) -> Entry:
    """The entry an index line holds, every part checked in turn and by hand, without a call per
    part (20,000 are read for `gm score matches`): its format, its whole numbers, its players, its
    check and time, the result it replaced. _OtherFormat for a line of another version of gm, else
    Damaged naming the first part that is wrong."""
    if type(record) is not list or len(record) != len(ENTRY_FIELDS) or record[0] != INDEX_FORMAT:
        raise _not_an_entry(record)
    check_numbers(record, _NUMBERS)
    _, match, offset, length, line, check, at, players, before, owner = record
    if type(players) is not list or len(players) != 2 or not (_short(players[0]) and _short(players[1])):
        raise Damaged(f"players {players!r:.40} are not two names")
    if type(check) is not str or len(check) != CHECK_LENGTH or not (at is None or _short(at)):
        raise Damaged("not a check and a time")
    return Entry(match, offset, length, line, check, at, (players[0], players[1]),
                 None if before is None else _result(before), owner)


def _not_an_entry(record: Any) -> Damaged:
    """Why `record` is no entry of this format: _OtherFormat when it names another format (another
    version of gm wrote it, as a list or, before that, as an object), else Damaged."""
    if type(record) is dict:
        shape = record.get("format")
    else:
        shape = record[0] if type(record) is list and record else None
    other = _OtherFormat if isinstance(shape, str) and shape != INDEX_FORMAT else Damaged
    return other(f"not an index entry of format {INDEX_FORMAT}: {record!r:.40}")


def _short(text: Any) -> bool:
    return type(text) is str and len(text) <= MAX_LINE_BYTES


def _result(data: Any) -> Result:
    """A Result from its list (checked by hand: 20,000 of them are read for `gm score matches`)."""
    if type(data) is not list or len(data) != 5:
        raise Damaged(f"{data!r:.40} is not the result of a match")
    a, b, game, winner, draw = data
    if type(a) is not int or type(b) is not int or not -MAX_NUMBER <= min(a, b) <= max(a, b) <= MAX_NUMBER \
            or type(game) is not int or not 1 <= game <= GAMES or not (winner is None or _short(winner)) \
            or type(draw) is not bool or draw and winner is not None:
        raise Damaged(f"{data!r:.40} is not the result of a match")
    return Result((a, b), game, winner, draw)


@dataclass(frozen=True)
class Read:
    """The sound entries of an index, in order, and what was wrong with the rest (None: nothing)."""

    entries: list[Entry]
    damage: str | None = None


def _parsed(lines: list[bytes]) -> Read:
    """The entries of the sound lines, up to the first damaged one (or one out of order)."""
    entries: list[Entry] = []
    records: list[Any] | None = None
    for number, raw in enumerate(lines, start=1):
        if number % _BATCH == 1:
            records = _records(lines[number - 1:number - 1 + _BATCH])
        try:
            entry = _entry(json.loads(raw) if records is None else records[(number - 1) % _BATCH])
        except _OtherFormat:
            return Read(entries)
        except (Damaged, ValueError, KeyError, RecursionError) as error:
            return Read(entries, f"line {number}: {error_reason(error)}")
        if entries and not (entry.match == entries[-1].match + 1 and entry.offset > entries[-1].offset
                            and entry.line > entries[-1].line) or not entries and entry.match != 1:
            return Read(entries, f"line {number}: out of order")
        entries.append(entry)
    return Read(entries)


_BATCH = 1000  # index lines parsed at once


def _records(lines: list[bytes]) -> list[Any] | None:
    """The JSON values of lines that each hold one list, as gm writes them, parsed at once (much
    faster than line by line); None when one of them is not (each is then parsed alone)."""
    if not all(raw[:1] == b"[" and raw[-1:] == b"]" for raw in lines):
        return None
    try:
        records = json.loads(b"[" + b",".join(lines) + b"]")
    except (ValueError, RecursionError):
        return None
    return records if len(records) == len(lines) else None


def error_reason(error: BaseException) -> str:
    if isinstance(error, KeyError):
        return f"no {error}"
    if isinstance(error, RecursionError):
        return "nested too deep"
    return str(error) or type(error).__name__


def _read_index(journal: Path, tail: int | None = None) -> tuple[bytes | None, str | None]:
    """The index's bytes (its last `tail` bytes only, when given), or None with what keeps it from
    being read: not a regular file (a FIFO, a link to a device) or larger than any real index.
    (None, None): there is no index."""
    path = index_path(journal)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, error.strerror or type(error).__name__
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, "not a regular file"
        if info.st_size > MAX_INDEX_BYTES:
            return None, f"larger than {MAX_INDEX_BYTES // (1024 * 1024)} MB"
        start = 0 if tail is None else max(0, info.st_size - tail)
        os.lseek(fd, start, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, min(info.st_size - start, MAX_INDEX_BYTES) or 1):
            chunks.append(chunk)
            start += len(chunk)
            if start > info.st_size:  # it grows while read: another gm is writing; what was there is enough
                break
        return b"".join(chunks), None
    except OSError as error:
        return None, error.strerror or type(error).__name__
    finally:
        os.close(fd)


def read_all(journal: Path) -> Read:
    """Every sound entry of the index, in order (none when there is no index), and any damage."""
    data, damage = _read_index(journal)
    if data is None:
        return Read([], damage)
    lines = data.split(b"\n")
    read = _parsed(lines[:-1])
    if read.damage is None and lines[-1]:
        return Read(read.entries, f"line {len(lines)}: cut short")
    return read


def read_last(journal: Path) -> Entry | None:
    """The last entry, read from the end of the index alone; None when there is none or it is damaged."""
    tail, _ = _read_index(journal, _TAIL)
    if tail is None:
        return None
    lines = tail.split(b"\n")
    if len(lines) < 2 or lines[-1]:
        return None
    try:
        return _entry(json.loads(lines[-2]))
    except (Damaged, ValueError, KeyError, RecursionError):
        return None


def _line(entry: Entry) -> bytes:
    return json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def add(journal: Path, entries: list[Entry]) -> None:
    """Append entries (the caller holds the journal's exclusive lock); an index that cannot be
    written (nor is a regular file) only makes later commands read more of the journal."""
    with contextlib.suppress(OSError):
        fd = os.open(index_path(journal), os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0),
                     0o644)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                os.write(fd, b"".join(map(_line, entries)))
        finally:
            os.close(fd)


def rewrite(journal: Path, entries: list[Entry]) -> None:
    """Replace the index with `entries` in one step (a temporary file renamed over it)."""
    replace_file(index_path(journal), b"".join(map(_line, entries)))


def replace_file(target: Path, data: bytes) -> None:
    """Replace `target` with `data` in one step: a temporary file renamed over it (not synced: a
    cache the journal can always give again)."""
    import tempfile

    with contextlib.suppress(OSError):
        fd, name = tempfile.mkstemp(prefix=target.name + ".", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                if hasattr(os, "fchmod"):  # readable like the journal (mkstemp makes it private)
                    os.fchmod(out.fileno(), 0o644)
                out.write(data)
            os.replace(name, target)
        except OSError:
            os.unlink(name)
            raise


class Kept(NamedTuple):
    """A match in the journal as `gm score matches` lists it; `sheet` its last sheet, when asked for."""

    number: int
    players: tuple[str, str]
    at: str | None
    outcome: Result | None  # None: taken back (its `new` undone) before it was replaced
    current: bool
    sheet: Match | None = None

    @property
    def result(self) -> str:
        outcome = self.outcome
        if outcome is None:
            return "taken back"
        a, b = outcome.totals
        score = f"{self.players[0]} {a}, {self.players[1]} {b}"
        if outcome.draw:
            return f"a draw ({score})"
        if outcome.winner:
            return f"{outcome.winner} won ({score})"
        return f"game {outcome.game} in play ({score})" if self.current else f"left in game {outcome.game} ({score})"

    def to_json(self) -> dict[str, Any]:
        return {"match": self.number, "players": list(self.players), "started_at": self.at,
                "current": self.current, "result": self.result,
                "sheet": None if self.sheet is None else self.sheet.to_dict()}


def kept(entries: list[Entry], current: Match | None, owner: int | None,
         sheets: dict[int, Match] | None = None) -> list[Kept]:
    """Every match started, with where it stood last: the current one live, the others as they
    stood when a later match replaced them (with `sheets`, each match's last sheet by number)."""
    last: dict[int, Result] = {}
    for entry in entries:
        if entry.before_owner is not None and entry.before is not None:
            last[entry.before_owner] = entry.before
    if owner is not None and current is not None:
        last[owner] = Result.of(current)
    found = sheets or {}
    return [Kept(e.match, e.players, e.at, last.get(e.match), e.match == owner,
                 found.get(e.match) if e.match in last else None) for e in entries]


def one(matches: list[Kept], number: int) -> Kept:
    """Match `number` (1 = the first kept), or NoSuchMatch naming what there is."""
    if not 1 <= number <= len(matches):
        raise NoSuchMatch(f"no match {number}: the journal holds "
                          + (f"matches 1–{len(matches)}" if matches else "no match yet"))
    found = matches[number - 1]
    if found.outcome is None:
        raise NoSuchMatch(f"match {number} ({found.players[0]} v {found.players[1]}) was taken back (undone)")
    return found
