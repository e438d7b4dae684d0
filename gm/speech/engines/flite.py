"""Rendering with CMU Flite (Debian packages `flite`, `libflite1`): clear English, `slt` by default.

Where Debian's flite libraries load, each piece is rendered in process (gm.speech.engines.
flite_library: no process start, no voice load, no file); elsewhere it is one `flite -voice NAME
-t TEXT -o FILE` run (a few tens of milliseconds). The rate is flite's `duration_stretch` (1.0 is
the voice's own pace, about NATURAL_WPM); flite has no volume, so the samples are scaled.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from gm.speech.audio import Audio, read_audio, scaled
from gm.speech.engines import flite_library
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
    """flite is used on Linux where its libraries or its program are installed (macOS, Windows: system voices)."""
    return sys.platform.startswith("linux") and (flite_library.load() is not None or shutil.which("flite") is not None)


def _voice_ids() -> tuple[str, ...]:
    """The voices whose libraries are installed, else the ones the program has compiled in."""
    library = flite_library.load()
    return tuple(v for v in _NAMES if library.has_voice(v)) if library is not None else _program_voice_ids()


@functools.lru_cache(maxsize=1)
def _program_voice_ids() -> tuple[str, ...]:
    try:
        listing = subprocess.run(["flite", "-lv"], capture_output=True, text=True, timeout=_TIMEOUT).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(listing.partition(":")[2].split())


def voices() -> list[FoundVoice]:
    """flite's voices, slt first (none asked for where flite is not installed)."""
    if not available():
        return []
    ids = sorted(_voice_ids(), key=lambda v: (v != DEFAULT_VOICE, v))
    return [FoundVoice(v, _NAMES.get(v, f"English ({v})"), "en-us", engine=NAME) for v in ids]


class _Program:
    """Renders with one `flite` run per piece, through a temporary WAV file."""

    def __init__(self, voice_id: str) -> None:
        self.voice_id = voice_id
        self._dir = tempfile.TemporaryDirectory(prefix="gm-flite-")
        self._file = Path(self._dir.name) / "line.wav"

    def render(self, text: str, stretch: float) -> Audio:
        command = ["flite", "-voice", self.voice_id, "--setf", f"duration_stretch={stretch:.3f}",
                   "-t", text, "-o", str(self._file)]
        self._file.unlink(missing_ok=True)
        done = subprocess.run(command, capture_output=True, text=True, timeout=_TIMEOUT)
        if done.returncode != 0 or not self._file.exists():
            raise RuntimeError(f"flite wrote no audio for {text[:40]!r}: {done.stderr.strip() or done.returncode}")
        return read_audio(self._file)

    def close(self) -> None:
        self._dir.cleanup()


class Engine:
    """Renders English with one flite voice at the settings' rate and volume: in process where
    flite's libraries load, else with the `flite` program."""

    reads_kanji = False

    def __init__(self, settings: SpeechSettings) -> None:
        if not available():
            raise SpeechUnavailable("voice.no_engine", "flite is not installed")
        if settings.voice is None:  # slt is in every flite: no need to look for voices
            self.voice = FoundVoice(DEFAULT_VOICE, _NAMES[DEFAULT_VOICE], "en-us", engine=NAME)
        else:
            matching = [v for v in voices() if v.id == settings.voice]
            if not matching:
                raise UnknownVoice(f"no voice {settings.voice!r}: `gm voice list` shows the voices found")
            self.voice = matching[0]
        self.settings = settings
        library = flite_library.load()
        self._renderer = library.voice(self.voice.id) if library is not None else _Program(self.voice.id)

    @property
    def in_process(self) -> bool:
        """True when pieces are rendered by flite's library, not by its program."""
        return not isinstance(self._renderer, _Program)

    def render(self, text: str) -> Audio:
        """The audio of `text`."""
        stretch = round(NATURAL_WPM / self.settings.wpm, 3)  # as the program is told it: the same samples both ways
        audio = self._renderer.render(text, stretch)
        return scaled(audio, self.settings.volume) if self.settings.volume is not None else audio

    def close(self) -> None:
        self._renderer.close()
