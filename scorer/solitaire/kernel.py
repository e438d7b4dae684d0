"""The search's functions to compile, marked without a compiler: `@kernel(...)` records which
functions of `search`, `search_bound` and `search_memory` the compiled edge
(gm/solitaire/compiled.py) compiles to machine code, and with what argument types.

A mark changes nothing and nothing here imports a compiler: the marked functions stay plain
Python functions, written for compiled 64-bit arithmetic (their hashes wrap around), so they
are meant to run compiled, as `solve` and `least_left` take them. An explicit signature
compiles the one version the search needs (a compiler types a constant argument as a literal
and would compile once per constant); without one, the types come from the first call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


@dataclass(frozen=True)
class Int:
    """A 64-bit signed integer."""


@dataclass(frozen=True)
class Array:
    """A C-ordered array of 64-bit integers with `ndim` dimensions, as the search allocates them."""

    ndim: int


@dataclass(frozen=True)
class ArrayTuple:
    """A namedtuple `cls` of int64 arrays with these dimensions (the search's tables and memory)."""

    cls: type
    ndims: tuple[int, ...]


ArgType = Int | Array | ArrayTuple
I64 = Int()


@dataclass(frozen=True)
class Kernel:
    """How one function is compiled: its argument types (None: from the first call) and whether
    it lets go of the interpreter's lock while it runs."""

    signature: tuple[ArgType, ...] | None
    nogil: bool


KERNELS: dict[Callable[..., object], Kernel] = {}  # every marked function, filled as the search is imported


def array(ndim: int) -> Array:
    """An int64 array of `ndim` dimensions."""
    return Array(ndim)


def array_tuple(cls: type, ndims: tuple[int, ...]) -> ArrayTuple:
    """A namedtuple `cls` of int64 arrays of these dimensions."""
    return ArrayTuple(cls, ndims)


def kernel(*signature: ArgType, nogil: bool = False) -> Callable[[F], F]:
    """Mark a function of the search for compiling, with these argument types (none: typed at its
    first call); the function itself is returned unchanged."""

    def mark(function: F) -> F:
        KERNELS[function] = Kernel(signature or None, nogil)
        return function

    return mark
