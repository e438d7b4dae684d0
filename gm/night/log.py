"""On disk: the night's JSON-lines log (one object per line with `t`, seconds since start, and
`type`). A second evening with the same log is appended to it."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from gm.durable import NONBLOCK
from gm.files import BadFile, check_ours_to_append, open_no_link, to_stderr
from gm.ports import Clock

if TYPE_CHECKING:
    from gm.text.lines import Pack

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


FIRST = b'{"t": '  # how a night's log begins: every line is a JSON object, its time first


def check_log(path: Path) -> None:
    """Refuse, before the night starts, a log gm may not append to (`check_appendable`); a new file is fine."""
    try:
        fd = open_no_link(path, os.O_RDONLY | NONBLOCK)
    except FileNotFoundError:
        return
    try:
        check_appendable(path, fd)
    finally:
        os.close(fd)


def check_appendable(path: Path, fd: int) -> None:
    """BadFile unless the open `fd` is the null device (no log kept) or a night's log of the user's
    own that gm may append to (`gm.files.check_ours_to_append`)."""
    if os.path.samestat(os.fstat(fd), os.stat(os.devnull)):
        return
    check_ours_to_append(path, fd, FIRST)


def warn_on_stderr(text: str) -> None:
    to_stderr(text)


class NightLog:
    """Appends events to a file as they happen, each line written whole, so a crash keeps the
    night; a second evening with the same log is appended to the first.

    A log that cannot be written (a full disk, `--log /dev/full`) is said once with `warn`; the
    night plays on without it, and what is left of the file is its whole lines (a file this log
    created and never wrote is removed). A log deleted during the night is said once and written
    again from there. The lines are `pack`'s (`werewolf.log`), in the night's language.
    """

    def __init__(self, path: Path, clock: Clock, warn: Callable[[str], None] = warn_on_stderr, *,
                 pack: Pack) -> None:
        self.clock = clock
        self.path = path
        self.warn = warn
        self.pack = pack
        self._fd: int | None = self._open()
        self._written = os.fstat(self._fd).st_size  # bytes of whole lines: the earlier evenings' too

    def _open(self) -> int:
        """The log opened to append, never through a link, and only a log gm may append to
        (`check_appendable`); O_NONBLOCK: a FIFO is refused at once instead of waited on."""
        fd = open_no_link(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | NONBLOCK)
        try:
            check_appendable(self.path, fd)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _say(self, key: str, **fields: Any) -> None:
        self.warn(self.pack.text(f"werewolf.log.{key}", path=str(self.path), **fields))

    def __call__(self, kind: str, **data: Any) -> None:
        if self._fd is None:
            return
        event = {"t": round(self.clock.now(), 3), "type": kind, **data}
        line = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
        rest = memoryview(line)
        try:
            if _deleted(self._fd):
                os.close(self._fd)
                self._fd = None
                self._say("deleted")
                self._fd, self._written = self._open(), 0
            while rest:
                rest = rest[os.write(self._fd, rest):]
        except (OSError, BadFile) as error:  # BadFile: what took the deleted log's place is no log
            self._give_up(error)
            return
        self._written += len(line)

    def _give_up(self, error: OSError | BadFile) -> None:
        self._say("cannot_write", reason=getattr(error, "strerror", None) or str(error))
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

    def where(self) -> None:
        """Say where the log is (when a signal ends the night)."""
        if self._fd is not None:
            self._say("kept_in")

    def close(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.close(fd)
        except OSError as error:
            self._say("end_not_written", reason=error.strerror or str(error))


def _deleted(fd: int) -> bool:
    """Whether the regular file open as `fd` was removed from its folder."""
    info = os.fstat(fd)
    return stat.S_ISREG(info.st_mode) and info.st_nlink == 0
