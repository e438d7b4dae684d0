"""How lines are delivered: the settings every speaking command shares."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpeechSettings:
    """How lines are delivered: `speech` is "on", "off" or "wav:DIR"."""

    lang: str = "en"
    speech: str = "on"
    voice: str | None = None
    rate: int | None = None
    volume: float | None = None
