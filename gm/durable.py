"""Bytes read and appended through an open file descriptor, made durable before success is
reported: the pieces the match journal and a group's nights share."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO given as a file is refused, not waited on


def read_all(fd: int, offset: int = 0) -> bytes:
    """The file's bytes from `offset` to its end (in one read where the system allows: no copy)."""
    size = os.fstat(fd).st_size
    data = read_at(fd, offset, max(size - offset, 1 << 16))
    chunks = [data]
    while chunks[-1]:
        chunks.append(read_at(fd, offset + sum(map(len, chunks)), 1 << 20))
    return data if len(chunks) == 2 else b"".join(chunks)


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
