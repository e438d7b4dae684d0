"""numba for the solver: `njit` with its machine code cached once per machine (see
`solver_cache`), and the types of the solver's arguments, for explicit signatures.

Functions called with constants compile once per constant (numba types a constant as a
literal); an explicit signature compiles the one version the search needs. A user's own
NUMBA_CACHE_DIR still wins.
"""

from __future__ import annotations

from pathlib import Path

from numba import config, njit, types
from numba.core import caching
from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin

from scorer.solitaire.solver_cache import HERE, cache_dir

__all__ = ["I64", "array", "named", "njit"]

I64 = types.int64


def array(ndim: int) -> types.Array:
    """An int64 array of `ndim` dimensions, as the search allocates them (C order)."""
    return types.Array(I64, ndim, "C")


def named(cls: type, ndims: tuple[int, ...]) -> types.NamedTuple:
    """The numba type of a namedtuple `cls` of int64 arrays of these dimensions."""
    return types.NamedTuple([array(n) for n in ndims], cls)


class MachineWideLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """Caches the solver's functions in `solver_cache.cache_dir()`, whatever the checkout's path."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir())

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if config.CACHE_DIR or Path(py_file).resolve().parent != HERE:
            return None
        return super().from_function(py_func, py_file)


_LOCATORS = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # type: ignore[attr-defined]  # its name before numba 0.61
if not any(c.__name__ == MachineWideLocator.__name__ for c in _LOCATORS._locator_classes):
    _LOCATORS._locator_classes.insert(0, MachineWideLocator)
