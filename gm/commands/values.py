"""The values the command line's options take, each read from its text: numbers and text in a
range, counts. A parser returns the value or raises BadValue naming what it takes;
gm.commands.options gives them to Typer. (gm werewolf's players, votes and decks:
gm.commands.werewolf_values.)
"""

from __future__ import annotations

import math
from collections.abc import Callable

from scorer.values import Refusal
from gm.text.numbers import signed_number, whole_number


class BadValue(Refusal):
    """A command-line value outside what the option takes."""


def whole_in(low: int, high: int | None, unit: str = "") -> Callable[[str], int]:
    """A parser for a whole number from `low` to `high` (the message names the range; a sign only if `low` < 0).

    With `high` None the rules check the range (and name it): any whole number of up to 18 digits passes.
    """
    span = f"{low}–{high}{f' {unit}' if unit else ''}" if high is not None else ""

    def parse(text: str | int) -> int:
        text = str(text).strip()  # a default comes as a number
        value = signed_number(text) if low < 0 else whole_number(text)
        if value is None:
            raise BadValue(f"must be a whole number{f' {span}' if span else ''}, not {text!r}")
        if high is not None and not low <= value <= high:
            raise BadValue(f"must be {span}, not {value}")
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
            raise BadValue(f"must be a number {span}, not {text!r}")
        if not low <= value <= high:
            raise BadValue(f"must be {span}, not {text.strip()}")
        return value

    return parse


def text_up_to(limit: int) -> Callable[[str], str]:
    """A parser for plain text (no control characters), at most `limit` characters, not empty."""

    def parse(text: str) -> str:
        if not text.strip():
            raise BadValue("must not be empty")
        if len(text) > limit:
            raise BadValue(f"must be at most {limit} characters, not {len(text)}")
        if not text.isprintable():
            raise BadValue(f"must be plain text, not {text!r}")
        return text

    return parse


def count(text: str) -> int:
    """A count as typed: ASCII or full-width digits, perhaps after a minus sign (-, −, －): the
    rules then refuse it with the count's range."""
    value = signed_number(str(text))
    if value is None:
        raise BadValue(f"must be a whole number, not {text!r}")
    return value


# The values of gm voice say's options.
SAID_TEXT = text_up_to(100_000)
VOICE_ID = text_up_to(200)
RATE = whole_in(80, 400, "words per minute")
VOLUME = number_in(0.0, 1.0)
