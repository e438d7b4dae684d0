"""Speakers: print every line, and speak it where the machine can (see gm.speech)."""

from __future__ import annotations

import math
from collections.abc import Callable

from gm.speech.settings import SpeechSettings
from gm.ports import Line, Speaker
from scorer.values import Refusal
from gm.files import print_line


class PrintSpeaker:
    """Prints each line's text; the speaker used when speech is off or unavailable.

    Like the speaking speaker it has `speaking` (always False here) and `last_spoken_end`
    (monotonic time audio last stopped; -inf: never), which a listener reads.
    """

    speaking = False
    last_spoken_end = -math.inf

    def __init__(self, echo: Callable[[str], None] | None = None) -> None:
        self._echo = echo or _stdout

    def say(self, line: Line) -> None:
        self._echo(line.text)

    def flush(self) -> None:
        """Printing is done at once: nothing waits."""

    def hush(self) -> None:
        """Nothing is spoken."""

    def close(self) -> None:
        """Nothing to release."""


def _stdout(text: str) -> None:
    print_line(text)


class BadSpeech(Refusal):
    """A --speech value that is not on, off or wav:DIR (`errors.voice.speech_mode` words it)."""

    prefix = "voice"


def open_speaker(settings: SpeechSettings, echo: Callable[[str], None] | None = None) -> Speaker:
    """The speaker for `settings`; falls back to printing (with one note) when speech is unavailable."""
    spec = settings.speech
    if spec == "off":
        return PrintSpeaker(echo)
    if spec == "on" or spec.startswith("wav:"):
        from gm.speech.output import open_speech_speaker

        return open_speech_speaker(settings, PrintSpeaker(echo))
    raise BadSpeech(f"--speech must be on, off or wav:DIR, not {spec!r}", "speech_mode", spec=spec)
