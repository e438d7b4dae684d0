"""Utterances out of audio (pure, numpy): where speech starts and ends, and its level.

A recogniser hears one utterance at a time, from a fresh state, at a steady level: what it
makes of the same words then does not depend on what was said before, on how much silence came
first, or on how loud the table speaks. `Cutter` finds utterances in audio arriving block by
block (the microphone); `gm.hearing.replay` cuts a whole recording the same way (same frames,
pads and thresholds). `levelled` brings an utterance's speech to one loudness, with a ceiling.

numpy is imported inside functions only (it is slow to import for `gm --help`).
"""

from __future__ import annotations

import bisect
import math
from collections import deque
from typing import Any

FRAME_SECONDS = 0.02  # the loudness of the audio is looked at in frames this long
SPLIT_SECONDS = 0.5  # a silence this long ends an utterance
SHORTEST_SECONDS = 0.1  # louder stretches shorter than this are clicks, not speech
LONGEST_SECONDS = 12.0  # an utterance is cut here even if nobody pauses
PAD_SECONDS = 0.25  # audio kept on either side of an utterance
QUIET = 150.0  # a frame below this RMS level (of 32768) is silence, however quiet the room
FLOOR_SECONDS = 10.0  # the noise floor is the quietest tenth of this much recent audio
FLOOR_AFTER = 0.5  # seconds of audio before the noise floor is trusted (until then: QUIET)

TARGET_DBFS = -20.0  # speech is brought to this RMS level
CEILING_DBFS = -1.0  # no sample goes above this
MAX_GAIN_DB = 30.0  # quiet speech is raised by at most this much (−32 dBFS speech becomes −20)


def frame_samples(rate: float) -> int:
    return max(1, int(FRAME_SECONDS * rate))


def frame_levels(samples: Any) -> Any:
    """RMS level of each whole frame of `samples` (a float32 array already cut to frames)."""
    import numpy as np

    return np.sqrt((samples.astype(np.float32) ** 2).mean(axis=1))


def threshold(floor: float) -> float:
    """The RMS level from which a frame is speech, above a noise floor."""
    return max(QUIET, 4.0 * floor)


def levelled(audio: bytes, rate: float) -> bytes:
    """16-bit mono `audio` with its speech (the frames above QUIET) brought to TARGET_DBFS, raised
    by at most MAX_GAIN_DB and never above CEILING_DBFS. Audio with no speech frame is left as it
    is: silence stays silence."""
    import numpy as np

    samples = np.frombuffer(audio[: len(audio) // 2 * 2], dtype="<i2").astype(np.float32)
    frame = frame_samples(rate)
    count = len(samples) // frame
    if count == 0:
        return audio[: len(audio) // 2 * 2]
    rms = frame_levels(samples[: count * frame].reshape(count, frame))
    speech = rms[rms > QUIET]
    if len(speech) == 0:
        return audio[: len(audio) // 2 * 2]
    level = float(np.sqrt((speech ** 2).mean()))
    peak = float(np.abs(samples).max())
    gain = min(32768 * 10 ** (TARGET_DBFS / 20) / level, 10 ** (MAX_GAIN_DB / 20),
               32767 * 10 ** (CEILING_DBFS / 20) / max(peak, 1.0))
    if math.isclose(gain, 1.0, rel_tol=1e-3):
        return audio[: len(audio) // 2 * 2]
    return np.clip(np.round(samples * gain), -32768, 32767).astype("<i2").tobytes()


def begun_over(held: bytes, first: bytes, rate: float) -> bytes:
    """The end of `held`, the room heard while the echo gate held its grace after a line, from its
    quietest frame on, where `first`, the block that came as the gate opened, is ONSET_RISE_DB
    louder than that frame: a reply begun over the grace, whose start the gate would otherwise
    drop; else nothing. A table that answers as gm stops lost the first 0.25 s of its reply:
    Kokoro's はい (30 ms of silence before it) went unheard or was heard as いいえ, and 二票 as
    よんひょう at 0.98 (bench/talk_over_bench.py). The echo of gm's line fades over the grace:
    no frame after its quietest is louder."""
    import numpy as np

    frame = frame_samples(rate)
    count = len(held) // 2 // frame
    if count == 0 or len(first) < 2:
        return b""
    levels = frame_levels(np.frombuffer(held, dtype="<i2")[: count * frame].reshape(count, frame))
    quietest = int(np.argmin(levels))
    opened = float(frame_levels(np.frombuffer(first[: len(first) // 2 * 2], dtype="<i2").reshape(1, -1))[0])
    if 20 * math.log10(max(opened, 1.0) / max(float(levels[quietest]), 1.0)) < ONSET_RISE_DB:
        return b""
    return held[quietest * frame * 2: len(held) // 2 * 2]


ONSET_RISE_DB = 6.0  # how much louder than the grace's quietest frame the room must be as the gate opens


def tenth(ordered: list[float]) -> float:
    """`np.percentile(np.array(ordered, dtype=np.float32), 10)` of levels already in order (and
    float32 values): numpy's linear interpolation between the two neighbours, in its float32
    arithmetic, without its cost a call (it was most of the cutting's time)."""
    import numpy as np

    at = (len(ordered) - 1) * 0.1
    low = math.floor(at)
    a, b = np.float32(ordered[low]), np.float32(ordered[min(low + 1, len(ordered) - 1)])
    t = at - low
    step = b - a
    return float(b - step * (1 - t) if t >= 0.5 else a + step * t)


class Cutter:
    """Utterances out of 16-bit mono audio fed block by block (`feed`), each with PAD_SECONDS of
    audio on either side, as soon as SPLIT_SECONDS of silence ends it (or LONGEST_SECONDS in).
    A frame is speech when louder than four times the noise floor (the quietest tenth of the
    last FLOOR_SECONDS) and than QUIET; a stretch shorter than SHORTEST_SECONDS is a click."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._frame = frame_samples(rate)
        self._seconds = self._frame / rate
        self._rest = b""
        self._history: deque[float] = deque(maxlen=max(1, round(FLOOR_SECONDS / self._seconds)))
        self._ordered: list[float] = []  # the same levels in order: the floor without a sort a frame
        self._pad = max(1, round(PAD_SECONDS / self._seconds))
        self._before: deque[bytes] = deque(maxlen=self._pad)  # silence kept to start an utterance with
        self._frames: list[bytes] = []  # the utterance so far
        self._loud = 0  # loud frames in it
        self._quiet = 0  # quiet frames at its end

    def feed(self, block: bytes) -> list[bytes]:
        """The utterances that `block` completed."""
        import numpy as np

        audio = self._rest + block
        whole = len(audio) // (2 * self._frame) * 2 * self._frame
        self._rest = audio[whole:]
        if not whole:
            return []
        samples = np.frombuffer(audio[:whole], dtype="<i2").reshape(-1, self._frame)
        done: list[bytes] = []
        for index, rms in enumerate(frame_levels(samples)):
            frame = audio[2 * self._frame * index: 2 * self._frame * (index + 1)]
            done += self._frame_in(frame, float(rms))
        return done

    def flush(self) -> list[bytes]:
        """The utterance under way when the audio ends (if it is speech)."""
        return self._end()

    @property
    def under_way(self) -> bool:
        """Whether speech has begun that no silence has ended yet."""
        return bool(self._frames)

    def _frame_in(self, frame: bytes, rms: float) -> list[bytes]:
        loud = rms > self._threshold()
        if len(self._history) == self._history.maxlen:
            del self._ordered[bisect.bisect_left(self._ordered, self._history[0])]
        self._history.append(rms)
        bisect.insort(self._ordered, rms)
        if not self._frames:
            if not loud:
                self._before.append(frame)
                return []
            self._frames = [*self._before, frame]
            self._before.clear()
            self._loud, self._quiet = 1, 0
            return []
        self._frames.append(frame)
        self._loud += loud
        self._quiet = 0 if loud else self._quiet + 1
        if self._quiet * self._seconds >= SPLIT_SECONDS or len(self._frames) * self._seconds >= LONGEST_SECONDS:
            return self._end()
        return []

    def _threshold(self) -> float:
        if len(self._history) * self._seconds < FLOOR_AFTER:
            return QUIET
        return threshold(tenth(self._ordered))

    def _end(self) -> list[bytes]:
        frames, loud, quiet = self._frames, self._loud, self._quiet
        self._frames, self._loud, self._quiet = [], 0, 0
        if not frames or loud * self._seconds < SHORTEST_SECONDS:
            return []
        kept = frames[: len(frames) - max(0, quiet - self._pad)]
        self._before.extend(frames[len(kept):])
        return [b"".join(kept)]


SILENT_BLOCKS = 50  # blocks in a row of digital silence (5 s) that mean a dead or muted microphone
CLIPPED_SHARE = 0.005  # a block whose samples are this often at full scale is clipped
CLIPPED_BLOCKS = 5  # clipped blocks among the last SILENT_BLOCKS that mean the level is too high


class MicCheck:
    """Watches the microphone's blocks for what makes listening hopeless: only digital silence,
    or clipping. `look` names a problem once ("mic_silent", "mic_clipping", keys under the voice
    packs' `listen.reason`), and never the same one again."""

    def __init__(self) -> None:
        self._silent = 0
        self._clipped: deque[bool] = deque(maxlen=SILENT_BLOCKS)
        self.said: set[str] = set()

    def look(self, block: bytes) -> str | None:
        import numpy as np

        samples = np.frombuffer(block[: len(block) // 2 * 2], dtype="<i2")
        if not len(samples):
            return None
        peak = int(np.abs(samples.astype(np.int32)).max())
        self._silent = self._silent + 1 if peak <= 1 else 0
        self._clipped.append(float((np.abs(samples.astype(np.int32)) >= 32767).mean()) >= CLIPPED_SHARE)
        if self._silent >= SILENT_BLOCKS:
            return self._once("mic_silent")
        if sum(self._clipped) >= CLIPPED_BLOCKS:
            return self._once("mic_clipping")
        return None

    def _once(self, problem: str) -> str | None:
        if problem in self.said:
            return None
        self.said.add(problem)
        return problem
