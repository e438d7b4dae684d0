"""The small values every part of gm shares, whatever it is about: `Named`, a closed set of words,
and `Refusal`, the one base of every error that refuses bad input.

Nothing here knows a game, a file or a terminal: it imports only the standard library, and the rules
(scorer), the voice packs (voices) and the application (gm) all build on it
(tests/project/test_architecture.py keeps it so).
"""

from __future__ import annotations

from enum import Enum


class Named(str, Enum):
    """A closed set of words (Python 3.10 has no StrEnum): `f"{Side.DEAD}"` is "dead", not "Side.DEAD"."""

    __str__ = str.__str__


class Refusal(ValueError):
    """Input gm cannot take — a name, a count, a card, a file, a setting — refused with an English
    message that names it (and the state it met). The command line turns every Refusal into one
    line on stderr and exit code 2, and changes nothing.

    `key` (under the voice packs' `errors` table, after the class's `prefix`) and `fields` let the
    app say it in another language; a refusal without a key is said in its English message."""

    prefix = ""

    def __init__(self, message: str, key: str = "", **fields: object) -> None:
        super().__init__(message)
        self.key = f"{self.prefix}.{key}" if key and self.prefix else key
        self.fields = fields
