"""The Half Werewolf cards (役職カード): one row per card, what the box holds, and reading a card's name.

A card is a `Card`: a str enum whose value is the id written in logs, group files and JSON.
Its row says what the rules read of it; a new card is one row here plus its lines in every
voice pack (`werewolf.cards.<id>`, `werewolf.teach.cards.<id>`, and the lines its row names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from scorer.values import Named
from scorer.werewolf.refusal import WerewolfRefusal

EVERY_COUNT = (4, 5, 6)


@dataclass(frozen=True)
class Line:
    """A voice-pack key, the one said instead with 4 players (the book's one-card seer), and the
    deck's fields the line names (`graveyard`: how many cards lie there)."""

    key: str
    four: str | None = None
    fields: tuple[str, ...] = ()

    def at(self, players: int) -> str:
        return self.four if players == 4 and self.four is not None else self.key


@dataclass(frozen=True)
class Row:
    """What the rules read of a card.

    `box`: how many the box holds (【内容物】). `wolf`: its holder is on the werewolf side (役職ルール①).
    `dead`: its holder is on the dead side in Battle with the Dead (HW-R6). `no_vote`: how many
    players it can leave without a vote, and with which player counts (HW-R4). `ability`: its
    holder uses the seer's or the gravedigger's ability and can see the magician (HW-R7);
    `swaps`: that ability swaps a graveyard card. `morning`: its step, said in card order (HW-R3);
    `day`: a line said before the discussion. `swap_in`: the player
    counts that may swap it in for a villager (HW-R1); `teach_four`: the lesson line's name with
    4 players, where it differs (the lesson line is `werewolf.teach.cards.<id>`).
    """

    box: int = 1
    wolf: bool = False
    dead: bool = False
    no_vote: int = 0
    no_vote_with: tuple[int, ...] = EVERY_COUNT
    ability: bool = False
    swaps: bool = False
    morning: Line | None = None
    day: Line | None = None
    teach_four: str | None = None
    swap_in: tuple[int, ...] = ()

    def votes_taken(self, players: int) -> int:
        """How many players this card can leave without a vote at a table of `players`."""
        return self.no_vote if players in self.no_vote_with else 0


class AnyCard(Named):
    """What every card is: a str enum member (its value the id) that carries its row. `Card`
    holds the game's cards; a test may declare a toy card the same way and play it."""

    row: Row
    __repr__ = str.__repr__  # a card in a message reads as its id, as it always has: 'seer'

    def __new__(cls, card: str, row: Row) -> AnyCard:
        member = str.__new__(cls, card)
        member._value_ = card
        member.row = row
        return member

    def teach(self, players: int) -> str:
        """Its lesson line's key at a table of `players` (【役職サマリ】)."""
        name = self.row.teach_four if players == 4 and self.row.teach_four else self.value
        return f"werewolf.teach.cards.{name}"


class Card(AnyCard):
    """A Half Werewolf card. Rows in the rulebook's order (役職サマリ); the morning steps go in it."""

    VILLAGER = "villager", Row(box=10)
    WEREWOLF = "werewolf", Row(wolf=True)
    TRAITOR = "traitor", Row(wolf=True, dead=True, no_vote=1, no_vote_with=(4,))
    SEER = "seer", Row(ability=True, morning=Line("werewolf.seer_two", "werewolf.seer_one"),
                       teach_four="seer_four")
    GRAVEDIGGER = "gravedigger", Row(dead=True, ability=True, swaps=True,
                                     morning=Line("werewolf.gravedigger", fields=("graveyard",)))
    MAGICIAN = "magician", Row(no_vote=2)
    GORILLA = "gorilla", Row(day=Line("werewolf.gorilla"), swap_in=EVERY_COUNT)
    DEATH = "death", Row()
    ANGEL = "angel", Row(no_vote=1, day=Line("werewolf.angel"), swap_in=(6,))
    APPRENTICE = "apprentice", Row(ability=True, swaps=True, morning=Line("werewolf.apprentice"), swap_in=(6,))
    BLANK = "blank", Row()


CARD_IDS: tuple[Card, ...] = tuple(Card)
BY_ID: Mapping[str, Card] = {card.value: card for card in Card}

# The box: 10 villagers and one of every other card (rulebook 【内容物】).
BOX_COUNTS: Mapping[Card, int] = {card: card.row.box for card in Card}

# Other spellings heard at the table; the rulebook itself writes both 墓堀 and 墓掘り.
ALIASES: Mapping[str, Card] = {
    "fortune teller": Card.SEER,
    "grave digger": Card.GRAVEDIGGER,
    "reaper": Card.DEATH,
    "grim reaper": Card.DEATH,
    "墓掘り": Card.GRAVEDIGGER,
    "墓掘": Card.GRAVEDIGGER,
    "墓堀り": Card.GRAVEDIGGER,
}


class UnknownCard(WerewolfRefusal):
    """A card name that is no Half Werewolf card."""


def _key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if not (ch.isspace() or ch in "-_"))


def parse_card(text: str, names: Mapping[str, str] | None = None) -> Card:
    """The card for `text`: an id (any case), an alias, or a localized name in `names` (name → id).
    A card given as a card (`AnyCard`) is itself."""
    if isinstance(text, AnyCard):
        return text  # type: ignore[return-value]  # a toy card plays as a Card
    wanted = _key(str(text))
    lookup = {_key(card): card for card in Card}
    lookup.update({_key(name): card for name, card in ALIASES.items()})
    lookup.update({_key(name): BY_ID[card] for name, card in (names or {}).items() if card in BY_ID})
    if wanted and wanted in lookup:
        return lookup[wanted]
    raise UnknownCard(f"unknown card {text!r} (cards: {', '.join(CARD_IDS)})", "unknown_card",
                      text=text, cards=CARD_IDS)


def names_from_pack(table: Mapping[str, Any]) -> dict[str, str]:
    """Name → id for a voice pack's `[werewolf.cards]` table: its printed names and kana readings."""
    names: dict[str, str] = {}
    for card, entry in table.items():
        forms = entry.values() if isinstance(entry, Mapping) else [entry]
        names.update({form: card for form in forms})
    return names
