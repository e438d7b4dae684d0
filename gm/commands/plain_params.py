"""Plain parameters: read without pydantic, shown without their types.

Click turns each parsed value into the parameter's value in the parameter's `process_value`,
its public hook for that, and Typer's `process_value` reads every value through a pydantic type
adapter: importing pydantic and building the adapters costs more than the rest of a `gm score
show`. Most of gm's parameters are plain: a string, a whole number or a number (perhaps with
bounds), a path, a flag, a value gm's own checked reader (`parser=`) reads. `make_plain` gives
each plain parameter Typer made a `process_value` of its own, which gives Typer's values and
messages and hands every other form to Typer's own `process_value`; any other parameter keeps
Typer's reading. It also shows each parameter plainly in help, through the public
`display_type_rich` and `get_usage_pieces`: NAME (not NAME <str>, not {NAME}), --json (not
--json <bool>).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperArgument, TyperOption

_SIMPLE = {  # the forms read here; anything else (1.0 as an int, 1_000, inf, …) goes to Typer
    int: re.compile(r"[+-]?[0-9]+", re.ASCII),
    float: re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII),
}


def _shown(bound: float) -> str:
    """A bound as pydantic writes it: 0 for 0.0, 0.0001 as it is."""
    return str(int(bound)) if float(bound).is_integer() else repr(bound)


class PlainReading:
    """A plain parameter's `process_value`: reads a str or Path, a flag, an int or float written
    plainly, or a value through gm's own `parser`, as Typer does; other values go to Typer's."""

    def __init__(self, param: Any, kind: type) -> None:
        self.param = param
        self.kind = kind
        self.typers = param.process_value  # Typer's own reading
        info = param.type_descriptor.parameter_info
        self.parser, self.low, self.high = info.parser, info.min, info.max

    def __call__(self, ctx: typer.Context, value: Any) -> Any:
        if not self.reads(value):
            return self.typers(ctx, value)
        if value is not None:
            value = self.read(ctx, value)
        callback = self.param.callback
        return value if callback is None else callback(ctx, self.param, value)

    def reads(self, value: Any) -> bool:
        """Whether `value` is read here; a missing required value is Typer's to report."""
        if value is None:
            return not self.param.required
        if self.parser is not None:
            return True
        if self.kind is bool:
            return isinstance(value, bool)
        if self.kind in _SIMPLE:
            given = isinstance(value, self.kind) and not isinstance(value, bool)
            return given or (isinstance(value, str) and _SIMPLE[self.kind].fullmatch(value) is not None)
        return isinstance(value, (str, os.PathLike))

    def read(self, ctx: typer.Context, value: Any) -> Any:
        if self.parser is not None:  # gm's own checked reader (gm.commands.options): its message as it is
            try:
                return self.parser(value)
            except typer.BadParameter as error:
                raise typer.BadParameter(error.message, ctx=ctx, param=self.param) from None
        if self.kind is bool:
            return value
        value = self.kind(value)
        if self.low is not None and value < self.low:
            raise typer.BadParameter(
                f"Input should be greater than or equal to {_shown(self.low)}", ctx=ctx, param=self.param)
        if self.high is not None and value > self.high:
            raise typer.BadParameter(
                f"Input should be less than or equal to {_shown(self.high)}", ctx=ctx, param=self.param)
        return value


def plain_kind(param: Any) -> type | None:
    """The plain type this parameter holds, or None when Typer must read it."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or param.multiple or param.nargs != 1:
        return None
    kind: type = descriptor.annotation
    info = descriptor.parameter_info
    if info.parser is not None:
        return kind
    if kind is bool:
        return bool if getattr(param, "is_flag", False) else None
    plain = kind in (str, int, float, Path) and not info.clamp
    bounded = info.min is not None or info.max is not None
    checked = kind is Path and (info.exists or info.resolve_path or info.allow_dash or info.path_type is not None
                                or not info.file_okay or not info.dir_okay or info.writable)
    return kind if plain and not checked and not (bounded and kind not in _SIMPLE) else None


def _no_type(ctx: Any) -> None:
    """No type beside a name in help."""
    return None


def _usage_name(param: TyperArgument) -> Any:
    """An argument in the usage line: NAME when required, else [NAME]."""

    def pieces(ctx: Any) -> list[str]:
        name = param.display_name_raw
        return [name if param.required else f"[{name}]"]

    return pieces


def make_plain(params: Iterable[Any]) -> None:
    """Give each parameter Typer made plain help and, where it is plain, the plain reading
    (once: a parameter keeps what it was given)."""
    for param in params:
        if isinstance(param, TyperArgument):
            param.display_type_rich = _no_type  # type: ignore[method-assign]
            param.get_usage_pieces = _usage_name(param)  # type: ignore[method-assign]
        elif isinstance(param, TyperOption) and param.is_flag:
            param.display_type_rich = _no_type  # type: ignore[method-assign]
        kind = plain_kind(param)
        if kind is not None and not isinstance(param.process_value, PlainReading):
            param.process_value = PlainReading(param, kind)
