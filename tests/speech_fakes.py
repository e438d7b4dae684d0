"""Test doubles for the speech edge: a renderer that needs no engine, a sounddevice that needs no card."""

from __future__ import annotations

import threading
import time
import types

from gm.speech.audio import Audio
from gm.speech.pieces import pieces

RATE = 8000


class FakeRenderer:
    """Renders 0.1 s of a tone per character: duration grows with text, no engine needed."""

    voice = None
    missing_language = False

    def __init__(self) -> None:
        self.rendered: list[str] = []

    def render(self, text: str) -> Audio:
        self.rendered.append(text)
        return Audio(RATE, b"\x10\x00" * int(RATE * 0.1 * len(text)))

    def parts(self, text: str):
        """The audio of each piece of `text`, rendered when asked for, as Renderer.parts gives it."""
        return (self.render(piece) for piece in pieces(text))

    def close(self) -> None:
        """Nothing to release: no engine was opened."""


def fake_sounddevice(pace: float = 1.0, devices: bool = True) -> types.ModuleType:
    """A stand-in for the sounddevice module: streams call back on a thread at `pace` × real time."""
    sd = types.ModuleType("sounddevice")

    class CallbackStop(Exception):
        """Raised by a callback to end its stream, as in sounddevice."""

    class PortAudioError(Exception):
        """sounddevice's error for a device that cannot be queried or opened."""

    class OutputStream:
        played: list = []
        latencies: list = []
        refusals = 0  # starts refused before one succeeds, as PortAudio's "Wait timed out" on a busy machine

        def __init__(self, samplerate, channels, dtype, callback, finished_callback, latency):
            import numpy

            OutputStream.latencies.append(latency)
            self.rate, self.callback, self.finished = samplerate, callback, finished_callback
            self.buffer = numpy.zeros((256, channels), dtype=dtype)
            self.aborted = threading.Event()

        def _run(self):
            while not self.aborted.is_set():
                try:
                    self.callback(self.buffer, len(self.buffer), None, None)
                except CallbackStop:
                    OutputStream.played.append(self.buffer[:, 0].copy())
                    break
                OutputStream.played.append(self.buffer[:, 0].copy())
                time.sleep(len(self.buffer) / self.rate * pace)
            self.finished()

        def start(self):
            if OutputStream.refusals:
                OutputStream.refusals -= 1
                raise PortAudioError("Error starting stream: Wait timed out [PaErrorCode -9987]")
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()

        def close(self):
            if hasattr(self, "thread"):
                self.thread.join()

        def abort(self):
            self.aborted.set()

    def query_devices(kind=None):
        if not devices:
            raise PortAudioError("Error querying device -1")
        return {"name": "fake", "max_output_channels": 2}

    sd.CallbackStop, sd.PortAudioError, sd.OutputStream, sd.query_devices = (
        CallbackStop, PortAudioError, OutputStream, query_devices)
    return sd
