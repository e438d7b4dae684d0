"""Recorded audio: WAV files read and checked (`WavFile`, `read_wav`) and PCM played into a
listener as fast as it is read (`PcmSource`), standing in for a microphone in tests and replays."""

from __future__ import annotations

import os
import stat
import struct
import wave
from pathlib import Path
from collections.abc import Iterable, Iterator, Sequence

from scorer.values import Refusal
from gm.files import unusable
from gm.hearing.sources import BLOCK_SECONDS, MAX_RATE, MIN_RATE
from gm.ports import Clock

MAX_WAV_BYTES = 1 << 30


class BadWav(Refusal):
    """A WAV file that is not 16-bit PCM, mono or stereo, at 8–48 kHz (or not a WAV file); `key`
    (under the voice packs' `errors.wav`) and `fields` word it in every language. A file that
    cannot be opened at all is a BadFile (`errors.file`)."""

    prefix = "wav"


def not_wav(path: str | Path, why: str) -> BadWav:
    """`path` holds no WAV audio: `why` (the wave module's words) says what is wrong."""
    return BadWav(f"{path}: not a WAV file ({why})", "not_wav", path=str(path), reason=why)


class PcmSource:
    """Recorded audio played into the listener block by block, as fast as it is read: stands in
    for a microphone in tests and replays (--listen-from). `audio` is the 16-bit mono PCM itself,
    or its pieces one after the other (read only as they are reached: a WAV file is streamed)."""

    def __init__(self, rate: float, audio: bytes | Iterable[bytes], clock: Clock,
                 block: float = BLOCK_SECONDS) -> None:
        self.rate = rate
        self.clock = clock
        self.ended = False
        self._pieces = iter((audio,) if isinstance(audio, bytes) else audio)
        self._piece = b""
        self._step = 2 * max(1, int(block * rate))
        self._at = 0

    @classmethod
    def from_wavs(cls, paths: Sequence[str | Path], clock: Clock, gap: float = 0.0) -> PcmSource:
        """WAV files one after the other, with `gap` seconds of silence around each. Every file is
        checked now (BadWav before anything is heard) and read block by block as it is reached, as
        --listen-from reads its recording (`WavFile`): memory stays flat, however long the files."""
        rate = 0.0
        for path in paths:
            with WavFile(path) as wav:
                this = wav.rate
            if rate and this != rate:
                raise BadWav(f"{path}: {this:g} Hz, but the other files are {rate:g} Hz", "rates_differ",
                             path=str(path), this=f"{this:g}", rate=f"{rate:g}")
            rate = this
        if not paths:
            raise BadWav("no WAV file to listen to", "none")
        return cls(rate, _streamed(paths, bytes(2 * int(gap * rate))), clock)

    def read(self, timeout: float) -> bytes | None:
        block = b""
        while len(block) < self._step:
            if self._at >= len(self._piece):
                piece = next(self._pieces, None)
                if piece is None:
                    break
                self._piece, self._at = piece, 0
                continue
            taken = self._piece[self._at:self._at + self._step - len(block)]
            block += taken
            self._at += len(taken)
        if not block:
            self.ended = True
            self.clock.sleep(timeout)
            return None
        return block

    def drain(self) -> None:
        """Recorded audio holds no stale sound: its answers come in order."""

    def close(self) -> None:
        """Close the file being read, if any."""
        close = getattr(self._pieces, "close", None)
        if close is not None:
            close()


def _streamed(paths: Sequence[str | Path], silence: bytes) -> Iterator[bytes]:
    """The mono frames of each file in turn, `silence` around each, one block at a time."""
    yield silence
    for n, path in enumerate(paths):
        if n:
            yield silence
        with WavFile(path) as wav:
            yield from wav.blocks()
    yield silence


def read_wav(path: str | Path) -> tuple[float, bytes]:
    """(rate, 16-bit mono frames) of a WAV file: 16-bit PCM, mono or stereo (mixed down), at
    8–48 kHz, a regular file of at most 1 GB. Anything else is BadWav, before vosk sees it."""
    with WavFile(path) as wav:
        return wav.rate, b"".join(wav.blocks())


class WavFile:
    """A WAV file read block by block (`blocks`) or by stretches (`frames`) as 16-bit mono:
    16-bit PCM, mono or stereo (mixed down, a block at a time), at 8–48 kHz, a regular file of
    at most 1 GB. Anything else, a header that lies included, is BadWav before vosk sees it."""

    BLOCK_FRAMES = 1 << 16

    def __init__(self, path: str | Path) -> None:
        self.path = path
        try:
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode):
                raise BadWav(f"{path}: not a regular file", "not_regular", path=str(path))
            if info.st_size > MAX_WAV_BYTES:
                raise BadWav(f"{path}: larger than {MAX_WAV_BYTES >> 30} GB", "too_large", path=str(path),
                             gb=MAX_WAV_BYTES >> 30)
            self._wav = wave.open(str(path), "rb")
        except (wave.Error, EOFError, RuntimeError, struct.error, OverflowError) as error:
            raise not_wav(path, str(error) or "its header does not fit the file") from error
        except OSError as error:
            raise unusable(path, error) from error
        wav = self._wav
        self.channels, width, rate = wav.getnchannels(), wav.getsampwidth(), wav.getframerate()
        if wav.getcomptype() != "NONE" or width != 2 or self.channels not in (1, 2):
            self.close()
            raise BadWav(f"{path}: need 16-bit PCM, mono or stereo, got {self.channels} channel(s) of {8 * width} bits",
                         "format", path=str(path), channels=self.channels, bits=8 * width)
        if not MIN_RATE <= rate <= MAX_RATE:
            self.close()
            raise BadWav(f"{path}: a rate of {rate} Hz cannot be heard (need {MIN_RATE}–{MAX_RATE} Hz)", "rate",
                         path=str(path), rate=rate, low=MIN_RATE, high=MAX_RATE)
        self.rate = float(rate)
        self.length = min(wav.getnframes(), info.st_size // (width * self.channels))  # frames, as far as the file goes

    def __enter__(self) -> WavFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def blocks(self, start: int = 0, end: int | None = None) -> Iterator[bytes]:
        """The frames from `start` to `end` (the end of the file), mono, BLOCK_FRAMES at a time."""
        end = self.length if end is None else min(end, self.length)
        try:
            self._wav.setpos(max(0, min(start, self.length)))
            at = start
            while at < end:
                raw = self._wav.readframes(min(self.BLOCK_FRAMES, end - at))
                if not raw:
                    return
                at += self.BLOCK_FRAMES
                raw = raw[: len(raw) // (2 * self.channels) * 2 * self.channels]
                yield raw if self.channels == 1 else _mixed_down(raw)
        except (wave.Error, EOFError, RuntimeError, struct.error) as error:
            raise not_wav(self.path, str(error) or "its data cannot be read") from error
        except OSError as error:
            raise unusable(self.path, error) from error

    def frames(self, start: int, end: int) -> bytes:
        """The mono frames from `start` to `end`."""
        return b"".join(self.blocks(start, end))

    def close(self) -> None:
        self._wav.close()


def _mixed_down(stereo: bytes) -> bytes:
    import numpy

    pairs = numpy.frombuffer(stereo, dtype="<i2").reshape(-1, 2).astype(numpy.int32)
    mono: bytes = (pairs.sum(axis=1) // 2).astype("<i2").tobytes()
    return mono
