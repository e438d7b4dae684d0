"""The compiled solver: numba compiles the search's marked functions (scorer/solitaire/kernel.py)
to machine code, cached once per machine (see `solver_cache`), and hands back the compiled
search for `solve` and `least_left`; the pure search modules are left as they are.

Each marked function is compiled from a copy that reads its globals from a namespace of its
own, where the functions it calls are the compiled ones; functions with a signature compile at
once, in the order of their sources (each after those it calls), the others at their first
call. The cache is numba's own user-provided cache directory (its documented
NUMBA_CACHE_DIR), set to `solver_cache.cache_dir()` before numba reads its configuration; a
user's own NUMBA_CACHE_DIR still wins.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from types import FunctionType, ModuleType
from typing import Any

from gm.solitaire.solver_cache import cache_dir
from scorer.solitaire import search, search_bound, search_memory
from scorer.solitaire.kernel import KERNELS, Array, ArgType, Int, Kernel, Named
from scorer.solitaire.solver import Search

MODULES = (search_memory, search_bound, search)  # each after the ones it calls into


def caching_numba() -> ModuleType:
    """numba, its cache directory set to the solver's (unless the user set NUMBA_CACHE_DIR)."""
    os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir()))
    import numba
    from numba.core.config import reload_config

    reload_config()  # numba imported before this: it reads the cache directory now
    return numba


@lru_cache(maxsize=1)
def compiled_search() -> Search:
    """The search compiled to machine code (loaded from the cache when it is there)."""
    numba = caching_numba()
    done: dict[Callable[..., object], Any] = {}
    for module in MODULES:
        _compile_module(module, done, numba)
    return done[search.run]


def _compile_module(module: ModuleType, done: dict[Callable[..., object], Any], numba: ModuleType) -> None:
    """Compile the marked functions of `module` into `done`, in a namespace that names the
    compiled functions of the modules compiled before it."""
    names = {name: done.get(value, value) if isinstance(value, FunctionType) else value
             for name, value in vars(module).items()}
    own = [value for value in vars(module).values()
           if isinstance(value, FunctionType) and value in KERNELS and value.__module__ == module.__name__]
    for function in sorted(own, key=lambda f: f.__code__.co_firstlineno):
        copy = FunctionType(function.__code__, names, function.__name__, function.__defaults__, function.__closure__)
        copy.__qualname__ = function.__qualname__
        names[function.__name__] = done[function] = _jit(KERNELS[function], numba)(copy)


def _jit(mark: Kernel, numba: ModuleType) -> Any:
    options = {"cache": True, "nogil": mark.nogil}
    if mark.signature is None:
        return numba.njit(**options)
    return numba.njit(tuple(_numba_type(t, numba) for t in mark.signature), **options)


def _numba_type(arg: ArgType, numba: ModuleType) -> Any:
    types = numba.types
    if isinstance(arg, Int):
        return types.int64
    if isinstance(arg, Array):
        return types.Array(types.int64, arg.ndim, "C")
    if isinstance(arg, Named):
        return types.NamedTuple([types.Array(types.int64, n, "C") for n in arg.ndims], arg.cls)
    raise TypeError(f"no numba type for {arg!r}")
