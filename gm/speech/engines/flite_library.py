"""CMU Flite in process: Debian's `libflite1` shared libraries through ctypes (flite.h, 2.2).

A render is one `flite_text_to_wave` call: no process to start, no voice to load, no file. A
voice keeps its features (`duration_stretch`) in state shared by everyone using it, and flite is
not thread-safe, so every call into the library holds one lock. ctypes releases the GIL while
flite renders, so other threads (the one playing the previous piece) keep running. slt, rms
and awb mix in noise from the C library's rand(): it is seeded before each render as in a fresh
`flite` process, so a text always gives the same samples, those of the `flite` program.
"""

from __future__ import annotations

import array
import ctypes
import functools
import sys
import threading

from gm.c_random import seeded_rand
from gm.speech.audio import Audio


class _Wave(ctypes.Structure):
    """`cst_wave` (cst_wave.h)."""

    _fields_ = [("type", ctypes.c_char_p), ("sample_rate", ctypes.c_int), ("num_samples", ctypes.c_int),
                ("num_channels", ctypes.c_int), ("samples", ctypes.POINTER(ctypes.c_short))]


class _Voice(ctypes.Structure):
    """The head of `cst_voice` (cst_voice.h): only its features are used."""

    _fields_ = [("name", ctypes.c_char_p), ("features", ctypes.c_void_p), ("ffunctions", ctypes.c_void_p)]


def _open(name: str) -> ctypes.CDLL | None:
    """The shared library `lib{name}`: Debian's soname (`lib{name}.so.1`), else whatever the system's linker finds."""
    try:
        return ctypes.CDLL(f"lib{name}.so.1")
    except OSError:
        from ctypes.util import find_library

        found = find_library(name)
    try:
        return ctypes.CDLL(found) if found else None
    except OSError:
        return None


@functools.cache
def _voice_library(voice_id: str) -> ctypes.CDLL | None:
    return _open(f"flite_cmu_us_{voice_id}")


class LibraryVoice:
    """One registered flite voice, rendering through the library's lock."""

    def __init__(self, library: Library, voice: ctypes._Pointer[_Voice]) -> None:
        self._library = library
        self._voice = voice

    def render(self, text: str, stretch: float) -> Audio:
        """The audio of `text` at `duration_stretch` `stretch`, at the voice's own sample rate."""
        return self._library.render(self._voice, text, stretch)

    def close(self) -> None:
        """Nothing to free: the voice stays registered for the rest of the process."""


class Library:
    """libflite with the voice libraries found beside it; each voice registered once per process."""

    def __init__(self, flite: ctypes.CDLL) -> None:
        flite.flite_init.argtypes, flite.flite_init.restype = [], ctypes.c_int
        flite.flite_text_to_wave.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Voice)]
        flite.flite_text_to_wave.restype = ctypes.POINTER(_Wave)
        flite.delete_wave.argtypes, flite.delete_wave.restype = [ctypes.POINTER(_Wave)], None
        flite.flite_feat_set_float.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_float]
        flite.flite_feat_set_float.restype = None
        flite.flite_init()
        self._flite = flite
        self._lock = threading.Lock()
        self._voices: dict[str, LibraryVoice] = {}

    @staticmethod
    def has_voice(voice_id: str) -> bool:
        """True when the library of voice `voice_id` (libflite_cmu_us_ID) is installed."""
        return _voice_library(voice_id) is not None

    def voice(self, voice_id: str) -> LibraryVoice:
        """Voice `voice_id`, registered on first use (`register_cmu_us_ID(NULL)`)."""
        with self._lock:
            if voice_id not in self._voices:
                voice_library = _voice_library(voice_id)
                if voice_library is None:
                    raise ValueError(f"no flite voice library for {voice_id!r}")
                register = getattr(voice_library, f"register_cmu_us_{voice_id}")
                register.argtypes, register.restype = [ctypes.c_char_p], ctypes.POINTER(_Voice)
                voice = register(None)
                if not voice:
                    raise RuntimeError(f"flite could not register voice {voice_id!r}")
                self._voices[voice_id] = LibraryVoice(self, voice)
            return self._voices[voice_id]

    def render(self, voice: ctypes._Pointer[_Voice], text: str, stretch: float) -> Audio:
        """The audio of `text` in `voice` at `stretch` (flite's waves are mono, native-endian 16-bit)."""
        with self._lock:
            self._flite.flite_feat_set_float(voice.contents.features, b"duration_stretch", stretch)
            with seeded_rand():  # the program's very samples: it starts with rand() unseeded, as srand(1)
                wave = self._flite.flite_text_to_wave(text.encode("utf-8"), voice)
            if not wave:
                raise RuntimeError(f"flite made no audio for {text[:40]!r}")
            try:
                rate, frames = wave.contents.sample_rate, wave.contents.num_samples
                samples = ctypes.string_at(wave.contents.samples, 2 * frames) if frames > 0 else b""
            finally:
                self._flite.delete_wave(wave)
        if sys.byteorder == "big":
            swapped = array.array("h", samples)
            swapped.byteswap()
            samples = swapped.tobytes()
        return Audio(rate, samples)


_LOADING = threading.Lock()
_loaded: list[Library | None] = []  # one Library (one lock) per process, whichever thread asks first


def load() -> Library | None:
    """libflite, initialised once per process; None where it cannot be loaded."""
    with _LOADING:
        if not _loaded:
            flite = _open("flite")
            _loaded.append(Library(flite) if flite is not None else None)
        return _loaded[0]
