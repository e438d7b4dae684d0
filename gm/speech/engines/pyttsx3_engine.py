"""Rendering with pyttsx3 (`save_to_file`), one engine kept alive.

pyttsx3 picks the platform's driver: espeak-ng on Linux, NSSS on macOS, SAPI5 on Windows.
Rendering to a file and playing it ourselves (gm.speech.player) is the same everywhere and can
be stopped mid-line, which pyttsx3's own `say` cannot on espeak (it shells out to `aplay`).
Engine creation is slow and pyttsx3 keeps one engine per driver, so a process renders through
one `Engine` at a time (a lock guards the engine).
"""

from __future__ import annotations

import sys
import threading
import weakref
from contextlib import redirect_stdout
from functools import lru_cache
from pathlib import Path
from typing import Any, TextIO

from gm.speech.audio import Audio, read_audio
from gm.speech.settings import SpeechSettings
from gm.speech.unavailable import SpeechUnavailable
from gm.speech.voices_found import FoundVoice, choose_voice, found_voice

NAME = "pyttsx3"
_ENGINE_LOCK = threading.RLock()
# engine → the settings last set on it
_APPLIED: weakref.WeakKeyDictionary[object, dict[str, object]] = weakref.WeakKeyDictionary()
_RENDER_TIMEOUT = 30.0  # seconds; espeak-ng renders a line in a few milliseconds


def _engine() -> Any:
    """The process's pyttsx3 engine (raises SpeechUnavailable when pyttsx3 or its speech library is missing)."""
    try:
        import pyttsx3
    except ImportError as error:
        raise SpeechUnavailable("voice.no_pyttsx3", str(error)) from None
    try:
        if sys.platform == "win32":  # SAPI5 is COM: each thread that uses it must initialise COM
            import comtypes

            comtypes.CoInitialize()
        engine = pyttsx3.init()
    except Exception as error:  # the driver's speech library did not load (RuntimeError, OSError, COM errors)
        raise SpeechUnavailable("voice.no_engine", str(error)) from None
    return engine


class _WithoutSavedNote:
    """stdout without the line pyttsx3's espeak driver prints after each file ("Audio saved to
    FILE"); every other write (another thread's too) goes through."""

    def __init__(self, out: TextIO, file: Path) -> None:
        self.out = out
        self.note = f"Audio saved to {file}"
        self.after_note = False

    def write(self, text: str) -> int:
        dropped = text == self.note or (self.after_note and text == "\n")
        self.after_note = text == self.note
        return len(text) if dropped else self.out.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.out, name)


@lru_cache(maxsize=1)
def _espeak_library() -> Any:
    """libespeak-ng, the library pyttsx3's espeak driver speaks through (None where it is not found)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("espeak-ng")
    return ctypes.CDLL(name) if name else None


def available() -> bool:
    """pyttsx3 is a dependency of gm: always tried, and its absence is noted when it fails."""
    return True


def voices() -> list[FoundVoice]:
    """Every voice the platform's engine offers."""
    with _ENGINE_LOCK:
        engine = _engine()
        return [found_voice(v.id, v.name, v.languages) for v in engine.getProperty("voices")]


class Engine:
    """Renders text in the voice chosen for `settings` (language, --voice, --rate)."""

    reads_kanji = False  # espeak-ng's Japanese voice reads kana only

    def __init__(self, settings: SpeechSettings) -> None:
        with _ENGINE_LOCK:
            self._engine = _engine()
            found = [found_voice(v.id, v.name, v.languages) for v in self._engine.getProperty("voices")]
        self.voice = choose_voice(found, settings.lang, settings.voice)
        self.settings = settings
        import tempfile  # here, not at the top: a line said by flite or Open JTalk needs no temporary file

        self._dir = tempfile.TemporaryDirectory(prefix="gm-speech-")
        self._file = Path(self._dir.name) / "line.wav"
        # espeak-ng renders on its own thread: runAndWait can return before the file is written.
        self._finished = threading.Event()
        self._token = self._engine.connect("finished-utterance", lambda **_: self._finished.set())

    def _apply_settings(self) -> None:
        """Set voice, rate and full volume where they differ from the shared engine's last settings."""
        if self._engine.isBusy():  # a new engine holds settings back until its first loop: run an empty one
            self._engine.runAndWait()
        espeak = self._engine.driver_name == "espeak"
        wanted: dict[str, object] = {
            "voice": self.voice.id if self.voice else None,
            "rate": self.settings.wpm,
            "volume": 1.0,  # full: --volume is the loudness stage's (gm.speech.loudness)
        }
        if _APPLIED.get(self._engine) == wanted:
            return
        for name, value in wanted.items():
            if value is not None:
                self._engine.setProperty(name, value)
        _APPLIED[self._engine] = wanted
        if espeak:
            # espeak-ng takes rate and volume on its own thread, and pyttsx3 cancels whatever is
            # still pending there when its loop starts (dropping the new rate, or the line itself):
            # wait until espeak-ng is idle (espeak_Synchronize, libespeak-ng's own call).
            library = _espeak_library()
            if library is not None:
                library.espeak_Synchronize()

    def render(self, text: str) -> Audio:
        """The audio of `text`."""
        with _ENGINE_LOCK:
            # pyttsx3's espeak loop never ends if it cannot write the file: keep the folder there.
            self._file.parent.mkdir(parents=True, exist_ok=True)
            self._file.unlink(missing_ok=True)
            with redirect_stdout(_WithoutSavedNote(sys.stdout, self._file)):
                self._apply_settings()
                self._finished.clear()
                self._engine.save_to_file(text, str(self._file))
                self._engine.runAndWait()
                written = self._finished.wait(_RENDER_TIMEOUT) and self._file.exists()
            if not written:
                raise RuntimeError(f"the speech engine wrote no audio for {text[:40]!r}")
            return read_audio(self._file)

    def close(self) -> None:
        self._engine.disconnect(self._token)
        self._dir.cleanup()

    render_parts = None  # renders what it is given whole: a line is cut into clauses first

    def warm_up(self) -> None:
        """Nothing to load ahead: the voice is ready once the engine is made."""
