"""Rendering with CMU Flite (Debian package `flite`): clear English, `slt` by default.

Each line is one `flite -voice NAME -t TEXT -o FILE` run (a few tens of milliseconds). The rate
is flite's `duration_stretch` (1.0 is the voice's own pace, about NATURAL_WPM); flite has no
volume, so the samples are scaled.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from gm.speech.audio import Audio, read_audio, scaled
from gm.speech.settings import SpeechSettings
from gm.speech.unavailable import SpeechUnavailable
from gm.speech.voices_found import FoundVoice, UnknownVoice

NAME = "flite"
DEFAULT_VOICE = "slt"
NATURAL_WPM = 170  # slt's words per minute at duration_stretch 1.0 (bench/speech_bench.py)
_NAMES = {"slt": "US female (slt)", "rms": "US male (rms)", "awb": "Scottish male (awb)",
          "kal": "US male, diphone (kal)", "kal16": "US male, diphone (kal16)"}
_TIMEOUT = 60.0  # seconds for one piece; flite renders a sentence in tens of milliseconds


def available() -> bool:
    """flite is used on Linux where the program is installed; macOS and Windows have good system voices."""
    return sys.platform.startswith("linux") and shutil.which("flite") is not None


@functools.lru_cache(maxsize=1)
def _voice_ids() -> tuple[str, ...]:
    try:
        listing = subprocess.run(["flite", "-lv"], capture_output=True, text=True, timeout=_TIMEOUT).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(listing.partition(":")[2].split())


def voices() -> list[FoundVoice]:
    """The voices compiled into flite, slt first (the program is not asked when it is not installed)."""
    if not available():
        return []
    ids = sorted(_voice_ids(), key=lambda v: (v != DEFAULT_VOICE, v))
    return [FoundVoice(v, _NAMES.get(v, f"English ({v})"), "en-us", engine=NAME) for v in ids]


class Engine:
    """Renders English with one flite voice at the settings' rate and volume."""

    reads_kanji = False

    def __init__(self, settings: SpeechSettings) -> None:
        if not available():
            raise SpeechUnavailable("voice.no_engine", "flite is not installed")
        if settings.voice is None:  # slt is built into every flite: no need to ask the program
            self.voice = FoundVoice(DEFAULT_VOICE, _NAMES[DEFAULT_VOICE], "en-us", engine=NAME)
        else:
            matching = [v for v in voices() if v.id == settings.voice]
            if not matching:
                raise UnknownVoice(f"no voice {settings.voice!r}: `gm voice list` shows the voices found")
            self.voice = matching[0]
        self.settings = settings
        self._dir = tempfile.TemporaryDirectory(prefix="gm-flite-")
        self._file = Path(self._dir.name) / "line.wav"

    def render(self, text: str) -> Audio:
        """The audio of `text`."""
        stretch = NATURAL_WPM / self.settings.wpm
        command = ["flite", "-voice", self.voice.id, "--setf", f"duration_stretch={stretch:.3f}",
                   "-t", text, "-o", str(self._file)]
        self._file.unlink(missing_ok=True)
        done = subprocess.run(command, capture_output=True, text=True, timeout=_TIMEOUT)
        if done.returncode != 0 or not self._file.exists():
            raise RuntimeError(f"flite wrote no audio for {text[:40]!r}: {done.stderr.strip() or done.returncode}")
        audio = read_audio(self._file)
        return scaled(audio, self.settings.volume) if self.settings.volume is not None else audio

    def close(self) -> None:
        self._dir.cleanup()
