"""The solver's depth-first search (see `solver` for the method), written to be compiled to
machine code: its functions are marked with `kernel`, and the compiled edge
(gm/solitaire/compiled.py) compiles them.

Everything here works on plain integers and arrays: a deal's `Tables`, the search's memory
(`search_memory`) and the state (pyramid mask, Eye-turned mask, stock index, flip card, packed
set-aside counts, specials used); the bound is in `search_bound`.
"""

from __future__ import annotations

import numpy as np

from scorer.solitaire.kernel import I64, array, kernel
from scorer.solitaire.search_bound import KING, lower_bound, lowest, popcount, settle
from scorer.solitaire.search_memory import (
    BUDGET,
    EPOCH,
    EYE_EPOCH,
    MEMORY,
    MAX_DEPTH,
    NODES,
    OUT_OF_BUDGET,
    PATH_LEN,
    POOL_USED,
    TABLE_SIZE,
    TABLES,
    TIGHT,
    Ints,
    Memory,
    Tables,
    dominated,
    fail,
)

HUMALIEN, EYE, OWL = 0, 1, 2
PAIR, PAIR_FLIP, TURN, USE_HUMALIEN, USE_EYE, USE_OWL, FORGO = range(7)
MAX_CHILDREN = 256
EXPAND, SUCCESS, FAILURE = 0, 1, 2  # what a first look at a state finds
DONE, STOPPED = 0, 1



@kernel(TABLES, MEMORY, I64, I64, I64, I64, I64, I64, I64)
def enter(tb: Tables, mem: Memory, present: int, revealed: int, i: int, flip: int, aside: int, k: int,
          t: int) -> int:
    """First look at a state: SUCCESS (at most t cards left), FAILURE (known or proven to leave
    more than t, or the budget is spent) or EXPAND."""
    counters = mem.counters
    if popcount(present) <= t:
        return SUCCESS
    if dominated(tb, mem, present, revealed, i, flip, aside, k, t):
        return FAILURE
    counters[NODES] += 1
    if counters[NODES] > counters[BUDGET]:
        counters[OUT_OF_BUDGET] = 1
        return FAILURE
    if lower_bound(tb, mem, present, revealed, i, flip, aside, k, t) > t:
        return FAILURE  # not remembered: the bound is as quick to compute again
    return EXPAND


@kernel(TABLES, array(3), array(3), *(I64,) * 12)
def add_child(tb: Tables, moves: Ints, states: Ints, depth: int, count: int, move: int, a: int, b: int, present: int,
              revealed: int, face_up: int, i: int, flip: int, aside: int, k: int) -> int:
    """Note a move and the state it leads to (the set-aside pile only counts while an Owl is left)."""
    if tb.owls[k] == 0:
        aside = 0
    moves[depth, count, 0] = move
    moves[depth, count, 1] = a
    moves[depth, count, 2] = b
    row = states[depth, count]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6] = present, revealed, face_up, i, flip, aside, k
    return count + 1


@kernel(TABLES, array(1), array(3), array(3), I64)
def children(tb: Tables, frame: Ints, moves: Ints, states: Ints, depth: int) -> int:
    """The moves from a state, in the order they are tried, and the states they lead to."""
    present, revealed, face_up, i, flip, aside, k = frame[0], frame[1], frame[2], frame[3], frame[4], frame[5], frame[6]
    rmask = tb.rmask
    count = 0
    # The last special, if an Eye, is used at once or never: using it later on a card still
    # face down comes to the same. So a move without it gives it up.
    last = tb.kinds.shape[0] - 1
    plain_k = last + 1 if k == last and tb.kinds[k] == EYE else k
    for r in range(1, 7):  # pairs of face-up pyramid cards
        lows = face_up & rmask[r]
        highs = face_up & rmask[13 - r]
        while lows and highs:
            a = lowest(lows)
            lows &= lows - 1
            rest = highs
            while rest:
                b = lowest(rest)
                rest &= rest - 1
                p, e, f = settle(tb, present & ~(1 << a | 1 << b), revealed)
                count = add_child(tb, moves, states, depth, count, PAIR, a, b, p, e, f, i, flip, aside, plain_k)
    if flip:
        rest = face_up & rmask[13 - tb.stock[i - 1]]
        while rest:
            a = lowest(rest)
            rest &= rest - 1
            p, e, f = settle(tb, present & ~(1 << a), revealed)
            count = add_child(tb, moves, states, depth, count, PAIR_FLIP, a, 0, p, e, f, i, 0, aside, plain_k)
    if i < tb.stock.shape[0]:  # turn the next stock card (with the stock empty the game ends, SS-R4)
        new_aside = aside + (1 << 4 * tb.stock[i - 1]) if flip else aside
        new_flip = 1 if tb.stock[i] != KING else 0
        count = add_child(tb, moves, states, depth, count, TURN, 0, 0, present, revealed, face_up, i + 1, new_flip,
                          new_aside, plain_k)
    if k < tb.kinds.shape[0]:
        kind = tb.kinds[k]
        if kind == HUMALIEN:
            rest = face_up
            while rest:
                a = lowest(rest)
                rest &= rest - 1
                p, e, f = settle(tb, present & ~(1 << a), revealed)
                count = add_child(tb, moves, states, depth, count, USE_HUMALIEN, a, 0, p, e, f, i, flip, aside, k + 1)
        elif kind == EYE:
            rest = present & ~face_up
            while rest:
                a = lowest(rest)
                rest &= rest - 1
                p, e, f = settle(tb, present & ~(1 << a), revealed)
                count = add_child(tb, moves, states, depth, count, USE_EYE, a, 1, p, e, f, i, flip, aside, k + 1)
                if tb.ranks[a] != KING:
                    p, e, f = settle(tb, present, revealed | 1 << a)
                    count = add_child(tb, moves, states, depth, count, USE_EYE, a, 0, p, e, f, i, flip, aside, k + 1)
        else:
            for s in range(1, 13):
                if (aside >> 4 * s) & 15:
                    rest = face_up & rmask[13 - s]
                    while rest:
                        a = lowest(rest)
                        rest &= rest - 1
                        p, e, f = settle(tb, present & ~(1 << a), revealed)
                        count = add_child(tb, moves, states, depth, count, USE_OWL, s, a, p, e, f, i, flip,
                                          aside - (1 << 4 * s), k + 1)
        if tb.other_later[k]:  # forgoing is only worth it with a special of another kind behind
            count = add_child(tb, moves, states, depth, count, FORGO, 0, 0, present, revealed, face_up, i, flip,
                              aside, k + 1)
    return count


@kernel()
def feasible(tb: Tables, mem: Memory, present: int, revealed: int, face_up: int, i: int, flip: int, aside: int,
             k: int, t: int) -> bool:
    """Can the game end with at most `t` pyramid cards left from here? Depth first, first
    success wins; on success the moves are left in `mem.path`, in play order."""
    counters = mem.counters
    if counters[OUT_OF_BUDGET]:
        return False
    first = enter(tb, mem, present, revealed, i, flip, aside, k, t)
    if first != EXPAND:
        return first == SUCCESS
    moves = np.empty((MAX_DEPTH, MAX_CHILDREN, 3), dtype=np.int64)
    states = np.empty((MAX_DEPTH, MAX_CHILDREN, 7), dtype=np.int64)
    count = np.zeros(MAX_DEPTH, dtype=np.int64)
    tried = np.zeros(MAX_DEPTH, dtype=np.int64)
    root = np.array([present, revealed, face_up, i, flip, aside, k], dtype=np.int64)
    count[0] = children(tb, root, moves, states, 0)
    depth = 0
    while depth >= 0:
        if counters[OUT_OF_BUDGET]:
            return False
        if tried[depth] < count[depth]:
            child = states[depth, tried[depth]]
            tried[depth] += 1
            result = enter(tb, mem, child[0], child[1], child[3], child[4], child[5], child[6], t)
            if result == SUCCESS:
                for level in range(depth + 1):
                    mem.path[level] = moves[level, tried[level] - 1]
                counters[PATH_LEN] = depth + 1
                return True
            if result == EXPAND:
                depth += 1
                count[depth] = children(tb, child, moves, states, depth)
                tried[depth] = 0
        else:
            frame = states[depth - 1, tried[depth - 1] - 1] if depth else root
            fail(mem, tb, frame[0], frame[1], frame[3], frame[4], frame[5], frame[6], t + 1)
            depth -= 1
    return False


@kernel()
def tables(ranks: Ints, stock: Ints, kinds: Ints, spans: Ints, covers: Ints) -> Tables:
    """A deal as the arrays the search reads: pyramid and stock numbers, the specials' kinds in
    the order they come up, and the layout (row spans for `uncovered`, the cards on each card)."""
    rmask = np.zeros(14, dtype=np.int64)
    for p in range(ranks.shape[0]):
        rmask[ranks[p]] |= 1 << p
    n = stock.shape[0]
    stock_counts = np.zeros((n + 1, 14), dtype=np.int64)  # counts per number of stock[i:]
    passed = np.zeros(n + 1, dtype=np.int64)  # packed counts of the stock cards before i that go aside
    for i in range(n - 1, -1, -1):
        stock_counts[i] = stock_counts[i + 1]
        stock_counts[i, stock[i]] += 1
    for i in range(n):
        passed[i + 1] = passed[i] + ((1 << 4 * stock[i]) if stock[i] != KING else 0)
    m = kinds.shape[0]
    humaliens = np.zeros(m + 1, dtype=np.int64)
    eyes = np.zeros(m + 1, dtype=np.int64)
    owls = np.zeros(m + 1, dtype=np.int64)
    other_later = np.zeros(m, dtype=np.int64)
    for j in range(m - 1, -1, -1):
        humaliens[j] = humaliens[j + 1] + (kinds[j] == HUMALIEN)
        eyes[j] = eyes[j + 1] + (kinds[j] == EYE)
        owls[j] = owls[j + 1] + (kinds[j] == OWL)
        for later in range(j + 1, m):
            if kinds[later] != kinds[j]:
                other_later[j] = 1
    lows = np.empty(6, dtype=np.int64)
    highs = np.empty(6, dtype=np.int64)
    for j in range(6):
        lows[j] = rmask[j + 1]
        highs[j] = rmask[12 - j]
    return Tables(spans, covers, ranks, rmask, lows, highs, stock, stock_counts, kinds, humaliens, eyes, owls,
                  other_later, passed)


@kernel(nogil=True)
def run(ranks: Ints, stock: Ints, kinds: Ints, spans: Ints, covers: Ints, budget: int, quick_states: int,
        mem: Memory) -> tuple[int, int]:
    """The fewest cards left: (DONE or STOPPED, best or the bound proven so far); the states
    expanded and remembered and the moves, as (kind, a, b) rows, are left in `mem` (its
    counters can be read from another thread while this runs: it lets go of the GIL).

    Most deals reach their lower bound (nearly always 0) at once: that is looked for first with
    the quick count (no chains, every Eye a card removed) and at most `quick_states` states;
    then the search goes on in earnest, keeping what the first try proved.
    """
    tb = tables(ranks, stock, kinds, spans, covers)
    counters = mem.counters
    counters[EPOCH] += 1
    counters[EYE_EPOCH] += 1
    counters[NODES] = counters[TABLE_SIZE] = counters[PATH_LEN] = counters[POOL_USED] = 0
    counters[BUDGET] = min(budget, quick_states)
    counters[TIGHT] = 1
    counters[OUT_OF_BUDGET] = 0
    present, revealed, face_up = settle(tb, (1 << ranks.shape[0]) - 1, 0)
    t = max(0, lower_bound(tb, mem, present, revealed, 0, 0, 0, 0, -1))
    counters[TIGHT] = 0
    found = feasible(tb, mem, present, revealed, face_up, 0, 0, 0, 0, t)
    counters[TIGHT] = 1
    counters[BUDGET] = budget
    counters[OUT_OF_BUDGET] = 0
    if counters[NODES] > budget:
        return STOPPED, t
    if not found:
        while not feasible(tb, mem, present, revealed, face_up, 0, 0, 0, 0, t):
            if counters[OUT_OF_BUDGET]:
                return STOPPED, t
            t += 1
    return DONE, t

