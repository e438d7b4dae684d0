"""Keyboard answers: typed at a prompt, or piped on stdin one answer per line. At every
question, in every language, `?` lists the answers and `r` says the question again (never a
name's prefix)."""

from __future__ import annotations

import os
import select
import sys
from typing import TextIO, TypeVar
from collections.abc import Callable

from gm.files import MAX_LINE, MAX_SKIP, is_terminal, print_line, printable, read_line
from gm.hearing.turns import TurnLog
from gm.ports import Answer, Clock, How, Line, Question, Refused, Turn, TurnKind
from gm.text.parse import fold

T = TypeVar("T")


TICK = 1.0  # clock seconds between redraws of a countdown
HELP = "?"  # lists the question's answers (？ too)
REPEAT = "r"  # says the question again (R, ｒ too)


class AnswersExhausted(EOFError):
    """Standard input ended while a question still needed an answer; `turns`: what was heard,
    typed and said while that question was asked (kept by whoever asked it, for the night log)."""

    turns: tuple[Turn, ...] = ()


class KeyboardAsker:
    """Reads answers from `stream`. A question with a timeout returns its default when no line
    arrives in time (or at end of input); an empty line picks the default where there is one.
    `say` says a question again at `r` (the night's speaker; else it is printed)."""

    def __init__(self, clock: Clock, stream: TextIO | None = None,
                 echo: Callable[[str], None] | None = None, say: Callable[[Line], None] | None = None) -> None:
        self.clock = clock
        self.stream = stream or sys.stdin
        self.echo = echo or print_line
        self.say = say or (lambda line: self.echo(line.text))
        self.interactive = is_terminal(self.stream)
        self._fd = _fileno(self.stream) if sys.platform != "win32" else None
        self._pending = b""
        self._open = False  # a prompt line is shown and not ended
        self._offered: Refused | None = None  # a "did you mean …?" waiting for its y

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
            if not self._ready(self._fd, deadline, tick):
                if deadline is not None and self.clock.now() < deadline:
                    continue
                return None
            if not self._gather(self._fd):
                break
        raw, _, self._pending = self._pending.partition(b"\n")
        return raw.decode("utf-8", "replace").rstrip("\r")

    def _ready(self, fd: int, deadline: float | None, tick: Callable[[float], None] | None) -> bool:
        """Whether input came on `fd` within a second (`tick`ed) or by the `deadline`."""
        left = None if deadline is None else max(0.0, deadline - self.clock.now())
        if left is not None and tick is not None:
            tick(left)
        wait = None if left is None else min(left, TICK if tick else left) * self.clock.scale
        ready, _, _ = select.select([fd], [], [], wait)
        return bool(ready)

    def _gather(self, fd: int) -> bool:
        """Add what came on `fd` to the pending input (an over-long line cut at MAX_LINE); False
        at its end with a last line unended; AnswersExhausted at its end with nothing pending."""
        chunk = os.read(fd, 4096)
        if not chunk:
            if self._pending:
                return False
            raise AnswersExhausted("standard input ended before the night did")
        self._pending += chunk
        if len(self._pending) > MAX_LINE and b"\n" not in self._pending:
            self._pending = self._pending[:MAX_LINE] + self._skip_to_line_end(fd)
        return True

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

    def discard_typed_ahead(self) -> None:
        """Forget what was typed before the question was asked (a terminal only: piped answers
        are meant for the questions to come)."""
        if not self.interactive or self._fd is None:
            return
        self._pending = b""
        import termios

        try:
            termios.tcflush(self._fd, termios.TCIFLUSH)
        except (termios.error, OSError, ValueError):
            pass  # not a terminal after all: nothing typed ahead to drop

    def prompt(self, question: Question[T], left: float | None = None) -> None:
        """The question's short tip at an interactive prompt; a question that goes on by itself
        shows its countdown (in the table's seconds), redrawn in place."""
        if self.interactive:
            shown = None if left is None else left * self.clock.scale
            print(f"\r\033[K  [{question.hint(shown)}] > ", end="", flush=True)
            self._open = True

    def end_prompt(self) -> None:
        """End a prompt line left open, so the next line is not printed onto it."""
        if self._open:
            print(flush=True)
            self._open = False

    def take(self, typed: str, question: Question[T], log: TurnLog) -> Answer[T] | None:
        """The answer a typed line gives (an empty line: the default; `?`: the choices listed;
        `r`: the question said again; y after "did you mean …?": the suggestion), or None after
        saying why not; the line and any refusal are kept in `log`, the asking session's."""
        if self.interactive:  # Enter ended the prompt line; a countdown redrawn since is wiped
            print("\r\033[K", end="", flush=True)
        else:
            self.echo(f"  > {printable(typed)}")
        self._open = False
        offered, self._offered = self._offered, None
        log.note(TurnKind.TYPED, printable(typed))
        if not typed.strip():
            return Answer(question.default, How.DEFAULT) if question.has_default else None
        if fold(typed) == HELP:
            self.echo("  " + question.choices().text)
            return None
        if fold(typed) == REPEAT:
            self.say(question.prompt)
            return None
        if offered is not None and offered.taken_by(typed):
            return Answer(offered.near)  # type: ignore[arg-type]  # the value the question itself offered
        value = question.parse(typed)
        if isinstance(value, Refused):
            log.note(TurnKind.REFUSED, value.line.text, value.line.key)
            self.echo("  ? " + value.line.text)
            self._offered = value if value.near is not None else None
            return None
        return Answer(value)

    def ask(self, question: Question[T]) -> Answer[T]:
        """The typed answer, with what was typed and refused on the way (`Answer.turns`)."""
        log = TurnLog(self.clock)
        return log.answered(self.answer(question, log))

    def answer(self, question: Question[T], log: TurnLog) -> Answer[T]:
        """The typed answer (the default on timeout); what was typed and refused on the way is
        kept in `log`, the asking session's."""
        self.discard_typed_ahead()
        self._offered = None
        while True:
            self.prompt(question)
            start = self.clock.now()
            tick = (lambda left: self.prompt(question, left)) if self.interactive else None
            try:
                typed = self.read_line(question.timeout, tick)
            except AnswersExhausted:
                if question.timeout is None or not question.has_default:
                    raise
                self.clock.sleep(question.timeout - (self.clock.now() - start))
                return Answer(question.default, How.DEFAULT)
            if typed is None:
                self.end_prompt()
                return Answer(question.default, How.DEFAULT)
            answer = self.take(typed, question, log)
            if answer is not None:
                return answer

    def close(self) -> None:
        """The keyboard stays as it was: nothing to let go of."""


def _fileno(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
