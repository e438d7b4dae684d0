"""Names that are values: a str enum that prints, formats and dumps to JSON as its value."""

from __future__ import annotations

from enum import Enum


class Named(str, Enum):
    """A closed set of words (Python 3.10 has no StrEnum): `f"{Side.DEAD}"` is "dead", not "Side.DEAD"."""

    __str__ = str.__str__
