"""The Half Werewolf cards (役職カード): ids, what the box holds, and reading a card's name."""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from scorer.werewolf.refusal import WerewolfRefusal

CARD_IDS = (
    "villager", "werewolf", "traitor", "seer", "gravedigger", "magician",
    "gorilla", "death", "angel", "apprentice", "blank",
)

# The box: 10 villagers and one of every other card (rulebook 【内容物】).
BOX_COUNTS: Mapping[str, int] = {card: 10 if card == "villager" else 1 for card in CARD_IDS}

# Other spellings heard at the table; the rulebook itself writes both 墓堀 and 墓掘り.
ALIASES: Mapping[str, str] = {
    "fortune teller": "seer",
    "grave digger": "gravedigger",
    "reaper": "death",
    "grim reaper": "death",
    "墓掘り": "gravedigger",
    "墓掘": "gravedigger",
    "墓堀り": "gravedigger",
}


class UnknownCard(WerewolfRefusal):
    """A card name that is no Half Werewolf card."""


def _key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if not (ch.isspace() or ch in "-_"))


def parse_card(text: str, names: Mapping[str, str] | None = None) -> str:
    """The card id for `text`: an id (any case), an alias, or a localized name in `names` (name → id)."""
    wanted = _key(str(text))
    lookup = {_key(card): card for card in CARD_IDS}
    lookup.update({_key(name): card for name, card in ALIASES.items()})
    lookup.update({_key(name): card for name, card in (names or {}).items()})
    if wanted and wanted in lookup:
        return lookup[wanted]
    raise UnknownCard(f"unknown card {text!r} (cards: {', '.join(CARD_IDS)})", "unknown_card",
                      text=text, cards=CARD_IDS)


def names_from_pack(table: Mapping[str, Any]) -> dict[str, str]:
    """Name → id for a voice pack's `[werewolf.cards]` table: its printed names and kana readings."""
    names: dict[str, str] = {}
    for card, entry in table.items():
        forms = entry.values() if isinstance(entry, dict) else [entry]
        names.update({form: card for form in forms})
    return names
