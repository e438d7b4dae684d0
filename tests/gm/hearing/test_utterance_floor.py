"""The noise floor the cutter hears speech above is the tenth percentile of recent frame levels,
as numpy's `percentile` has it, kept in order as frames come and go (not sorted again a frame)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.hearing import utterance
from gm.hearing.utterance import Cutter, frame_samples, tenth

LEVELS = st.floats(min_value=0.0, max_value=32768.0, width=32)


@given(st.lists(LEVELS, min_size=1, max_size=600))
def test_the_tenth_percentile_is_numpys(levels):
    expected = float(np.percentile(np.array(levels, dtype=np.float32), 10))
    assert tenth(sorted(levels)) == expected


class NumpyFloor(Cutter):
    """The cutter as it was: the floor from numpy's percentile of the whole history, each frame."""

    def _threshold(self) -> float:
        if len(self._history) * self._seconds < utterance.FLOOR_AFTER:
            return utterance.QUIET
        return utterance.threshold(float(np.percentile(np.fromiter(self._history, dtype=np.float32), 10)))


@pytest.mark.slow  # 25 runs of up to 70 s of audio, numpy's percentile of the whole history each frame
@settings(max_examples=25)
@given(st.lists(st.tuples(st.integers(20, 700), st.sampled_from([10, 40, 100, 300, 700])), min_size=3, max_size=10),
       st.integers(0, 2**32 - 1))
def test_the_cuts_are_those_of_numpys_floor_as_the_history_moves_on(stretches, seed):
    """Stretches of a room's noise and of speech, up to 14 s each: the floor rises and falls as
    the oldest levels leave its FLOOR_SECONDS, and what is speech moves with it."""
    rate = 16000
    rng = np.random.default_rng(seed)
    frame = frame_samples(rate)
    audio = np.concatenate([rng.normal(0, level + 1, frames * frame) for frames, level in stretches])
    pcm = np.clip(audio, -32768, 32767).astype("<i2").tobytes()
    block = 2 * 1600
    cut, numpy_cut = Cutter(rate), NumpyFloor(rate)
    got = [u for at in range(0, len(pcm), block) for u in cut.feed(pcm[at:at + block])] + cut.flush()
    want = [u for at in range(0, len(pcm), block) for u in numpy_cut.feed(pcm[at:at + block])] + numpy_cut.flush()
    assert got == want
