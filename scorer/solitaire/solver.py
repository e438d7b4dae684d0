"""The omniscient solver: the fewest pyramid cards left for a deal under perfect information.

Perfect information means the solver knows every card: the face-down pyramid cards, the
stock's order and the order of the special cards. So its Eye of Providence prediction is
always right: an Eye either discards any face-down card or turns it face up and keeps it.

The search asks "can this deal end with at most t cards left?" for t = lower bound, +1, …
(depth-first, first success wins). A state is a handful of ints: the pyramid (bitmask of
present cards), cards the Eye turned while covered (bitmask), the stock index, whether a
flip card is on the slot, the set-aside pile as packed counts per number (3 bits each) and
the number of specials used. Failures are memoised with the lower bound they prove
(transposition table). A state is pruned when its lower bound — cards that can find no
partner among the pyramid, stock and flip card, less those the remaining Owls could pair
from the set-aside pile, less the remaining Humaliens and Eyes — exceeds t. 13s leave
as soon as they are face up (SS-R2, a forced move). Forgoing a special is only tried when a
special of another kind lies behind it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from scorer.solitaire.cards import EYE, HUMALIEN, KING, OWL, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.engine import GameState, start
from scorer.solitaire.engine import apply as apply_move
from scorer.solitaire.layout import pyramid
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Owl, Pair, PairFlip, Special, Turn


class _OutOfBudget(Exception):
    """Internal: the state budget is spent."""


@dataclass(frozen=True)
class Solution:
    best_left: int
    moves: tuple[Move, ...]
    nodes: int  # states expanded
    table_size: int  # memoised states at the end


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Search:
    def __init__(self, deal: Deal) -> None:
        layout = pyramid(deal.rows)
        self.uncovered = layout.uncovered
        self.ranks = [rank(c) for c in deal.pyramid]
        self.rmask = [0] * 14
        for p, r in enumerate(self.ranks):
            self.rmask[r] |= 1 << p
        self.stock = [rank(c) for c in deal.stock]
        n = len(self.stock)
        self.stock_counts = []  # counts per number of stock[i:]
        for i in range(n + 1):
            counts = [0] * 14
            for r in self.stock[i:]:
                counts[r] += 1
            self.stock_counts.append(counts)
        kinds = deal.specials
        self.kinds = kinds
        self.removers = [sum(1 for k in kinds[j:] if k != OWL) for j in range(len(kinds) + 1)]
        self.owls = [sum(1 for k in kinds[j:] if k == OWL) for j in range(len(kinds) + 1)]
        self.other_later = [any(k != kinds[j] for k in kinds[j + 1 :]) for j in range(len(kinds))]
        self.memo: dict[tuple, int] = {}
        self.budget: float = float("inf")
        self.path: list[tuple] = []
        self.nodes = 0

    def settle(self, present: int, revealed: int) -> tuple[int, int, int]:
        """Remove face-up 13s until none is left; returns (present, revealed-while-covered, face-up)."""
        kings = self.rmask[KING]
        revealed &= present
        while True:
            up = self.uncovered(present)
            face_up = up | revealed
            gone = face_up & kings
            if not gone:
                return present, revealed & ~up, face_up
            present &= ~gone
            revealed &= present

    def lower_bound(self, present: int, i: int, flip: int, aside: int, k: int) -> int:
        rmask, stock = self.rmask, self.stock_counts[i]
        flip_rank = self.stock[i - 1] if flip else 0
        short = fixable = 0
        for r in range(1, 13):
            mine = (present & rmask[r]).bit_count()
            if not mine:
                continue
            s = 13 - r
            partners = (present & rmask[s]).bit_count() + stock[s] + (flip_rank == s)
            if mine > partners:
                d = mine - partners
                short += d
                a = aside >> 3 * (s - 1) & 7
                fixable += d if d < a else a
        owls = self.owls[k]
        return short - (fixable if fixable < owls else owls) - self.removers[k]

    def feasible(self, present: int, revealed: int, face_up: int, i: int, flip: int, aside: int, k: int, t: int) -> bool:
        """Can the game end with at most `t` pyramid cards left from here?"""
        if present.bit_count() <= t:
            return True
        key = (present, revealed, i, flip, aside, k)
        memo = self.memo
        if memo.get(key, -1) > t:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        bound = self.lower_bound(present, i, flip, aside, k)
        if bound > t:
            memo[key] = bound
            return False
        ranks, rmask, settle, feasible, path = self.ranks, self.rmask, self.settle, self.feasible, self.path
        # pairs of face-up pyramid cards
        for r in range(1, 7):
            lows, highs = face_up & rmask[r], face_up & rmask[13 - r]
            if lows and highs:
                for a in _bits(lows):
                    for b in _bits(highs):
                        p, e, f = settle(present & ~(1 << a | 1 << b), revealed)
                        if feasible(p, e, f, i, flip, aside, k, t):
                            path.append(("pair", a, b))
                            return True
        n = len(self.stock)
        if flip:
            flip_rank = self.stock[i - 1]
            for a in _bits(face_up & rmask[13 - flip_rank]):
                p, e, f = settle(present & ~(1 << a), revealed)
                if feasible(p, e, f, i, 0, aside, k, t):
                    path.append(("pair_flip", a))
                    return True
        # turn the next stock card (or end the game with the stock empty, SS-R4)
        if i < n:
            new_aside = aside + (1 << 3 * (self.stock[i - 1] - 1)) if flip else aside
            if feasible(present, revealed, face_up, i + 1, int(self.stock[i] != KING), new_aside, k, t):
                path.append(("turn",))
                return True
        if k < len(self.kinds):
            kind = self.kinds[k]
            if kind == HUMALIEN:
                for a in _bits(face_up):
                    p, e, f = settle(present & ~(1 << a), revealed)
                    if feasible(p, e, f, i, flip, aside, k + 1, t):
                        path.append(("humalien", a))
                        return True
            elif kind == EYE:
                for a in _bits(present & ~face_up):
                    p, e, f = settle(present & ~(1 << a), revealed)
                    if feasible(p, e, f, i, flip, aside, k + 1, t):
                        path.append(("eye", a, True))
                        return True
                    if ranks[a] != KING:
                        p, e, f = settle(present, revealed | 1 << a)
                        if feasible(p, e, f, i, flip, aside, k + 1, t):
                            path.append(("eye", a, False))
                            return True
            else:
                for s in range(1, 13):
                    if aside >> 3 * (s - 1) & 7:
                        for a in _bits(face_up & rmask[13 - s]):
                            p, e, f = settle(present & ~(1 << a), revealed)
                            if feasible(p, e, f, i, flip, aside - (1 << 3 * (s - 1)), k + 1, t):
                                path.append(("owl", s, a))
                                return True
            if self.other_later[k] and feasible(present, revealed, face_up, i, flip, aside, k + 1, t):
                path.append(("forgo",))
                return True
        memo[key] = t + 1
        return False


class SearchLimit(ValueError):
    """The search reached its state budget before proving the best result."""

    def __init__(self, at_least: int, states: int) -> None:
        super().__init__(f"no proof within {states} states: at least {at_least} cards are left")
        self.at_least = at_least
        self.states = states


def solve(deal: Deal, max_states: int | None = None) -> Solution:
    """The fewest pyramid cards left for `deal` with perfect play, and moves that reach it.

    With `max_states`, `SearchLimit` (carrying the lower bound proven so far) is raised once
    the search has expanded that many states.
    """
    search = _Search(deal)
    search.budget = max_states if max_states is not None else float("inf")
    first = start(deal)
    present, revealed, face_up = search.settle(first.present, 0)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        t = max(0, search.lower_bound(present, 0, 0, 0, 0))
        while not search.feasible(present, revealed, face_up, 0, 0, 0, 0, t):
            t += 1
    except _OutOfBudget:
        raise SearchLimit(t, search.nodes) from None
    finally:
        sys.setrecursionlimit(limit)
    moves = _engine_moves(first, list(reversed(search.path)))
    return Solution(t, tuple(moves), search.nodes, len(search.memo))


def _engine_moves(state: GameState, steps: list[tuple]) -> list[Move]:
    """The solver's steps as engine moves (a special's use is Special() then its effect)."""
    moves: list[Move] = []
    for step in steps:
        kind = step[0]
        if kind == "pair":
            batch: list[Move] = [Pair(step[1], step[2])]
        elif kind == "pair_flip":
            batch = [PairFlip(step[1])]
        elif kind == "turn":
            batch = [Turn()]
        elif kind == "humalien":
            batch = [Special(), Humalien(step[1])]
        elif kind == "eye":
            batch = [Special(), Eye(step[1], rank(state.card_at(step[1])), step[2])]
        elif kind == "owl":
            card = next(c for c in state.set_aside if rank(c) == step[1])
            batch = [Special(), Owl(card, step[2])]
        else:
            batch = [Special(), Forgo()]
        for move in batch:
            state = apply_move(state, move)
        moves.extend(batch)
    if not state.over:
        while not state.over:
            state = apply_move(state, Turn())
            moves.append(Turn())
    return moves
