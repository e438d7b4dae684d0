"""A deal: the pyramid's cards, the stock's order and the specials' order.

Seeded deal (the same on every machine and Python ≥ 3.10): `rng = random.Random(seed)`
(Mersenne Twister, integer seed), then a Fisher–Yates shuffle of the number cards 0..51:
for i from 51 down to 1, swap card i with card `rng.randrange(i + 1)`. The first `size`
cards fill the pyramid row by row from the top (left to right), the rest is the stock,
its first card on top (turned first). Then the same shuffle, with the same `rng`, of the
8 specials in the order (humalien ×2, eye ×2, owl ×4): the first is the one that comes up
first. Deal i of a simulation with seed S uses seed S + i.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import TypeVar

from scorer.solitaire.cards import NUMBER_CARDS, SPECIAL_CARDS
from scorer.solitaire.layout import DEFAULT_ROWS, pyramid
from scorer.solitaire.refusal import SolitaireRefusal

T = TypeVar("T")


class BadDeal(SolitaireRefusal):
    """Cards that are not a full deck, or a bad seed."""


@dataclass(frozen=True)
class Deal:
    rows: int
    pyramid: tuple[int, ...]  # card at each position
    stock: tuple[int, ...]  # top card first
    specials: tuple[str, ...]  # the order they come up

    def __post_init__(self) -> None:
        size = pyramid(self.rows).size
        if len(self.pyramid) != size:
            raise BadDeal(f"a {self.rows}-row pyramid holds {size} cards, not {len(self.pyramid)}", "deal_size",
                          rows=self.rows, size=size, count=len(self.pyramid))
        if sorted(self.pyramid + self.stock) != list(NUMBER_CARDS):
            raise BadDeal("pyramid and stock must hold each of the 52 number cards once", "deal_cards")
        if Counter(self.specials) != Counter(SPECIAL_CARDS):
            raise BadDeal(f"specials must be 2 humalien, 2 eye and 4 owl, not {list(self.specials)}", "deal_specials",
                          specials=str(list(self.specials)))


def _shuffle(items: list[T], rng: random.Random) -> list[T]:
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def check_seed(seed: int) -> int:
    """`seed` if it is a whole number from 0 (SS-R5: `random.Random` drops the sign, so −n would
    silently deal the same as n); BadDeal otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadDeal(f"seed must be an integer, not {seed!r}", "seed_not_whole", seed=repr(seed))
    if seed < 0:
        raise BadDeal(f"seed must be 0 or more, not {seed} (a negative seed would deal the same as {-seed}; SS-R5)",
                      "seed_negative", seed=seed, same=-seed)
    return seed


def deal_from_seed(seed: int, rows: int = DEFAULT_ROWS) -> Deal:
    """The deal for `seed` and `rows` (see the module docstring for the algorithm)."""
    check_seed(seed)
    size = pyramid(rows).size
    rng = random.Random(seed)
    deck = _shuffle(list(NUMBER_CARDS), rng)
    specials = _shuffle(list(SPECIAL_CARDS), rng)
    return Deal(rows, tuple(deck[:size]), tuple(deck[size:]), tuple(specials))
