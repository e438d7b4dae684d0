"""The C library's rand(), which flite's synthesis and vosk's feature dither both draw from.

vosk adds random dither to every frame of audio it hears, drawn from the process's rand(), so
the same utterance gets other word confidences after other decodes or flite renders. Each render
and each decode draws as if it alone ran, from rand() seeded with SEED: a `Draws` keeps a rand()
state of its own (the C library's initstate/setstate, which glibc's rand() draws through) and
switches it in only around each call into the library that draws from it, under one lock. So a
render and a decode take turns call by call (a block of audio), not decode by decode, and each
gets the numbers it would get alone.

Where rand() keeps no state that can be switched (macOS, musl), a decode holds rand() from its
first call to its last instead, seeded once. Where the C library cannot be opened (Windows),
nothing is seeded (`unseeded`): the listener says so once.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
from collections.abc import Iterator
from functools import cache
from typing import Protocol

SEED = 1
STATE_BYTES = 128  # glibc's own state's size (TYPE_3), so a state seeded with SEED draws as srand(SEED) does
_lock = threading.Lock()


@cache
def _libc() -> ctypes.CDLL | None:
    """The process's own C library, or None where it cannot be opened by ctypes."""
    try:
        libc = ctypes.CDLL(None)
        libc.srand.argtypes, libc.srand.restype = [ctypes.c_uint], None
    except (OSError, AttributeError, TypeError):
        return None
    return libc


def unseeded() -> bool:
    """Whether rand() cannot be seeded here (no C library ctypes can open): the same audio may
    then be heard a little differently from one decode to the next."""
    return _libc() is None


@cache
def _switchable() -> ctypes.CDLL | None:
    """The C library where rand() draws from the state setstate() switches in (glibc), else None."""
    libc = _libc()
    try:
        if libc is None:
            return None
        libc.initstate.argtypes = [ctypes.c_uint, ctypes.c_char_p, ctypes.c_size_t]
        libc.initstate.restype = ctypes.c_void_p
        libc.setstate.argtypes, libc.setstate.restype = [ctypes.c_void_p], ctypes.c_void_p
    except AttributeError:
        return None
    one, two = ctypes.create_string_buffer(STATE_BYTES), ctypes.create_string_buffer(STATE_BYTES)
    with _lock:
        before = libc.initstate(SEED, one, STATE_BYTES)
        first = libc.rand()
        libc.initstate(SEED, two, STATE_BYTES)
        again = libc.rand()
        libc.setstate(before)
    return libc if first == again else None


class Rand(Protocol):
    """rand() for one render or decode (`drawing`)."""

    def call(self) -> contextlib.AbstractContextManager[None]:
        """Around one call into a library that draws from rand()."""


class Draws:
    """A rand() state of its own, seeded with `seed`, switched in around each call (`call`)."""

    def __init__(self, libc: ctypes.CDLL, seed: int) -> None:
        self._libc = libc
        self._state = ctypes.create_string_buffer(STATE_BYTES)
        with _lock:
            libc.setstate(libc.initstate(seed, self._state, STATE_BYTES))

    @contextlib.contextmanager
    def call(self) -> Iterator[None]:
        with _lock:
            before = self._libc.setstate(self._state)
            try:
                yield
            finally:
                self._libc.setstate(before)


class _Held:
    """rand() held for the whole render or decode by `drawing`: a call needs nothing more."""

    def call(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


@contextlib.contextmanager
def drawing(seed: int = SEED) -> Iterator[Rand]:
    """rand() for one render or decode, drawing as from `seed` whatever else draws meanwhile:
    wrap each call into the library in `call()`."""
    switchable, plain = _switchable(), _libc()
    if switchable is not None:
        yield Draws(switchable, seed)
        return
    with _lock:
        if plain is not None:
            plain.srand(seed)
        yield _Held()


@contextlib.contextmanager
def seeded_rand(seed: int = SEED) -> Iterator[None]:
    """rand() for one call into a library, drawing as from `seed`."""
    with drawing(seed) as rand, rand.call():
        yield
