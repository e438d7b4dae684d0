"""The loudness stage: every line at one level, no sample clipped, a line fed in parts as fed whole."""

from __future__ import annotations

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.speech.audio import Audio, Samples
from gm.speech.loudness import CEILING_DBFS, FULL_SCALE, START, TARGET_DBFS, Loudness, running_min, speech_level

RATE = 16000


def _voice(seconds: float, level_dbfs: float, seed: int = 0) -> numpy.ndarray:
    """A stand-in for a phrase: noise with a syllable-like envelope, its speech at `level_dbfs`."""
    rng = numpy.random.default_rng(seed)
    n = int(seconds * RATE)
    envelope = 0.3 + numpy.sin(numpy.linspace(0, numpy.pi * 4 * seconds, n)) ** 2
    x = rng.normal(0, 1, n) * envelope
    return x * FULL_SCALE * 10 ** (level_dbfs / 20) / numpy.sqrt(numpy.mean(x * x))


def _through(parts, volume=None) -> numpy.ndarray:
    loudness = Loudness(RATE, volume)
    audios = [loudness.feed(Samples(RATE, part)) for part in parts] + [loudness.end()]
    return numpy.concatenate([numpy.frombuffer(a.samples, dtype="<i2") for a in audios]).astype(float)


def test_running_min_is_the_minimum_of_every_window():
    values = numpy.random.default_rng(1).normal(size=50)
    for size in (1, 2, 7, 50):
        assert numpy.array_equal(running_min(values, size), [values[i: i + size].min() for i in range(51 - size)])


@settings(max_examples=40)
@given(st.lists(st.floats(0.0, 1.0), max_size=6), st.floats(0.2, 4.0), st.integers(0, 2**16))
def test_no_sample_is_ever_clipped_and_nothing_is_lost(cuts, height, seed):
    """Peaks up to 4 × full scale, cut anywhere: every sample stays below the ceiling."""
    signal = _voice(0.6, -10.0, seed)
    signal *= height * FULL_SCALE / numpy.abs(signal).max()
    at = sorted(int(c * len(signal)) for c in cuts)
    out = _through(numpy.split(signal, at))
    assert len(out) == len(signal)
    assert numpy.abs(out).max() <= FULL_SCALE * 10 ** (CEILING_DBFS / 20)


def test_a_line_fed_in_parts_is_the_line_fed_whole():
    signal = numpy.concatenate([_voice(0.8, -20.0, 1), numpy.zeros(int(0.5 * RATE)), _voice(1.2, -8.0, 2)])
    whole = _through([signal])
    head = int(START * RATE) + 200  # the first START of speech is in the first part
    for at in ([head], [head + 7, 9000, 9001, 20000], [int(1.3 * RATE) + head]):
        assert numpy.abs(_through(numpy.split(signal, at)) - whole).max() <= 1, at  # sums rounded alike


def test_lines_and_phrases_of_any_loudness_come_out_at_one_level():
    quiet, loud = _through([_voice(1.0, -35.0, 3)]), _through([_voice(1.0, -5.0, 4)])
    assert speech_level(quiet, RATE) == pytest.approx(TARGET_DBFS, abs=1.0)
    assert speech_level(loud, RATE) == pytest.approx(TARGET_DBFS, abs=1.0)
    pause = int(0.5 * RATE)
    line = _through([numpy.concatenate([_voice(1.0, -30.0, 5), numpy.zeros(pause), _voice(1.0, -12.0, 6)])])
    first, second = line[:RATE], line[RATE + pause:]
    assert abs(speech_level(first, RATE) - speech_level(second, RATE)) < 1.5  # 18 dB apart before


def test_silence_stays_silent_and_the_volume_scales_the_level():
    assert not _through([numpy.zeros(RATE)]).any()
    signal = _voice(1.0, -20.0, 7)
    full, half = _through([signal]), _through([signal], volume=0.5)
    assert speech_level(full, RATE) - speech_level(half, RATE) == pytest.approx(6.02, abs=0.3)


def test_audio_and_samples_are_both_taken_and_a_part_at_another_rate_is_refused():
    loudness = Loudness(RATE)
    loudness.feed(Audio(RATE, b"\x00\x10" * 100))
    with pytest.raises(ValueError, match="8000 Hz"):
        loudness.feed(Samples(8000, numpy.zeros(10)))
