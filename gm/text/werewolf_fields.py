"""The Half Werewolf fields of the voice packs' lines: `{cards:cards}` says card ids as the pack
names the cards ("seer" → Seer, 占い師), `{owner:owner}` says a player's name as given and the
graveyard by the pack's word for it.

Each spec maps an item of the field's value to the pack line that says it, or to None where the item
is said as it is; gm.text.lines renders them as it does `{names:items}`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from scorer.werewolf.tally import GRAVEYARD


def card_line(card: object) -> str | None:
    """The line that names `card`, an id or a Card: werewolf.cards.seer."""
    return f"werewolf.cards.{card}"


def owner_line(owner: object) -> str | None:
    """The graveyard's line, for the graveyard; a player's name is said as given."""
    return "common.graveyard" if owner == GRAVEYARD else None


ITEM_LINES: Mapping[str, Callable[[object], str | None]] = MappingProxyType({"cards": card_line, "owner": owner_line})
"""Spec → the line that says one item of a field with that spec."""
