"""One loudness for every line: a leveller, then a peak limiter, before the samples become 16-bit.

Engines render at their own level (Open JTalk's peaks pass the 16-bit full scale; one HTS run is
a few dB louder or softer than another, so a countdown number, or a sentence's part rendered on
its own, may jump from the one before). Every rendered line goes through one `Loudness`:

- the leveller brings the speech to TARGET_DBFS (times the settings' volume): the gain at each
  sample is the target over the level of the last WINDOW of speech before it (samples quieter
  than GATE_DBFS do not count, so silence stays silence and the gain holds through it). After
  a PAUSE (a comma, a sentence's end) the level is taken afresh: a phrase starts at the level
  of its first START of speech, faded into the running level, so each phrase is heard at one
  loudness however its engine rendered it;
- the limiter keeps every sample below CEILING_DBFS: its gain is the lowest the peaks need
  within HOLD before to LOOKAHEAD after each sample, smoothed over 2 × LOOKAHEAD, so no peak
  is ever clipped and the gain never steps. It holds back 2 × LOOKAHEAD of audio (5 ms).

Both stages look only at what came before (the limiter 5 ms ahead, a phrase's start START
ahead), so a line fed in parts (the loudspeaker path: the first part plays while the rest
renders) comes out as the line fed whole wherever a part ends past a phrase's first START.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from gm.speech.audio import Audio, Samples

if TYPE_CHECKING:
    import numpy

TARGET_DBFS = -18.0  # the level of the speech of every line, at volume 1.0
CEILING_DBFS = -1.5  # no sample above this
GATE_DBFS = -45.0  # a level (over SHORT) below which the speech is a pause
WINDOW = 0.2  # seconds of speech the level is taken over
SHORT = 0.01  # seconds over which a sample's level is taken for the gate
PAUSE = 0.3  # seconds without speech after which the level is taken afresh (a comma, a sentence's end)
START = 0.2  # seconds of speech at a line's start whose level it starts at
FIRST = 0.1  # seconds of speech that level counts for, fading over WINDOW
GAIN_DB = 24.0  # the leveller's gain stays within ± this
LOOKAHEAD = 0.0025  # seconds the limiter looks ahead (and smooths over twice that)
HOLD = 0.02  # seconds the limiter holds a gain down after a peak
FULL_SCALE = 32768.0


def _ratio(db: float) -> float:
    return math.pow(10.0, db / 20.0)


def running_min(values: numpy.ndarray, size: int) -> numpy.ndarray:
    """The minimum of every `size` consecutive values (len(values) - size + 1 of them), van Herk's way:
    three passes whatever `size` is."""
    import numpy

    if size <= 1:
        return cast("numpy.ndarray", values.copy())
    count = len(values) - size + 1
    blocks = -(-len(values) // size)
    padded = numpy.full(blocks * size, numpy.inf)
    padded[: len(values)] = values
    grid = padded.reshape(blocks, size)
    forward = numpy.minimum.accumulate(grid, axis=1).ravel()
    backward = numpy.minimum.accumulate(grid[:, ::-1], axis=1)[:, ::-1].ravel()
    return numpy.minimum(backward[:count], forward[size - 1: size - 1 + count])


def _window_sums(values: numpy.ndarray, history: numpy.ndarray, size: int) -> numpy.ndarray:
    """For each of `values`, the sum of it and the `size` - 1 values before it (`history` holds
    the values before the first, at least size - 1 of them or all there were)."""
    import numpy

    whole = numpy.concatenate([history, values])
    sums = numpy.concatenate([[0.0], numpy.cumsum(whole)])
    ends = numpy.arange(len(history), len(whole)) + 1
    return cast("numpy.ndarray", sums[ends] - sums[numpy.maximum(ends - size, 0)])


def _tail(history: numpy.ndarray, values: numpy.ndarray, size: int) -> numpy.ndarray:
    """The last `size` of `history` followed by `values`."""
    import numpy

    whole = numpy.concatenate([history, values])
    return whole[max(0, len(whole) - size):] if size > 0 else whole[:0]


class Loudness:
    """Levels and limits one line fed in order, part by part: `feed(part)` gives the 16-bit audio
    ready so far, `end()` the rest. Parts are float samples on the 16-bit scale (any height) or Audio."""

    def __init__(self, rate: int, volume: float | None = None) -> None:
        import numpy

        self.rate = rate
        self._target = FULL_SCALE * _ratio(TARGET_DBFS) * (1.0 if volume is None else volume)
        self._ceiling = math.floor(FULL_SCALE * _ratio(CEILING_DBFS)) - 0.5  # rounded, still below
        self._gate = (FULL_SCALE * _ratio(GATE_DBFS)) ** 2
        self._window = max(1, round(WINDOW * rate))
        self._short = max(1, round(SHORT * rate))
        self._first = FIRST * rate
        self._head = max(1, round(START * rate))
        self._ahead = max(1, round(LOOKAHEAD * rate))
        self._hold = max(self._ahead, round(HOLD * rate))
        self._energy = numpy.zeros(0)  # the last samples' squares (for the gate)
        self._speech = numpy.zeros(0)  # the squares of the last speech samples (pauses left out)
        self._count = 0  # speech samples so far
        self._start = 0.0  # the mean square of the phrase's first START of speech
        self._quiet = 0  # samples since the last speech sample
        self._pause = max(1, round(PAUSE * rate))
        self._gain = 1.0  # the last gain the leveller gave
        self._levelled = numpy.zeros(0)  # levelled samples: the limiter's history, then those held back
        self._held = 0  # of which the last `_held` are not given out yet

    # -- the leveller ------------------------------------------------------------------------
    def _level(self, samples: numpy.ndarray) -> numpy.ndarray:
        """`samples` times the leveller's gain (see the module's docstring)."""
        import numpy

        energy = samples * samples
        flags = _window_sums(energy, self._energy, self._short) > self._gate * self._short
        self._energy = _tail(self._energy, energy, self._short - 1)
        where = numpy.flatnonzero(flags)
        gaps = numpy.diff(where, prepend=-self._quiet - 1) - 1  # samples without speech before each speech sample
        if len(where):
            self._quiet = len(samples) - 1 - int(where[-1])
        else:
            self._quiet += len(samples)
        restarts = numpy.flatnonzero((gaps >= self._pause) | (numpy.arange(len(where)) == 0) & (self._count == 0))
        speech = energy[where]
        speech_gains = numpy.empty(len(speech))
        starts = set(restarts.tolist())
        bounds = [0, *sorted(starts - {0}), len(speech)]
        for first, last in zip(bounds, bounds[1:]):
            if first in starts:
                self._speech, self._count = numpy.zeros(0), 0
                self._start = float(numpy.mean(speech[first: min(last, first + self._head)]))
            speech_gains[first:last] = self._phrase_gains(speech[first:last])
        gains = numpy.full(len(samples), numpy.nan)
        gains[where] = speech_gains
        # a sample between speech takes the gain of the speech after it, else of the speech before
        after = numpy.minimum.accumulate(numpy.where(flags, numpy.arange(len(samples)), len(samples))[::-1])[::-1]
        if len(speech):
            self._gain = float(speech_gains[-1])
        return cast("numpy.ndarray", samples * numpy.concatenate([gains, [self._gain]])[after])

    def _phrase_gains(self, speech: numpy.ndarray) -> numpy.ndarray:
        """The leveller's gain at each of the speech samples `speech` (squares, pauses left out) of one phrase."""
        import numpy

        if not len(speech):
            return speech
        sums = _window_sums(speech, self._speech, self._window)
        counts = self._count + numpy.arange(1, len(speech) + 1)
        prior = self._first * numpy.clip(1.0 - counts / self._window, 0.0, 1.0)
        level = numpy.sqrt((sums + prior * self._start) / (numpy.minimum(counts, self._window) + prior))
        self._speech = _tail(self._speech, speech, self._window - 1)
        self._count += len(speech)
        limit = _ratio(GAIN_DB)
        return numpy.clip(self._target / numpy.maximum(level, 1e-9), 1.0 / limit, limit)

    # -- the limiter -------------------------------------------------------------------------
    def _limit(self, levelled: numpy.ndarray, last: bool) -> numpy.ndarray:
        """Limited samples ready: all but the last 2 × LOOKAHEAD, or all of them at the `last` part."""
        import numpy

        ahead, hold = self._ahead, self._hold
        start = len(self._levelled) - self._held
        buffer = numpy.concatenate([self._levelled, levelled])
        end = len(buffer) if last else max(start, len(buffer) - 2 * ahead)
        if end == start:
            self._levelled, self._held = buffer, len(buffer) - start
            return numpy.zeros(0)
        needed = numpy.ones(len(buffer) + hold + 4 * ahead)  # what each sample allows, 1 outside the line
        peaks = numpy.abs(buffer)
        needed[hold + ahead: hold + ahead + len(buffer)] = numpy.minimum(
            1.0, self._ceiling / numpy.maximum(peaks, 1e-9))
        # lows[i]: the lowest allowance from HOLD before sample i - ahead to LOOKAHEAD after it
        lows = running_min(needed, hold + ahead + 1)
        first, count = start, end - start
        sums = numpy.concatenate([[0.0], numpy.cumsum(lows[first: first + count + 2 * ahead])])
        gains = (sums[2 * ahead + 1:] - sums[:count]) / (2 * ahead + 1)
        out = buffer[start:end] * numpy.minimum(gains, 1.0)
        keep = max(0, end - hold - 2 * ahead)
        self._levelled, self._held = buffer[keep:], len(buffer) - end
        return cast("numpy.ndarray", out)

    def feed(self, part: Audio | Samples) -> Audio:
        """The 16-bit audio of the line so far that is ready (all but the last few milliseconds)."""
        return self._audio(self._limit(self._level(self._floats(part)), last=False))

    def end(self) -> Audio:
        """The rest of the line."""
        import numpy

        return self._audio(self._limit(numpy.zeros(0), last=True))

    def _floats(self, part: Audio | Samples) -> numpy.ndarray:
        import numpy

        if part.rate != self.rate:
            raise ValueError(f"a part at {part.rate} Hz in a line at {self.rate} Hz")
        if isinstance(part, Audio):
            return numpy.frombuffer(part.samples, dtype="<i2").astype(float)
        return numpy.asarray(part.values, dtype=float)

    def _audio(self, samples: numpy.ndarray) -> Audio:
        import numpy

        return Audio(self.rate, numpy.rint(samples).astype("<i2").tobytes())



def speech_level(samples: numpy.ndarray, rate: int) -> float:
    """The level of the speech in `samples` (on the 16-bit scale) in dBFS: their RMS where their
    level over SHORT is above GATE_DBFS (pauses left out); -inf where there is none."""
    import numpy

    samples = numpy.asarray(samples, dtype=float)
    short = max(1, round(SHORT * rate))
    energy = samples * samples
    speech = energy[_window_sums(energy, numpy.zeros(0), short) > (FULL_SCALE * _ratio(GATE_DBFS)) ** 2 * short]
    if not len(speech):
        return -math.inf
    return 10.0 * math.log10(float(numpy.mean(speech))) - 20.0 * math.log10(FULL_SCALE)
