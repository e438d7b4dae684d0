"""Player names and readings are plain text: printable, short, never empty."""

from __future__ import annotations

from scorer.values import Refusal

MAX_NAME = 40


class BadName(Refusal):
    """A name or reading with control characters, too long, or empty."""


def plain_name(text: str, what: str = "player name") -> str:
    """`text` stripped, if it makes a usable name; else BadName naming it."""
    name = text.strip()
    if not name:
        raise BadName(f"empty {what}")
    if not name.isprintable():
        raise BadName(f"{what} {name!r} holds a control character")
    if len(name) > MAX_NAME:
        raise BadName(f"{what} {name[:MAX_NAME]!r}… is longer than {MAX_NAME} characters")
    return name
