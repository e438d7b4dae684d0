"""The room's steady noise taken out of what a listener hears: WebRTC's noise suppression
(`webrtc-noise-gain`, the suppressor of Home Assistant's voice pipeline) over the microphone's
whole stream, which `Denoised` gives on once the room is noisy (the suppressor hears 16 kHz: a
microphone at another rate is resampled to it and back as it streams, by soxr). The suppressor
learns the room's noise from the stream itself, so it runs from the first block to the last,
across the night's questions, before utterances are cut.

Only a listener whose model asks for it hears the stream so (`Model.denoised`): pocketsphinx's
2010-era acoustic model, trained on quiet speech, heard a held-out table's answers over pink
noise 5 dB below them 4 of 40 times, and 24 of 40 denoised (a step's "done" 0 → 5 of 6; clean and
pink 15 dB alike; bench/noisy_answers_bench.py, seed 4404). Whisper, trained on noisy speech,
hears the room as it is: denoised, it took more answers in loud noise (pink 5 dB 18 → 22 of 40)
but fewer at 15 dB (29 → 26), more wrong ones (at 5 dB 2 → 3, two of them counts) and more of
other people's chatter alone as a read-back's yes (1 → 3 of 24 stretches of it).

webrtc-noise-gain, soxr and numpy are imported inside functions only (slow to import for `gm --help`).
"""

from __future__ import annotations

import functools
from typing import Any

from gm.hearing.cannot_listen import NoSuppressor
from gm.hearing.sources import Source

RATE = 16000  # the suppressor hears 16 kHz audio...
FRAME = 2 * RATE // 100  # ...in 10 ms frames of 16-bit samples (bytes)
LEVEL = 2
"""How hard the suppressor works (0–4). pocketsphinx's answers over pink noise 5 dB below them,
the suppressor on from the start: 6 of 40 without it; 12 at level 1, 23 at 2, 22 at 3 (which
lost pink 15 dB: 30 → 6); bench/noisy_answers_bench.py, seed 4404."""
PRIMER_FRAMES = 50
"""Frames of silence the suppressor hears first. It takes its first half second for the room's
noise: a recording that begins with speech ("two" at once) lost that speech to it, and
pocketsphinx heard "zero". From silence it learns the room's noise as the room makes it."""
NOISY_FRAMES = 100
"""Frames in a row (1 s) at `gm.hearing.vad.NOISY_ROOM_DB` or above from which the room is noisy
(and stays so for the night): a room with noise of its own never falls that quiet, while a
quiet room's pauses and a recording's digital silence do."""
INSTALL = 'pip install "webrtc-noise-gain>=1.2" "soxr>=0.3"'


def load_processor() -> Any:
    """A fresh suppressor (its own noise estimate), or NoSuppressor naming the packages to install."""
    try:
        import soxr  # noqa: F401  (a microphone at another rate is resampled by it)
        from webrtc_noise_gain import AudioProcessor

        return AudioProcessor(0, LEVEL)
    except Exception as error:  # an ImportError, a missing shared library
        raise NoSuppressor(f"the noise suppressor webrtc-noise-gain cannot be loaded ({error}); the room's "
                           f"noise is heard as it is ({INSTALL})", how=INSTALL, detail=str(error)) from error


@functools.lru_cache(maxsize=1)
def unavailable() -> NoSuppressor | None:
    """Why the suppressor cannot be loaded (tried once per process), or None when it can."""
    try:
        load_processor()
    except NoSuppressor as error:
        return error
    return None


def denoised(source: Source) -> Source:
    """`source` heard with the room's steady noise taken out (`Denoised`), or as it is where the
    suppressor cannot be loaded (`unavailable` says why)."""
    if unavailable() is not None:
        return source
    return Denoised(source)


class Denoised:
    """A live source with the room's steady noise taken out, once the room is noisy (`noisy`):
    each block read from `source` is brought to RATE (where its rate differs), suppressed 10 ms
    at a time and brought back to the source's rate; what is left of a frame waits for the next
    block. Until the room is noisy the source's own blocks are given (the suppressor hears
    them all the same), so a quiet room is heard exactly as recorded: in digital silence the
    suppressor and resampling only changed what pocketsphinx made of clean speech, and a
    table's "sure" became a count of two."""

    def __init__(self, source: Source, processor: Any = None) -> None:
        self.source = source
        self.rate = source.rate
        self.noisy = False
        self._steady = 0  # frames in a row at NOISY_ROOM_DB or above
        self._processor = processor if processor is not None else load_processor()
        for _ in range(PRIMER_FRAMES):
            self._processor.Process10ms(bytes(FRAME))
        self._down: Any = None
        self._up: Any = None
        if source.rate != RATE:
            import soxr

            # in float: soxr dithers what it gives as 16-bit samples, a little differently each time
            self._down = soxr.ResampleStream(source.rate, RATE, 1, dtype="float32")
            self._up = soxr.ResampleStream(RATE, source.rate, 1, dtype="float32")
        self._rest = b""

    @property
    def ended(self) -> bool:
        return self.source.ended

    def read(self, timeout: float) -> bytes | None:
        """The next block: denoised in a noisy room, else as the source gave it."""
        block = self.source.read(timeout)
        if block is None:
            return None
        cleaned = self._resampled(self._up, self._suppressed(self._resampled(self._down, block)))
        return cleaned if self.noisy else block

    def drain(self) -> None:
        """Drop audio that arrived before now (the suppressor keeps what it learnt of the room)."""
        self.source.drain()

    def close(self) -> None:
        self.source.close()

    def _resampled(self, resampler: Any, audio: bytes) -> bytes:
        if resampler is None:
            return audio
        import numpy as np

        samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2").astype(np.float32)
        resampled = resampler.resample_chunk(samples, last=self.source.ended)
        at_rate: bytes = np.clip(np.round(resampled), -32768, 32767).astype("<i2").tobytes()
        return at_rate

    def _suppressed(self, audio: bytes) -> bytes:
        from gm.hearing.vad import NOISY_ROOM_DB, chunk_level

        audio = self._rest + audio
        whole = len(audio) // FRAME * FRAME
        self._rest = audio[whole:]
        cleaned = []
        for at in range(0, whole, FRAME):
            frame = audio[at:at + FRAME]
            self._steady = self._steady + 1 if chunk_level(frame) >= NOISY_ROOM_DB else 0
            self.noisy = self.noisy or self._steady >= NOISY_FRAMES
            cleaned.append(self._processor.Process10ms(frame).audio)
        return b"".join(cleaned)
