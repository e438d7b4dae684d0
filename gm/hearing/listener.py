"""Listening (edge): vosk speech models and recognisers, microphone and WAV audio sources.

vosk and sounddevice are imported inside functions only. Audio is 16-bit mono PCM at the
source's rate, in small blocks. A `Listener` runs one recogniser at a time over one source and
hands back final results as `Heard`; deciding what they mean is `gm.hearing.phrases`'s job.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import math
import os
import stat
import sys
import threading
import time
import wave
from array import array
from collections import deque
from pathlib import Path
from typing import Protocol, runtime_checkable
from collections.abc import Callable, Iterator, Sequence

from gm.hearing.phrases import Heard, Phrasebook
from gm.ports import Clock, Speaker
from gm.errors import GmError

MODEL_ENV = "GM_VOSK_MODEL"
BLOCK_SECONDS = 0.1
MIN_RATE, MAX_RATE = 8000, 48000  # Hz a recording may have (vosk resamples it to the model's rate)
MAX_WAV_BYTES = 1 << 30
GRACE_SECONDS = 0.3  # microphone audio dropped after a spoken line ends (its echo in the room)


class NoModel(GmError):
    """No speech model was given, or the one given is missing or broken."""


MIC_PATIENCE = 5  # seconds without a single block before recording gives up


class NoAudio(OSError):
    """No way to record: PortAudio (libportaudio2) or an input device is missing."""


class BadWav(GmError):
    """A WAV file that is not 16-bit PCM, mono or stereo, at 8–48 kHz (or not a WAV file)."""


# -- the speech model ---------------------------------------------------------------------------
MODEL_FILES = ("am/final.mdl", "conf/mfcc.conf", "conf/model.conf")
GRAPHS = (("graph/HCLG.fst",), ("graph/HCLr.fst", "graph/Gr.fst"))  # a full graph, or a lookahead one
IVECTOR_FILES = ("ivector/final.ie", "ivector/final.dubm", "ivector/final.mat", "ivector/global_cmvn.stats",
                 "ivector/online_cmvn.conf", "ivector/splice.conf")
_NNET_START = b"<Nnet3>"
_NNET_SEARCH = 64 << 20  # the acoustic network's header lies after the transition model


def model_dir(option: str | None, lang: str | None = None) -> Path:
    """The model directory from `--vosk-model`, $GM_VOSK_MODEL, or the default for `lang`
    (`gm.hearing.models.default_model`); a pip model package (a folder holding `model/`) is
    accepted too. Checked to hold what vosk needs before vosk sees it."""
    given = option or os.environ.get(MODEL_ENV)
    if not given:
        from gm.hearing.models import default_model, how_to_get

        found = default_model(lang) if lang else None
        if found is None:
            raise NoModel(f"no speech model{f' for {lang}' if lang else ''}: give --vosk-model PATH or set "
                          f"{MODEL_ENV} ({how_to_get(lang)})")
        given = str(found)
    return check_model(Path(given).expanduser(), given)


def check_model(path: Path, given: str) -> Path:
    """`path` (or its `model/` folder) when it holds a vosk model: the acoustic model, its
    configuration, a decoding graph, and the i-vector extractor when the acoustic model takes
    i-vectors. NoModel names what is missing."""
    shown = given if len(given) <= 80 else given[:77] + "..."
    try:
        if not (path / "am").is_dir() and (path / "model" / "am").is_dir():
            path = path / "model"
        if not path.is_dir():
            raise NoModel(f"speech model {shown!r} is not a directory")
        missing = [f for f in MODEL_FILES if not (path / f).is_file()]
        if not any(all((path / f).is_file() for f in graph) for graph in GRAPHS):
            missing.append(" or ".join("+".join(graph) for graph in GRAPHS))
        if "am/final.mdl" not in missing and _takes_ivectors(path / "am" / "final.mdl"):
            missing += [f for f in IVECTOR_FILES if not (path / f).is_file()]
    except OSError as error:
        raise NoModel(f"speech model path {shown!r} cannot be used ({error.strerror or error})") from error
    if missing:
        raise NoModel(f"speech model {shown!r} is not a vosk model (no {', '.join(missing)})")
    return path


def _takes_ivectors(acoustic_model: Path) -> bool:
    """Whether the nnet3 acoustic model has an i-vector input (then vosk needs ivector/)."""
    tail = b""
    with acoustic_model.open("rb") as f:
        for _ in range(_NNET_SEARCH >> 20):
            chunk = f.read(1 << 20)
            if not chunk:
                return False
            window = tail + chunk
            start = window.find(_NNET_START)
            if start >= 0:
                header = window[start:start + 4096]
                header += f.read(max(0, 4096 - len(header)))
                return b"input-node name=ivector " in header
            tail = window[-len(_NNET_START):]
    return False


class SpeechModel:
    """A loaded vosk model: which words it knows, and recognisers over its grammar."""

    def __init__(self, path: Path) -> None:
        try:
            import vosk
        except (ImportError, OSError) as error:
            raise NoModel(f"vosk cannot be loaded ({error})") from error
        vosk.SetLogLevel(-1)
        self.path = path
        self._vosk = vosk
        try:  # model_path only: Model(lang=...) may download or sys.exit
            with _stderr_silenced():  # vosk's own ERROR line; ours below says it in one line
                self._model = vosk.Model(model_path=str(path))
        except Exception as error:  # vosk raises a bare Exception for a broken model
            raise NoModel(f"vosk could not load the speech model in {str(path)!r}") from error
        self._known: dict[str, bool] = {}
        self.unk = self.hears("[unk]")

    def hears(self, word: str) -> bool:
        """Whether `word` is in the model's vocabulary (vosk_model_find_word)."""
        if word not in self._known:
            self._known[word] = self._model.vosk_model_find_word(word) >= 0
        return self._known[word]

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> Recogniser:
        """A recogniser for audio at `rate`; with a `book` holding phrases, limited to its grammar
        (vosk 0.3.45 crashes on an empty grammar, so an empty book listens without one)."""
        args = (self._model, float(rate)) + ((book.grammar(),) if book is not None and book.phrases else ())
        kaldi = self._vosk.KaldiRecognizer(*args)
        kaldi.SetWords(True)
        return VoskRecogniser(kaldi)


@contextlib.contextmanager
def _stderr_silenced() -> Iterator[None]:
    """Standard error (file descriptor 2, where vosk's C++ code writes) sent to the null device."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def load_model(option: str | None, lang: str | None = None) -> SpeechModel:
    """The model `option` (or $GM_VOSK_MODEL, or the default for `lang`) names; loaded once per process."""
    return _loaded(model_dir(option, lang).resolve())


@functools.lru_cache(maxsize=2)
def _loaded(path: Path) -> SpeechModel:
    atexit.register(_loaded.cache_clear)  # free models before vosk's own module is torn down
    return SpeechModel(path)


class Recogniser(Protocol):
    def accept(self, block: bytes) -> Heard | None:
        """Feed audio; a final result when vosk found the end of an utterance."""

    def finish(self) -> Heard:
        """The final result of whatever audio is left."""


class VoskRecogniser:
    def __init__(self, kaldi) -> None:
        self._kaldi = kaldi

    def accept(self, block: bytes) -> Heard | None:
        if self._kaldi.AcceptWaveform(block):
            return Heard.from_result(json.loads(self._kaldi.Result()))
        return None

    def finish(self) -> Heard:
        return Heard.from_result(json.loads(self._kaldi.FinalResult()))


# -- audio sources -----------------------------------------------------------------------------
class Source(Protocol):
    rate: float
    ended: bool

    def read(self, timeout: float) -> bytes | None:
        """The next block, waiting up to `timeout` clock seconds; None when none came."""

    def drain(self) -> None:
        """Drop audio that arrived before now."""

    def close(self) -> None: ...


@runtime_checkable
class Recording(Protocol):
    """A recording replayed utterance by utterance (`gm.hearing.replay.Utterances`)."""

    rate: float

    @property
    def ended(self) -> bool: ...

    @property
    def position(self) -> int: ...

    def peek(self) -> Source | None: ...

    def skip(self) -> None: ...

    def window(self) -> Source: ...

    def close(self) -> None: ...


class PcmSource:
    """Recorded audio played into the listener block by block, as fast as it is read: stands in
    for a microphone in tests and replays (--listen-from)."""

    def __init__(self, rate: float, audio: bytes, clock: Clock, block: float = BLOCK_SECONDS) -> None:
        self.rate = rate
        self.clock = clock
        self.ended = False
        self._audio = audio
        self._step = 2 * max(1, int(block * rate))
        self._at = 0

    @classmethod
    def from_wavs(cls, paths: Sequence[str | Path], clock: Clock, gap: float = 0.0) -> PcmSource:
        """WAV files one after the other, with `gap` seconds of silence around each."""
        chunks: list[bytes] = []
        rate = 0.0
        for path in paths:
            this, frames = read_wav(path)
            if rate and this != rate:
                raise BadWav(f"{path}: {this:g} Hz, but the other files are {rate:g} Hz")
            rate = this
            chunks.append(frames)
        if not chunks:
            raise BadWav("no WAV file to listen to")
        silence = bytes(2 * int(gap * rate))
        return cls(rate, silence + silence.join(chunks) + silence, clock)

    def read(self, timeout: float) -> bytes | None:
        if self._at >= len(self._audio):
            self.ended = True
            self.clock.sleep(timeout)
            return None
        block = self._audio[self._at:self._at + self._step]
        self._at += self._step
        return block

    def drain(self) -> None:
        """Recorded audio holds no stale sound: its answers come in order."""

    def close(self) -> None:
        """Nothing to release: the audio is in memory."""


def read_wav(path: str | Path) -> tuple[float, bytes]:
    """(rate, 16-bit mono frames) of a WAV file: 16-bit PCM, mono or stereo (mixed down), at
    8–48 kHz, a regular file of at most 1 GB. Anything else is BadWav, before vosk sees it."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise BadWav(f"{path}: not a regular file")
        if info.st_size > MAX_WAV_BYTES:
            raise BadWav(f"{path}: larger than {MAX_WAV_BYTES >> 30} GB")
        with wave.open(str(path), "rb") as wav:
            channels, width, rate = wav.getnchannels(), wav.getsampwidth(), wav.getframerate()
            if wav.getcomptype() != "NONE" or width != 2 or channels not in (1, 2):
                raise BadWav(f"{path}: need 16-bit PCM, mono or stereo, got {channels} channel(s) of {8 * width} bits")
            if not MIN_RATE <= rate <= MAX_RATE:
                raise BadWav(f"{path}: a rate of {rate} Hz cannot be heard (need {MIN_RATE}–{MAX_RATE} Hz)")
            frames = wav.readframes(min(wav.getnframes(), info.st_size // (width * channels)))
    except (wave.Error, EOFError) as error:
        raise BadWav(f"{path}: not a WAV file ({error})") from error
    except OSError as error:
        raise BadWav(f"{path}: {error.strerror or error}") from error
    frames = frames[: len(frames) // (2 * channels) * 2 * channels]
    return float(rate), frames if channels == 1 else _mixed_down(frames)


def _mixed_down(stereo: bytes) -> bytes:
    import numpy

    pairs = numpy.frombuffer(stereo, dtype="<i2").reshape(-1, 2).astype(numpy.int32)
    return (pairs.sum(axis=1) // 2).astype("<i2").tobytes()


class EchoGate:
    """Closed while the game master speaks and for `grace` seconds after, so the listener does
    not hear the game master itself (the `Speaker` port's `speaking` and `last_spoken_end`);
    with no speaker, always open."""

    def __init__(self, speaker: Speaker | None, grace: float = GRACE_SECONDS,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.speaker = speaker
        self.grace = grace
        self.now = now

    def open(self) -> bool:
        if self.speaker is None:  # nothing is said (gm voice check)
            return True
        return not self.speaker.speaking and self.now() >= self.speaker.last_spoken_end + self.grace


class MicSource:
    """The microphone: a sounddevice RawInputStream (int16, mono, the device's rate) whose
    blocks pass the echo gate into a short buffer (older audio is dropped)."""

    def __init__(self, clock: Clock, gate: EchoGate, device: int | str | None = None,
                 block: float = BLOCK_SECONDS, keep: float = 10.0) -> None:
        sd = import_sounddevice()
        self.clock = clock
        self.gate = gate
        self.ended = False
        self._blocks: deque[bytes] = deque(maxlen=max(1, int(keep / block)))
        self._ready = threading.Event()
        try:  # the stream calls back from its own thread as soon as it starts
            info = sd.query_devices(device, "input")
            self.rate = float(info["default_samplerate"])
            self._stream = sd.RawInputStream(
                samplerate=self.rate, blocksize=int(self.rate * block), device=device,
                channels=1, dtype="int16", callback=self._on_audio)
            self._stream.start()
        except (sd.PortAudioError, ValueError) as error:
            raise NoAudio(f"no microphone to listen with ({error})") from error

    def _on_audio(self, indata, frames, time_info, status) -> None:
        if self.gate.open():
            self._blocks.append(bytes(indata))
            self._ready.set()

    def read(self, timeout: float) -> bytes | None:
        self._ready.clear()
        if not self._blocks:
            self._ready.wait(max(0.0, timeout * self.clock.scale))
        try:
            return self._blocks.popleft()
        except IndexError:
            return None

    def drain(self) -> None:
        self._blocks.clear()

    def record(self, seconds: float) -> bytes:
        """`seconds` of audio from now on."""
        self.drain()
        want = 2 * int(seconds * self.rate)
        audio = b""
        quiet = 0  # one-second waits in a row with no block: a microphone that went dead
        while len(audio) < want:
            block = self.read(1.0)
            quiet = 0 if block else quiet + 1
            if quiet > MIC_PATIENCE:
                raise NoAudio(f"the microphone sent no sound for {MIC_PATIENCE} s")
            audio += block or b""
        return audio[:want]

    def close(self) -> None:
        self._stream.stop()
        self._stream.close()


def import_sounddevice():
    """sounddevice, or NoAudio when PortAudio (libportaudio2) is missing."""
    try:
        import sounddevice
    except (ImportError, OSError) as error:
        raise NoAudio(f"PortAudio is not available ({error}); install libportaudio2") from error
    return sounddevice


def level(audio: bytes) -> tuple[float, float]:
    """(average, peak) level of 16-bit audio in dBFS."""
    samples = array("h", audio[: len(audio) // 2 * 2])
    if not samples:
        return (-120.0, -120.0)
    rms = math.sqrt(sum(s * s for s in samples) / len(samples))
    peak = max(abs(s) for s in samples)
    return tuple(20 * math.log10(max(v, 1e-6) / 32768) for v in (rms, peak))  # type: ignore[return-value]


def input_devices() -> list[dict]:
    """The input devices: index, name, channels and default rate."""
    sd = import_sounddevice()
    try:
        devices = sd.query_devices()
    except sd.PortAudioError as error:
        raise NoAudio(f"cannot list audio devices ({error})") from error
    return [{"index": d["index"], "name": d["name"], "channels": d["max_input_channels"],
             "rate": d["default_samplerate"]} for d in devices if d["max_input_channels"] > 0]


# -- listening ---------------------------------------------------------------------------------
class Session:
    """One recogniser over the source: feeds it and reports final results."""

    def __init__(self, source: Source, recogniser: Recogniser) -> None:
        self.source = source
        self.recogniser = recogniser
        self._unfinished = False

    @property
    def done(self) -> bool:
        """The source has ended and every result was handed out."""
        return self.source.ended and not self._unfinished

    def step(self, wait: float) -> Heard | None:
        """Feed the audio that came within `wait` clock seconds (all of it that is waiting);
        a final result as soon as there is one. At the end of a file: its last result."""
        block = self.source.read(wait)
        while block is not None:
            self._unfinished = True
            heard = self.recogniser.accept(block)
            if heard is not None:
                self._unfinished = False
                return heard
            block = self.source.read(0.0)
        if self.source.ended and self._unfinished:
            self._unfinished = False
            return self.recogniser.finish()
        return None


class Listener:
    """A speech model listening to one audio source; one session per question. A replayed
    recording (`gm.hearing.replay.Utterances`) gives each session its next utterance."""

    def __init__(self, model, source: Source | Recording) -> None:
        self.model = model
        self.source = source
        self._peeked: tuple[int, Phrasebook, Heard | None] | None = None

    def session(self, book: Phrasebook | None) -> Session:
        if isinstance(self.source, Recording):
            return Session(self.source.window(), self.model.recogniser(self.source.rate, book))
        self.source.drain()
        return Session(self.source, self.model.recogniser(self.source.rate, book))

    def peek(self, book: Phrasebook) -> Heard | None:
        """What the next utterance of a replayed recording says in `book`'s grammar, without
        taking it (heard once per utterance and book); None at its end."""
        recording = self.source
        if not isinstance(recording, Recording):
            raise TypeError("only a replayed recording can be heard ahead")
        at = recording.position
        if self._peeked is None or self._peeked[0] != at or self._peeked[1] is not book:
            utterance = recording.peek()
            heard = None
            if utterance is not None:
                session = Session(utterance, self.model.recogniser(recording.rate, book))
                heard = session.step(0.0)
                while heard is None and not session.done:
                    heard = session.step(0.0)
            self._peeked = (at, book, heard)
        return self._peeked[2]

    def transcript(self, book: Phrasebook | None = None) -> str:
        """Everything heard until the source ends (a recording)."""
        session = self.session(book)
        said = []
        while not session.done:
            heard = session.step(BLOCK_SECONDS)
            if heard is not None and heard.text:
                said.append(heard.text)
        return " ".join(said)

    def hear_once(self, book: Phrasebook | None, wait: float = BLOCK_SECONDS) -> Heard | None:
        """The first non-empty result until the source ends (a WAV file)."""
        session = self.session(book)
        while not session.done:
            heard = session.step(wait)
            if heard is not None and heard.text:
                return heard
        return None

    def close(self) -> None:
        self.source.close()
