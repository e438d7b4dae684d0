"""A recording of the table split into utterances at its silences (--listen-from), one per
listening window."""

import wave

import numpy as np
import pytest

from fakes import FakeClock
from gm.hearing.replay import Utterances, split_utterances

RATE = 16000


def tone(seconds, level=8000.0):
    t = np.arange(int(seconds * RATE)) / RATE
    return (level * np.sin(2 * np.pi * 300 * t)).astype("<i2")


def quiet(seconds, noise=0.0, seed=0):
    return (np.random.default_rng(seed).normal(0, noise, int(seconds * RATE)) if noise
            else np.zeros(int(seconds * RATE))).astype("<i2")


def parts(*pieces):
    return np.concatenate(pieces).tobytes()


def seconds(spans):
    return [None if s is None else (round(s[0] / 2 / RATE, 2), round(s[1] / 2 / RATE, 2)) for s in spans]


def test_utterances_are_split_at_silences_and_short_gaps_inside_one_are_kept():
    audio = parts(quiet(0.5), tone(0.4), quiet(0.2), tone(0.3), quiet(0.8), tone(0.5), quiet(0.5))
    assert seconds(split_utterances(audio, RATE)) == [(0.26, 1.64), (1.96, 2.94)]


def test_a_long_silence_is_a_window_in_which_nobody_spoke_and_clicks_are_no_speech():
    audio = parts(tone(0.3), quiet(3.0), tone(0.04), quiet(1.0), tone(0.3), quiet(0.3))
    spans = split_utterances(audio, RATE)
    assert len(spans) == 3 and spans[1] is None


def test_noise_of_the_room_is_not_speech():
    audio = parts(quiet(1.0, noise=300), tone(0.4) + quiet(0.4, noise=300, seed=1), quiet(1.0, noise=300, seed=2))
    assert len(split_utterances(audio, RATE)) == 1
    assert split_utterances(parts(quiet(2.0, noise=300)), RATE) == []
    assert split_utterances(b"", RATE) == []


def test_each_window_takes_the_next_utterance_and_a_peek_leaves_it(tmp_path):
    path = tmp_path / "table.wav"
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1), wav.setsampwidth(2), wav.setframerate(RATE)
        wav.writeframes(parts(tone(0.3), quiet(3.0), tone(0.5), quiet(0.6), tone(0.7), quiet(0.3)))
    clock = FakeClock()
    source = Utterances.from_wav(path, clock)
    sizes = []
    while not source.ended:
        assert source.peek() is not None and source.position == len(sizes)
        window = source.window()
        audio = b""
        while (block := window.read(0.1)) is not None:
            audio += block
        sizes.append(round(len(audio) / 2 / RATE, 1))
    assert sizes == [0.5, 0.0, 1.0, 1.2]  # each with a quarter second around it
    assert source.peek() is None and source.window().read(0.1) is None  # over: windows hear nothing
    assert clock.now() == pytest.approx(0.1 * 5)  # reading never waited for a block


def test_a_recording_is_read_block_by_block_and_one_utterance_at_a_time(tmp_path, monkeypatch):
    """A recording is never held whole (a 900 MB WAV once took 8.3 GB): the levels are read a
    block at a time, and each window reads its own utterance."""
    path = tmp_path / "table.wav"
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(2), wav.setsampwidth(2), wav.setframerate(RATE)
        mono = parts(tone(0.3), quiet(1.0), tone(0.5), quiet(1.0), tone(0.7), quiet(0.3))
        wav.writeframes(np.repeat(np.frombuffer(mono, dtype="<i2"), 2).tobytes())
    reads = []
    real = wave.Wave_read.readframes
    monkeypatch.setattr(wave.Wave_read, "readframes", lambda self, n: reads.append(n) or real(self, n))
    monkeypatch.setattr("gm.hearing.recorded.WavFile.BLOCK_FRAMES", 4000)
    source = Utterances.from_wav(path, FakeClock())
    assert reads and max(reads) <= 4000  # the first pass: blocks
    reads.clear()
    sizes = []
    while not source.ended:
        window = source.window()
        audio = b""
        while (block := window.read(0.1)) is not None:
            audio += block
        sizes.append(round(len(audio) / 2 / RATE, 1))
    assert sizes == [0.5, 1.0, 1.2] and sum(reads) < len(mono) // 2  # only the utterances, not the silences
    source.close()
