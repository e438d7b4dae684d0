"""A group's nights on disk, evening after evening: one JSON line per night in gm's data folder
(`groups/NAME.jsonl`), appended and fsync'ed after every night, never rewritten.

A group is named by `--group`, or by its players (in any seating order). A line cut short by a
crash was never acknowledged: reading skips it (and any damaged line) with a warning naming the
line, and the next night starts on a line of its own. A file is read line by line, at any size.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from gm.durable import NONBLOCK, lines, read_at, sync, sync_dir, write_all
from gm.files import ANY_SIZE, BadFile, check_regular
from gm.night.log import data_dir, warn_on_stderr
from scorer.werewolf.evening import EveningError, Night, Record, Summary, night_from_json, night_json, scope, summary

if TYPE_CHECKING:
    from gm.text.lines import Voice

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

    def __init__(self, group: str, voice: Voice, path: Path | None = None,
                 warn: Callable[[str], None] = warn_on_stderr) -> None:
        self.group, self.voice, self.warn = group_name(group), voice, warn
        self.path = path or group_path(group)
        self.evening = new_evening_id()

    def __call__(self, played: Night) -> None:
        record = {"group": self.group, "at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                  **night_json(replace(played, evening=self.evening))}
        try:
            append_line(self.path, (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
        except (OSError, BadFile) as error:
            reason = getattr(error, "strerror", None) or str(error)
            self.warn(self.voice.text("werewolf.group.cannot_keep", path=str(self.path), reason=reason))


def append_line(path: Path, line: bytes) -> None:
    """Append one line and fsync it; after a torn last line the new one starts on its own line."""
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


MAX_NIGHT_BYTES = 1 << 16  # a night's line is well under 1 KB (a dozen names of at most 40 characters)


def read_nights(path: Path, skipped: Callable[[int, str], None], start: int = 0) -> Iterator[tuple[Night, str]]:
    """Every night in a group's file from byte `start` on, in order, with the group its line names,
    read a chunk at a time (memory stays flat at any size); each line skipped (torn or damaged) is
    told to `skipped` with its number (counted from `start`) and why."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK)
    try:
        check_regular(path, fd, ANY_SIZE)
        number = 0
        for _, raw in lines(fd, start, MAX_NIGHT_BYTES):
            number += 1
            if raw is None:
                skipped(number, f"longer than {MAX_NIGHT_BYTES} bytes")
                continue
            if not raw.strip():
                continue
            try:
                line = json.loads(raw.decode("utf-8"))
                night = night_from_json(line)
                group = line.get("group", "")
            except (ValueError, RecursionError) as error:  # JSON, UTF-8 or a night that cannot be
                skipped(number, str(error) if isinstance(error, EveningError) else "not a night")
                continue
            yield night, str(group)
    finally:
        os.close(fd)


def read_record(path: Path) -> tuple[Record, list[tuple[int, str]]]:
    """Every night in a group's file, in order, and the lines skipped (number, why): torn or damaged."""
    skipped: list[tuple[int, str]] = []
    nights, group = [], ""
    for night, named in read_nights(path, lambda number, why: skipped.append((number, why))):
        nights.append(night)
        group = named or group
    return Record(tuple(nights), group), skipped


def read_summary(path: Path, skipped: Callable[[int, str], None]) -> Summary:
    """What `gm werewolf evening` shows of a group's file, read in one pass (two when the latest
    evening's nights are split by another evening's)."""
    found = summary(read_nights(path, skipped))
    if not found.tonight_split:
        return found
    tonight = scope(night for night, _ in read_nights(path, lambda number, why: None) if night.evening == found.evening)
    return replace(found, tonight=tonight, tonight_split=False)
