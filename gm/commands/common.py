"""Shared CLI plumbing: one-line errors with exit code 2, JSON output, player lists."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Iterator, NoReturn

import typer
from typer.core import TyperGroup

EXIT_BAD_INPUT = 2


# Click's UsageError as vendored by Typer (not exported under a public name).
_UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


class OneLineErrors(TyperGroup):
    """A missing or malformed argument is one stderr line with exit code 2, like any bad input."""

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except _UsageError as error:
            path = (error.ctx or ctx).command_path.split()[1:]  # "score flow", whatever the program name
            fail(f"{' '.join(path)}: {error.format_message()}")


class BadPlayers(ValueError):
    """A player list that cannot be used (empty names, duplicates, bad readings)."""


def fail(message: str) -> NoReturn:
    """Report bad input on one stderr line and exit with code 2."""
    typer.echo(f"gm: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def input_errors(lang: str = "en") -> Iterator[None]:
    """Turn a precise ValueError (or an unreadable file) from the core into `fail`, said in
    `lang` where the voice pack has the error's line."""
    try:
        yield
    except (ValueError, OSError) as error:
        from gm.text.lines import Voice
        from voices import LANGUAGES

        message = Voice(lang).error(error) if lang in LANGUAGES else str(error)
        fail(message.splitlines()[0] if message else type(error).__name__)


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def parse_players(spec: str) -> tuple[list[str], dict[str, str]]:
    """Split "Aki,Ken" or "健=けん,美緒=みお" into names and their spoken readings."""
    names: list[str] = []
    readings: dict[str, str] = {}
    for item in spec.replace("、", ",").split(","):
        name, _, reading = item.partition("=")
        name, reading = name.strip(), reading.strip()
        if not name:
            raise BadPlayers(f"empty player name in {spec!r}")
        if name.casefold() in (n.casefold() for n in names):
            raise BadPlayers(f"player {name!r} is named twice in {spec!r}")
        if _ and not reading:
            raise BadPlayers(f"empty reading for player {name!r}")
        names.append(name)
        if reading:
            readings[name] = reading
    return names, readings
