"""On disk: the night's JSON-lines log (one object per line with `t`, seconds since start, and
`type`). A second evening with the same log is appended to it."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from collections.abc import Callable

from gm.ports import Clock

if TYPE_CHECKING:
    from gm.text.lines import Voice

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


def latest_evening() -> Path | None:
    """The most recently written evening file of earlier versions in the data dir, if any."""
    folder = data_dir()
    found = sorted(folder.glob(f"*{EVENING_SUFFIX}"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    return found[-1] if found else None


def warn_on_stderr(text: str) -> None:
    print(f"gm: {text}", file=sys.stderr, flush=True)


class NightLog:
    """Appends events to a file as they happen, each line flushed, so a crash keeps the night; a
    second evening with the same log is appended to the first.

    A log that cannot be written (a full disk, `--log /dev/full`) is said once with `warn`; the
    night plays on without it. A log deleted during the night is said once and written again
    from there. The lines are the voice pack's (`werewolf.log`).
    """

    def __init__(self, path: Path, clock: Clock, warn: Callable[[str], None] = warn_on_stderr,
                 voice: Voice | None = None) -> None:
        self.clock = clock
        self.path = path
        self.warn = warn
        self.voice = voice
        self._file: TextIO | None = self._open()

    def _open(self) -> TextIO:
        # O_NONBLOCK: a FIFO nobody reads is refused at once instead of waited on
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NONBLOCK", 0), 0o644)
        return open(fd, "w", encoding="utf-8")

    def _say(self, key: str, **fields: Any) -> None:
        from gm.text.lines import Voice

        self.warn((self.voice or Voice("en")).text(f"werewolf.log.{key}", path=str(self.path), **fields))

    def __call__(self, kind: str, **data: Any) -> None:
        if self._file is None:
            return
        event = {"t": round(self.clock.now(), 3), "type": kind, **data}
        try:
            if _deleted(self._file):
                self._file.close()
                self._say("deleted")
                self._file = self._open()
            self._file.write(json.dumps(event, ensure_ascii=False) + "\n")
            self._file.flush()
        except OSError as error:
            self._give_up(error)

    def _give_up(self, error: OSError) -> None:
        self._say("cannot_write", reason=error.strerror or str(error))
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):  # the error was just reported: closing adds nothing
                file.close()

    def where(self) -> None:
        """Say where the log is (when a signal ends the night)."""
        if self._file is not None:
            self._say("kept_in")

    def close(self) -> None:
        if self._file is None:
            return
        try:
            self._file.close()
        except OSError as error:
            self._file = None
            self._say("end_not_written", reason=error.strerror or str(error))


def _deleted(file: TextIO) -> bool:
    """Whether the regular file open as `file` was removed from its folder."""
    info = os.fstat(file.fileno())
    return stat.S_ISREG(info.st_mode) and info.st_nlink == 0
