"""The omniscient solver: the fewest pyramid cards left for a deal under perfect information.

Perfect information means the solver knows every card: the face-down pyramid cards, the
stock's order and the order of the special cards. So its Eye of Providence prediction is
always right: an Eye either discards any face-down card or turns it face up and keeps it.

The search asks "can this deal end with at most t cards left?" for t = lower bound, +1, …
(depth-first, first success wins). A state is a handful of ints: the pyramid (bitmask of
present cards), cards the Eye turned while covered (bitmask), the stock index, whether a
flip card is on the slot, the set-aside pile as packed counts per number (4 bits each) and
the number of specials used. Failures are memoised with the lower bound they prove
(transposition table), and a failure also rules out every state with the same pyramid that
it could reach by forgoing specials and turning stock cards while keeping at least the same
set-aside cards (dominance). A state is pruned when its lower bound exceeds t: per pair of
numbers, the pyramid cards that can neither pair inside the pyramid — two cards pair only if
neither lies on the other through a chain of present cards, unless the Eye breaks the chain
(SS-R3) — nor with the remaining stock and flip card, less those the remaining Owls could
pair from the set-aside pile and the remaining Humaliens; one Eye left is played out over
every card it could turn or discard (with two left, any two cards may pair). 13s leave as soon as they are face up (SS-R2, a forced
move). Forgoing a special is only tried when a special of another kind lies behind it.
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


_ANY = (99,) * 6  # two Eyes left: any card may pair with any other
_GUARD = sum(8 << 4 * r for r in range(14))  # the top bit of every 4-bit count in a packed set-aside pile


QUICK_STATES = 1000  # states for the first, quick try at the lower bound


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


def _shortage(pairs: int, mine: int, theirs: int, supply_s: int, supply_r: int, aside_s: int, aside_r: int) -> tuple[int, int]:
    """(cards of a pair of numbers left without partner, how many of them the set-aside pile could take)."""
    short = fix = 0
    d = mine - pairs - supply_s
    if d > 0:
        short += d
        fix += d if d < aside_s else aside_s
    d = theirs - pairs - supply_r
    if d > 0:
        short += d
        fix += d if d < aside_r else aside_r
    return short, fix


def _max_matching(options: list[int], taken: int = 0) -> int:
    """Size of a maximum matching; options[a] is the mask of a's possible partners."""
    if not options:
        return 0
    first, rest = options[0] & ~taken, options[1:]
    best = _max_matching(rest, taken)
    while first and best <= len(rest):
        low = first & -first
        first ^= low
        size = 1 + _max_matching(rest, taken | low)
        if size > best:
            best = size
    return best


class _Search:
    def __init__(self, deal: Deal) -> None:
        layout = pyramid(deal.rows)
        self.uncovered = layout.uncovered
        self.ranks = [rank(c) for c in deal.pyramid]
        self.rmask = rmask = [0] * 14
        for p, r in enumerate(self.ranks):
            rmask[r] |= 1 << p
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
        self.humaliens = [sum(1 for k in kinds[j:] if k == HUMALIEN) for j in range(len(kinds) + 1)]
        self.eyes = [sum(1 for k in kinds[j:] if k == EYE) for j in range(len(kinds) + 1)]
        self.owls = [sum(1 for k in kinds[j:] if k == OWL) for j in range(len(kinds) + 1)]
        self.other_later = [any(k != kinds[j] for k in kinds[j + 1 :]) for j in range(len(kinds))]
        self.memo: dict[tuple, int] = {}
        self.failures: dict[tuple[int, int], list[tuple[int, int, int, int, int]]] = {}
        self.passed = [0]  # passed[j]: packed counts of the stock cards before j that go aside (13s never do)
        for r in self.stock:
            self.passed.append(self.passed[-1] + (1 << 4 * r if r != KING else 0))
        self.pair_classes = [(rmask[r], rmask[13 - r], r, 13 - r) for r in range(1, 7)]
        self.covers = [_bits(c) for c in layout.covers]
        self.matchings: dict[tuple[int, int, int], list] = {}
        self.budget: float = float("inf")
        self.tight = True  # False: the quick count only (no chains, every Eye a card removed)
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

    def pairings(self, present: int, revealed: int) -> list[int]:
        """Per pair of numbers (1+12, 2+11, …, 6+7): the most disjoint pyramid pairs that can
        still be face up together without an Eye.

        A card cannot be face up while a card lying on it through a chain of present cards is
        still there: each card of the chain must leave first, and can only once face up.
        The Eye breaks chains: a card it turns is face up (SS-R3), one it discards is gone.
        """
        key = (present, revealed)
        found = self.matchings.get(key)
        if found is None:
            found = self.matchings[key] = self.chain_pairings(present, revealed)
        return found

    def chain_pairings(self, present: int, revealed: int) -> list[int]:
        covers = self.covers
        blocked = [0] * len(covers)  # blocked[p]: the cards that must leave before p can be face up
        for p in reversed(range(len(covers))):
            if present >> p & 1 and not revealed >> p & 1:
                chain = 0
                for q in covers[p]:
                    if present >> q & 1:
                        chain |= 1 << q | blocked[q]
                blocked[p] = chain
        found = []
        for lows_mask, highs_mask, _, _ in self.pair_classes:
            lows, highs = present & lows_mask, present & highs_mask
            if not lows or not highs:
                found.append(0)
                continue
            options = []
            for a in _bits(lows):
                partners = highs & ~blocked[a]
                for b in _bits(partners):
                    if blocked[b] >> a & 1:
                        partners ^= 1 << b
                options.append(partners)
            found.append(_max_matching(options))
        return found

    def eye_options(self, present: int, revealed: int) -> list[tuple[tuple[int, int, int, int], ...]]:
        """What one Eye can change in the bound: per card it can take, turned or discarded,
        the changed pair counts as (pair of numbers, pairs, low cards gone, high cards gone)."""
        key = (present, revealed, -1)
        found = self.matchings.get(key)
        if found is None:
            base = self.pairings(present, revealed)
            options = set()
            for c in _bits(present & ~revealed & ~self.uncovered(present)):
                turned = self.pairings(present, revealed | 1 << c)
                options.add(tuple((j, n, 0, 0) for j, n in enumerate(turned) if n != base[j]))
                gone = self.pairings(present & ~(1 << c), revealed)
                r = self.ranks[c]
                home = r - 1 if r < 7 else 12 - r
                options.add(
                    tuple(
                        (j, n, int(j == home and r < 7), int(j == home and 6 < r < 13))
                        for j, n in enumerate(gone)
                        if n != base[j] or (j == home and r < 13)
                    )
                )
            options.discard(())
            found = self.matchings[key] = list(options)
        return found

    def lower_bound(self, present: int, revealed: int, i: int, flip: int, aside: int, k: int, t: int = -1) -> int:
        """Cards that must stay whatever happens — exactly when that is more than `t` (once it
        is clear the bound cannot exceed `t`, some number at most `t` is returned).

        Per pair of numbers (r, 13 − r): the pyramid cards that `pairings` cannot pair and the
        remaining stock and flip card cannot take, less what the Owls can pair from the
        set-aside pile and the Humaliens. One Eye left: the least over everything it can do
        (`eye_options`); two: any two cards may pair, and each Eye removes one more card.
        """
        stock = self.stock_counts[i]
        flip_rank = self.stock[i - 1] if flip else 0
        eyes = self.eyes[k]
        exact_eye = eyes == 1 and self.tight
        pairs = self.pairings(present, revealed) if eyes == 0 and self.tight or exact_eye else _ANY
        counts = []
        parts = []
        short = fix = 0
        for (lows_mask, highs_mask, r, s), n in zip(self.pair_classes, pairs):
            c = (
                (present & lows_mask).bit_count(),
                (present & highs_mask).bit_count(),
                stock[s] + (flip_rank == s),
                stock[r] + (flip_rank == r),
                aside >> 4 * s & 15,
                aside >> 4 * r & 15,
            )
            counts.append(c)
            part = _shortage(n if n < c[0] and n < c[1] else min(c[0], c[1]), *c)
            parts.append(part)
            short += part[0]
            fix += part[1]
        owls = self.owls[k]
        others = self.humaliens[k] + (0 if exact_eye else eyes)
        best = short - (fix if fix < owls else owls) - others
        if exact_eye and best > t:
            options = self.eye_options(present, revealed)
            for index, changes in enumerate(options):
                short2, fix2 = short, fix
                for j, n, low_gone, high_gone in changes:
                    mine, theirs, supply_s, supply_r, aside_s, aside_r = counts[j]
                    a, b = _shortage(n, mine - low_gone, theirs - high_gone, supply_s, supply_r, aside_s, aside_r)
                    short2 += a - parts[j][0]
                    fix2 += b - parts[j][1]
                value = short2 - (fix2 if fix2 < owls else owls) - others
                if value <= t:
                    if index:  # try this one first next time
                        options[0], options[index] = changes, options[0]
                    return value
                if value < best:
                    best = value
        return best

    def feasible(self, present: int, revealed: int, face_up: int, i: int, flip: int, aside: int, k: int, t: int) -> bool:
        """Can the game end with at most `t` pyramid cards left from here?"""
        if present.bit_count() <= t:
            return True
        key = (present, revealed, i, flip, aside, k)
        memo = self.memo
        if memo.get(key, -1) > t:
            return False
        failures = self.failures.get((present, revealed))
        if failures is not None and self.dominated(failures, i, flip, aside, k, t):
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        bound = self.lower_bound(present, revealed, i, flip, aside, k, t)
        if bound > t:
            self.fail(key, bound)
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
            new_aside = aside + (1 << 4 * self.stock[i - 1]) if flip else aside
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
                    if aside >> 4 * s & 15:
                        for a in _bits(face_up & rmask[13 - s]):
                            p, e, f = settle(present & ~(1 << a), revealed)
                            if feasible(p, e, f, i, flip, aside - (1 << 4 * s), k + 1, t):
                                path.append(("owl", s, a))
                                return True
            if self.other_later[k] and feasible(present, revealed, face_up, i, flip, aside, k + 1, t):
                path.append(("forgo",))
                return True
        self.fail(key, t + 1)
        return False

    def fail(self, key: tuple, bound: int) -> None:
        """Record that the state `key` ends with at least `bound` cards left."""
        self.memo[key] = bound
        present, revealed, i, flip, aside, k = key
        self.failures.setdefault((present, revealed), []).append((bound, i, flip, aside, k))

    def dominated(self, failures: list, i: int, flip: int, aside: int, k: int, t: int) -> bool:
        """Is there a failed state with the same pyramid from which this one can be reached?

        From (i', flip', aside', k') with i' <= i and k' <= k, forgoing specials and turning
        stock cards reach this state with at least its set-aside cards; having more set-aside
        cards, or a flip card, never hurts (SS-R4: the flip card only goes aside).
        """
        passed, guard = self.passed, _GUARD
        for bound, i2, flip2, aside2, k2 in failures:
            if bound <= t or k2 > k or i2 > i:
                continue
            if i2 == i:
                if flip2 < flip:
                    continue
                have = aside2
            else:
                have = aside2 + passed[i - 1] - passed[i2] + (passed[i2] - passed[i2 - 1] if flip2 else 0)
            if (have + guard - aside) & guard == guard:
                return True
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
    budget = max_states if max_states is not None else float("inf")
    first = start(deal)
    present, revealed, face_up = search.settle(first.present, 0)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    t = max(0, search.lower_bound(present, revealed, 0, 0, 0, 0))
    try:
        # Most deals reach their lower bound (nearly always 0) at once: look for that with the
        # quick count first, then search in earnest (what the first try proved is kept).
        search.tight, search.budget = False, min(budget, QUICK_STATES)
        try:
            found = search.feasible(present, revealed, face_up, 0, 0, 0, 0, t)
        except _OutOfBudget:
            found = False
        search.tight, search.budget = True, budget
        if search.nodes > budget:
            raise _OutOfBudget
        if not found:
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
