"""Keyboard answers: typed at a prompt, or piped on stdin one answer per line."""

from __future__ import annotations

import math
import os
import select
import sys
from typing import TextIO
from collections.abc import Callable

from gm.files import MAX_LINE, MAX_SKIP, printable, read_line
from gm.hearing.answers import match_answer, nearest_answer
from gm.ports import Clock, Question


TICK = 1.0  # clock seconds between redraws of a countdown


class AnswersExhausted(EOFError):
    """Standard input ended while a question still needed an answer."""


class KeyboardAsker:
    """Reads answers from `stream`. A question with a timeout returns its default when no line
    arrives in time (or at end of input); an empty line picks the default where there is one."""

    def __init__(self, clock: Clock, stream: TextIO | None = None,
                 echo: Callable[[str], None] | None = None) -> None:
        self.clock = clock
        self.stream = stream or sys.stdin
        self.echo = echo or (lambda text: print(text, flush=True))
        self.interactive = _isatty(self.stream)
        self._fd = _fileno(self.stream) if sys.platform != "win32" else None
        self._pending = b""

    @property
    def pollable(self) -> bool:
        """Whether `read_line` can wait with a timeout (a real file descriptor, not Windows)."""
        return self._fd is not None

    def read_line(self, timeout: float | None, tick: Callable[[float], None] | None = None) -> str | None:
        """A line, or None on timeout; raises AnswersExhausted at end of input. With a timeout,
        `tick(seconds left)` is called about every second while nothing has come."""
        if self._fd is None:
            line = read_line(self.stream)
            if line == "":
                raise AnswersExhausted("standard input ended before the night did")
            return line.rstrip("\r\n")
        deadline = None if timeout is None else self.clock.now() + timeout
        while b"\n" not in self._pending:
            left = None if deadline is None else max(0.0, deadline - self.clock.now())
            if left is not None and tick is not None:
                tick(left)
            wait = None if left is None else min(left, TICK if tick else left) * self.clock.scale
            ready, _, _ = select.select([self._fd], [], [], wait)
            if not ready:
                if deadline is not None and self.clock.now() < deadline:
                    continue
                return None
            chunk = os.read(self._fd, 4096)
            if not chunk:
                if self._pending:
                    break
                raise AnswersExhausted("standard input ended before the night did")
            self._pending += chunk
            if len(self._pending) > MAX_LINE and b"\n" not in self._pending:
                self._pending = self._pending[:MAX_LINE] + self._skip_to_line_end(self._fd)
        raw, _, self._pending = self._pending.partition(b"\n")
        return raw.decode("utf-8", "replace").rstrip("\r")

    def _skip_to_line_end(self, fd: int) -> bytes:
        """Drop the rest of an over-long line: the newline and what follows it (memory stays bounded)."""
        skipped = 0
        while skipped < MAX_SKIP:
            chunk = os.read(fd, 4096)
            if not chunk:
                return b""
            end = chunk.find(b"\n")
            if end >= 0:
                return chunk[end:]
            skipped += len(chunk)
        raise AnswersExhausted("standard input holds a line with no end")

    def choices(self, question: Question) -> str:
        return " / ".join(question.label(a) for a in question.answers)

    def prompt(self, question: Question, left: float | None = None) -> None:
        """Show the choices at an interactive prompt; a step that goes on by itself shows its
        countdown, redrawn in place."""
        if self.interactive:
            countdown = "" if left is None else f" {math.ceil(left)} s"
            print(f"\r  [{self.choices(question)}]{countdown} > ", end="", flush=True)

    def take(self, typed: str, question: Question) -> str | None:
        """The answer a typed line gives (an empty line: the default), or None after saying why not."""
        if not self.interactive:
            self.echo(f"  > {printable(typed)}")  # a piped answer is echoed with its control characters escaped
        if not typed.strip() and question.default is not None:
            return question.default
        answer = match_answer(typed, question)
        if answer is None:
            near = nearest_answer(typed, question)
            hint = f" {question.label(near)}?" if near is not None else ""
            self.echo(f"  ? {typed!r} is not one of: {self.choices(question)}.{hint}")
        return answer

    def ask(self, question: Question) -> str:
        while True:
            self.prompt(question)
            start = self.clock.now()
            tick = (lambda left: self.prompt(question, left)) if self.interactive else None
            try:
                typed = self.read_line(question.timeout, tick)
            except AnswersExhausted:
                if question.timeout is None or question.default is None:
                    raise
                self.clock.sleep(question.timeout - (self.clock.now() - start))
                return question.default
            if typed is None:
                if self.interactive:
                    print()
                return question.default  # type: ignore[return-value]
            answer = self.take(typed, question)
            if answer is not None:
                return answer

    def close(self) -> None:
        """The keyboard stays as it was: nothing to let go of."""


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _fileno(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
