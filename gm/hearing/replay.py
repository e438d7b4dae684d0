"""A recording of the table replayed as a night's answers (--listen-from): the recording is
split into utterances at its silences, and each listening window takes the next utterance,
whatever the clock says. A long silence is a window in which nobody spoke.

numpy is imported inside functions only (it is slow to import for `gm --help`).
"""

from __future__ import annotations

from pathlib import Path

from gm.hearing.listener import PcmSource, read_wav
from gm.ports import Clock

FRAME_SECONDS = 0.02  # the loudness of the audio is looked at in frames this long
SPLIT_SECONDS = 0.5  # a silence this long ends an utterance
SILENT_WINDOW_SECONDS = 2.5  # a silence this long is also a window in which nobody spoke
SHORTEST_SECONDS = 0.1  # louder stretches shorter than this are clicks, not speech
PAD_SECONDS = 0.25  # audio kept on either side of an utterance
QUIET = 150.0  # a frame below this RMS level (of 32768) is silence, however quiet the room


def split_utterances(audio: bytes, rate: float) -> list[tuple[int, int] | None]:
    """The utterances of 16-bit mono `audio` as (start, end) byte offsets, in order, with None
    for each long silence between them (a window in which nobody spoke). A frame is speech
    when it is four times louder than the quietest tenth of the recording (its noise floor)."""
    import numpy as np

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2").astype(np.float64)
    frame = max(1, int(FRAME_SECONDS * rate))
    count = len(samples) // frame
    if count == 0:
        return []
    rms = np.sqrt((samples[: count * frame].reshape(count, frame) ** 2).mean(axis=1))
    loud = rms > max(QUIET, 4.0 * float(np.percentile(rms, 10)))
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
        found.append((2 * frame * max(0, start - pad), 2 * frame * min(count, end + pad)))
        last_end = end
    return found


class Utterances:
    """A recording's utterances, one per listening window (`window`); a voice command's
    listener may look at the next one first (`peek`) and take it (`skip`) or leave it."""

    def __init__(self, rate: float, utterances: list[bytes], clock: Clock) -> None:
        self.rate = rate
        self.clock = clock
        self._utterances = utterances
        self._next = 0

    @classmethod
    def from_wav(cls, path: str | Path, clock: Clock) -> Utterances:
        rate, audio = read_wav(path)
        parts = split_utterances(audio, rate)
        return cls(rate, [b"" if part is None else audio[part[0]:part[1]] for part in parts], clock)

    @property
    def ended(self) -> bool:
        """Every utterance has had its window."""
        return self._next >= len(self._utterances)

    @property
    def position(self) -> int:
        """How many utterances have had their window."""
        return self._next

    def peek(self) -> PcmSource | None:
        """The next utterance as a source of its own, without taking it; None at the end."""
        return None if self.ended else PcmSource(self.rate, self._utterances[self._next], self.clock)

    def skip(self) -> None:
        """Take the next utterance (looked at with `peek`)."""
        self._next += 1

    def window(self) -> PcmSource:
        """The next utterance, taken, as a source that ends with it (at once when none is left)."""
        source = self.peek() or PcmSource(self.rate, b"", self.clock)
        self._next = min(self._next + 1, len(self._utterances))
        return source

    def close(self) -> None:
        """Nothing to release: the audio is in memory."""
