"""Where gm's speaker plays rendered speech: a sound device or a folder of WAV files
(`gm.speech.player`: DevicePlayer, WavSink); tests pass their own."""

from __future__ import annotations

import threading
from typing import Protocol

from gm.speech.audio import Audio


class Sink(Protocol):
    """Where rendered speech is played: a sound device, or a folder of WAV files."""

    realtime: bool  # plays as it goes, so an urgent line can cut what is playing
    streams: bool  # takes a line in parts: the first plays while the next ones render

    def play(self, audio: Audio, key: str, cut: threading.Event) -> bool:
        """Play `audio` (the line `key`); False when `cut` stopped it early."""

    def close(self) -> None: ...
