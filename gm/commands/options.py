"""Options shared by the commands (Typer `Annotated` style), and the checked values they take.

Every number has a range that makes sense at a table; a value outside it is refused with the
range in the message. Counts are typed with ASCII or full-width digits (３) only.
"""

from __future__ import annotations

import math
from typing import Annotated
from collections.abc import Callable

import typer

from voices import default_language
from gm.errors import GmError
from scorer.counts import whole_number


def whole_in(low: int, high: int | None, unit: str = "") -> Callable[[str], int]:
    """A parser for a whole number from `low` to `high` (the message names the range; a sign only if `low` < 0).

    With `high` None the rules check the range (and name it): any whole number of up to 18 digits passes.
    """
    span = f"{low}–{high}{f' {unit}' if unit else ''}" if high is not None else ""

    def parse(text: str | int) -> int:
        text = str(text).strip()  # a default comes as a number
        sign = -1 if low < 0 and text.startswith("-") else 1
        value = whole_number(text[1:] if sign < 0 else text)
        if value is not None:
            value *= sign
        if value is None:
            raise typer.BadParameter(f"must be a whole number{f' {span}' if span else ''}, not {text!r}")
        if high is not None and not low <= value <= high:
            raise typer.BadParameter(f"must be {span}, not {value}")
        return value

    return parse


def number_in(low: float, high: float, unit: str = "") -> Callable[[str], float]:
    """A parser for a decimal number from `low` to `high` (not inf or nan)."""
    span = f"{low:g}–{high:g}{f' {unit}' if unit else ''}"

    def parse(text: str | float) -> float:
        text = str(text)  # a default comes as a number
        try:
            value = float(text) if text.strip().isascii() and "_" not in text else math.nan
        except ValueError:
            value = math.nan
        if math.isnan(value):
            raise typer.BadParameter(f"must be a number {span}, not {text!r}")
        if not low <= value <= high:
            raise typer.BadParameter(f"must be {span}, not {text.strip()}")
        return value

    return parse


def text_up_to(limit: int) -> Callable[[str], str]:
    """A parser for plain text (no control characters), at most `limit` characters, not empty."""

    def parse(text: str) -> str:
        if not text.strip():
            raise typer.BadParameter("must not be empty")
        if len(text) > limit:
            raise typer.BadParameter(f"must be at most {limit} characters, not {len(text)}")
        if not text.isprintable():
            raise typer.BadParameter(f"must be plain text, not {text!r}")
        return text

    return parse


# -- talking (gm/speech) ---------------------------------------------------------------------
LANG = default_language()  # the locale's language when it is Japanese or Korean, else en
Lang = Annotated[str, typer.Option(
    "--lang", metavar="LANG",
    help="Language of every line: en, ja or ko (by default the locale's, when it is Japanese or Korean).")]
Speech = Annotated[str, typer.Option(
    "--speech", metavar="MODE", envvar="GM_SPEECH", show_envvar=False,
    help="on: speak and print every line (the default; or $GM_SPEECH); off: print only; "
         "wav:DIR: one WAV file per line.")]
VoiceId = Annotated[str | None, typer.Option(
    "--voice", metavar="ID", parser=text_up_to(200),
    help="A voice from `gm voice list` instead of the language's default.")]
Rate = Annotated[int | None, typer.Option(
    "--rate", metavar="WPM", parser=whole_in(80, 400, "words per minute"),
    help="Speaking rate for every engine, 80–400 words per minute (default: 150).")]
Volume = Annotated[float | None, typer.Option(
    "--volume", metavar="LEVEL", parser=number_in(0.0, 1.0), help="Volume from 0.0 to 1.0.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON (stable snake_case keys) instead.")]


# -- listening (gm/hearing) -----------------------------------------------------------------
Listen = Annotated[str, typer.Option(
    "--listen", metavar="on|off", help="on: spoken answers and commands, keyboard too; off: keyboard only.")]
ListenFrom = Annotated[str | None, typer.Option(
    "--listen-from", metavar="WAV", parser=text_up_to(4096),
    help="Hear the answers from this WAV file instead of the microphone (tests, replays).")]
VoskModel = Annotated[str | None, typer.Option(
    "--vosk-model", metavar="DIR", parser=text_up_to(4096),
    help="Vosk model folder (default: $GM_VOSK_MODEL; see `gm voice model`).")]


class BadListen(GmError):
    """A --listen value that is not on or off."""


def listen_spec(listen: str, listen_from: str | None = None) -> str:
    """What `open_asker` listens to: "off", "on" (the microphone) or a WAV file's path."""
    if listen not in ("on", "off"):
        raise BadListen(f"--listen must be on or off, not {listen!r}")
    return listen_from or listen
