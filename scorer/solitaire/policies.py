"""Players that see only what a player at the table sees: `greedy` and `smart`.

A policy is a function `(state) -> move` that reads only the visible part of the state:
face-up pyramid cards, the flip card, the set-aside and discard piles, how many stock and
special cards are left, and the special just turned. (`omniscient` is the solver.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from scorer.solitaire.cards import EYE, HUMALIEN, KING, NUMBER_CARDS, OWL, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.engine import GameState, apply, face_up_pairs, owl_moves, start
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Pair, PairFlip, Special, Turn
from scorer.solitaire.refusal import SolitaireRefusal

Policy = Callable[[GameState], Move]


class UnknownPolicy(SolitaireRefusal):
    """A policy name other than greedy, smart or omniscient."""


def uncovers(state: GameState, positions: list[int]) -> int:
    """How many face-down pyramid cards turn face up once `positions` are gone."""
    present = state.present & ~sum(1 << p for p in positions)
    return bin(state.layout.uncovered(present) & ~state.face_up).count("1")


def unseen_counts(state: GameState) -> Counter[int]:
    """Numbers the player has not seen yet (face-down pyramid cards and the stock): card counting."""
    seen = {state.card_at(p) for p in state.positions(state.face_up)}
    seen.update(state.set_aside, state.discard)
    if state.flip is not None:
        seen.add(state.flip)
    return Counter(rank(c) for c in NUMBER_CARDS if c not in seen)


def greedy(state: GameState) -> Move:
    """Fixed preferences: a pyramid pair, else a flip pair, else a special, else turn.

    The special's effect: the Humalien takes the lowest face-up card, the Eye turns the
    lowest face-down card predicting 7, the Owl makes the first pair it can.
    """
    if state.pending == HUMALIEN:
        return Humalien(max(state.positions(state.face_up)))
    if state.pending == EYE:
        down = state.positions(state.present & ~state.face_up)
        return Eye(max(down), 7) if down else Forgo()
    if state.pending == OWL:
        return next(iter(owl_moves(state)), Forgo())
    pairs = face_up_pairs(state)
    if pairs:
        return pairs[0]
    if state.specials_left:
        return Special()
    return Turn()


def smart(state: GameState) -> Move:
    """The best hidden-information player here: it counts cards, keeps partners and times the specials.

    - Pairs: flip pairs before pyramid pairs (the flip card is lost at the next turn, a
      pyramid partner stays); among them, the one that turns most cards face up.
    - Specials wait until the last stock card is turned: then the set-aside pile is full
      for the Owls and the unseen numbers are exactly the face-down cards (measured:
      using them earlier, even when an Owl would already help, leaves more cards).
    - Humalien: a card with no partner left to come, else the one uncovering most cards.
    - Eye: the face-down card whose going uncovers most (else the lowest), predicting the
      number with most unseen copies
      (13s leave anyway); kept rather than discarded when a partner is face up.
    """
    if state.pending == HUMALIEN:
        return _smart_humalien(state)
    if state.pending == EYE:
        return _smart_eye(state)
    if state.pending == OWL:
        owls = owl_moves(state)
        return max(owls, key=lambda m: uncovers(state, [m.position])) if owls else Forgo()
    pairs = face_up_pairs(state)
    if pairs:
        return max(pairs, key=lambda m: (isinstance(m, PairFlip), uncovers(state, _positions(m))))
    if state.specials_left and state.stock_left == 0:
        return Special()
    return Turn()


def _positions(move: Pair | PairFlip) -> list[int]:
    return [move.a, move.b] if isinstance(move, Pair) else [move.position]


def _smart_humalien(state: GameState) -> Move:
    up = state.positions(state.face_up)
    if not up:
        return Forgo()
    unseen = unseen_counts(state)
    aside = Counter(rank(c) for c in state.set_aside)

    def value(p: int) -> tuple[bool, int, int]:
        partner = 13 - rank(state.card_at(p))
        visible = sum(1 for q in up if q != p and rank(state.card_at(q)) == partner)
        orphan = unseen[partner] + visible + aside[partner] == 0
        return (orphan, uncovers(state, [p]), -visible)

    return Humalien(max(up, key=value))


def _smart_eye(state: GameState) -> Move:
    down = state.positions(state.present & ~state.face_up)
    if not down:
        return Forgo()
    unseen = unseen_counts(state)
    guess = max((r for r in unseen if r != KING), key=lambda r: (unseen[r], -r), default=1)
    up_ranks = {rank(state.card_at(p)) for p in state.positions(state.face_up)}
    keep = 13 - guess in up_ranks or (state.flip is not None and rank(state.flip) == 13 - guess)
    target = max(down, key=lambda p: (uncovers(state, [p]), p))
    return Eye(target, guess, discard=not keep)


POLICIES: dict[str, Policy] = {"greedy": greedy, "smart": smart}


def policy_named(name: str) -> Policy:
    if name not in POLICIES:
        raise UnknownPolicy(f"policy must be greedy, smart or omniscient, not {name!r}", "unknown_policy",
                            name=repr(name))
    return POLICIES[name]


def play_out(deal: Deal, policy: Policy) -> GameState:
    """Play `deal` to its end with `policy`."""
    state = start(deal)
    while not state.over:
        state = apply(state, policy(state))
    return state
