"""How lines are delivered: the settings every speaking command shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping

DEFAULT_RATE = 150  # words per minute: the clearest pace the listener of bench/speech_bench.py found (130–180)


@dataclass(frozen=True)
class SpeechSettings:
    """How lines are delivered: `speech` is "on", "off" or "wav:DIR"; `readings` maps names to how they are said."""

    lang: str = "en"
    speech: str = "on"
    voice: str | None = None
    rate: int | None = None
    volume: float | None = None
    readings: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def wpm(self) -> int:
        """The speaking rate in words per minute (--rate, or the default)."""
        return self.rate if self.rate is not None else DEFAULT_RATE
