"""The values the command line takes, each read from its text: numbers and text in a range
(a parser returns the value or raises BadValue naming what it takes; gm.commands.options gives
them to Typer), counts, players (`--players`), name=value pairs (`--votes`) and decks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from gm.errors import GmError
from gm.text.numbers import signed_number, whole_number
from gm.text.parse import split_list
from scorer.refusal import Refusal

if TYPE_CHECKING:
    from gm.werewolf.decks import Deck


class BadValue(GmError):
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


# -- players, votes and decks (gm werewolf) -----------------------------------------------------
class BadPlayers(GmError, Refusal):
    """A player list that cannot be used (empty names, duplicates, bad readings); `key` (under the
    voice packs' `errors.players`) and `fields` word it in every language."""

    prefix = "players"


def parse_players(spec: str) -> tuple[list[str], dict[str, str]]:
    """Split "Aki,Ken" or "健=けん,美緒=みお" into names and their spoken readings."""
    from scorer.names import plain_name

    names: list[str] = []
    readings: dict[str, str] = {}
    for item in spec.replace("、", ",").split(","):
        name, _, reading = item.partition("=")
        name, reading = name.strip(), reading.strip()
        if not name:
            raise BadPlayers(f"empty player name in {spec!r}", "empty_name", spec=spec)
        if name.casefold() in (n.casefold() for n in names):
            raise BadPlayers(f"player {name!r} is named twice in {spec!r}", "named_twice", name=name, spec=spec)
        if _ and not reading:
            raise BadPlayers(f"empty reading for player {name!r}", "empty_reading", name=name)
        names.append(plain_name(name))
        if reading:
            readings[name] = plain_name(reading)
    return names, readings


def player_count(text: str) -> int:
    """`--players` as a count ("4", "４") or as the players' names ("Aki,Ken,Mio,Sora")."""
    number = whole_number(text)
    return number if number is not None else len(parse_players(text)[0])


def deck_for(players: int, variant: str | None = None, swap_ins: str = "") -> Deck:
    """The deck a command plays with: the standard deck for `players`, a variant, swap-ins (HW-R1)."""
    from gm.text.names import parse_card_list
    from gm.werewolf.decks import standard_deck

    return standard_deck(players, variant, parse_card_list(swap_ins))


def parse_pairs(spec: str) -> list[tuple[str, str]]:
    """ "A=2, B=1" → [("A", "2"), ("B", "1")]; each left side at most once (any case)."""
    from gm.text.names import BadInput

    pairs: list[tuple[str, str]] = []
    for item in split_list(spec):
        left, sep, right = (part.strip() for part in item.partition("="))
        if not sep or not left or not right:
            raise BadInput(f"{item!r} is not name=value (in {spec!r})", "not_pair", item=item, spec=spec)
        if left.casefold() in (seen.casefold() for seen, _ in pairs):
            raise BadInput(f"{left!r} is given twice in {spec!r}", "given_twice", name=left, spec=spec)
        pairs.append((left, right))
    if not pairs:
        raise BadInput(f"no name=value pairs in {spec!r}", "no_pairs", spec=spec)
    return pairs


def parse_counts(spec: str, candidates: Sequence[str], aliases: Mapping[str, str] | None = None) -> dict[str, int]:
    """Count mode: "A=2,graveyard=1" → candidate → number of votes."""
    from gm.text.names import BadInput, resolve_name

    counts: dict[str, int] = {}
    for name, value in parse_pairs(spec):
        candidate = resolve_name(name, candidates, "candidate", aliases)
        if candidate in counts:
            raise BadInput(f"{candidate!r} is given twice in {spec!r}", "given_twice", name=candidate, spec=spec)
        votes = whole_number(value)
        if votes is None:
            raise BadInput(f"votes for {name!r} must be a whole number, not {value!r}", "votes_whole",
                           name=name, value=value)
        counts[candidate] = votes
    return counts


def parse_roll_call(
    spec: str, voters: Sequence[str], candidates: Sequence[str], aliases: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Roll-call mode: "A=B,C=graveyard" → voter → candidate."""
    from gm.text.names import resolve_name

    return {
        resolve_name(voter, voters, "voter"): resolve_name(choice, candidates, "candidate", aliases)
        for voter, choice in parse_pairs(spec)
    }
