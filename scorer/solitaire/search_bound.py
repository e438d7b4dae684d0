"""The search's lower bound on the cards left, and the bit work under it (compiled like
`search`).

Pair counts per pair of numbers are packed 4 bits per class (class j is the numbers j+1 and
12-j); an Eye option packs 6 bits per class: changed, its pairs (3 bits), low card gone, high
card gone. Chain pairings and Eye options are cached per pyramid in the search's memory.
"""

from __future__ import annotations

import numpy as np

from scorer.solitaire.kernel import I64, array, kernel
from scorer.solitaire.search_memory import (EPOCH, EYE_EPOCH, MEMORY, POOL_USED, TABLES, TIGHT, Ints, Memory, Tables,
                                            claim, slot_of)

KING = 13


@kernel(I64)
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 >> 56) & 0xFF


@kernel()
def lowest(x: int) -> int:
    """Index of the lowest set bit of x > 0."""
    return popcount((x & -x) - 1)


@kernel()
def uncovered(spans: Ints, present: int) -> int:
    """The present positions that no present card covers."""
    covered = 0
    for row in range(spans.shape[0]):
        children = (present >> spans[row, 1]) & spans[row, 3]
        covered |= ((children | children >> 1) & spans[row, 2]) << spans[row, 0]
    return present & ~covered


@kernel(TABLES, I64, I64)
def settle(tb: Tables, present: int, revealed: int) -> tuple[int, int, int]:
    """Remove face-up 13s until none is left (SS-R2): (present, revealed-while-covered, face-up)."""
    kings = tb.rmask[KING]
    revealed &= present
    while True:
        up = uncovered(tb.spans, present)
        face_up = up | revealed
        gone = face_up & kings
        if gone == 0:
            return present, revealed & ~up, face_up
        present &= ~gone
        revealed &= present


@kernel()
def max_matching(options: Ints, m: int) -> int:
    """Size of a maximum matching; options[a] is the mask of a's possible partners (a < m ≤ 8).

    By Hall's theorem with deficiency: m less the largest |S| − |partners of S| over sets S.
    """
    deficiency = 0
    for subset in range(1, 1 << m):
        partners = 0
        for a in range(m):
            if (subset >> a) & 1:
                partners |= options[a]
        d = popcount(subset) - popcount(partners)
        if d > deficiency:
            deficiency = d
    return m - deficiency


@kernel()
def chains(tb: Tables, present: int, revealed: int) -> Ints:
    """blocked[p]: the present cards that must leave before p can be face up (all the cards
    lying on it through chains of present cards; none for a card the Eye turned, SS-R3)."""
    size = tb.ranks.shape[0]
    blocked = np.zeros(size, dtype=np.int64)
    for p in range(size - 1, -1, -1):
        if (present >> p) & 1 and not (revealed >> p) & 1:
            chain = 0
            for side in range(2):
                q = tb.covers[p, side]
                if q >= 0 and (present >> q) & 1:
                    chain |= (1 << q) | blocked[q]
            blocked[p] = chain
    return blocked


@kernel()
def chain_pairings(tb: Tables, present: int, revealed: int) -> int:
    """Per pair of numbers, the most disjoint pyramid pairs that can still be face up together
    without an Eye: two cards pair only if neither lies on the other through a chain."""
    blocked = chains(tb, present, revealed)
    packed = 0
    options = np.zeros(8, dtype=np.int64)
    for j in range(6):
        lows = present & tb.lows[j]
        highs = present & tb.highs[j]
        if lows == 0 or highs == 0:
            continue
        m = 0
        while lows:
            a = lowest(lows)
            lows &= lows - 1
            partners = highs & ~blocked[a]
            rest = partners
            while rest:
                b = lowest(rest)
                rest &= rest - 1
                if (blocked[b] >> a) & 1:
                    partners ^= 1 << b
            options[m] = partners
            m += 1
        packed |= max_matching(options, m) << (4 * j)
    return packed


@kernel()
def pairings(tb: Tables, mem: Memory, present: int, revealed: int) -> int:
    epoch = mem.counters[EPOCH]
    slot = slot_of(mem.pairs, epoch, present, revealed, 0, 0)
    if slot >= 0:
        known: int = mem.pairs[slot, 3]
        return known
    found = chain_pairings(tb, present, revealed)
    claim(mem.pairs, -1 - slot, epoch, present, revealed, 0, 0, found)
    return found


@kernel(array(1), I64, I64, I64)
def add_option(pool: Ints, start: int, count: int, option: int) -> int:
    if option == 0:
        return count
    for index in range(start, start + count):
        if pool[index] == option:
            return count
    pool[start + count] = option
    return count + 1


@kernel()
def eye_options(tb: Tables, mem: Memory, present: int, revealed: int) -> tuple[int, int]:
    """What one Eye can change in the bound, per card it can turn or discard: (start, count)
    of packed options in the pool (when the pool is full it starts over, and what pointed
    into it is forgotten)."""
    counters = mem.counters
    slot = slot_of(mem.eyes, counters[EYE_EPOCH], present, revealed, 0, 0)
    if slot >= 0:
        found = mem.eyes[slot, 3]
        return found >> 6, found & 63
    pool = mem.eye_pool
    base = pairings(tb, mem, present, revealed)
    start = counters[POOL_USED]
    if start + 2 * tb.ranks.shape[0] > pool.shape[0]:
        start = 0
        counters[EYE_EPOCH] += 1
        slot = slot_of(mem.eyes, counters[EYE_EPOCH], present, revealed, 0, 0)
    count = 0
    cards = present & ~revealed & ~uncovered(tb.spans, present)
    while cards:
        c = lowest(cards)
        cards &= cards - 1
        turned = pairings(tb, mem, present, revealed | 1 << c)
        option = 0
        for j in range(6):
            n = (turned >> 4 * j) & 15
            if n != (base >> 4 * j) & 15:
                option |= (1 | n << 1) << 6 * j
        count = add_option(pool, start, count, option)
        gone = pairings(tb, mem, present & ~(1 << c), revealed)
        r = tb.ranks[c]
        home = r - 1 if r < 7 else 12 - r
        option = 0
        for j in range(6):
            n = (gone >> 4 * j) & 15
            if n != (base >> 4 * j) & 15 or (j == home and r < 13):
                low_gone = 1 if j == home and r < 7 else 0
                high_gone = 1 if j == home and 6 < r < 13 else 0
                option |= (1 | n << 1 | low_gone << 4 | high_gone << 5) << 6 * j
        count = add_option(pool, start, count, option)
    counters[POOL_USED] = start + count
    claim(mem.eyes, -1 - slot, counters[EYE_EPOCH], present, revealed, 0, 0, start << 6 | count)
    return start, count


@kernel()
def shortage(pairs: int, mine: int, theirs: int, supply_s: int, supply_r: int, aside_s: int,
             aside_r: int) -> tuple[int, int]:
    """(cards of a pair of numbers left without partner, how many of them the set-aside pile could take)."""
    short = 0
    fix = 0
    d = mine - pairs - supply_s
    if d > 0:
        short += d
        fix += d if d < aside_s else aside_s
    d = theirs - pairs - supply_r
    if d > 0:
        short += d
        fix += d if d < aside_r else aside_r
    return short, fix


@kernel(TABLES, MEMORY, I64, I64, I64, I64, I64, I64, I64)
def lower_bound(tb: Tables, mem: Memory, present: int, revealed: int, i: int, flip: int, aside: int, k: int,
                t: int) -> int:
    """Cards that must stay whatever happens — exactly when that is more than `t` (once it is
    clear the bound cannot exceed `t`, some number at most `t` is returned).

    Per pair of numbers (r, 13 − r): the pyramid cards that `pairings` cannot pair and the
    remaining stock and flip card cannot take, less what the Owls can pair from the set-aside
    pile and the Humaliens. One Eye left: the least over everything it can do
    (`eye_options`); two: any two cards may pair, and each Eye removes one more card.
    """
    stock = tb.stock_counts[i]
    flip_rank = tb.stock[i - 1] if flip else 0
    eyes = tb.eyes[k]
    tight = mem.counters[TIGHT] != 0
    exact_eye = eyes == 1 and tight
    chained = (eyes == 0 and tight) or exact_eye
    packed = pairings(tb, mem, present, revealed) if chained else 0
    counts = np.empty((6, 6), dtype=np.int64)
    part_short = np.empty(6, dtype=np.int64)
    part_fix = np.empty(6, dtype=np.int64)
    short = 0
    fix = 0
    for j in range(6):
        r = j + 1
        s = 13 - r
        c0 = popcount(present & tb.lows[j])
        c1 = popcount(present & tb.highs[j])
        counts[j, 0] = c0
        counts[j, 1] = c1
        counts[j, 2] = stock[s] + (1 if flip_rank == s else 0)
        counts[j, 3] = stock[r] + (1 if flip_rank == r else 0)
        counts[j, 4] = (aside >> 4 * s) & 15
        counts[j, 5] = (aside >> 4 * r) & 15
        n = (packed >> 4 * j) & 15 if chained else 99
        pairs = n if n < c0 and n < c1 else min(c0, c1)
        a, b = shortage(pairs, c0, c1, counts[j, 2], counts[j, 3], counts[j, 4], counts[j, 5])
        part_short[j] = a
        part_fix[j] = b
        short += a
        fix += b
    owls = tb.owls[k]
    others = tb.humaliens[k] + (0 if exact_eye else eyes)
    best: int = short - (fix if fix < owls else owls) - others
    if exact_eye and best > t:
        start, count = eye_options(tb, mem, present, revealed)
        pool = mem.eye_pool
        for index in range(count):
            option = pool[start + index]
            short2 = short
            fix2 = fix
            for j in range(6):
                field = (option >> 6 * j) & 63
                if field & 1:
                    a, b = shortage(
                        (field >> 1) & 7,
                        counts[j, 0] - ((field >> 4) & 1),
                        counts[j, 1] - ((field >> 5) & 1),
                        counts[j, 2],
                        counts[j, 3],
                        counts[j, 4],
                        counts[j, 5],
                    )
                    short2 += a - part_short[j]
                    fix2 += b - part_fix[j]
            value: int = short2 - (fix2 if fix2 < owls else owls) - others
            if value <= t:
                if index:  # try this one first next time
                    pool[start + index] = pool[start]
                    pool[start] = option
                return value
            if value < best:
                best = value
    return best
