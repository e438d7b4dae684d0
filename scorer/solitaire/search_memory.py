"""The solver's memory: fixed-size hash tables of failed states and of bound parts (compiled
like `search`).

Open addressing with a few probes; when they are all taken, the home slot is replaced. The
tables are allocated once per process and reused: a slot counts only when it carries the
current search's epoch, so nothing is cleared between deals. A lost entry only costs search.
Failed states are kept twice: by the whole state (exact lookups) and per pyramid (mask pair),
a few per slot, for dominance, as (set-aside, bound | stock index << 8 | flip << 16 | specials
used << 17); a new failure takes the place of one it makes redundant.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import numpy.typing as npt

from scorer.solitaire.kernel import I64, array, array_tuple, kernel

NODES, BUDGET, TIGHT, OUT_OF_BUDGET, EPOCH, EYE_EPOCH, TABLE_SIZE, POOL_USED, PATH_LEN = range(9)  # counters
PROBES = 8  # slots tried per key
FAILURES_PER_SLOT = 4
MAX_DEPTH = 160  # moves in one game: each takes a pyramid card, a stock card or a special
GUARD = sum(8 << 4 * r for r in range(14))  # the top bit of every 4-bit count in a packed set-aside pile

# A table is rows (epoch, key words, value): memo and fails have 4 key words (pyramid, revealed,
# stock index | flip | specials used, set-aside) and pairs and eyes 2 (pyramid, revealed).
# A memo row's value is its bound, a fails row's how many records it has seen.
Memory = namedtuple("Memory", "memo fails fail_recs pairs eyes eye_pool path counters")
# A deal as the search reads it (made by `search.tables`).
Tables = namedtuple(
    "Tables",
    "spans covers ranks rmask lows highs stock stock_counts kinds humaliens eyes owls other_later passed",
)
Ints = npt.NDArray[np.int64]
"""An int64 array: a table, a pool or the counters."""
MEMORY = array_tuple(Memory, (2, 2, 3, 2, 2, 1, 2, 1))
TABLES = array_tuple(Tables, (2, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1))


def new_memory(bits: int = 20) -> Memory:
    """Tables for 2**bits failed states, pyramids and bounds, a quarter as many Eye
    option lists (zeroed lazily by the system: untouched pages cost nothing)."""
    size = 1 << bits
    return Memory(
        np.zeros((size, 6), dtype=np.int64),
        np.zeros((size, 6), dtype=np.int64),
        np.zeros((size, FAILURES_PER_SLOT, 2), dtype=np.int64),
        np.zeros((size, 4), dtype=np.int64),
        np.zeros((size >> 2, 4), dtype=np.int64),
        np.zeros(size * 2, dtype=np.int64),
        np.zeros((MAX_DEPTH, 3), dtype=np.int64),
        np.zeros(9, dtype=np.int64),
    )


@kernel(array(2), I64, I64, I64, I64, I64)
def slot_of(table: Ints, epoch: int, a: int, b: int, c: int, d: int) -> int:
    """The slot holding the key (a, b, c, d) (>= 0), or -1 - the slot to store it in. Tables
    with 2 key words take c = d = 0."""
    mask: int = table.shape[0] - 1
    wide = table.shape[1] == 6
    h = a * -7046029254386353131 + b * -4658895280553007687 + c * 7640891576956012809 + d * -2685821657736338717
    home = (h ^ (h >> 29)) & mask
    for probe in range(PROBES):
        slot = (home + probe) & mask
        row = table[slot]
        if row[0] != epoch:
            return -1 - slot
        if row[1] == a and row[2] == b and (not wide or (row[3] == c and row[4] == d)):
            return slot
    return -1 - home


@kernel(array(2), I64, I64, I64, I64, I64, I64, I64)
def claim(table: Ints, slot: int, epoch: int, a: int, b: int, c: int, d: int, value: int) -> None:
    """Store a key and its value in `slot`."""
    row = table[slot]
    row[0], row[1], row[2] = epoch, a, b
    if table.shape[1] == 6:
        row[3], row[4] = c, d
    row[-1] = value


@kernel(TABLES, I64, I64, I64, I64, I64, I64, I64, I64)
def reaches(tb: Tables, i: int, flip: int, aside: int, k: int, i2: int, flip2: int, aside2: int, k2: int) -> bool:
    """Can state (i2, flip2, aside2, k2) be reached from (i, flip, aside, k) with the same pyramid,
    keeping at least its set-aside cards? Forgoing specials and turning stock cards get there;
    more set-aside cards, or a flip card, never hurt (SS-R4: the flip card only goes aside)."""
    if k > k2 or i > i2:
        return False
    if i == i2:
        if flip < flip2:
            return False
        have = aside
    else:
        passed = tb.passed
        have = aside + passed[i2 - 1] - passed[i] + (passed[i] - passed[i - 1] if flip else 0)
    return (have + GUARD - aside2) & GUARD == GUARD


@kernel(I64, I64, I64)
def memo_key(i: int, flip: int, k: int) -> int:
    return i << 8 | flip << 16 | k << 17


@kernel()
def fail(mem: Memory, tb: Tables, present: int, revealed: int, i: int, flip: int, aside: int, k: int,
         bound: int) -> None:
    """Record that this state ends with at least `bound` cards left."""
    counters = mem.counters
    epoch = counters[EPOCH]
    state = memo_key(i, flip, k)
    slot = slot_of(mem.memo, epoch, present, revealed, state, aside)
    if slot < 0:
        claim(mem.memo, -1 - slot, epoch, present, revealed, state, aside, bound)
    elif bound > mem.memo[slot, 5]:
        mem.memo[slot, 5] = bound
    slot = slot_of(mem.fails, epoch, present, revealed, 0, 0)
    if slot < 0:
        slot = -1 - slot
        if mem.fails[slot, 0] != epoch:
            counters[TABLE_SIZE] += 1
        claim(mem.fails, slot, epoch, present, revealed, 0, 0, 0)
    seen = mem.fails[slot, 5]
    recs = mem.fail_recs[slot]
    for r in range(min(seen, FAILURES_PER_SLOT)):
        packed = recs[r, 1]
        if packed & 255 <= bound and reaches(tb, i, flip, aside, k, (packed >> 8) & 255, (packed >> 16) & 1,
                                             recs[r, 0], packed >> 17):
            recs[r, 0] = aside
            recs[r, 1] = state | bound
            return
    r = seen % FAILURES_PER_SLOT
    recs[r, 0] = aside
    recs[r, 1] = state | bound
    mem.fails[slot, 5] = seen + 1


@kernel(TABLES, MEMORY, I64, I64, I64, I64, I64, I64, I64)
def dominated(tb: Tables, mem: Memory, present: int, revealed: int, i: int, flip: int, aside: int, k: int,
              t: int) -> bool:
    """Is there a failed state, proving more than `t`, from which this one can be reached?"""
    counters = mem.counters
    slot = slot_of(mem.memo, counters[EPOCH], present, revealed, memo_key(i, flip, k), aside)
    if slot >= 0 and mem.memo[slot, 5] > t:
        return True
    slot = slot_of(mem.fails, counters[EPOCH], present, revealed, 0, 0)
    if slot < 0:
        return False
    recs = mem.fail_recs[slot]
    for r in range(min(mem.fails[slot, 5], FAILURES_PER_SLOT)):
        packed = recs[r, 1]
        if packed & 255 > t and reaches(tb, (packed >> 8) & 255, (packed >> 16) & 1, recs[r, 0], packed >> 17, i,
                                        flip, aside, k):
            return True
    return False
