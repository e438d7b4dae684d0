"""Where the compiled solver is kept, asked without importing numba.

Machine code is cached once per machine: in the user cache dir (e.g. ~/.cache/gm/numba), in a
directory named by a digest of the solver's sources, numba's version and Python's, so a changed
solver never meets stale code. numba keeps each copy of the code (a clone, an install) in a
folder of its own there: setup compiles it once, and every later run of that copy reuses it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from functools import lru_cache
from pathlib import Path

import scorer.solitaire
from gm import DISTRIBUTION
from scorer.values import Refusal

HERE = Path(__file__).resolve().parent
SEARCH = Path(scorer.solitaire.__file__).resolve().parent
SOURCES = (HERE / "compiled.py", *(SEARCH / name for name in ("kernel.py", "search.py", "search_bound.py",
                                                             "search_memory.py")))
INSTALL_HINT = f"the pyramid solver needs numba: pip install '{DISTRIBUTION}[solver]' (./setup.sh installs it)"


class SolverMissing(Refusal):
    """numba is not installed, so the solver cannot run."""


def check_available() -> None:
    """SolverMissing, saying how to get it, when numba is not installed."""
    try:
        found = importlib.util.find_spec("numba") is not None
    except ValueError:  # blocked in sys.modules
        found = False
    if not found:
        raise SolverMissing(INSTALL_HINT)


@lru_cache(maxsize=1)
def cache_dir() -> Path:
    import platformdirs
    from importlib.metadata import version

    digest = hashlib.sha256()
    for source in SOURCES:
        digest.update(source.read_bytes())
    digest.update(f"numba {version('numba')} python {sys.implementation.cache_tag}".encode())
    return platformdirs.user_cache_path("gm") / "numba" / f"solver-{digest.hexdigest()[:16]}"


def compiled() -> bool:
    """Is the compiled search in the cache (numba's folder for a copy of this code)? If not, the
    first search compiles it."""
    tag = sys.implementation.cache_tag.replace("cpython-", "py")
    return any(cache_dir().glob(f"*/search.run-*.{tag}.nbi"))
