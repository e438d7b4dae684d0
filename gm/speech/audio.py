"""Rendered speech in memory: 16-bit mono samples at the engine's rate; reading and writing files.

pyttsx3's drivers write WAV (espeak-ng, SAPI5) or AIFF (NSSS on macOS), whatever the file name
says; `read_audio` takes either.
"""

from __future__ import annotations

import array
import math
import struct
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorer.values import Refusal


class BadAudio(Refusal):
    """A file that is not 16-bit PCM WAV or AIFF."""


@dataclass(frozen=True)
class Audio:
    """Mono signed 16-bit little-endian samples."""

    rate: int
    samples: bytes

    @property
    def frames(self) -> int:
        return len(self.samples) // 2

    @property
    def seconds(self) -> float:
        return self.frames / self.rate if self.rate else 0.0

    def head(self, seconds: float) -> Audio:
        """The first `seconds` of this audio (what was heard before a cut)."""
        frames = max(0, min(self.frames, int(seconds * self.rate)))
        return Audio(self.rate, self.samples[: frames * 2])


def _mono16(raw: bytes, channels: int, width: int, big_endian: bool) -> bytes:
    if width != 2:
        raise BadAudio(f"expected 16-bit samples, got {8 * width}-bit")
    if big_endian:
        swapped = array.array("h", raw[: len(raw) // 2 * 2])
        swapped.byteswap()
        raw = swapped.tobytes()
    if channels == 1:
        return raw
    values = struct.unpack(f"<{len(raw) // 2}h", raw[: len(raw) // 2 * 2])
    mixed = [sum(values[i: i + channels]) // channels for i in range(0, len(values) - channels + 1, channels)]
    return struct.pack(f"<{len(mixed)}h", *mixed)


def _extended(data: bytes) -> float:
    """An 80-bit IEEE extended float (AIFF sample rates)."""
    exponent, mantissa = struct.unpack(">HQ", data[:10])
    sign = -1 if exponent & 0x8000 else 1
    exponent &= 0x7FFF
    return 0.0 if exponent == 0 and mantissa == 0 else sign * math.ldexp(mantissa, exponent - 16383 - 63)


def _read_aiff(data: bytes, path: Path) -> Audio:
    channels = width = rate = 0
    little = False
    raw = b""
    pos = 12
    while pos + 8 <= len(data):
        chunk, size = data[pos: pos + 4], struct.unpack(">I", data[pos + 4: pos + 8])[0]
        body = data[pos + 8: pos + 8 + size]
        if chunk == b"COMM":
            channels, _, bits = struct.unpack(">hIh", body[:8])
            width, rate = (bits + 7) // 8, int(_extended(body[8:18]))
            compression = body[18:22] if data[8:12] == b"AIFC" else b"NONE"
            if compression not in (b"NONE", b"sowt"):
                raise BadAudio(f"{path}: compressed AIFF ({compression.decode('latin-1')}) is not supported")
            little = compression == b"sowt"
        elif chunk == b"SSND":
            offset = struct.unpack(">I", body[:4])[0]
            raw = body[8 + offset:]
        pos += 8 + size + (size & 1)
    if not rate:
        raise BadAudio(f"{path}: AIFF file without a COMM chunk")
    return Audio(rate, _mono16(raw, channels, width, big_endian=not little))


def read_audio(path: Path) -> Audio:
    """The speech in a WAV or AIFF file as 16-bit mono."""
    path = Path(path)
    data = path.read_bytes()
    if data[:4] == b"FORM" and data[8:12] in (b"AIFF", b"AIFC"):
        return _read_aiff(data, path)
    try:
        with wave.open(str(path), "rb") as wav:
            raw = wav.readframes(wav.getnframes())
            return Audio(wav.getframerate(), _mono16(raw, wav.getnchannels(), wav.getsampwidth(), False))
    except (wave.Error, EOFError) as error:
        raise BadAudio(f"{path}: not a WAV or AIFF file ({error})") from None


def write_wav(path: Path, audio: Audio) -> None:
    """Write `audio` as a 16-bit mono WAV file, whole or not at all (never into a FIFO or a device)."""
    import io

    from gm.files import write_new_bytes

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(audio.rate)
        wav.writeframes(audio.samples)
    write_new_bytes(path, buffer.getvalue())


@dataclass(frozen=True)
class Samples:
    """Rendered speech before it is made 16-bit: float samples (a numpy array) on the 16-bit scale,
    which may pass it (Open JTalk's do); gm.speech.loudness makes them Audio without clipping."""

    rate: int
    values: Any


def joined(parts: list[Audio]) -> Audio:
    """One Audio of `parts` played one after the other (all at the first part's rate)."""
    return Audio(parts[0].rate if parts else 22050, b"".join(p.samples for p in parts))
