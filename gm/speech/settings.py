"""How lines are delivered: the settings every speaking command shares."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.text.lines import Pack

DEFAULT_RATE = 150  # words per minute: the clearest pace the listener of bench/speech_bench.py found (130–180)


@dataclass(frozen=True)
class SpeechSettings:
    """How lines in `lang` are delivered: `speech` is "on", "off" or "wav:DIR"; `readings` maps names to how
    they are said."""

    lang: str
    speech: str = "on"
    voice: str | None = None
    rate: int | None = None
    volume: float | None = None
    readings: Mapping[str, str] = field(default_factory=dict, compare=False)
    known_lines: Pack | None = field(default=None, compare=False, repr=False)
    """The lines of `lang` where the command has looked its language up already (`of`)."""

    @classmethod
    def of(cls, lines: Pack, speech: str = "on", voice: str | None = None, rate: int | None = None,
           volume: float | None = None) -> SpeechSettings:
        """Settings that say `lines` (their language, their readings), the language not looked up again."""
        return cls(lines.lang, speech, voice, rate, volume, lines.readings, known_lines=lines)

    @functools.cached_property
    def lines(self) -> Pack:
        """The lines of `lang` with the `readings`: those the settings were made `of`, else looked up once."""
        if self.known_lines is not None:
            return self.known_lines
        from gm.text.lines import Pack

        return Pack(self.lang, self.readings)

    @property
    def wpm(self) -> int:
        """The speaking rate in words per minute (--rate, or the default)."""
        return self.rate if self.rate is not None else DEFAULT_RATE
