"""A player's side (役職ルール), and the side the executed player's cards decide on their own.

Cards are the final ones: after the passing and the gravedigger's swap. An owner is a player or
`GRAVEYARD`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from scorer.values import Named
from scorer.werewolf.cards import CARD_IDS, AnyCard, Card, parse_card
from scorer.werewolf.decks import Deck
from scorer.werewolf.refusal import WerewolfRefusal
from scorer.werewolf.tally import GRAVEYARD


class Side(Named):
    """Who a player plays for: the village, the werewolves, the Traitor Werewolf alone (HW-R5),
    or the living against the dead in Battle with the Dead (HW-R6)."""

    VILLAGERS = "villagers"
    WEREWOLVES = "werewolves"
    TRAITOR_WEREWOLF = "traitor_werewolf"
    LIVING = "living"
    DEAD = "dead"

HAND_SIZE = 2


class JudgeError(WerewolfRefusal):
    """Cards that cannot be the end of a real game, or names that are not in it."""

def owner_text(owner: str) -> str:
    """How an English message names whose cards they are: a player, or the graveyard."""
    return "the graveyard" if owner == GRAVEYARD else owner


def check_hand(hand: Sequence[str], owner: str | None, size: int = HAND_SIZE) -> None:
    """`owner`: a player, `GRAVEYARD`, or None for a hand on its own."""
    whose, held = ("the hand", "hand_") if owner is None else (owner_text(owner), "held_")
    if len(hand) != size:
        raise JudgeError(f"{whose} has {len(hand)} cards, not {size}", f"{held}size",
                         owner=owner or "", count=len(hand), size=size)
    for card in hand:
        if not isinstance(card, AnyCard) and card not in CARD_IDS:
            raise JudgeError(f"unknown card {card!r} in {whose} (cards: {', '.join(CARD_IDS)})", f"{held}unknown_card",
                             text=card, owner=owner or "", cards=CARD_IDS)


def side_of(hand: Sequence[str], turned: bool = False) -> Side:
    """The side of a player holding `hand` (役職ルール①③); `turned` = saw the magician."""
    check_hand(hand, None)
    if Card.WEREWOLF in hand and Card.TRAITOR in hand:
        return Side.TRAITOR_WEREWOLF
    if any(parse_card(card).row.wolf for card in hand) or turned:
        return Side.WEREWOLVES
    return Side.VILLAGERS

def decided_side(deck: Deck, executed: str | None, executed_hand: Sequence[str] | None) -> Side | None:
    """The winning side when the executed player's cards alone decide it, else None.

    `executed_hand` is the executed player's 2 cards, or — when the graveyard was voted — the
    graveyard's cards (None while not asked). The cases:

    - Death in the deck but not in `executed_hand`: it may lie in the graveyard (HW-R6), which
      turns the game into the living against the dead → None. Death in the executed hand is
      not in the graveyard, so the normal rules below decide.
    - Panic: the werewolf side, unless a Traitor Werewolf was spared (HW-R5): with a traitor
      in the deck that needs everyone's cards → None.
    - Werewolf + traitor in the executed hand: the Traitor Werewolf. Werewolf alone: villagers.
    - No werewolf: villagers if a Traitor Werewolf is elsewhere, else werewolves. Nobody else
      can be one if the deck has no traitor or the traitor is in `executed_hand` → werewolves;
      otherwise it depends on everyone's cards → None.
    - The graveyard voted: the same from the graveyard's cards (werewolf + traitor there →
      villagers; death there → the living); without them → None.
    """
    if executed is None:
        return None if deck.has(Card.DEATH) or deck.has(Card.TRAITOR) else Side.WEREWOLVES
    if executed_hand is None:
        return None
    check_hand(executed_hand, executed, deck.graveyard if executed == GRAVEYARD else HAND_SIZE)
    whose = owner_text(executed)
    for card, count in Counter(map(parse_card, executed_hand)).items():
        if not deck.has(card):
            raise JudgeError(f"{card} in {whose} is not in the deck", "held_not_in_deck", card=card, owner=executed)
        if count > deck.count(card):
            raise JudgeError(f"{whose} holds {count} × {card} but the deck has {deck.count(card)}", "held_over_deck",
                             owner=executed, count=count, card=card, limit=deck.count(card))
    if executed == GRAVEYARD and Card.DEATH in executed_hand:
        return Side.LIVING
    if executed != GRAVEYARD and deck.has(Card.DEATH) and Card.DEATH not in executed_hand:
        return None
    if Card.WEREWOLF in executed_hand:
        if Card.TRAITOR in executed_hand and executed != GRAVEYARD:
            return Side.TRAITOR_WEREWOLF
        return Side.VILLAGERS
    if not deck.has(Card.TRAITOR) or Card.TRAITOR in executed_hand:
        return Side.WEREWOLVES
    return None
