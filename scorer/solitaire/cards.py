"""The 7th Sense Training cards: 52 number cards (1–13 in four elements) and 8 specials.

A number card is an int 0..51: rank = card // 4 + 1, element = ELEMENTS[card % 4].
"""

from __future__ import annotations

from scorer.solitaire.refusal import SolitaireRefusal

ELEMENTS = ("fire", "water", "wind", "earth")
RANKS = range(1, 14)
NUMBER_CARDS = tuple(range(52))
KING = 13  # a 13 leaves as soon as it is face up (SS-R2)

HUMALIEN = "humalien"
EYE = "eye"
OWL = "owl"
SPECIAL_CARDS = (HUMALIEN,) * 2 + (EYE,) * 2 + (OWL,) * 4


class BadCard(SolitaireRefusal):
    """A card id or name that is not one of the 52 number cards."""


def rank(card: int) -> int:
    return card // 4 + 1


def element(card: int) -> str:
    return ELEMENTS[card % 4]


def card_of(rank_: int, element_: str) -> int:
    """The card id of `rank_` (1–13) in `element_`."""
    if rank_ not in RANKS or element_ not in ELEMENTS:
        raise BadCard(f"no number card {rank_} of {element_}", "no_number_card", rank=str(rank_), element=str(element_))
    return (rank_ - 1) * 4 + ELEMENTS.index(element_)


def label(card: int) -> str:
    """Short name: "7 fire"."""
    return f"{rank(card)} {element(card)}"


def pairs(a: int, b: int) -> bool:
    """Two number cards make a pair when their numbers sum to 13."""
    return rank(a) + rank(b) == 13
