"""On disk: the night's JSON-lines log (one object per line with `t`, seconds since start, and
`type`), and beside it the evening's tally of wins."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

from gm.ports import Clock
from gm.werewolf.evening import Evening

EVENING_SUFFIX = ".evening.json"


def data_dir() -> Path:
    """Where nights and evenings are kept by default (e.g. ~/.local/share/gm/werewolf)."""
    import platformdirs

    return platformdirs.user_data_path("gm") / "werewolf"


def new_log_path() -> Path:
    """A fresh night log in the data dir, named by the local time it starts."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    path, n = folder / f"{stamp}.jsonl", 1
    while path.exists():
        n += 1
        path = folder / f"{stamp}_{n}.jsonl"
    return path


def evening_path(log: Path) -> Path:
    """The evening's tally beside its night log: night.jsonl → night.evening.json."""
    return log.with_name(log.stem + EVENING_SUFFIX)


def latest_evening() -> Path | None:
    """The most recently written evening in the data dir, if any."""
    folder = data_dir()
    found = sorted(folder.glob(f"*{EVENING_SUFFIX}"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    return found[-1] if found else None


def _stderr(text: str) -> None:
    print(f"gm: {text}", file=sys.stderr, flush=True)


class EveningFile:
    """Keeps the evening's tally in one JSON file, replaced whole after every night.

    A tally that cannot be written (a full disk) is said with `warn`; the evening goes on.
    """

    def __init__(self, path: Path, warn: Callable[[str], None] = _stderr) -> None:
        self.path = path
        self.warn = warn

    def __call__(self, evening: Evening) -> None:
        from gm.files import write_new_file

        try:
            write_new_file(self.path, lambda out: out.write(
                json.dumps(evening.to_json(), ensure_ascii=False, indent=2) + "\n"))
        except OSError as error:
            self.warn(f"the evening's tally cannot be written to {str(self.path)!r} ({error.strerror or error})")


class NightLog:
    """Appends events to a file as they happen, each line written whole, so a crash keeps the night.

    A log that cannot be written (a full disk, `--log /dev/full`) is said once with `warn`;
    the night plays on without it, and what is left of the file is its whole lines (an empty
    file is removed).
    """

    def __init__(self, path: Path, clock: Clock, warn: Callable[[str], None] = _stderr) -> None:
        self.clock = clock
        self.path = path
        self.warn = warn
        # O_NONBLOCK: a FIFO nobody reads is refused at once instead of waited on
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NONBLOCK", 0),
                                       0o644)
        self._written = 0  # bytes of the lines written whole

    def __call__(self, kind: str, **data: Any) -> None:
        if self._fd is None:
            return
        event = {"t": round(self.clock.now(), 3), "type": kind, **data}
        line = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
        rest = memoryview(line)
        try:
            while rest:
                rest = rest[os.write(self._fd, rest):]
        except OSError as error:
            self._give_up(error)
            return
        self._written += len(line)

    def _give_up(self, error: OSError) -> None:
        self.warn(f"the night's log cannot be written to {str(self.path)!r} ({error.strerror or error}); "
                  "the night goes on without it")
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            opened = os.fstat(fd)
            if stat.S_ISREG(opened.st_mode):
                os.ftruncate(fd, self._written)
                if self._written == 0 and os.path.samestat(os.stat(self.path), opened):
                    os.unlink(self.path)
        with contextlib.suppress(OSError):  # the error was just reported: closing adds nothing
            os.close(fd)

    def close(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.close(fd)
        except OSError as error:
            self.warn(f"the end of the night's log could not be written to {str(self.path)!r} "
                      f"({error.strerror or error})")
