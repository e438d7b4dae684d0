"""A reply begun while the echo gate holds its grace after a line keeps its start: the grace's audio
from its quietest frame on goes in before the first block the open gate lets through, where that
block is louder (a reply under way); gm's own fading echo and a quiet room add nothing."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.hearing.microphone import EchoGate, MicSource
from gm.hearing.utterance import ONSET_RISE_DB, begun_over

RATE = 16000


def samples(*stretches: tuple[float, float], seed: int = 0) -> bytes:
    """Noise in stretches of (seconds, RMS level)."""
    rng = np.random.default_rng(seed)
    audio = np.concatenate([rng.normal(0, level, int(seconds * RATE)) for seconds, level in stretches])
    return np.clip(audio, -32768, 32767).astype("<i2").tobytes()


def test_a_reply_begun_over_the_grace_is_held_from_the_room_before_it():
    held = samples((0.05, 100), (0.25, 3000))  # the room, then the table's reply
    begun = begun_over(held, samples((0.1, 3000), seed=1), RATE)
    assert 0.25 <= len(begun) / 2 / RATE <= 0.3  # the reply, from the room's quietest frame before it
    assert held.endswith(begun)


@pytest.mark.parametrize("held, first", [
    (samples((0.1, 6000), (0.1, 1500), (0.1, 300)), samples((0.1, 120), seed=1)),  # gm's echo fading
    (samples((0.3, 300)), samples((0.1, 300), seed=1)),  # the room alone
    (samples((0.3, 300)), samples((0.1, 500), seed=1)),  # a little louder: under ONSET_RISE_DB
    (b"", samples((0.1, 3000))),  # nothing held (no line said)
    (samples((0.3, 300)), b""),
])
def test_a_fading_echo_or_the_room_alone_adds_nothing(held, first):
    assert begun_over(held, first, RATE) == b""


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 30), st.floats(50, 5000), st.floats(50, 5000), st.integers(0, 2**32 - 1))
def test_what_is_held_is_always_the_end_of_the_grace_in_whole_samples(frames, quiet, loud, seed):
    held = samples((frames * 0.02, quiet), seed=seed)
    begun = begun_over(held, samples((0.1, loud), seed=seed + 1), RATE)
    assert len(begun) % 2 == 0 and held.endswith(begun)
    assert (begun != b"") <= (20 * np.log10(loud / quiet) > ONSET_RISE_DB - 6)  # only a louder block


class Loudspeaker:
    speaking = False
    last_spoken_end = float("-inf")


@pytest.fixture
def microphone(monkeypatch):
    """A MicSource over a stand-in sounddevice, its gate on a clock the test moves."""
    streams = []

    class RawInputStream:
        def __init__(self, **kw):
            self.kw = kw
            streams.append(self)

        def start(self):
            """No thread: the test calls the callback."""

        def stop(self):
            """Nothing runs."""

        def close(self):
            """Nothing to release."""

    sd = types.SimpleNamespace(PortAudioError=OSError, RawInputStream=RawInputStream,
                               query_devices=lambda device=None, kind=None: {"default_samplerate": float(RATE)})
    monkeypatch.setitem(sys.modules, "sounddevice", sd)
    now, speaker = [0.0], Loudspeaker()
    clock = types.SimpleNamespace(scale=1.0, now=lambda: now[0])
    mic = MicSource(clock, EchoGate(speaker, grace=0.3, now=lambda: now[0]))

    def feed(block: bytes, at: float, speaking: bool = False) -> None:
        now[0], speaker.speaking = at, speaking
        if speaking:
            speaker.last_spoken_end = at
        streams[0].kw["callback"](block, len(block) // 2, None, None)

    return mic, feed


def given_out(mic: MicSource) -> bytes:
    out = b""
    while (block := mic.read(0.0)) is not None:
        out += block
    return out


def test_the_microphone_gives_a_reply_said_over_the_grace_with_its_start(microphone):
    mic, feed = microphone
    line, room, reply = samples((0.1, 8000)), samples((0.1, 200), seed=1), samples((0.1, 4000), seed=2)
    feed(line, 1.0, speaking=True)
    mic.drain()  # the window opens as the line ends
    feed(room[:1600], 1.05)  # the grace (to 1.3): the room, then the reply begins
    feed(reply, 1.15)
    feed(reply, 1.25)
    assert mic.read(0.0) is None  # the gate is still closed
    opened = samples((0.1, 4000), seed=3)
    feed(opened, 1.35)
    assert given_out(mic) == begun_over(room[:1600] + reply + reply, opened, RATE) + opened
    assert len(given_out(mic)) == 0 and len(begun_over(room[:1600] + reply + reply, opened, RATE)) >= 2 * 3100


def test_the_microphone_gives_nothing_of_the_grace_when_the_room_is_quiet_as_the_gate_opens(microphone):
    mic, feed = microphone
    feed(samples((0.1, 8000)), 1.0, speaking=True)
    for at, level in ((1.05, 2000), (1.15, 600), (1.25, 200)):  # the line's echo fading over the grace
        feed(samples((0.1, level), seed=int(at * 100)), at)
    quiet = samples((0.1, 200), seed=9)
    feed(quiet, 1.35)
    assert given_out(mic) == quiet


def test_what_the_grace_held_is_let_go_when_gm_speaks_again(microphone):
    mic, feed = microphone
    feed(samples((0.1, 8000)), 1.0, speaking=True)
    before = samples((0.1, 50), seed=1)
    feed(before, 1.05)  # held in the first line's grace: the quietest of all
    feed(samples((0.1, 8000)), 1.2, speaking=True)  # the next line: what was held is let go
    room = samples((0.1, 200), seed=2)
    reply = [samples((0.1, 4000), seed=seed) for seed in (3, 4, 5)]
    feed(room, 1.25)  # its grace (to 1.5): the room, then a reply
    feed(reply[0], 1.35)
    feed(reply[1], 1.45)
    feed(reply[2], 1.55)  # the gate opens
    given = given_out(mic)
    assert given.endswith(reply[0] + reply[1] + reply[2]) and before not in given
    assert len(given) - 3 * len(reply[0]) <= len(room)
