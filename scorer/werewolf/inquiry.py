"""The fewest questions that decide every player's side, and the winners that follow (ゲームの勝敗).

After the vote the game master asks, in this order and only what is still open:

1. the executed player's two cards (the graveyard's when it was voted): the book's reveal;
2. with death in the deck, who holds it: in the graveyard it makes the living against the dead (HW-R6);
3. the living against the dead: who holds the gravedigger and the traitor, the dead side;
   otherwise who holds the werewolf and the traitor, and (Magician's Night) who saw the
   magician, each seer checked by the ability they could have used (HW-R7).

Every side then follows, and the verdict is what `judge` gives on a whole table agreeing with
the answers: the cards no question asked about decide nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scorer.werewolf.cards import Card
from scorer.werewolf.judge import Verdict, judge
from scorer.werewolf.known import Known
from scorer.werewolf.magician import card_to_ask
from scorer.werewolf.tally import GRAVEYARD


@dataclass(frozen=True)
class HandOf:
    """Turn up `owner`'s cards: the executed player's two, or the graveyard's."""

    owner: str


@dataclass(frozen=True)
class WhoHolds:
    """Which player holds `card`, or the graveyard."""

    card: Card


@dataclass(frozen=True)
class WhoSawMagician:
    """Who saw the magician through an ability; `more` once someone was named ("anyone else?")."""

    more: bool


Question = HandOf | WhoHolds | WhoSawMagician


def death_in_graveyard(known: Known) -> bool | None:
    """Whether the death card lies in the graveyard (HW-R6); None while unknown."""
    if not known.deck.has(Card.DEATH) or not known.could_hold(GRAVEYARD, Card.DEATH):
        return False
    holder = known.holder(Card.DEATH)
    return None if holder is None else holder == GRAVEYARD


def next_question(known: Known) -> Question | None:
    """What to ask next, or None once every player's side and the winners are decided."""
    if known.executed is not None and known.executed not in known.hands:
        return HandOf(known.executed)
    dead = death_in_graveyard(known)
    if dead is None:
        return WhoHolds(Card.DEATH)
    for card in (Card.GRAVEDIGGER, Card.TRAITOR) if dead else (Card.WEREWOLF, Card.TRAITOR):
        if known.deck.has(card) and known.holder(card) is None:
            return WhoHolds(card)
    if dead or not known.deck.has(Card.MAGICIAN):
        return None
    if known.pending is not None:
        unplaced = card_to_ask(known, known.pending)
        assert unplaced is not None, "a pending seer is decided once every ability card is placed"
        return WhoHolds(unplaced)
    if not known.seers_done:
        return WhoSawMagician(more=bool(known.seers))
    return None


def answered(known: Known, question: Question, answer: object) -> Known:
    """`known` with the table's answer to `question`: cards for `HandOf`, an owner for `WhoHolds`,
    a player or None (nobody else) for `WhoSawMagician`. Raises `AnswerRefused`."""
    if isinstance(question, HandOf):
        assert isinstance(answer, (list, tuple))
        return known.with_hand(question.owner, answer)
    if isinstance(question, WhoHolds):
        assert isinstance(answer, str)
        return known.with_holder(question.card, answer)
    if answer is None:
        return known.without_more_seers()
    assert isinstance(answer, str)
    return known.with_seer(answer)


def table(known: Known) -> tuple[dict[str, list[Card]], list[Card]]:
    """A whole table agreeing with every answer: hands and graveyard, the rest filled in."""
    cards: dict[str, list[Card]] = {owner: list(known.named_with(owner)) for owner in known.owners}
    for card in known.deck.cards:
        holder = known.holder(card) if known.deck.count(card) == 1 else None
        if holder is not None and card not in cards[holder]:
            cards[holder].append(card)  # known by elimination: the only place left for it
    left: Counter[Card] = Counter(known.deck.cards)
    left.subtract(card for hand in cards.values() for card in hand)
    spare = [card for card, count in left.items() for _ in range(count)]
    for owner in known.owners:
        while len(cards[owner]) < known.room(owner):
            cards[owner].append(spare.pop())
    graveyard = cards.pop(GRAVEYARD)
    return cards, graveyard


def verdict(known: Known) -> Verdict:
    """The verdict once `next_question` has nothing left to ask."""
    assert next_question(known) is None, "the answers do not decide every side yet"
    hands, graveyard = table(known)
    return judge(known.players, hands, graveyard, known.executed, known.seers, known.deck)
