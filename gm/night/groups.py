"""A group's nights on disk, evening after evening: one JSON line per night in gm's data folder
(`groups/NAME.jsonl`), appended and fsync'ed after every night, never rewritten.

A group is named by `--group`, or by its players (in any seating order). A line cut short by a
crash was never acknowledged: reading skips it (and any damaged line) with a warning naming the
line, and the next night starts on a line of its own. A file is read line by line, at any size.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from gm.durable import NONBLOCK, lines, read_at, sync, sync_dir, write_all
from gm.files import ANY_SIZE, BadFile, check_regular, read_text, write_new_file
from gm.night.log import data_dir, warn_on_stderr
from scorer.werewolf.evening import (
    EveningError, Night, Record, Summary, Tally, night_from_json, night_json, scope, tally_from_json,
)

if TYPE_CHECKING:
    from gm.text.lines import Pack

SUFFIX = ".jsonl"
MAX_NAME = 80  # characters of a file name made from a group's name; longer ones are hashed


def group_name(text: str) -> str:
    """A group's name as kept: a list of players ("Sora, Aki,Ken") is the same group in any order."""
    text = unicodedata.normalize("NFKC", text).strip()
    names = {name.strip().casefold(): name.strip() for name in text.split(",") if name.strip()}
    if not names:
        raise EveningError(f"a group needs a name, not {text!r}", "group_empty", text=text)
    return ",".join(names[key] for key in sorted(names)) if "," in text else text


def default_group(players: Sequence[str]) -> str:
    """The group of these players when no `--group` is given."""
    return group_name(",".join(players))


def groups_dir() -> Path:
    return data_dir() / "groups"


def group_path(name: str, folder: Path | None = None) -> Path:
    """The file of group `name` (letters of any script kept; anything else escaped)."""
    stem = quote(group_name(name).casefold(), safe=",")
    if len(stem) > MAX_NAME:
        stem = stem[:40] + "-" + hashlib.sha256(stem.encode()).hexdigest()[:16]
    return (folder or groups_dir()) / (stem + SUFFIX)


def latest_group(folder: Path | None = None) -> Path | None:
    """The group whose file was written last, if any."""
    folder = folder or groups_dir()
    found = [path for path in folder.glob(f"*{SUFFIX}") if path.is_file()] if folder.is_dir() else []
    return max(found, key=lambda path: path.stat().st_mtime_ns) if found else None


def new_evening_id() -> str:
    """Names one run of `gm werewolf play`: when it started, and a random tag of its own."""
    return f"{datetime.now(timezone.utc).isoformat(timespec='seconds')}/{uuid.uuid4().hex[:8]}"


class GroupFile:
    """Appends each night of this evening to the group's file as soon as it is judged. A file that
    cannot be written (a full disk) is said with `warn`; the evening goes on."""

    def __init__(self, group: str, pack: Pack, path: Path | None = None,
                 warn: Callable[[str], None] = warn_on_stderr) -> None:
        self.group, self.pack, self.warn = group_name(group), pack, warn
        self.path = path or group_path(group)
        self.evening = new_evening_id()

    def __call__(self, played: Night) -> None:
        record = {"group": self.group, "at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                  **night_json(replace(played, evening=self.evening))}
        try:
            start = append_line(self.path, (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
        except (OSError, BadFile) as error:
            reason = getattr(error, "strerror", None) or str(error)
            self.warn(self.pack.text("werewolf.group.cannot_keep", path=str(self.path), reason=reason))
            return
        with contextlib.suppress(OSError, BadFile):  # the night is kept; its tally is built on the next reading
            tally_on(self.path, new=start == 0)


def append_line(path: Path, line: bytes) -> int:
    """Append one line and fsync it; after a torn last line the new one starts on its own line.
    Returns the file's size before it (0: the line is the file's first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    created = not path.exists()
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | NONBLOCK, 0o644)
    try:
        size = check_regular(path, fd, ANY_SIZE)
        torn = size > 0 and read_at(fd, size - 1, 1) != b"\n"
        write_all(fd, (b"\n" if torn else b"") + line)
        sync(fd)
    finally:
        os.close(fd)
    if created:
        sync_dir(path.parent)
    return size


MAX_NIGHT_BYTES = 1 << 16  # a night's line is well under 1 KB (a dozen names of at most 40 characters)
TALLY_SUFFIX = ".tally"  # beside a group's file: its summary so far, so a read starts where the last one ended
TALLY_FORMAT = "t1"
TALLY_LINES = 1000  # lines read past the kept tally before it is kept again
CHECKED_BYTES = 4096  # the bytes before the kept tally's offset its hash covers
CATCH_UP_BYTES = 1 << 18  # past this much unread behind the kept tally, an append leaves it to the next reading


def read_nights(path: Path, skipped: Callable[[int, str], None]) -> Iterator[tuple[Night, str]]:
    """Every night in a group's file, in order, with the group its line names, read a chunk at a
    time (memory stays flat at any size); each line skipped (torn or damaged) is told to
    `skipped` with its number and why."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK)
    try:
        check_regular(path, fd, ANY_SIZE)
        for line in _lines_read(fd, 0, 1):
            if line.why is not None:
                skipped(line.number, line.why)
            elif line.night is not None:
                yield line.night
    finally:
        os.close(fd)


@dataclass(frozen=True)
class _Line:
    """One line of a group's file: its number, where it ends when it ends with a newline (None: the
    last line, cut short, or one too long to keep), and its night with the group it names, or
    why it is skipped (neither: a blank line)."""

    number: int
    end: int | None
    night: tuple[Night, str] | None = None
    why: str | None = None


def _lines_read(fd: int, start: int, first_line: int) -> Iterator[_Line]:
    """Each line from byte `start` (line number `first_line`) on."""
    for number, (offset, raw) in enumerate(lines(fd, start, MAX_NIGHT_BYTES), first_line):
        if raw is None:
            yield _Line(number, None, why=f"longer than {MAX_NIGHT_BYTES} bytes")
            continue
        end = offset + len(raw) if raw.endswith(b"\n") else None
        if not raw.strip():
            yield _Line(number, end)
            continue
        try:
            line = json.loads(raw.decode("utf-8"))
            night = night_from_json(line)
            group = str(line.get("group", ""))
        except (ValueError, RecursionError) as error:  # JSON, UTF-8 or a night that cannot be
            yield _Line(number, end, why=str(error) if isinstance(error, EveningError) else "not a night")
            continue
        yield _Line(number, end, (night, group))


def read_record(path: Path) -> tuple[Record, list[tuple[int, str]]]:
    """Every night in a group's file, in order, and the lines skipped (number, why): torn or damaged."""
    skipped: list[tuple[int, str]] = []
    nights, group = [], ""
    for night, named in read_nights(path, lambda number, why: skipped.append((number, why))):
        nights.append(night)
        group = named or group
    return Record(tuple(nights), group), skipped


def tally_path(path: Path) -> Path:
    return path.with_name(path.name + TALLY_SUFFIX)


def read_summary(path: Path, skipped: Callable[[int, str], None]) -> Summary:
    """What `gm werewolf evening` shows of a group's file: read from where the kept tally ends
    (the whole file when there is none, or it no longer fits), and kept again when much was read.
    The lines skipped before it are told again from the tally."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK)
    try:
        check_regular(path, fd, ANY_SIZE)
        tally, offset, first, skips = _kept_tally(fd, path) or (Tally(), 0, 1, [])
        for number, why in skips:
            skipped(number, why)
        read = _read_on(fd, tally, offset, first, skips, skipped)
        if read.next_line - first >= TALLY_LINES:
            _keep_tally(fd, path, read)
    finally:
        os.close(fd)
    found = tally.summary()
    if not found.tonight_split:
        return found
    tonight = scope(night for night, _ in read_nights(path, lambda number, why: None) if night.evening == found.evening)
    return replace(found, tonight=tonight, tonight_split=False)


def tally_on(path: Path, new: bool) -> None:
    """Bring the tally kept beside a group's file up to its end, after gm appended a night: a
    current tally takes that night alone, and a `new` file (the night its first line) gets its
    first tally, so the next reading decodes no night. A file with no tally that fits (one an
    older gm wrote) waits for its first reading, as does one whose tally is far behind."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK)
    try:
        check_regular(path, fd, ANY_SIZE)
        kept = _kept_tally(fd, path)
        if kept is None and not new:
            return
        tally, offset, first, skips = kept or (Tally(), 0, 1, [])
        if os.fstat(fd).st_size - offset > CATCH_UP_BYTES:
            return
        read = _read_on(fd, tally, offset, first, skips, lambda number, why: None)
        if read.next_line > first:
            _keep_tally(fd, path, read)
    finally:
        os.close(fd)


Skipped = tuple[int, str]
"""A line skipped in a group's file: its number and why (a pair in the kept tally's JSON)."""


@dataclass(frozen=True)
class _Read:
    """How far a reading got: the end of the last line that ends with a newline, the next line's
    number, and the tally (as JSON) and skipped lines as they stood there."""

    end: int
    next_line: int
    tally: dict[str, Any]
    skips: list[Skipped]


def _read_on(fd: int, tally: Tally, offset: int, first: int, skips: list[Skipped],
             skipped: Callable[[int, str], None]) -> _Read:
    """Add every night from byte `offset` (line `first`) on to `tally`, each line skipped told to
    `skipped` and added to `skips`."""
    # the tally and skips as they stood before a line that has no end yet
    kept: tuple[dict[str, Any], list[Skipped]] | None = None
    end, next_line = offset, first
    for line in _lines_read(fd, offset, first):
        if line.end is None and kept is None:
            kept = (tally.to_json(), list(skips))
        if line.why is not None:
            skipped(line.number, line.why)
            skips.append((line.number, line.why))
        elif line.night is not None:
            tally.add(*line.night)
        if line.end is not None and kept is None:
            end, next_line = line.end, line.number + 1
    state, told = kept or (tally.to_json(), skips)
    return _Read(end, next_line, state, told)


def _before(fd: int, offset: int) -> str:
    """A hash of the bytes just before `offset`: a file cut back or replaced since is noticed."""
    start = max(0, offset - CHECKED_BYTES)
    return hashlib.sha256(read_at(fd, start, offset - start)).hexdigest()[:20]


def _kept_tally(fd: int, path: Path) -> tuple[Tally, int, int, list[Skipped]] | None:
    """The tally kept beside the group's file, where it ends (byte, next line number) and the lines
    it skipped; None when there is none or it does not fit the file (it is only a shortcut)."""
    try:
        data = json.loads(read_text(tally_path(path)))
        offset, line, skips = data["offset"], data["line"], data["skipped"]
        if data["format"] != TALLY_FORMAT or type(offset) is not int or type(line) is not int or line < 1 \
                or not 0 < offset <= os.fstat(fd).st_size or data["check"] != _before(fd, offset):
            return None
        told = [(number, why) for number, why in skips if type(number) is int and isinstance(why, str)]
        return (tally_from_json(data["tally"]), offset, line, told) if len(told) == len(skips) else None
    except (BadFile, OSError, ValueError, KeyError, TypeError, RecursionError):  # not a tally gm kept
        return None


def _keep_tally(fd: int, path: Path, read: _Read) -> None:
    """Keep the tally beside the group's file (a file written whole, or nothing: a folder that
    cannot be written only makes the next read start further back)."""
    record = {"format": TALLY_FORMAT, "offset": read.end, "line": read.next_line, "check": _before(fd, read.end),
              "skipped": read.skips, "tally": read.tally}
    with contextlib.suppress(OSError, BadFile):
        write_new_file(tally_path(path), lambda out: out.write(json.dumps(record, ensure_ascii=False)))
