"""The moves of 7th Sense Training, and their JSON form (positions numbered from 1).

Using a special card takes two moves: `Special()` turns the next face-down special
(which one comes up is up to chance), then its effect — `Humalien`, `Eye`, `Owl` — or
`Forgo()` (the effect is not used; the card is discarded all the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from scorer.solitaire.cards import ELEMENTS, card_of, element, rank
from scorer.solitaire.refusal import SolitaireRefusal


class BadMove(SolitaireRefusal):
    """A move description that cannot be read."""


@dataclass(frozen=True)
class Pair:
    """Two face-up pyramid cards summing to 13."""

    a: int
    b: int


@dataclass(frozen=True)
class PairFlip:
    """The flip card with a face-up pyramid card summing to 13."""

    position: int


@dataclass(frozen=True)
class Turn:
    """Set the flip card aside and turn the next stock card (with the stock empty: the end, SS-R4)."""


@dataclass(frozen=True)
class Special:
    """Turn the next face-down special card."""


@dataclass(frozen=True)
class Humalien:
    """Discard one face-up pyramid card."""

    position: int


@dataclass(frozen=True)
class Eye:
    """Turn a face-down pyramid card after predicting `guess`; if right and `discard`, discard it."""

    position: int
    guess: int
    discard: bool = True


@dataclass(frozen=True)
class Owl:
    """Pair a set-aside card with a face-up pyramid card summing to 13."""

    card: int
    position: int


@dataclass(frozen=True)
class Forgo:
    """Discard the turned special without using its effect."""


Move = Pair | PairFlip | Turn | Special | Humalien | Eye | Owl | Forgo


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Pair):
        return {"move": "pair", "positions": [move.a + 1, move.b + 1]}
    if isinstance(move, PairFlip):
        return {"move": "pair_flip", "position": move.position + 1}
    if isinstance(move, Humalien):
        return {"move": "humalien", "position": move.position + 1}
    if isinstance(move, Eye):
        return {"move": "eye", "position": move.position + 1, "guess": move.guess, "discard": move.discard}
    if isinstance(move, Owl):
        return {"move": "owl", "card": {"rank": rank(move.card), "element": element(move.card)},
                "position": move.position + 1}
    return {"move": {Turn: "turn", Special: "special", Forgo: "forgo"}[type(move)]}


def move_from_json(data: dict[str, Any]) -> Move:
    """The move described by `move_to_json`'s output."""
    try:
        kind = data["move"]
        if kind == "pair":
            a, b = data["positions"]
            return Pair(int(a) - 1, int(b) - 1)
        if kind == "pair_flip":
            return PairFlip(int(data["position"]) - 1)
        if kind == "humalien":
            return Humalien(int(data["position"]) - 1)
        if kind == "eye":
            return Eye(int(data["position"]) - 1, int(data["guess"]), bool(data.get("discard", True)))
        if kind == "owl":
            card = data["card"]
            if card["element"] not in ELEMENTS:
                raise BadMove(f"unknown element {card['element']!r}", "unknown_element", element=repr(card["element"]))
            return Owl(card_of(int(card["rank"]), card["element"]), int(data["position"]) - 1)
        plain: dict[str, Callable[[], Move]] = {"turn": Turn, "special": Special, "forgo": Forgo}
        return plain[kind]()
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, BadMove):
            raise
        raise BadMove(f"cannot read move {data!r}", "bad_move", move=repr(data)) from error
