"""Files and lines read and written safely: regular files under a size cap, lines under a length cap,
new files written whole or not at all."""

from __future__ import annotations

import errno
import functools
import json
import os
import stat
import sys
import unicodedata
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO
from collections.abc import Callable

from gm.durable import read_at
from scorer.values import Refusal

if TYPE_CHECKING:
    from rich.console import Console

EXIT_BROKEN_PIPE = 141  # as a shell reports a program ended by SIGPIPE
MAX_FILE_BYTES = 64 * 1024 * 1024  # a file gm reads whole (a deck, an evening file of earlier versions)
ANY_SIZE = 1 << 62  # files gm writes and reads line by line (a journal, a group's nights): no cap on size
MAX_LINE = 4096  # characters of one typed line or answer
MAX_SKIP = 1024 * 1024  # characters skipped in search of a line's end before input counts as ended


class BadFile(Refusal):
    """A path that is not a regular file of a sensible size, or text that is not UTF-8; `key`
    (under the voice packs' `errors.file`) and `fields` word it in every language."""

    prefix = "file"


# An OS error about a path the user gave, by errno → its line under the packs' `errors.file`.
_OS_ERRORS = {errno.ENOENT: "missing", errno.ENOTDIR: "missing", errno.EACCES: "denied", errno.EPERM: "denied",
              errno.EISDIR: "directory", errno.EROFS: "read_only", errno.ENOSPC: "full"}


def os_error_key(error: OSError) -> str:
    """The key under the packs' `errors.file` that words `error` (fields: path, reason)."""
    return _OS_ERRORS.get(error.errno or 0, "unusable")


def unusable(path: str | Path, error: OSError) -> BadFile:
    """`error` about `path` as a BadFile, worded by the packs' `errors.file`."""
    reason = error.strerror or type(error).__name__
    return BadFile(f"{path}: {reason}", os_error_key(error), path=str(path), reason=reason)


def to_stderr(text: str) -> None:
    """Say `text` on stderr as gm says an error, a warning or a note: one line, "gm: " first, every
    control character escaped (`printable`), so a file name holding an escape sequence never
    reaches the terminal raw."""
    print(f"gm: {printable(text)}", file=sys.stderr, flush=True)


def stdout_gone() -> None:
    """The reader of stdout went away (gm … | head): what is still printed goes nowhere."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def print_or_end_quietly(text: str) -> None:
    """Print `text`; if the reader went away, end at once with EXIT_BROKEN_PIPE and nothing on stderr."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        stdout_gone()
        sys.exit(EXIT_BROKEN_PIPE)


@functools.cache
def _terminal_console() -> Any:
    """One rich Console on stdout for the narrator's lines (its width follows the terminal's)."""
    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False, soft_wrap=False)


def print_line(text: str) -> None:
    """A line the game master says, printed. On a terminal it wraps at word boundaries for the
    terminal's width (rich; wide characters count two cells, so Japanese and Korean break between
    characters); piped, it is printed as it is, one line for scripts."""
    if not sys.stdout.isatty():
        print(text, flush=True)
        return
    console = _terminal_console()
    console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=False, overflow="fold")
    console.file.flush()


def rich_ends_quietly() -> None:
    """rich's consoles (Typer's help pages, gm's boards) end on a reader gone as gm does: exit
    EXIT_BROKEN_PIPE, nothing on stderr; rich's own end is exit 1. rich asks for this hook to be
    overridden (`Console.on_broken_pipe`); called where rich is imported anyway."""
    from rich.console import Console

    setattr(Console, "on_broken_pipe", _end_quietly)  # noqa: B010 - rich's hook, replaced on the class


def _end_quietly(console: Console) -> None:
    stdout_gone()
    raise SystemExit(EXIT_BROKEN_PIPE)


def json_text(data: Any) -> str:
    """`data` as gm prints JSON: indented, non-ASCII kept."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def printable(text: str) -> str:
    """`text` on one line: control characters (newlines, escapes, lone surrogates) shown as escapes;
    spaces of any width (the ideographic space an IME types) stay as they are."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or unicodedata.category(c) == "Zs" else repr(c)[1:-1] for c in text)


def _printable_strings(value: Any) -> Any:
    """`value` (parsed JSON) with every string in it, keys too, made `printable`."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_printable_strings(v) for v in value]
    if isinstance(value, dict):
        return {printable(k): _printable_strings(v) for k, v in value.items()}
    return value


_DECODER = json.JSONDecoder()


def json_value(text: str | bytes, bad: Callable[[str], Exception]) -> Any:
    """The JSON value of `text`, every string in it printable (a name with an escape sequence or a
    lone surrogate is shown escaped, never sent to the terminal); otherwise `bad(reason)` is
    raised, also for nesting too deep for the parser (which raises RecursionError, not a ValueError)."""
    escaped = b"\\u" in text if isinstance(text, bytes) else "\\u" in text
    try:
        value = _DECODER.decode(text.decode("utf-8") if isinstance(text, bytes) else text)
        if escaped or not text.isascii():  # only these can hold what is not printable
            value = _printable_strings(value)
    except ValueError as error:  # JSON or UTF-8 damage
        raise bad(str(error)) from None
    except RecursionError:
        raise bad("nested too deep") from None
    return value


def check_regular(path: Path, fd: int, limit: int = MAX_FILE_BYTES) -> int:
    """The size of the open file `fd`; BadFile unless it is a regular file of at most `limit` bytes."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise BadFile(f"{str(path)!r} is not a regular file", "not_regular", path=str(path))
    if info.st_size > limit:
        raise BadFile(f"{str(path)!r} is larger than {limit // (1024 * 1024)} MB", "too_large", path=str(path),
                      mb=limit // (1024 * 1024))
    return info.st_size


def could_begin(data: bytes, first: bytes) -> bool:
    """Could `data`, a file's first bytes, be the start of a file gm writes, whose first line begins
    with `first`? Also a first line cut short, or the zeros a file system leaves after a power cut."""
    return first.startswith(data[:len(first)]) or not data.strip(b"\0")


def open_no_link(path: Path, flags: int, mode: int = 0o644) -> int:
    """`os.open` that refuses a symbolic link in one line (BadFile `link`) instead of following it."""
    if os.path.islink(path):  # also where O_NOFOLLOW is missing (Windows)
        raise BadFile(f"{str(path)!r} is a link; give the file itself", "link", path=str(path))
    try:
        return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), mode)
    except OSError as error:
        if error.errno == errno.ELOOP:  # made a link since the check
            raise BadFile(f"{str(path)!r} is a link; give the file itself", "link", path=str(path)) from None
        raise


def check_ours_to_append(path: Path, fd: int, first: bytes) -> None:
    """BadFile unless gm may append to the open file `fd`: a regular file (`check_regular`), the
    user's own and writable by its owner (also for root, whom permissions do not stop), empty or
    begun as gm begins it (`could_begin` with `first`)."""
    check_regular(path, fd, limit=1 << 62)  # appending needs no cap; reading has one
    info = os.fstat(fd)
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise BadFile(f"{str(path)!r} belongs to another user; nothing was changed", "not_yours", path=str(path))
    if not info.st_mode & stat.S_IWUSR:
        raise BadFile(f"{str(path)!r} is read-only; nothing was changed", "read_only_file", path=str(path))
    if not could_begin(read_at(fd, 0, len(first)), first):
        raise BadFile(f"{str(path)!r} was not written by gm; nothing was changed", "not_ours", path=str(path))


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes (never blocks on a FIFO)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        check_regular(path, fd, limit)
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise BadFile(f"{str(path)!r} is larger than {limit // (1024 * 1024)} MB", "too_large", path=str(path),
                      mb=limit // (1024 * 1024))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadFile(f"{str(path)!r} is not UTF-8 text (byte {error.start})", "not_utf8", path=str(path),
                      byte=error.start) from None


def read_stream(stream: IO[str], limit: int = MAX_FILE_BYTES) -> str:
    """All of `stream` (standard input), refused past `limit` characters or when it is not UTF-8 text."""
    try:
        text = stream.read(limit + 1)
    except UnicodeDecodeError as error:
        raise BadFile(f"the input is not UTF-8 text (byte {error.start})", "input_not_utf8",
                      byte=error.start) from None
    if len(text) > limit:
        raise BadFile(f"the input is longer than {limit // (1024 * 1024)} MB", "input_too_long",
                      mb=limit // (1024 * 1024))
    return text


def read_line(stream: IO[str], limit: int = MAX_LINE) -> str:
    """One line of at most `limit` characters ("" at the end of input).

    A longer line is cut to `limit` (its rest is skipped); a line with no end in sight
    (`< /dev/zero`) counts as the end of input, so memory stays bounded.
    """
    try:
        return _read_line(stream, limit)
    except UnicodeDecodeError as error:
        raise BadFile(f"the input is not UTF-8 text (byte {error.start})", "input_not_utf8",
                      byte=error.start) from None


def _read_line(stream: IO[str], limit: int) -> str:
    line = stream.readline(limit + 1)
    if len(line) <= limit or line.endswith("\n"):
        return line
    skipped = 0
    while skipped < MAX_SKIP:
        rest = stream.readline(limit)
        if not rest or rest.endswith("\n"):
            return line[:limit] + "\n"
        skipped += len(rest)
    return ""


def write_new_file(path: Path, write: Callable[[IO[str]], object]) -> None:
    """Write `path` whole or not at all: into a temporary file beside it, synced, then renamed.

    Only a regular file is replaced (a FIFO or a device is refused, never waited on); a full disk
    leaves nothing behind and names the file."""
    _write_whole(Path(path), lambda: open(_temporary(path), "x", encoding="utf-8", newline=""), write)


def write_new_bytes(path: Path, data: bytes) -> None:
    """`write_new_file` for bytes (a WAV file)."""
    _write_whole(Path(path), lambda: open(_temporary(path), "xb"), lambda out: out.write(data))


def _temporary(path: Path) -> Path:
    return Path(path).with_name(f".{Path(path).name}.{os.getpid()}.tmp")


def _write_whole(path: Path, create: Callable[[], IO[Any]], write: Callable[[IO[Any]], object]) -> None:
    if path.exists() and not path.is_file():
        raise BadFile(f"{str(path)!r} is not a regular file", "not_regular", path=str(path))
    temporary = _temporary(path)
    try:
        with create() as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        if error.filename is None or Path(error.filename) == temporary:  # name the file the user gave
            raise OSError(error.errno, error.strerror, str(path)) from None
        raise
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal (a closed, detached or fake stream is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
