"""A recording of the table replayed as a night's answers (--listen-from): the recording is
split into utterances at its silences, and each listening window takes the next utterance,
whatever the clock says. A long silence is a window in which nobody spoke.

The file is streamed: a first pass reads the level of each frame block by block, and each
window reads its own utterance when it comes. numpy is imported inside functions only (it is
slow to import for `gm --help`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm.hearing.recorded import PcmSource, WavFile
from gm.hearing.utterance import (FRAME_SECONDS, PAD_SECONDS, QUIET, SHORTEST_SECONDS, SPLIT_SECONDS,
                                  frame_levels, frame_samples, threshold)
from gm.ports import Clock

__all__ = ["FRAME_SECONDS", "QUIET", "SILENT_WINDOW_SECONDS", "Utterances", "split_utterances"]

SILENT_WINDOW_SECONDS = 2.5  # a silence this long is also a window in which nobody spoke


def split_utterances(audio: bytes, rate: float) -> list[tuple[int, int] | None]:
    """The utterances of 16-bit mono `audio` as (start, end) byte offsets, in order, with None
    for each long silence between them (a window in which nobody spoke). A frame is speech
    when it is four times louder than the quietest tenth of the recording (its noise floor)."""
    import numpy as np

    frame = frame_samples(rate)
    samples = np.frombuffer(audio[: len(audio) // (2 * frame) * 2 * frame], dtype="<i2")
    spans = _spans(frame_levels(samples.reshape(-1, frame)) if len(samples) else np.zeros(0))
    return [None if s is None else (2 * frame * s[0], 2 * frame * s[1]) for s in spans]


def _levels(wav: WavFile) -> Any:
    """The RMS level of every frame of `wav`, read block by block (float32, 4 bytes a frame)."""
    import numpy as np

    frame = frame_samples(wav.rate)
    levels, rest = [], b""
    for block in wav.blocks():
        audio = rest + block
        whole = len(audio) // (2 * frame) * 2 * frame
        rest = audio[whole:]
        if whole:
            levels.append(frame_levels(np.frombuffer(audio[:whole], dtype="<i2").reshape(-1, frame)))
    return np.concatenate(levels) if levels else np.zeros(0, dtype=np.float32)


def _spans(rms: Any) -> list[tuple[int, int] | None]:
    """Utterances as (start, end) frame indices, pads included, with None for each long silence."""
    import numpy as np

    count = len(rms)
    if count == 0:
        return []
    loud = rms > threshold(float(np.percentile(rms, 10)))
    runs: list[list[int]] = []
    for index in np.flatnonzero(loud):
        if runs and (index - runs[-1][1]) * FRAME_SECONDS < SPLIT_SECONDS:
            runs[-1][1] = index + 1
        else:
            runs.append([int(index), int(index) + 1])
    runs = [r for r in runs if (r[1] - r[0]) * FRAME_SECONDS >= SHORTEST_SECONDS]
    pad = int(PAD_SECONDS / FRAME_SECONDS)
    found: list[tuple[int, int] | None] = []
    last_end = 0
    for start, end in runs:
        if (start - last_end) * FRAME_SECONDS >= SILENT_WINDOW_SECONDS:
            found.append(None)
        found.append((max(0, start - pad), min(count, end + pad)))
        last_end = end
    return found


class Utterances:
    """A recording's utterances, one per listening window (`window`); a voice command's
    listener may look at the next one first (`peek`) and take it (`skip`) or leave it. The file
    is read block by block: only its frames' levels and one utterance at a time are held."""

    def __init__(self, rate: float, utterances: list[bytes], clock: Clock) -> None:
        self.rate = rate
        self.clock = clock
        self._given = utterances  # utterances in memory (a recording read from a file has none)
        self._spans: list[tuple[int, int] | None] = [None] * len(utterances)
        self._held: tuple[int, bytes] | None = None  # the one utterance read from the file
        self._wav: WavFile | None = None
        self._frame = 1
        self._next = 0

    @classmethod
    def from_wav(cls, path: str | Path, clock: Clock) -> Utterances:
        wav = WavFile(path)
        try:
            spans = _spans(_levels(wav))
        except BaseException:
            wav.close()
            raise
        recording = cls(wav.rate, [], clock)
        recording._wav, recording._frame, recording._spans = wav, frame_samples(wav.rate), spans
        return recording

    def _utterance(self, index: int) -> bytes:
        if self._wav is None:
            return self._given[index]
        if self._held is None or self._held[0] != index:
            span = self._spans[index]
            audio = b"" if span is None else self._wav.frames(self._frame * span[0], self._frame * span[1])
            self._held = (index, audio)
        return self._held[1]

    @property
    def ended(self) -> bool:
        """Every utterance has had its window."""
        return self._next >= len(self._spans)

    @property
    def position(self) -> int:
        """How many utterances have had their window."""
        return self._next

    def peek(self) -> PcmSource | None:
        """The next utterance as a source of its own, without taking it; None at the end."""
        return None if self.ended else PcmSource(self.rate, self._utterance(self._next), self.clock)

    def skip(self) -> None:
        """Take the next utterance (looked at with `peek`)."""
        self._next += 1

    def window(self) -> PcmSource:
        """The next utterance, taken, as a source that ends with it (at once when none is left)."""
        source = self.peek() or PcmSource(self.rate, b"", self.clock)
        self._next = min(self._next + 1, len(self._spans))
        return source

    def close(self) -> None:
        """Close the file."""
        if self._wav is not None:
            self._wav.close()
