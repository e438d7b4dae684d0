"""The microphone (edge; sounddevice is imported inside functions only): input devices, a stream
whose blocks pass an echo gate (the game master does not hear itself), and levels."""

from __future__ import annotations

import math
import threading
import time
from array import array
from collections import deque
from typing import Any
from collections.abc import Callable

from gm.hearing.cannot_listen import NoAudio
from gm.hearing.sources import BLOCK_SECONDS, MAX_RATE, MIN_RATE
from gm.hearing.utterance import begun_over
from gm.ports import Clock, Speaker

GRACE_SECONDS = 0.3  # microphone audio dropped after a spoken line ends (its echo in the room)
MIC_PATIENCE = 5  # seconds without a single block before recording gives up


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

    def in_grace(self) -> bool:
        """Whether a line is over and the gate still closed for its echo (the grace)."""
        return self.speaker is not None and not self.speaker.speaking and not self.open()


class MicSource:
    """The microphone: a sounddevice RawInputStream (int16, mono, the device's rate) whose
    blocks pass the echo gate into a short buffer (older audio is dropped). The audio of the
    gate's grace is held: a reply begun over it goes in with its start (`begun_over`)."""

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
        self._held = bytearray()  # the grace's audio, since the line ended
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
            raise NoAudio(f"no microphone to listen with ({error})", detail=str(error)) from error

    def _on_audio(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        block = bytes(indata)
        if self.gate.open():
            if self._held:
                begun = begun_over(bytes(self._held), block, self.rate)
                self._held.clear()
                if begun:
                    self._blocks.append(begun)
            self._blocks.append(block)
            self._ready.set()
        elif self.gate.in_grace():
            self._held += block
            del self._held[: max(0, len(self._held) - 2 * int(self.rate * (self.gate.grace + BLOCK_SECONDS)))]
        else:
            self._held.clear()

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
        raise NoAudio(f"PortAudio is not available ({error}); install libportaudio2", "no_portaudio",
                      detail=str(error)) from error
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
        raise NoAudio(f"cannot list audio devices ({error})", "no_devices", detail=str(error)) from error
    return [{"index": d["index"], "name": d["name"], "channels": d["max_input_channels"],
             "rate": d["default_samplerate"]} for d in devices if d["max_input_channels"] > 0]
