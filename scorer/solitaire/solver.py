"""The omniscient solver: the fewest pyramid cards left for a deal under perfect information.

Perfect information means the solver knows every card: the face-down pyramid cards, the
stock's order and the order of the special cards. So its Eye of Providence prediction is
always right: an Eye either discards any face-down card or turns it face up and keeps it.

The search asks "can this deal end with at most t cards left?" for t = lower bound, +1, …
(depth-first, first success wins). A state is a handful of ints: the pyramid (bitmask of
present cards), cards the Eye turned while covered (bitmask), the stock index, whether a
flip card is on the slot, the set-aside pile as packed counts per number (4 bits each; only
while an Owl is left, as nothing else can take a set-aside card) and the number of specials
used. Failures are remembered with the lower bound they prove (transposition table), and a
failure also rules out every state with the same pyramid that it could reach by forgoing
specials and turning stock cards while keeping at least the same set-aside cards
(dominance). A state is pruned when its lower bound exceeds t: per pair of numbers, the
pyramid cards that can neither pair inside the pyramid — two cards pair only if neither lies
on the other through a chain of present cards, unless the Eye breaks the chain (SS-R3) — nor
with the remaining stock and flip card, less those the remaining Owls could pair from the
set-aside pile and the remaining Humaliens; one Eye left is played out over every card it
could turn or discard (with two left, any two cards may pair). 13s leave as soon as they
are face up (SS-R2, a forced move). Forgoing a special is only tried when a special of
another kind lies behind it, and a last special that is an Eye is used at once or never
(using it later on a card still face down comes to the same).

The search itself (`search`) runs compiled: `solve` and `least_left` take the compiled search
(`Search`, made by gm/solitaire/compiled.py) as an argument, so nothing here compiles or
touches a file. Its tables are fixed-size, made once per process and reused from deal to deal: the
process's `Workspace` (`workspace()`) holds them, and the count of the search under way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scorer.solitaire.cards import EYE, HUMALIEN, OWL, rank
from scorer.solitaire.deal import Deal
from scorer.solitaire.engine import GameState, start
from scorer.solitaire.engine import apply as apply_move
from scorer.solitaire.layout import pyramid
from scorer.solitaire.moves import Eye, Forgo, Humalien, Move, Owl, Pair, PairFlip, Special, Turn
from scorer.values import Refusal

if TYPE_CHECKING:
    from scorer.solitaire.search_memory import Memory


Search = Callable[..., tuple[int, int]]
"""The compiled `search.run`: (ranks, stock, kinds, spans, covers, budget, quick states, memory)
→ (DONE or STOPPED, the fewest cards left or the bound proven so far)."""

QUICK_STATES = 1000  # states for the first, quick try at the lower bound
UNLIMITED = 2**62


@dataclass(frozen=True)
class Solution:
    best_left: int
    moves: tuple[Move, ...]
    nodes: int  # states expanded
    table_size: int  # pyramids with a proven failure remembered at the end


SMALL_BITS, LARGE_BITS = 15, 20  # table sizes (2**bits entries): most deals need only the small
SMALL_STATES = 50_000  # a search longer than this starts over with the large tables


class Workspace:
    """What the searches of one process share: the search's tables, small and large, each made
    once (on first use) and reused from deal to deal — a slot counts only when it carries the
    current search's epoch, so nothing is cleared between deals — and the search under way: the
    states its finished tries spent and the tables of the try running now (read by `searched`,
    possibly from another thread)."""

    def __init__(self) -> None:
        self.spent = 0
        self.running: Memory | None = None

    @functools.cached_property
    def small(self) -> Memory:
        return _new_memory(SMALL_BITS)

    @functools.cached_property
    def large(self) -> Memory:
        return _new_memory(LARGE_BITS)

    def states(self) -> int:
        """States expanded so far by the search under way (or the last one)."""
        from scorer.solitaire.search_memory import NODES

        running = self.running
        return self.spent + (int(running.counters[NODES]) if running is not None else 0)


@functools.cache
def workspace() -> Workspace:
    """This process's one Workspace, made at its first search."""
    return Workspace()


def _new_memory(bits: int) -> Memory:
    from scorer.solitaire.search_memory import new_memory

    return new_memory(bits)


def searched() -> int:
    """States expanded so far by the search under way (or the last one): for progress shown
    while `solve` runs in another thread."""
    return workspace().states()


def _search(search: Search, deal: Deal, max_states: int | None,
            memory: Memory | None = None) -> tuple[int, int, int, list[tuple[int, int, int]]]:
    """(fewest cards left, states expanded, pyramids remembered, the search's steps), or `SearchLimit`."""
    shared = workspace()
    shared.running, shared.spent = None, 0
    if memory is not None or (max_states is not None and max_states <= SMALL_STATES):
        return _run(search, deal, max_states, memory or shared.small)
    try:
        return _run(search, deal, SMALL_STATES, shared.small)
    except SearchLimit as first:
        spent = first.states  # the states of the first try count towards max_states
    shared.running, shared.spent = None, spent
    try:
        best, nodes, table_size, steps = _run(search, deal, None if max_states is None else max_states - spent,
                                              shared.large)
    except SearchLimit as limit:
        raise SearchLimit(limit.at_least, limit.states + spent) from None
    return best, nodes + spent, table_size, steps


def _run(search: Search, deal: Deal, max_states: int | None,
         memory: Memory) -> tuple[int, int, int, list[tuple[int, int, int]]]:
    """One search of `deal` with the tables `memory` (see `_search`)."""
    import numpy as np

    from scorer.solitaire import search_memory
    from scorer.solitaire.search import EYE as EYE_CODE, HUMALIEN as HUMALIEN_CODE, OWL as OWL_CODE, STOPPED

    layout = pyramid(deal.rows)
    code = {HUMALIEN: HUMALIEN_CODE, EYE: EYE_CODE, OWL: OWL_CODE}
    covers = [[q for q in range(layout.size) if c >> q & 1] + [-1, -1] for c in layout.covers]
    memory.counters[search_memory.NODES] = 0  # so that `searched` never sees an earlier search's count
    workspace().running = memory
    status, best = search(
        np.array([rank(c) for c in deal.pyramid], dtype=np.int64),
        np.array([rank(c) for c in deal.stock], dtype=np.int64),
        np.array([code[k] for k in deal.specials], dtype=np.int64),
        np.array(layout.row_spans, dtype=np.int64).reshape(-1, 4),
        np.array([c[:2] for c in covers], dtype=np.int64),
        max_states if max_states is not None else UNLIMITED,
        QUICK_STATES,
        memory,
    )
    counters = memory.counters
    nodes = int(counters[search_memory.NODES])
    if status == STOPPED:
        raise SearchLimit(int(best), nodes)
    steps = [(int(a), int(b), int(c)) for a, b, c in memory.path[: counters[search_memory.PATH_LEN]]]
    return int(best), nodes, int(counters[search_memory.TABLE_SIZE]), steps


def least_left(deal: Deal, max_states: int | None = None, memory: Memory | None = None, *, search: Search) -> int:
    """The fewest pyramid cards left for `deal` with perfect play, found by the compiled `search`
    (`SearchLimit` past `max_states`). `memory`: the tables to search with
    (`search_memory.new_memory`), else the process's own; smaller tables forget more and search
    longer, never answer differently."""
    return _search(search, deal, max_states, memory)[0]


class SearchLimit(Refusal):
    """The search reached its state budget before proving the best result."""

    def __init__(self, at_least: int, states: int) -> None:
        super().__init__(f"no proof within {states} states: at least {at_least} cards are left")
        self.at_least = at_least
        self.states = states


def solve(deal: Deal, max_states: int | None = None, *, search: Search) -> Solution:
    """The fewest pyramid cards left for `deal` with perfect play, and moves that reach it, found
    by the compiled `search`.

    With `max_states`, `SearchLimit` (carrying the lower bound proven so far) is raised once
    the search has expanded that many states.
    """
    best, nodes, table_size, steps = _search(search, deal, max_states)
    return Solution(best, tuple(_engine_moves(start(deal), steps)), nodes, table_size)


def _engine_moves(state: GameState, steps: list[tuple[int, int, int]]) -> list[Move]:
    """The solver's steps as engine moves (a special's use is Special() then its effect)."""
    from scorer.solitaire import search

    moves: list[Move] = []
    for step in steps:
        kind = step[0]
        if kind == search.PAIR:
            batch: list[Move] = [Pair(step[1], step[2])]
        elif kind == search.PAIR_FLIP:
            batch = [PairFlip(step[1])]
        elif kind == search.TURN:
            batch = [Turn()]
        elif kind == search.USE_HUMALIEN:
            batch = [Special(), Humalien(step[1])]
        elif kind == search.USE_EYE:
            batch = [Special(), Eye(step[1], rank(state.card_at(step[1])), bool(step[2]))]
        elif kind == search.USE_OWL:
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
