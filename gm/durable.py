"""Bytes read and appended through an open file descriptor, made durable before success is
reported: the pieces the match journal and a group's nights share."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO given as a file is refused, not waited on


CHUNK = 1 << 20  # bytes read at a time when a file is read line by line


def lines(fd: int, offset: int = 0, longest: int = 1 << 16) -> Iterator[tuple[int, bytes | None]]:
    """The lines of the file from byte `offset` on, each with the offset it starts at, read a chunk at
    a time: memory is bounded by the longest line kept, not by the file's size.

    A line ends with its newline; the last may lack one (a write cut short). A line longer than
    `longest` bytes (without its newline) comes as None, its bytes skipped unread into memory.
    """
    pending: list[bytes] = []  # the current line's bytes so far
    kept = 0  # their length
    start = position = offset
    too_long = False
    while data := read_at(fd, position, CHUNK):
        begin = 0
        while (end := data.find(b"\n", begin)) >= 0:
            if too_long or kept + end - begin > longest:
                yield start, None
            else:
                yield start, b"".join((*pending, data[begin:end + 1])) if pending else data[begin:end + 1]
            pending, kept, too_long = [], 0, False
            start = position + end + 1
            begin = end + 1
        if not too_long and begin < len(data):
            kept += len(data) - begin
            too_long = kept > longest
            pending = [] if too_long else [*pending, data[begin:]]
        position += len(data)
    if too_long:
        yield start, None
    elif pending:
        yield start, b"".join(pending)


def read_at(fd: int, offset: int, size: int) -> bytes:
    """At most `size` bytes from `offset`."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


def write_all(fd: int, data: bytes) -> None:
    """All of `data`, however many writes the system needs."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def sync(fd: int) -> None:
    """Flush to the disk itself: fsync, or F_FULLFSYNC on macOS where fsync stops at the drive cache."""
    with contextlib.suppress(ImportError, OSError):
        import fcntl

        if hasattr(fcntl, "F_FULLFSYNC"):
            fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
            return
    os.fsync(fd)


def sync_dir(directory: Path) -> None:
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
