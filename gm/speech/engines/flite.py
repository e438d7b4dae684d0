"""Rendering with CMU Flite (Debian packages `flite`, `libflite1`): clear English, by default in
the voice a listener hears best (CLEAREST, measured by bench/speech_bench.py part 1).

Where Debian's flite libraries load, each piece is rendered in process (flite_library: no process
start, no voice load, no file, the same samples); elsewhere by the `flite` program (flite_program,
imported only then). The rate is flite's `duration_stretch` (1.0 is the voice's own pace, about
NATURAL_WPM); the volume is the loudness stage's (gm.speech.loudness).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from gm.speech.audio import Audio
from gm.speech.engines import flite_library
from gm.speech.settings import SpeechSettings
from gm.speech.unavailable import SpeechUnavailable
from gm.speech.voices_found import FoundVoice, UnknownVoice

if TYPE_CHECKING:
    from gm.speech.engines import flite_program

NAME = "flite"
# flite's voices, the clearest first: the word error rate of pocketsphinx's full language model
# over a whole night's lines (bench/speech_bench.py part 1): rms 20.0%, awb 23.8%, kal16 27.6%, slt 35.7%, kal 51.5%
CLEAREST = ("rms", "awb", "kal16", "slt", "kal")
NATURAL_WPM = 170  # slt's words per minute at duration_stretch 1.0 (bench/speech_bench.py)
_NAMES = {"slt": "US female (slt)", "rms": "US male (rms)", "awb": "Scottish male (awb)",
          "kal": "US male, diphone (kal)", "kal16": "US male, diphone (kal16)"}


def available() -> bool:
    """flite is used on Linux where its libraries or its program are installed (macOS, Windows: system voices)."""
    if not sys.platform.startswith("linux"):
        return False
    if flite_library.load() is not None:
        return True
    from gm.speech.engines import flite_program

    return flite_program.found()


def _voice_ids() -> tuple[str, ...]:
    """The voices whose libraries are installed, else the ones the program has compiled in."""
    library = flite_library.load()
    if library is not None:
        return tuple(v for v in _NAMES if library.has_voice(v))
    from gm.speech.engines import flite_program

    return flite_program.voice_ids()


def default_voice(ids: tuple[str, ...] | None = None) -> str:
    """The clearest of flite's voices installed (of `ids`, else of those found)."""
    ids = _voice_ids() if ids is None else ids
    return next((v for v in CLEAREST if v in ids), ids[0] if ids else CLEAREST[0])


def _found(voice_id: str) -> FoundVoice:
    return FoundVoice(voice_id, _NAMES.get(voice_id, f"English ({voice_id})"), "en-us", engine=NAME)


def voices() -> list[FoundVoice]:
    """flite's voices, the default first (none asked for where flite is not installed)."""
    if not available():
        return []
    ids = _voice_ids()
    default = default_voice(ids)
    return [_found(v) for v in sorted(ids, key=lambda v: (v != default, v))]


class Engine:
    """Renders English with one flite voice at the settings' rate: in process where
    flite's libraries load, else with the `flite` program."""

    reads_kanji = False

    def __init__(self, settings: SpeechSettings) -> None:
        if not available():
            raise SpeechUnavailable("voice.no_engine", "flite is not installed")
        if settings.voice is None:
            self.voice = _found(default_voice())
        else:
            matching = [v for v in voices() if v.id == settings.voice]
            if not matching:
                raise UnknownVoice(f"no voice {settings.voice!r}: `gm voice list` shows the voices found")
            self.voice = matching[0]
        self.settings = settings
        library = flite_library.load()
        if library is not None:
            self._renderer: flite_library.LibraryVoice | flite_program.ProgramVoice = library.voice(self.voice.id)
        else:
            from gm.speech.engines import flite_program

            self._renderer = flite_program.ProgramVoice(self.voice.id)

    @property
    def in_process(self) -> bool:
        """True when pieces are rendered by flite's library, not by its program."""
        return isinstance(self._renderer, flite_library.LibraryVoice)

    def render(self, text: str) -> Audio:
        """The audio of `text`."""
        stretch = round(NATURAL_WPM / self.settings.wpm, 3)  # as the program is told it: the same samples both ways
        return self._renderer.render(text, stretch)

    def close(self) -> None:
        self._renderer.close()

    render_parts = None  # renders what it is given whole: a line is cut into clauses first

    def warm_up(self) -> None:
        """Nothing to load ahead: the voice is ready once the engine is made."""
