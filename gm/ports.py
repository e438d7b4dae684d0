"""The ports a game runner talks through: something that speaks, something that asks, a clock,
timer controls, and the sink rendered speech is played into.

Implementations live at the edges (printing, speech, keyboard, microphone); tests pass fakes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol
from collections.abc import Mapping

from scorer.named import Named

if TYPE_CHECKING:
    from gm.speech.audio import Audio


@dataclass(frozen=True)
class Line:
    """One thing the game master says: printed as `text`, spoken as `spoken`."""

    key: str
    text: str
    spoken: str
    urgent: bool = False
    fields: Mapping[str, object] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Question:
    """A question with a closed set of answers.

    `answers` are canonical values (player names, "graveyard", "0".."6", "yes"/"no", card ids);
    `labels` maps an answer to how it is printed and said in the current language.
    With a `timeout` (clock seconds) the asker returns `default` when nobody answers in time.
    An answer heard by voice is read back for a "yes" unless `readback` is False (a question
    that is itself a read-back, like the whole vote's tally).
    """

    key: str
    prompt: Line
    answers: tuple[str, ...]
    labels: Mapping[str, str] = field(default_factory=dict)
    default: str | None = None
    timeout: float | None = None
    readback: bool = True

    def label(self, answer: str) -> str:
        return self.labels.get(answer, answer)


class Speaker(Protocol):
    """Prints and (where it can) speaks lines; never blocks the caller for long."""

    def say(self, line: Line) -> None: ...

    def flush(self) -> None:
        """Wait until every queued line has been delivered."""

    def close(self) -> None: ...


class Asker(Protocol):
    def ask(self, question: Question) -> str:
        """Return one of `question.answers` (or `question.default` on timeout)."""

    def close(self) -> None:
        """Stop listening and let go of the microphone or model (nothing for a keyboard)."""


class Clock(Protocol):
    """Monotonic game time in seconds; `scale` is real seconds per game second."""

    scale: float

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class Command(Named):
    """A command during a timed phase, typed (keys) or said (the wake phrase and a command)."""

    PAUSE = "pause"
    RESUME = "resume"
    TOGGLE = "toggle"  # pause or resume, whichever applies
    ADD = "add"  # 30 more seconds
    ADD_MINUTE = "add_minute"  # one more minute
    END = "end"  # vote now
    REPEAT = "repeat"  # say the last line again


class Controls(Protocol):
    """Commands during a timed phase."""

    def poll(self, timeout: float) -> Command | None:
        """Wait up to `timeout` clock seconds for a command; None when none came."""

    def release(self) -> None:
        """Give the terminal back (raw keys off) before anything else is asked."""


class Sink(Protocol):
    """Where rendered speech is played: a sound device, or a folder of WAV files."""

    realtime: bool  # plays as it goes, so an urgent line can cut what is playing

    def play(self, audio: Audio, key: str, cut: threading.Event) -> bool:
        """Play `audio` (the line `key`); False when `cut` stopped it early."""

    def close(self) -> None: ...
