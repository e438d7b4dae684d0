"""Audio reaches pocketsphinx at 16 kHz band-limited: what a 48 kHz microphone hears above 8 kHz
is dropped, not folded into the speech band (bench/resample_bench.py), and speech keeps its level."""

import numpy as np
import pytest

from gm.hearing import sphinx


def tone(hz: float, rate: int, seconds: float = 0.5, level: float = 8000.0) -> bytes:
    t = np.arange(int(rate * seconds)) / rate
    return np.round(level * np.sin(2 * np.pi * hz * t)).astype("<i2").tobytes()


def rms(audio: bytes) -> float:
    return float(np.sqrt((np.frombuffer(audio, dtype="<i2").astype(np.float64) ** 2).mean()))


@pytest.mark.parametrize("rate", [48000, 44100, 22050])
def test_sound_above_8_khz_is_dropped_not_folded_into_speech(rate):
    """Linear interpolation turned a 10 kHz hiss at 48 kHz into a 6 kHz tone at full level."""
    assert rms(sphinx._at_16k(tone(10000, rate), rate)) < 0.01 * rms(tone(10000, rate))


@pytest.mark.parametrize(("rate", "hz"), [(48000, 1000), (44100, 3000), (22050, 300), (8000, 1000), (16000, 1000)])
def test_speech_band_keeps_its_level_and_length(rate, hz):
    audio = tone(hz, rate)
    at_16k = sphinx._at_16k(audio, rate)
    assert len(at_16k) // 2 == int(len(audio) // 2 * sphinx.RATE / rate)
    assert abs(20 * np.log10(rms(at_16k) / rms(audio))) < 0.5


def test_no_audio_stays_no_audio():
    assert sphinx._at_16k(b"", 48000) == b""
    assert sphinx._at_16k(b"\x01", 48000) == b""
