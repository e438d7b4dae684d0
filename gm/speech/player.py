"""Where rendered lines go: the default output device (sounddevice), or WAV files in a folder.

Both take `play(audio, key, cut)` and return True when the line was delivered whole, False
when `cut` (a threading.Event) was set first. `realtime` says whether playing takes the audio's
duration, which is what an urgent line can cut; `streams` whether a line may come in pieces
(the device plays each as it is rendered; a WAV file holds a whole line).
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

from gm.speech.audio import Audio, write_wav
from scorer.values import Refusal
from gm.speech.unavailable import SpeechUnavailable

_POLL = 0.02  # seconds between checks for a cut
START_TRIES = 3  # starts of a line's stream before its failure stops speech (printed lines go on)
START_WAIT = 0.2  # seconds between them
LATENCY = 0.2
"""Seconds of audio PortAudio holds for gm's streams. At its default ("low", 9 ms here) a busy
machine starves the callback and every underrun is a gap the table hears. bench/playback_bench.py
(ALSA's pulse plugin, as on a Linux desktop; 2 cores at load ~14), median of 3 takes: a 1.5 s line
took 44.9 s to play at "low" (155 underruns); in a second run 5.4 s at "high" (35 ms; 18
underruns) and 3.0 s at 0.2 s (none).
Speech is not interactive audio: a line starting a little later costs nothing."""


class BadWavDir(Refusal):
    """A wav:DIR folder that cannot be created or written."""


def sounddevice_with_output() -> Any:
    """The sounddevice module, with a default output device (or SpeechUnavailable)."""
    try:
        import sounddevice
    except ImportError as error:
        raise SpeechUnavailable("voice.no_sounddevice", str(error)) from None
    except OSError as error:  # sounddevice imports but cannot load libportaudio
        raise SpeechUnavailable("voice.no_portaudio", str(error)) from None
    try:
        sounddevice.query_devices(kind="output")
    except Exception as error:  # PortAudioError, ValueError: no default output device
        raise SpeechUnavailable("voice.no_device", str(error)) from None
    return sounddevice


class DevicePlayer:
    """Plays audio on the default output device through sounddevice; a cut stops within ~20 ms."""

    realtime = True
    streams = True  # takes a line in pieces: the first plays while the next render

    def __init__(self) -> None:
        self._sd = sounddevice_with_output()

    def play(self, audio: Audio, key: str, cut: threading.Event) -> bool:
        import numpy

        samples = numpy.frombuffer(audio.samples, dtype="<i2")
        position = 0
        finished = threading.Event()

        def fill(outdata: Any, frames: int, _time: Any, _status: Any) -> None:
            nonlocal position
            chunk = samples[position: position + frames]
            outdata[: len(chunk), 0] = chunk
            outdata[len(chunk):, 0] = 0
            position += frames
            if position >= len(samples) or cut.is_set():
                raise self._sd.CallbackStop

        stream = self._started(lambda: self._sd.OutputStream(
            samplerate=audio.rate, channels=1, dtype="int16", latency=LATENCY, callback=fill,
            finished_callback=finished.set))
        try:
            while not finished.wait(_POLL):
                if cut.is_set():
                    stream.abort()
                    break
        finally:
            stream.close()
        return not cut.is_set()

    def _started(self, opened: Callable[[], Any]) -> Any:
        """A stream from `opened`, started. A start refused (PortAudio's "Wait timed out" when a
        busy machine is slow to start its audio thread) is tried again, START_TRIES times in all,
        START_WAIT s apart: one slow start must not silence the rest of the night."""
        attempt = 1
        while True:
            stream = opened()
            try:
                stream.start()
                return stream
            except self._sd.PortAudioError:
                stream.close()
                if attempt >= START_TRIES:
                    raise
            attempt += 1
            time.sleep(START_WAIT)

    def close(self) -> None:
        """Each line opens and closes its own stream: nothing stays open."""


class WavSink:
    """Writes each line to DIR/NNNN-key.wav, numbered in speaking order (after any files already there).

    `pace` is real seconds spent "playing" per second of audio: 0 writes at once (`--speech
    wav:DIR`); 1 behaves like a loudspeaker, so an urgent line can cut a line, whose file then
    holds only what was heard.
    """

    streams = False  # one file per line

    def __init__(self, folder: Path, pace: float = 0.0) -> None:
        if not str(folder) or str(folder) == ".":
            raise BadWavDir("--speech wav:DIR needs a folder, e.g. wav:lines")
        self.folder = Path(folder)
        self.pace = pace
        self.realtime = pace > 0
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BadWavDir(f"cannot use {str(self.folder)!r} for WAV files: {error.strerror or error}") from None
        if not self.folder.is_dir():
            raise BadWavDir(f"{str(self.folder)!r} is not a folder")
        numbers = [int(m.group(1)) for p in self.folder.glob("*.wav") if (m := re.match(r"(\d+)-", p.name))]
        self._count = max(numbers, default=0)

    def play(self, audio: Audio, key: str, cut: threading.Event) -> bool:
        self._count += 1
        path = self.folder / f"{self._count:04d}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', key) or 'line'}.wav"
        start = time.monotonic()
        completed = not (self.realtime and cut.wait(audio.seconds * self.pace))
        heard = audio.seconds if completed else (time.monotonic() - start) / self.pace
        write_wav(path, audio if completed else audio.head(heard))
        return completed

    def close(self) -> None:
        """Each file is written and closed by `play`."""
