"""What the table has told the game master about the final cards: hands turned face up, who holds
a card, who saw the magician. Every answer is checked against the deck and the answers before it.

An owner is a player or `GRAVEYARD`. Only cards the deck holds once are asked by holder (the
werewolf, the traitor, death, the gravedigger, the seer, the apprentice): their holder is one
owner. Villagers fill every place no answer names.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from collections.abc import Mapping, Sequence

from scorer.werewolf.cards import Card
from scorer.werewolf.decks import Deck
from scorer.werewolf.magician import MOST_TURNED, could_have_seen
from scorer.werewolf.sides import HAND_SIZE, JudgeError, decided_side
from scorer.werewolf.tally import GRAVEYARD


class AnswerRefused(JudgeError):
    """An answer about the cards that cannot be, with what was told before."""


@dataclass(frozen=True)
class Known:
    """The table's answers so far. `executed`: a player, `GRAVEYARD`, or None after a panic.

    `seers`: who saw the magician, None while not asked; `seers_done` once the table said nobody
    else; `pending`: a name given as a seer whose ability is still being checked (HW-R7).
    """

    players: tuple[str, ...]
    deck: Deck
    executed: str | None
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))
    holders: Mapping[Card, str] = field(default_factory=lambda: MappingProxyType({}))
    seers: tuple[str, ...] = ()
    seers_done: bool = False
    pending: str | None = None

    # -- reading ----------------------------------------------------------------------------
    @property
    def owners(self) -> tuple[str, ...]:
        return (*self.players, GRAVEYARD)

    def room(self, owner: str) -> int:
        """How many cards `owner` holds: 2 per player, the deck's graveyard count."""
        return self.deck.graveyard if owner == GRAVEYARD else HAND_SIZE

    def named_with(self, owner: str) -> tuple[Card, ...]:
        """The cards answers place with `owner` (its whole hand once it was turned up)."""
        if owner in self.hands:
            return self.hands[owner]
        return tuple(card for card, holder in self.holders.items() if holder == owner)

    def could_hold(self, owner: str, card: Card) -> bool:
        """Whether `owner` may hold `card` after everything answered."""
        placed = self._placed(card)
        if placed is not None:
            return placed == owner
        if owner in self.hands:
            return card in self.hands[owner]
        return len(self.named_with(owner)) < self.room(owner)

    def holder(self, card: Card) -> str | None:
        """Who holds `card`: answered, in a hand turned up, or the only owner with room; else None."""
        placed = self._placed(card)
        if placed is not None:
            return placed
        able = [owner for owner in self.owners if self.could_hold(owner, card)]
        return able[0] if len(able) == 1 else None

    def _placed(self, card: Card) -> str | None:
        if card in self.holders:
            return self.holders[card]
        return next((owner for owner, hand in self.hands.items() if card in hand), None)

    # -- answers ----------------------------------------------------------------------------
    def with_hand(self, owner: str, cards: Sequence[Card]) -> Known:
        """`owner`'s cards turned face up (the executed player's, or the graveyard's)."""
        cards = tuple(cards)
        decided_side(self.deck, owner, cards)  # size, cards in the deck, counts within the deck
        counts = Counter(cards)
        for hand in self.hands.values():
            counts.update(hand)
        for card, count in counts.items():
            if count > self.deck.count(card):
                raise AnswerRefused(f"{count} × {card} but the deck has {self.deck.count(card)}", "over_deck",
                                    count=count, card=card, limit=self.deck.count(card))
        for card in set(cards):
            placed = self._placed(card)
            if placed is not None and placed != owner and self.deck.count(card) == 1:
                raise AnswerRefused(f"the {card} card was said to be with {_whose(placed)}", "card_elsewhere",
                                    card=card, owner=placed)
        for card in self.named_with(owner):
            if card not in cards:
                raise AnswerRefused(f"the {card} card was said to be with {_whose(owner)}", "card_elsewhere",
                                    card=card, owner=owner)
        return replace(self, hands=MappingProxyType({**self.hands, owner: cards}))

    def with_holder(self, card: Card, owner: str) -> Known:
        """The table's answer to "who holds `card`?": a player or the graveyard."""
        if owner not in self.owners:
            raise AnswerRefused(f"{owner!r} is neither a player ({', '.join(self.players)}) nor the graveyard",
                                "holder_unknown", name=owner, players=self.players)
        placed = self._placed(card)
        if placed is not None and placed != owner:
            if placed in self.hands:
                raise AnswerRefused(f"{_whose(placed)} showed the {card} card", "card_shown",
                                    card=card, owner=placed)
            raise AnswerRefused(f"the {card} card was said to be with {_whose(placed)}", "card_elsewhere",
                                card=card, owner=placed)
        if owner in self.hands and card not in self.hands[owner]:
            raise AnswerRefused(f"{_whose(owner)} showed {', '.join(self.hands[owner])}, no {card}", "not_shown",
                                owner=owner, cards=self.hands[owner], card=card)
        if placed is None and len(self.named_with(owner)) >= self.room(owner):
            held = self.named_with(owner)
            raise AnswerRefused(f"{_whose(owner)} holds {self.room(owner)} cards, said to be {', '.join(held)}",
                                "owner_full", owner=owner, size=self.room(owner), cards=held)
        return self._settled(replace(self, holders=MappingProxyType({**self.holders, card: owner})))

    def with_seer(self, name: str) -> Known:
        """A player named as having seen the magician through an ability (checked: HW-R7)."""
        if name not in self.players:
            raise AnswerRefused(f"{name!r} saw the magician but is not a player ({', '.join(self.players)})",
                                "turned_not_player", name=name, players=self.players)
        if name in self.seers:
            raise AnswerRefused(f"a player is named twice among those who saw the magician: {[*self.seers, name]}",
                                "turned_twice", players=[*self.seers, name])
        if len(self.seers) >= MOST_TURNED:
            raise AnswerRefused(f"{len(self.seers) + 1} players saw the magician, but only the seer and the "
                                "gravedigger can", "too_many_turned", count=len(self.seers) + 1)
        return self._settled(replace(self, pending=name))

    def without_more_seers(self) -> Known:
        """The table says nobody else saw the magician."""
        return replace(self, seers_done=True)

    def _settled(self, known: Known) -> Known:
        """`known` with the pending seer taken or refused once their ability can be told."""
        name = known.pending
        if name is None:
            return known
        able = could_have_seen(known, name)
        if able is None:
            return known
        if able:
            done = len(known.seers) + 1 >= MOST_TURNED
            return replace(known, seers=(*known.seers, name), pending=None, seers_done=done)
        raise SeerRefused(name, replace(known, pending=None))


class SeerRefused(AnswerRefused):
    """A player named as a seer of the magician who could not have used the seer's or the
    gravedigger's ability this morning (HW-R7); `then` is what is known without the name."""

    def __init__(self, name: str, then: Known) -> None:
        super().__init__(f"{name} could not have seen the magician: they hold no seer, gravedigger or apprentice "
                         "card, and no swap can have taken the seer card from them (HW-R7)", "not_a_seer", name=name)
        self.then = then


def _whose(owner: str) -> str:
    return "the graveyard" if owner == GRAVEYARD else owner
