"""The discussion timer: spoken warnings and a countdown scheduled against the end time.

Cue times are computed from the start (`end = start + seconds`), never from accumulated
sleeps, so nothing drifts. Commands (from the keyboard or the voice) pause, resume, add
time, end the discussion or repeat the last line. Ctrl-C pauses and asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol
from collections.abc import Callable

from gm.ports import Clock, Command, Controls, Line
from scorer.values import Named

WARNINGS = (120, 60, 30)
COUNTDOWN = 10
ADD_SECONDS = 30
TICK = 0.25
_TIME_UP = "time up"  # what a tick returns when the time has run out
_STAY_PAUSED = "stay paused"  # the answer to Ctrl-C that neither resumes nor ends
# Lines that only acknowledge a command: `repeat` never says them again, it says the instruction
# (the day's line, or the time left) they followed.
ACKNOWLEDGEMENTS = frozenset({"werewolf.timer.paused", "werewolf.timer.resumed", "werewolf.timer.added",
                              "werewolf.timer.ended"})
_TIME_CUES = frozenset({"werewolf.timer.left", "werewolf.timer.count"})


class TimerDisplay(Protocol):
    def show(self, remaining: float, paused: bool, added: int = 0) -> None:
        """The time left, whether it is paused, and the seconds added to the discussion so far."""


    def close(self) -> None: ...


class NoDisplay:
    """Shows nothing: the spoken and printed cues are the timer (no terminal, or tests)."""

    def show(self, remaining: float, paused: bool, added: int = 0) -> None:
        """The time is not drawn."""

    def close(self) -> None:
        """Nothing to release."""


def cue_marks(seconds: float) -> list[int]:
    """Remaining-time marks (in seconds) at which a line is said, largest first."""
    marks = [w for w in WARNINGS if w < seconds]
    marks += [n for n in range(COUNTDOWN, 0, -1) if n < seconds and n not in marks]
    return sorted(marks, reverse=True)


class Ended(Named):
    """How a discussion ended: its time ran out, or the players ended it to vote."""

    TIME_UP = "time_up"
    ENDED = "ended"


@dataclass
class DiscussionResult:
    """How the discussion went; times in clock seconds."""

    how: Ended
    started: float
    ended: float
    added: int = 0
    pauses: int = 0


class Discussion:
    """Runs one timed discussion through the ports."""

    def __init__(self, seconds: int, clock: Clock, say: Callable[[Line], object],
                 line: Callable[..., Line], controls: Controls | None = None,
                 display: TimerDisplay | None = None,
                 on_interrupt: Callable[[], str] | None = None) -> None:
        self.seconds = seconds
        self.clock = clock
        self._say = say
        self._line = line
        self.controls = controls
        self.display = display or NoDisplay()
        self.on_interrupt = on_interrupt
        self.last: Line | None = None

    def say(self, line: Line) -> None:
        if line.key not in ACKNOWLEDGEMENTS:
            self.last = line
        self._say(line)

    def _repeat(self) -> None:
        """Say the last instruction again, its time as it is now: a time cue becomes the time
        left, the day's line says the time left instead of the whole discussion's."""
        if self.last is None:
            return
        left = self._paused_left if self._paused_left is not None else self._end - self.clock.now()
        secs = max(1, int(left + 0.999))
        if self.last.key in _TIME_CUES:
            self._say(self._line("werewolf.timer.left", secs=secs))
        elif "secs" in self.last.fields:
            self._say(self._line(self.last.key, **{**self.last.fields, "secs": secs}))
        else:
            self._say(self.last)

    def _cue_line(self, mark: int) -> Line:
        if mark > COUNTDOWN:
            return self._line("werewolf.timer.left", secs=mark)
        return self._line("werewolf.timer.count", n=mark)

    def run(self) -> DiscussionResult:
        """Time the discussion. Ctrl-C at any moment of it (a cue being said, the panel being
        drawn, a key awaited) pauses the time and asks; it never ends the night by itself."""
        start = self.clock.now()
        self._end = start + self.seconds
        self._paused_left: float | None = None
        self._marks = cue_marks(self.seconds)
        result = self._result = DiscussionResult(Ended.TIME_UP, start, start)
        pending: str | None = None
        while True:
            try:
                command = pending if pending is not None else self._tick()
                pending = None
                if command is _TIME_UP or self._apply(command, result):
                    break
            except KeyboardInterrupt:
                if self._paused_left is None:
                    self._paused_left = self._end - self.clock.now()
                    result.pauses += 1
                pending = self._interrupted() or _STAY_PAUSED
        self._release()
        result.ended = self.clock.now()
        return result

    def _tick(self) -> str | None:
        """Say what cue is due, draw the time, and wait for a command (or _TIME_UP)."""
        remaining = self._paused_left if self._paused_left is not None else self._end - self.clock.now()
        if self._paused_left is None:
            due = [m for m in self._marks if m >= remaining]
            if due:
                self._marks = [m for m in self._marks if m < remaining]
                self.say(self._cue_line(min(due)))  # only the latest cue when several passed at once
            if remaining <= 0:
                self.say(self._line("werewolf.timer.up", urgent=True))
                return _TIME_UP
        self.display.show(max(0.0, remaining), self._paused_left is not None, self._result.added)
        wait = TICK if self._paused_left is not None else _next_wait(remaining, self._marks)
        return self.controls.poll(wait) if self.controls else self._sleep(wait)

    def _apply(self, command: str | None, result: DiscussionResult) -> bool:
        """Carry out a command; True when it ends the discussion."""
        paused = self._paused_left is not None
        if command == Command.TOGGLE:
            command = Command.RESUME if paused else Command.PAUSE
        if command == Command.PAUSE and not paused:
            self._paused_left = self._end - self.clock.now()
            result.pauses += 1
            self.say(self._line("werewolf.timer.paused"))
        elif command == Command.RESUME and self._paused_left is not None:
            self._end = self.clock.now() + self._paused_left
            self._paused_left = None
            self.say(self._line("werewolf.timer.resumed"))
        elif command in (Command.ADD, Command.ADD_MINUTE):
            extra = ADD_SECONDS if command == Command.ADD else 60
            result.added += extra
            if self._paused_left is not None:
                self._paused_left += extra
            else:
                self._end += extra
            left = self._paused_left if self._paused_left is not None else self._end - self.clock.now()
            self._marks = [m for m in cue_marks(self.seconds + result.added) if m < left]
            self.say(self._line("werewolf.timer.added", secs=extra))
        elif command == Command.END:
            result.how = Ended.ENDED
            self.say(self._line("werewolf.timer.ended"))
            return True
        elif command == Command.REPEAT:
            self._repeat()
        return False

    def _sleep(self, seconds: float) -> str | None:
        """Without controls the time just passes: no command."""
        self.clock.sleep(seconds)
        return None

    def _interrupted(self) -> str | None:
        """Ctrl-C has paused the timer: ask whether to resume or vote now (or stay paused)."""
        if self.on_interrupt is None:
            return None
        self._release()
        return {"resume": Command.RESUME, "vote": Command.END}.get(self.on_interrupt())


    def _release(self) -> None:
        """Give the terminal back (display and raw keys) before anything else is asked."""
        self.display.close()
        if self.controls is not None:
            self.controls.release()


def _next_wait(remaining: float, marks: list[int]) -> float:
    """Sleep until the next cue or display tick, whichever comes first."""
    to_cue = remaining - (marks[0] if marks else 0)
    to_tick = remaining - (int(remaining / TICK) * TICK) or TICK
    return max(0.0, min(to_cue, to_tick))


