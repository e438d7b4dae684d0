"""Rendering Japanese with Open JTalk (`pyopenjtalk-plus`, the `gm[ja]` extra).

Open JTalk reads the printed text itself (kanji, particles, counters) with the dictionary and
the HTS voice inside the wheel: nothing is downloaded. Names are read as the players gave them
(健=けん): the caller substitutes readings before rendering. `--rate` maps to Open JTalk's
speed, 1.0 at the default rate.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import threading

from gm.speech.audio import Audio, from_floats
from gm.speech.settings import DEFAULT_RATE, SpeechSettings
from gm.speech.unavailable import SpeechUnavailable
from gm.speech.voices_found import FoundVoice, UnknownVoice

NAME = "openjtalk"
VOICE = FoundVoice("openjtalk", "Open JTalk (mei)", "ja-jp", engine=NAME)
_LOCK = threading.Lock()  # one synthesis at a time: the library keeps one Open JTalk instance


def available() -> bool:
    """True when pyopenjtalk (from pyopenjtalk-plus) is installed; nothing is imported to find out."""
    return importlib.util.find_spec("pyopenjtalk") is not None


def voices() -> list[FoundVoice]:
    return [VOICE] if available() else []


def _pyopenjtalk():
    try:
        # pyopenjtalk-plus prints a note about an optional ONNX model on stdout when imported.
        with contextlib.redirect_stdout(io.StringIO()):
            import pyopenjtalk
    except ImportError as error:
        raise SpeechUnavailable("voice.no_engine", str(error)) from None
    return pyopenjtalk


class Engine:
    """Renders Japanese text (kanji and all) at the settings' rate and volume."""

    reads_kanji = True

    def __init__(self, settings: SpeechSettings) -> None:
        if settings.voice not in (None, VOICE.id):
            raise UnknownVoice(f"no voice {settings.voice!r}: `gm voice list` shows the voices found")
        self.voice = VOICE
        self.settings = settings
        self._tts = _pyopenjtalk().tts

    def render(self, text: str) -> Audio:
        """The audio of `text`."""
        with _LOCK:
            samples, rate = self._tts(text, speed=self.settings.wpm / DEFAULT_RATE)
        return from_floats(samples, rate, self.settings.volume if self.settings.volume is not None else 1.0)

    def close(self) -> None:
        """The library keeps its one instance for the process."""
