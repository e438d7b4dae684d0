"""Who can have seen the magician (HW-R7): a player who could have used the seer's or the
gravedigger's ability this morning (「占い師か墓堀が役職能力で…魔術師のカードを見てしまった場合」).

That is one who holds the seer, gravedigger or apprentice card now, or whose seer card the swap
took away: the seer card lies in the graveyard now and another player holds the gravedigger or
the apprentice card (whose gravedigger's ability made the swap). The gravedigger cannot swap
with themself, so a gravedigger keeps their card.
"""

from __future__ import annotations

from typing import Protocol

from scorer.werewolf.cards import Card
from scorer.werewolf.decks import Deck
from scorer.werewolf.tally import GRAVEYARD

ABILITY_CARDS = tuple(card for card in Card if card.row.ability)
SWAPPERS = tuple(card for card in Card if card.row.swaps)
MOST_TURNED = 2  # only the seer's and the gravedigger's abilities can see the magician


class CardsKnown(Protocol):
    """What the table has told about the cards (`known.Known`), as far as this rule reads it."""

    @property
    def deck(self) -> Deck: ...

    def holder(self, card: Card) -> str | None:
        """The owner an answer places `card` with, None while no answer tells."""

    def could_hold(self, owner: str, card: Card) -> bool:
        """Whether `owner` may hold `card` after everything answered."""


def _cards(known: CardsKnown, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(card for card in cards if known.deck.has(card))


def could_have_seen(known: CardsKnown, name: str) -> bool | None:
    """Whether `name` could have used an ability that sees the magician; None while the answers
    so far cannot tell (then `card_to_ask` names the card whose holder tells)."""
    holders = {card: known.holder(card) for card in _cards(known, ABILITY_CARDS)}
    if name in holders.values():
        return True
    swappers = [holders[card] for card in _cards(known, SWAPPERS)]
    if holders.get(Card.SEER) == GRAVEYARD and any(h not in (None, GRAVEYARD, name) for h in swappers):
        return True
    if any(known.could_hold(name, card) for card, holder in holders.items() if holder is None):
        return None
    if holders.get(Card.SEER) is None and any(h is None or h not in (GRAVEYARD, name) for h in swappers):
        return None  # the seer card may lie in the graveyard, taken from them
    if holders.get(Card.SEER) == GRAVEYARD and any(h is None for h in swappers):
        return None
    return False


def card_to_ask(known: CardsKnown, name: str) -> Card | None:
    """The ability card whose holder to ask next to tell whether `name` could have seen it."""
    return next((card for card in _cards(known, ABILITY_CARDS) if known.holder(card) is None), None)
