"""The C library's rand(), which flite's synthesis and vosk's feature dither both draw from.

vosk adds random dither to every frame of audio it hears, drawn from the process's rand(), so
the same utterance gets other word confidences after other decodes or flite renders. Seeding
rand() under one lock before each render and each decode gives the same samples and the same
answer whatever ran before.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

SEED = 1
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


@contextmanager
def seeded_rand(seed: int = SEED) -> Iterator[None]:
    """Hold rand() for the block, seeded with `seed` (no other render or decode draws meanwhile)."""
    with _lock:
        libc = _libc()
        if libc is not None:
            libc.srand(seed)
        yield
