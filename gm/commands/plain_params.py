"""Plain values read without pydantic: a command's str, int, float and Path parameters, its --help.

Typer reads every parameter through a pydantic type adapter, and importing pydantic and
building the adapters costs more than the rest of a `gm score show`. The parameters gm uses
most are plain: a string, a whole number or a number (perhaps with bounds), a path. For those
this module sets a reader of its own, which gives Typer's values and messages and hands any
unusual number to Typer; every other parameter, and any Typer without this hook, keeps
Typer's own reading.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer

try:
    from typer._coercion import RuntimeParam, build_runtime_param, resolve_type_descriptor
except ImportError:  # a Typer without pydantic adapters: nothing to spare
    RuntimeParam = None  # type: ignore[assignment,misc]

_SIMPLE = {  # the forms read here; anything else (1.0 as an int, 1_000, inf, …) goes to Typer
    int: re.compile(r"[+-]?[0-9]+", re.ASCII),
    float: re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII),
}


def _shown(bound: float) -> str:
    """A bound as pydantic writes it: 0 for 0.0, 0.0001 as it is."""
    return str(int(bound)) if float(bound).is_integer() else repr(bound)


if RuntimeParam is not None:
    class PlainParam(RuntimeParam):
        """Reads a str or Path, and an int or float written plainly, as Typer does; other
        forms of numbers are left to Typer."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            kind = self.annotation
            parser = getattr(self.parameter_info, "parser", None)
            if parser is not None:  # gm's own checked reader (gm.commands.options): its message as it is
                try:
                    return parser(value)
                except typer.BadParameter as error:
                    raise typer.BadParameter(error.message, ctx=ctx, param=param) from None
            if kind is bool and isinstance(value, bool):
                return value
            if kind in _SIMPLE and not (isinstance(value, kind) and not isinstance(value, bool)):
                if not (isinstance(value, str) and _SIMPLE[kind].fullmatch(value)):
                    typers = build_runtime_param(resolve_type_descriptor(kind, self.parameter_info))
                    return typers._coerce_value(value, param=param, ctx=ctx)
            value = kind(value)
            low, high = getattr(self.parameter_info, "min", None), getattr(self.parameter_info, "max", None)
            if low is not None and value < low:
                raise typer.BadParameter(
                    f"Input should be greater than or equal to {_shown(low)}", ctx=ctx, param=param)
            if high is not None and value > high:
                raise typer.BadParameter(f"Input should be less than or equal to {_shown(high)}", ctx=ctx, param=param)
            return value


def _plain_kind(param: Any) -> type | None:
    """The plain type this parameter holds, or None when Typer must read it."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "_runtime_param", False) is not None:
        return None
    kind = descriptor.annotation
    info = descriptor.parameter_info
    if getattr(info, "parser", None) is not None and param.nargs == 1 and not param.multiple:
        return kind
    if kind is bool and getattr(param, "is_flag", False):
        return bool
    plain = kind in (str, int, float, Path) and getattr(info, "parser", None) is None \
        and getattr(info, "click_type", None) is None and not getattr(info, "clamp", False)
    bounded = getattr(info, "min", None) is not None or getattr(info, "max", None) is not None
    checked = kind is Path and (getattr(info, "exists", False) or getattr(info, "resolve_path", False)
                                or getattr(info, "allow_dash", False) or getattr(info, "path_type", None) is not None
                                or not getattr(info, "file_okay", True) or not getattr(info, "dir_okay", True)
                                or getattr(info, "writable", False))
    single = not param.multiple and param.nargs == 1
    return kind if plain and single and not checked and not (bounded and kind not in _SIMPLE) else None


def plain_help_flag(option: Any) -> Any:
    """A `--help` flag that is False when not given (Typer leaves it None, then reads that None
    through a type adapter)."""
    if option is not None:
        option.default = False
    return option


def read_plainly(command: Any, ctx: typer.Context) -> None:
    """Give every plain parameter of `command` (and of its subcommands), its `--help` flag too,
    the plain reader."""
    plain_help_flag(command.get_help_option(ctx))
    if RuntimeParam is None:
        return
    for sub in getattr(command, "commands", {}).values():
        read_plainly(sub, ctx)
    read_params_plainly(command.params)


def read_params_plainly(params: Any) -> None:
    """Give each plain parameter in `params` that has no reader yet the plain reader."""
    if RuntimeParam is None:
        return
    for param in params:
        kind = _plain_kind(param)
        if kind is not None:
            param._runtime_param = PlainParam(parameter_info=param.type_descriptor.parameter_info, annotation=kind)
