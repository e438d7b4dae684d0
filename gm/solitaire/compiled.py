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
from types import FunctionType, ModuleType
from typing import Any

from gm.solitaire.solver_cache import cache_dir
from scorer.solitaire import search, search_bound, search_memory
from scorer.solitaire.kernel import KERNELS, Array, ArgType, ArrayTuple, Int, Kernel
from scorer.solitaire.solver import Search

MODULES = (search_memory, search_bound, search)  # each after the ones it calls into


def caching_numba() -> ModuleType:
    """numba, its cache directory set to the solver's (unless the user set NUMBA_CACHE_DIR)."""
    os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir()))
    import numba
    from numba.core.config import reload_config

    reload_config()  # numba imported before this: it reads the cache directory now
    module: ModuleType = numba  # untyped: mypy reads numba as Any (pyproject.toml)
    return module


Progress = Callable[[str, int, int], None]
"""Told of each step of compiling: (the function, or FIRST_SEARCH; steps done; steps in all)."""
FIRST_SEARCH = "first search"  # the last step: the functions without a signature compile at their first call
_BUILT: list[Search] = []  # the search, once built in this process


def compiled_search(progress: Progress | None = None) -> Search:
    """The search compiled to machine code (loaded from the cache when it is there), once per
    process. With `progress`, each function compiled is told as it starts, and a first search of
    a small deal compiles the rest (so that the first real search starts at once)."""
    if _BUILT:
        return _BUILT[0]
    numba = caching_numba()
    done: dict[Callable[..., object], Any] = {}
    steps = [(module, function) for module in MODULES for function in _own(module)]
    tell = progress or (lambda name, at, total: None)
    names: dict[ModuleType, dict[str, Any]] = {}
    for at, (module, function) in enumerate(steps):
        tell(function.__name__, at, len(steps) + 1)
        if module not in names:  # the functions of the modules compiled before it are the compiled ones
            names[module] = {name: done.get(value, value) if isinstance(value, FunctionType) else value
                             for name, value in vars(module).items()}
        copy = FunctionType(function.__code__, names[module], function.__name__, function.__defaults__,
                            function.__closure__)
        copy.__qualname__ = function.__qualname__
        names[module][function.__name__] = done[function] = _jit(KERNELS[function], numba)(copy)
    found: Search = done[search.run]
    if progress is not None:
        from scorer.solitaire.deal import deal_from_seed
        from scorer.solitaire.solver import least_left

        tell(FIRST_SEARCH, len(steps), len(steps) + 1)
        least_left(deal_from_seed(0, 3), search=found)
        tell(FIRST_SEARCH, len(steps) + 1, len(steps) + 1)
    _BUILT.append(found)
    return found


def _own(module: ModuleType) -> list[FunctionType]:
    """The marked functions of `module`, in the order of its source (each after those it calls)."""
    own = [value for value in vars(module).values()
           if isinstance(value, FunctionType) and value in KERNELS and value.__module__ == module.__name__]
    return sorted(own, key=lambda f: f.__code__.co_firstlineno)


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
    if isinstance(arg, ArrayTuple):
        return types.NamedTuple([types.Array(types.int64, n, "C") for n in arg.ndims], arg.cls)
    raise TypeError(f"no numba type for {arg!r}")
