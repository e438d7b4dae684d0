"""Listening (edge): vosk speech models and recognisers, microphone and WAV audio sources.

vosk and sounddevice are imported inside functions only. Audio is 16-bit mono PCM at the
source's rate, in small blocks. A `Listener` runs one recogniser at a time over one source and
hands back final results as `Heard`; deciding what they mean is `gm.hearing.phrases`'s job.

A recogniser cuts its audio into utterances (`gm.hearing.utterance.Cutter`), brings each to one
level and decodes it from a fresh state (a vosk recogniser's online i-vector and CMVN adaptation
carries over from one utterance to the next), so the same words give the same result wherever
they fall in the audio.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import math
import os
import stat
import struct
import sys
import threading
import time
import wave
from array import array
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence

from gm.c_random import seeded_rand
from gm.hearing.phrases import Heard, Phrasebook
from gm.ports import Clock, Speaker
from gm.errors import GmError

if TYPE_CHECKING:
    from gm.text.lines import Voice

MODEL_ENV = "GM_VOSK_MODEL"
BLOCK_SECONDS = 0.1
MIN_RATE, MAX_RATE = 8000, 48000  # Hz a recording may have (vosk resamples it to the model's rate)
MAX_WAV_BYTES = 1 << 30
GRACE_SECONDS = 0.3  # microphone audio dropped after a spoken line ends (its echo in the room)


class NoModel(GmError):
    """No speech model was given, or the one given is missing or broken; `key` (under the voice
    packs' `listen.reason`) and `fields` say why in the night's language."""

    def __init__(self, message: str, key: str = "model_broken", path: str = "", **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = {"path": path, **fields}


MIC_PATIENCE = 5  # seconds without a single block before recording gives up


class NoAudio(OSError):
    """No way to record: PortAudio (libportaudio2) or an input device is missing; `key` (under
    the voice packs' `listen.reason`) and `fields` say why in the night's language."""

    def __init__(self, message: str, key: str = "no_microphone", **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


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
                          f"{MODEL_ENV} ({how_to_get(lang)})", "no_model", env=MODEL_ENV, how=_get_command(lang))
        given = str(found)
    return check_model(Path(given).expanduser(), given)


def _get_command(lang: str | None) -> str:
    """The command that gets a model for `lang` (said in any language)."""
    from gm.hearing.models import OFFICIAL, PACKAGES

    if lang in PACKAGES:
        return PACKAGES[lang][1]
    return f"gm voice model --get {lang}" if lang in OFFICIAL else "gm voice model"


def reason(error: Exception, voice: Voice) -> str:
    """Why gm cannot listen, in `voice`'s language (`NoModel` and `NoAudio` carry a key under
    the packs' `listen.reason`)."""
    key = getattr(error, "key", None)
    if key is None:
        return str(error).splitlines()[0]
    return voice.text(f"listen.reason.{key}", **getattr(error, "fields", {}))


def check_model(path: Path, given: str) -> Path:
    """`path` (or its `model/` folder) when it holds a vosk model: the acoustic model, its
    configuration, a decoding graph, and the i-vector extractor when the acoustic model takes
    i-vectors. NoModel names what is missing."""
    shown = given if len(given) <= 80 else given[:77] + "..."
    try:
        if not (path / "am").is_dir() and (path / "model" / "am").is_dir():
            path = path / "model"
        if not path.is_dir():
            raise NoModel(f"speech model {shown!r} is not a directory", "model_not_folder", path=shown)
        missing = [f for f in MODEL_FILES if not (path / f).is_file()]
        if not any(all((path / f).is_file() for f in graph) for graph in GRAPHS):
            missing.append(" or ".join("+".join(graph) for graph in GRAPHS))
        if "am/final.mdl" not in missing and _takes_ivectors(path / "am" / "final.mdl"):
            missing += [f for f in IVECTOR_FILES if not (path / f).is_file()]
    except OSError as error:
        raise NoModel(f"speech model path {shown!r} cannot be used ({error.strerror or error})",
                      "model_unreadable", path=shown) from error
    if missing:
        raise NoModel(f"speech model {shown!r} is not a vosk model (no {', '.join(missing)})", "model_incomplete",
                      path=shown, files=", ".join(missing))
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
            raise NoModel(f"vosk cannot be loaded ({error})", "no_vosk") from error
        vosk.SetLogLevel(-1)
        self.path = path
        self._vosk = vosk
        try:  # model_path only: Model(lang=...) may download or sys.exit
            with _stderr_silenced():  # vosk's own ERROR line; ours below says it in one line
                self._model = vosk.Model(model_path=str(path))
        except Exception as error:  # vosk raises a bare Exception for a broken model
            raise NoModel(f"vosk could not load the speech model in {str(path)!r}", "model_broken",
                          path=str(path)) from error
        self._known: dict[str, bool] = {}
        self.unk = self.hears("[unk]")

    def hears(self, word: str) -> bool:
        """Whether `word` is in the model's vocabulary (vosk_model_find_word)."""
        if word not in self._known:
            self._known[word] = self._model.vosk_model_find_word(word) >= 0
        return self._known[word]

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> Recogniser:
        """A recogniser for audio at `rate`; with a `book` holding phrases, limited to its grammar
        (vosk 0.3.45 crashes on an empty grammar, so an empty book listens without one). With
        `second_opinion`, an answer must also be in what the model hears without the grammar."""
        grammar = book.grammar() if book is not None and book.phrases else None
        return VoskRecogniser(functools.partial(self._kaldi, rate, grammar), rate, book if grammar else None,
                              functools.partial(self._kaldi, rate, None) if grammar and self.second_opinion else None)

    second_opinion = False
    """Whether answers are checked by a second decode without the grammar. Off: with the small
    models it costs several times the grammar's decode and hears espeak-ng's single words as other
    words (bench/listen_bench.py measures it)."""

    def _kaldi(self, rate: float, grammar: str | None) -> Any:
        kaldi = self._vosk.KaldiRecognizer(*((self._model, float(rate)) + ((grammar,) if grammar else ())))
        kaldi.SetWords(True)
        return kaldi


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


def load_model(option: str | None, lang: str | None = None) -> Model:
    """The model `option` (or $GM_VOSK_MODEL, or the default for `lang`) names; loaded once per
    process. English without a vosk model listens with pocketsphinx (`gm.hearing.sphinx`)."""
    return model_loader(option, lang)()


def model_loader(option: str | None, lang: str | None = None) -> Callable[[], Model]:
    """What loads the model for `option` and `lang` (`load_model`), found at once: NoModel
    when there is none, before anything slow is loaded."""
    try:
        path = model_dir(option, lang).resolve()
    except NoModel:
        from gm.hearing import sphinx

        if option or os.environ.get(MODEL_ENV) or lang != SPHINX_LANG or not sphinx.available():
            raise
        return sphinx.load
    return functools.partial(_loaded, path)


SPHINX_LANG = "en"  # the language pocketsphinx hears without a download


@functools.lru_cache(maxsize=2)
def _loaded(path: Path) -> SpeechModel:
    atexit.register(_loaded.cache_clear)  # free models before vosk's own module is torn down
    return SpeechModel(path)


class Recogniser(Protocol):
    def accept(self, block: bytes) -> Heard | None:
        """Feed audio; a final result when an utterance has ended."""

    def finish(self) -> Heard:
        """The final result of whatever audio is left."""


class Model(Protocol):
    """A loaded speech model (vosk's `SpeechModel`, pocketsphinx's `gm.hearing.sphinx.SphinxModel`)."""

    @property
    def path(self) -> Path: ...

    @property
    def unk(self) -> bool:
        """Whether it hears other speech as `[unk]`."""

    def hears(self, word: str) -> bool:
        """Whether `word` is in its vocabulary."""

    def recogniser(self, rate: float, book: Phrasebook | None = None) -> Recogniser:
        """A recogniser for audio at `rate`, limited to `book`'s grammar where it holds phrases."""


class UtteranceRecogniser(ABC):
    """A recogniser port over a decoder of whole utterances: audio is cut into utterances
    (`Cutter`), each brought to one level (`levelled`) and heard on its own (`hear`), from a
    fresh state. With a `book`, an answer must survive `confirm` (a second decode without the
    grammar, where the model has one): otherwise its words count as heard unsure."""

    def __init__(self, rate: float, book: Phrasebook | None = None) -> None:
        from gm.hearing.utterance import Cutter

        self.rate = rate
        self.book = book
        self._cutter = Cutter(rate)
        self._done: deque[bytes] = deque()

    def accept(self, block: bytes) -> Heard | None:
        self._done.extend(self._cutter.feed(block))
        return self._heard(self._done.popleft()) if self._done else None

    def finish(self) -> Heard:
        self._done.extend(self._cutter.flush())
        heard = [self._heard(u) for u in self._done]
        self._done.clear()
        return Heard(" ".join(h.text for h in heard if h.text), tuple(w for h in heard for w in h.words))

    def _heard(self, utterance: bytes) -> Heard:
        from gm.hearing.utterance import levelled

        audio = levelled(utterance, self.rate)
        heard = self.hear(audio)
        if self.book is not None and heard.text and self.book.match(heard) is not None:
            second = self.confirm(audio)
            if second is not None and not self.agrees(heard.text, second):
                return Heard(heard.text, tuple((w, 0.0) for w, _ in heard.words))
        return heard

    def agrees(self, heard: str, second: str) -> bool:
        """Whether the second decode holds every word of what the grammar heard."""
        return set(heard.split()) <= set(second.split())

    @abstractmethod
    def hear(self, audio: bytes) -> Heard:
        """What one utterance says, heard from a fresh state."""

    def confirm(self, audio: bytes) -> str | None:
        """What the utterance says without the grammar; None where there is no second decode."""
        return None


class VoskRecogniser(UtteranceRecogniser):
    """vosk, one utterance at a time, each by a KaldiRecognizer of its own (`kaldi()`, under a
    millisecond with a grammar): one recogniser carries its adaptation (online i-vectors, CMVN)
    from an utterance to the next, even across FinalResult, and hears the same words otherwise."""

    def __init__(self, kaldi: Callable[[], object], rate: float, book: Phrasebook | None = None,
                 free: Callable[[], object] | None = None) -> None:
        super().__init__(rate, book)
        self._kaldi = kaldi
        self._free = free

    def hear(self, audio: bytes) -> Heard:
        results = _decoded(self._kaldi(), audio, self.rate)
        return Heard(" ".join(h.text for h in results if h.text), tuple(w for h in results for w in h.words))

    def confirm(self, audio: bytes) -> str | None:
        if self._free is None:
            return None
        return " ".join(h.text for h in _decoded(self._free(), audio, self.rate) if h.text)


def _decoded(kaldi: Any, audio: bytes, rate: float) -> list[Heard]:
    """Every result vosk gives for `audio` fed in whole blocks (the last one filled with silence:
    vosk's network computes blocks of another length in another way, and its results for the same
    words then differ), the last result finalised. rand() is seeded first: vosk dithers every
    frame with it, so the same audio gets the same words and confidences whatever ran before."""
    step = 2 * max(1, int(BLOCK_SECONDS * rate))
    audio += bytes(-len(audio) % step)
    with seeded_rand():
        results = [Heard.from_result(json.loads(kaldi.Result()))
                   for at in range(0, len(audio), step) if kaldi.AcceptWaveform(audio[at:at + step])]
        return [*results, Heard.from_result(json.loads(kaldi.FinalResult()))]


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
    with WavFile(path) as wav:
        return wav.rate, b"".join(wav.blocks())


class WavFile:
    """A WAV file read block by block (`blocks`) or by stretches (`frames`) as 16-bit mono:
    16-bit PCM, mono or stereo (mixed down, a block at a time), at 8–48 kHz, a regular file of
    at most 1 GB. Anything else, a header that lies included, is BadWav before vosk sees it."""

    BLOCK_FRAMES = 1 << 16

    def __init__(self, path: str | Path) -> None:
        self.path = path
        try:
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode):
                raise BadWav(f"{path}: not a regular file")
            if info.st_size > MAX_WAV_BYTES:
                raise BadWav(f"{path}: larger than {MAX_WAV_BYTES >> 30} GB")
            self._wav = wave.open(str(path), "rb")
        except (wave.Error, EOFError, RuntimeError, struct.error, OverflowError) as error:
            raise BadWav(f"{path}: not a WAV file ({str(error) or 'its header does not fit the file'})") from error
        except OSError as error:
            raise BadWav(f"{path}: {error.strerror or error}") from error
        wav = self._wav
        self.channels, width, rate = wav.getnchannels(), wav.getsampwidth(), wav.getframerate()
        if wav.getcomptype() != "NONE" or width != 2 or self.channels not in (1, 2):
            self.close()
            raise BadWav(f"{path}: need 16-bit PCM, mono or stereo, got {self.channels} channel(s) of {8 * width} bits")
        if not MIN_RATE <= rate <= MAX_RATE:
            self.close()
            raise BadWav(f"{path}: a rate of {rate} Hz cannot be heard (need {MIN_RATE}–{MAX_RATE} Hz)")
        self.rate = float(rate)
        self.length = min(wav.getnframes(), info.st_size // (width * self.channels))  # frames, as far as the file goes

    def __enter__(self) -> WavFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def blocks(self, start: int = 0, end: int | None = None) -> Iterator[bytes]:
        """The frames from `start` to `end` (the end of the file), mono, BLOCK_FRAMES at a time."""
        end = self.length if end is None else min(end, self.length)
        try:
            self._wav.setpos(max(0, min(start, self.length)))
            at = start
            while at < end:
                raw = self._wav.readframes(min(self.BLOCK_FRAMES, end - at))
                if not raw:
                    return
                at += self.BLOCK_FRAMES
                raw = raw[: len(raw) // (2 * self.channels) * 2 * self.channels]
                yield raw if self.channels == 1 else _mixed_down(raw)
        except (wave.Error, EOFError, RuntimeError, struct.error) as error:
            raise BadWav(f"{self.path}: not a WAV file ({str(error) or 'its data cannot be read'})") from error
        except OSError as error:
            raise BadWav(f"{self.path}: {error.strerror or error}") from error

    def frames(self, start: int, end: int) -> bytes:
        """The mono frames from `start` to `end`."""
        return b"".join(self.blocks(start, end))

    def close(self) -> None:
        self._wav.close()


def _mixed_down(stereo: bytes) -> bytes:
    import numpy

    pairs = numpy.frombuffer(stereo, dtype="<i2").reshape(-1, 2).astype(numpy.int32)
    mono: bytes = (pairs.sum(axis=1) // 2).astype("<i2").tobytes()
    return mono


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
                 block: float = BLOCK_SECONDS, keep: float = 10.0,
                 trouble: Callable[[str], None] | None = None) -> None:
        from gm.hearing.utterance import MicCheck

        sd = import_sounddevice()
        self.clock = clock
        self.gate = gate
        self.ended = False
        self.trouble = trouble  # told once of a microphone that sends only silence, or clips
        self._check = MicCheck()
        self._blocks: deque[bytes] = deque(maxlen=max(1, int(keep / block)))
        self._ready = threading.Event()
        try:  # the stream calls back from its own thread as soon as it starts
            info = sd.query_devices(device, "input")
            self.rate = float(info["default_samplerate"])
            if not MIN_RATE <= self.rate <= MAX_RATE:
                raise NoAudio(f"the microphone records at {self.rate:g} Hz, which cannot be heard "
                              f"({MIN_RATE}–{MAX_RATE} Hz)", "mic_rate", n=f"{self.rate:g}")
            self._stream = sd.RawInputStream(
                samplerate=self.rate, blocksize=int(self.rate * block), device=device,
                channels=1, dtype="int16", callback=self._on_audio)
            self._stream.start()
        except (sd.PortAudioError, ValueError) as error:
            raise NoAudio(f"no microphone to listen with ({error})") from error

    def _on_audio(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        if self.gate.open():
            self._blocks.append(bytes(indata))
            self._ready.set()

    def read(self, timeout: float) -> bytes | None:
        self._ready.clear()
        if not self._blocks:
            self._ready.wait(max(0.0, timeout * self.clock.scale))
        try:
            block = self._blocks.popleft()
        except IndexError:
            return None
        problem = self._check.look(block)
        if problem is not None and self.trouble is not None:
            self.trouble(problem)
        return block

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
                raise NoAudio(f"the microphone sent no sound for {MIC_PATIENCE} s", "mic_dead", n=MIC_PATIENCE)
            audio += block or b""
        return audio[:want]

    def close(self) -> None:
        self._stream.stop()
        self._stream.close()


def import_sounddevice() -> Any:
    """sounddevice, or NoAudio when PortAudio (libportaudio2) is missing."""
    try:
        import sounddevice
    except (ImportError, OSError) as error:
        raise NoAudio(f"PortAudio is not available ({error}); install libportaudio2", "no_portaudio") from error
    return sounddevice


def level(audio: bytes) -> tuple[float, float]:
    """(average, peak) level of 16-bit audio in dBFS."""
    samples = array("h", audio[: len(audio) // 2 * 2])
    if not samples:
        return (-120.0, -120.0)
    rms = math.sqrt(sum(s * s for s in samples) / len(samples))
    peak = max(abs(s) for s in samples)
    return tuple(20 * math.log10(max(v, 1e-6) / 32768) for v in (rms, peak))  # type: ignore[return-value]


def input_devices() -> list[dict[str, Any]]:
    """The input devices: index, name, channels and default rate."""
    sd = import_sounddevice()
    try:
        devices = sd.query_devices()
    except sd.PortAudioError as error:
        raise NoAudio(f"cannot list audio devices ({error})", "no_devices") from error
    return [{"index": d["index"], "name": d["name"], "channels": d["max_input_channels"],
             "rate": d["default_samplerate"]} for d in devices if d["max_input_channels"] > 0]


# -- listening ---------------------------------------------------------------------------------
class Session:
    """One recogniser over the source: feeds it and reports final results. A voice command
    heard while a question is asked (`Phrasebook.passed_over`) is no reply: the session listens
    on (to a recording's next utterance, from `advance`)."""

    def __init__(self, source: Source, recogniser: Recogniser, book: Phrasebook | None = None,
                 advance: Callable[[], Source | None] | None = None) -> None:
        self.source = source
        self.recogniser = recogniser
        self.book = book
        self.advance = advance
        self._unfinished = False

    @property
    def done(self) -> bool:
        """The source has ended and every result was handed out."""
        return self.source.ended and not self._unfinished

    def step(self, wait: float) -> Heard | None:
        """Feed the audio that came within `wait` clock seconds (all of it that is waiting);
        a final result as soon as there is one. At the end of a file: its last result."""
        heard = self._step(wait)
        if heard is None or self.book is None or not self.book.passed_over(heard):
            return heard
        following = self.advance() if self.advance is not None and self.source.ended else None
        if following is not None:
            self.source = following
        return None

    def _step(self, wait: float) -> Heard | None:
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

    def __init__(self, model: Model, source: Source | Recording) -> None:
        self.model = model
        self.source = source
        self._peeked: tuple[int, Phrasebook, Heard | None] | None = None

    def session(self, book: Phrasebook | None) -> Session:
        """A session for one question: a recording's next utterance, or the source from now on
        (what was said before is dropped, so nothing left over answers this question)."""
        recogniser = self.model.recogniser(self.source.rate, book)
        if isinstance(self.source, Recording):
            recording = self.source
            return Session(recording.window(), recogniser, book,
                           lambda: None if recording.ended else recording.window())
        self.source.drain()
        return Session(self.source, recogniser, book)

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
