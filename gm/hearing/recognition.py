"""The recogniser port: a loaded speech model (`Model`) gives recognisers (`Recogniser`) that
turn audio into final results (`Heard`). `UtteranceRecogniser` cuts the audio into utterances
(`gm.hearing.vad.cutter`: Silero's voice-activity detector, or the energy cutter
`gm.hearing.utterance.Cutter` without it), brings each to one level and hears it from a fresh state, so
the same words give the same result wherever they fall in the audio."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from gm.hearing.phrases import Heard, Phrasebook

if TYPE_CHECKING:
    from gm.hearing.vad import RoomLevel


_FAILED: list[str] = []


def _failed_once(error: Exception) -> None:
    """Say on stderr, once per process, that the recogniser failed on an utterance."""
    import sys

    if not _FAILED:
        _FAILED.append(type(error).__name__)
        print(f"gm: the listener failed on an answer ({type(error).__name__}: {str(error)[:200]}); "
              "such answers are taken as not heard", file=sys.stderr)


class Recogniser(Protocol):
    def accept(self, block: bytes) -> Heard | None:
        """Feed audio; a final result when an utterance has ended."""

    def finish(self) -> Heard:
        """The final result of whatever audio is left."""

    @property
    def under_way(self) -> bool:
        """Whether an utterance has begun and not ended: its result is still to come."""


class Model(Protocol):
    """A loaded speech model (vosk's `VoskModel`, pocketsphinx's `gm.hearing.sphinx.SphinxModel`)."""

    @property
    def path(self) -> Path: ...

    @property
    def unk(self) -> bool:
        """Whether it hears other speech as `[unk]`."""

    def hears(self, word: str) -> bool:
        """Whether `word` is in its vocabulary."""

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> Recogniser:
        """A recogniser for audio at `rate`, limited to `book`'s grammar where it holds phrases."""


class UtteranceRecogniser(ABC):
    """A recogniser port over a decoder of whole utterances: audio is cut into utterances
    (`gm.hearing.vad.cutter`), each brought to one level (`levelled`) and heard on its own (`hear`), from a
    fresh state. With a `book`, an answer (or counts said one after another in one breath) must
    survive `confirm` (a second decode without the grammar, where the model has one): otherwise
    its words count as heard unsure."""

    def __init__(self, rate: float, book: Phrasebook | None = None) -> None:
        from gm.hearing.vad import cutter

        self.rate = rate
        self.book = book
        self._cutter = cutter(rate)
        self._done: deque[bytes] = deque()

    def accept(self, block: bytes) -> Heard | None:
        self._done.extend(self._cutter.feed(block))
        return self._heard(self._done.popleft()) if self._done else None

    def in_room(self, room: RoomLevel) -> None:
        """Hear the room's level as `room` keeps it across questions (`gm.hearing.session.Listener`)."""
        from gm.hearing.vad import VadCutter

        if isinstance(self._cutter, VadCutter):
            self._cutter.room = room

    @property
    def under_way(self) -> bool:
        return self._cutter.under_way

    def finish(self) -> Heard:
        self._done.extend(self._cutter.flush())
        heard = [self._heard(u) for u in self._done]
        self._done.clear()
        return Heard(" ".join(h.text for h in heard if h.text), tuple(w for h in heard for w in h.words))

    def _heard(self, utterance: bytes) -> Heard:
        from gm.hearing.utterance import levelled

        audio = levelled(utterance, self.rate)
        try:
            heard = self.hear(audio)
        except Exception as error:  # a recogniser's failure is no answer: the night goes on
            _failed_once(error)
            return Heard("")
        if self.book is not None and heard.text and (self.book.match(heard) or self.book.match_run(heard)):
            second = self.confirm(audio)
            if second is not None and not self.agrees(heard.text, second):
                return Heard(heard.text, tuple((w, 0.0) for w, _ in heard.words))
        return heard

    def agrees(self, heard: str, second: str) -> bool:
        """Whether the second decode holds every word of what the grammar heard."""
        return set(heard.split()) <= set(second.split())

    @abstractmethod
    def hear(self, audio: bytes) -> Heard:
        """What one utterance says, heard from a fresh state."""

    def confirm(self, audio: bytes) -> str | None:
        """What the utterance says without the grammar; None where there is no second decode."""
        return None
