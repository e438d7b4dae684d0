"""Rendering Japanese with Open JTalk (`pyopenjtalk-plus`, the `gm-card-nights[ja]` extra).

Open JTalk reads the printed text itself (kanji, particles, counters) with the dictionary and
the HTS voice inside the wheel: nothing is downloaded. Names are read as the players gave them
(健=けん): the caller substitutes readings before rendering. `--rate` maps to Open JTalk's
speed, 1.0 at the default rate. The samples are given as floats (Samples): the voice's peaks
pass the 16-bit full scale, and gm.speech.loudness limits them.

`warm_up` loads the HTS voice before the first line (a speaker does it when it is made), and
`render_parts` gives a line's sentences in parts cut at their phrases, the first as soon as it
is rendered (gm.speech.engines.openjtalk_parts).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from gm.speech.audio import Samples
from gm.speech.settings import DEFAULT_RATE, SpeechSettings
from gm.speech.unavailable import SpeechUnavailable
from gm.speech.voices_found import FoundVoice, UnknownVoice

NAME = "openjtalk"
VOICE = FoundVoice("openjtalk", "Open JTalk (mei)", "ja-jp", engine=NAME)
_LOCK = threading.Lock()  # one synthesis at a time: the library keeps one Open JTalk instance
_warm = False  # True once the library has rendered something in this process


def available() -> bool:
    """True when pyopenjtalk (from pyopenjtalk-plus) is installed; nothing is imported to find out."""
    return importlib.util.find_spec("pyopenjtalk") is not None


def voices() -> list[FoundVoice]:
    return [VOICE] if available() else []


def _pyopenjtalk() -> Any:
    try:
        # pyopenjtalk-plus prints a note about an optional ONNX model on stdout when imported.
        with contextlib.redirect_stdout(io.StringIO()):
            import pyopenjtalk
    except ImportError as error:
        raise SpeechUnavailable("voice.no_engine", str(error)) from None
    return pyopenjtalk


def reading(text: str) -> str | None:
    """How Open JTalk reads `text`, in katakana (占い師 and 裏無い師 both ウラナイシ); None where
    it is not installed."""
    if not available():
        return None
    library = _pyopenjtalk()
    with _LOCK:
        return str(library.g2p(text, kana=True))


class Engine:
    """Renders Japanese text (kanji and all) at the settings' rate."""

    reads_kanji = True

    def __init__(self, settings: SpeechSettings) -> None:
        if settings.voice not in (None, VOICE.id):
            raise UnknownVoice(f"no voice {settings.voice!r}: `gm voice list` shows the voices found")
        self.voice = VOICE
        self.settings = settings
        self._library = _pyopenjtalk()
        self._speed = settings.wpm / DEFAULT_RATE
        self._rate = 48000

    def warm_up(self) -> None:
        """Render one mora, once per process, so that loading the voice does not delay the first line."""
        global _warm
        with _LOCK:
            if _warm:
                return
            _warm = True
        self._synthesize(self._labels("あ"))

    def _labels(self, text: str) -> list[str]:
        with _LOCK:
            return list(self._library.extract_fullcontext(text))

    def _synthesize(self, labels: Sequence[str]) -> Any:
        """The samples of `labels` (floats on the 16-bit scale)."""
        with _LOCK:
            samples, self._rate = self._library.synthesize(list(labels), self._speed)
        return samples

    def render(self, text: str) -> Samples:
        """The samples of `text`."""
        return Samples(self._rate, self._synthesize(self._labels(text)))

    def render_parts(self, sentences: Sequence[str]) -> Iterator[Samples]:
        """The samples of the line `sentences` in parts played one after the other, each as soon as
        it is rendered: Open JTalk reads each sentence whole, the voice renders it phrase by phrase,
        a later sentence in fewer parts (or one) since it renders while the ones before play."""
        from gm.speech.engines.openjtalk_parts import rendered_parts

        ahead = 0
        for sentence in sentences:
            labels = self._labels(sentence)
            for samples in rendered_parts(labels, self._synthesize, ahead):
                yield Samples(self._rate, samples)
            ahead += len(labels)

    def close(self) -> None:
        """The library keeps its one instance for the process."""
