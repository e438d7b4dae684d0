"""numba for the solver: `njit` with its machine code cached once per machine (see
`solver_cache`), and the types of the solver's arguments, for explicit signatures.

The cache is numba's own user-provided cache directory (its documented NUMBA_CACHE_DIR),
set to `solver_cache.cache_dir()` before numba reads its configuration; a user's own
NUMBA_CACHE_DIR still wins. Functions called with constants compile once per constant (numba
types a constant as a literal); an explicit signature compiles the one version the search needs.
"""

from __future__ import annotations

import os

from scorer.solitaire.solver_cache import cache_dir

os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir()))

from numba import njit, types  # noqa: E402 - numba reads NUMBA_CACHE_DIR when it is imported
from numba.core.config import reload_config  # noqa: E402

reload_config()  # numba imported before this module: it reads the cache directory now

__all__ = ["I64", "array", "named", "njit"]

I64 = types.int64


def array(ndim: int) -> types.Array:
    """An int64 array of `ndim` dimensions, as the search allocates them (C order)."""
    return types.Array(I64, ndim, "C")


def named(cls: type, ndims: tuple[int, ...]) -> types.NamedTuple:
    """The numba type of a namedtuple `cls` of int64 arrays of these dimensions."""
    return types.NamedTuple([array(n) for n in ndims], cls)
