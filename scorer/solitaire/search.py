"""The solver's depth-first search, compiled to machine code with numba (see `solver` for the method).

Everything here works on plain integers and arrays: a deal's `Tables`, the search's `Memory`
and the state (pyramid mask, Eye-turned mask, stock index, flip card, packed set-aside counts,
specials used). The memory is a set of fixed-size hash tables (open addressing, a few probes,
the home slot replaced when they are all taken), allocated once per process and reused: a
slot counts only when it carries the current search's epoch. A lost entry only costs search.
Failed states are kept twice: by the whole state (exact lookups) and per pyramid (mask pair),
a few per slot, for dominance, as (set-aside, bound | stock index << 8 | flip << 16 | specials
used << 17); a new failure takes the place of one it makes redundant.
Pair counts per pair of numbers are packed 4 bits per class (class j is the numbers j+1 and
12-j); an Eye option packs 6 bits per class: changed, its pairs (3 bits), low card gone, high
card gone. Compiled code is cached on disk, so only the first run on a machine compiles.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

KING = 13
HUMALIEN, EYE, OWL = 0, 1, 2
PAIR, PAIR_FLIP, TURN, USE_HUMALIEN, USE_EYE, USE_OWL, FORGO = range(7)
NODES, BUDGET, TIGHT, OUT_OF_BUDGET, EPOCH, EYE_EPOCH, TABLE_SIZE, POOL_USED, PATH_LEN = range(9)
PROBES = 8  # slots tried per key
MAX_DEPTH = 160  # moves in one game: each takes a pyramid card, a stock card or a special
MAX_CHILDREN = 256
EXPAND, SUCCESS, FAILURE = 0, 1, 2  # what a first look at a state finds
FAILURES_PER_SLOT = 4
GUARD = sum(8 << 4 * r for r in range(14))  # the top bit of every 4-bit count in a packed set-aside pile

Tables = namedtuple(
    "Tables",
    "spans covers ranks rmask lows highs stock stock_counts kinds humaliens eyes owls other_later passed",
)
Memory = namedtuple(
    "Memory", "memo_keys memo_vals fail_keys fail_recs fail_seen pairs eyes eye_pool path counters"
)
DONE, STOPPED = 0, 1


def new_memory(bits: int = 20) -> Memory:
    """Tables for 2**bits failed states, pyramids and bounds, a quarter as many Eye
    option lists (zeroed lazily by the system: untouched pages cost nothing)."""
    size = 1 << bits
    return Memory(
        np.zeros((size, 5), dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros((size, 5), dtype=np.int64),
        np.zeros((size, FAILURES_PER_SLOT, 2), dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros((size, 4), dtype=np.int64),
        np.zeros((size >> 2, 4), dtype=np.int64),
        np.zeros(size * 2, dtype=np.int64),
        np.zeros((MAX_DEPTH, 3), dtype=np.int64),
        np.zeros(9, dtype=np.int64),
    )


@njit(cache=True)
def slot_of(keys, epoch, a, b, c, d):
    """The slot holding the key (a, b, c, d) (>= 0), or -1 - the slot to store it in."""
    mask = keys.shape[0] - 1
    h = a * -7046029254386353131 + b * -4658895280553007687 + c * 7640891576956012809 + d * -2685821657736338717
    home = (h ^ (h >> 29)) & mask
    for probe in range(PROBES):
        slot = (home + probe) & mask
        if keys[slot, 0] != epoch:
            return -1 - slot
        if keys[slot, 1] == a and keys[slot, 2] == b and keys[slot, 3] == c and keys[slot, 4] == d:
            return slot
    return -1 - home


@njit(cache=True)
def cached(table, epoch, present, revealed):
    """Look up a pyramid in a table of rows (epoch, present, revealed, value): the slot holding
    it (>= 0), or -1 - the slot to store it in."""
    mask = table.shape[0] - 1
    h = present * -7046029254386353131 + revealed * -4658895280553007687
    home = (h ^ (h >> 29)) & mask
    for probe in range(PROBES):
        slot = (home + probe) & mask
        row = table[slot]
        if row[0] != epoch:
            return -1 - slot
        if row[1] == present and row[2] == revealed:
            return slot
    return -1 - home


@njit(cache=True)
def store(table, slot, epoch, present, revealed, value):
    row = table[slot]
    row[0], row[1], row[2], row[3] = epoch, present, revealed, value


@njit(cache=True)
def claim(keys, slot, epoch, a, b, c, d):
    keys[slot, 0] = epoch
    keys[slot, 1] = a
    keys[slot, 2] = b
    keys[slot, 3] = c
    keys[slot, 4] = d


@njit(cache=True)
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 >> 56) & 0xFF


@njit(cache=True)
def lowest(x):
    """Index of the lowest set bit of x > 0."""
    return popcount((x & -x) - 1)


@njit(cache=True)
def uncovered(spans, present):
    """The present positions that no present card covers."""
    covered = 0
    for row in range(spans.shape[0]):
        children = (present >> spans[row, 1]) & spans[row, 3]
        covered |= ((children | children >> 1) & spans[row, 2]) << spans[row, 0]
    return present & ~covered


@njit(cache=True)
def settle(tb, present, revealed):
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


@njit(cache=True)
def max_matching(options, m):
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


@njit(cache=True)
def chains(tb, present, revealed):
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


@njit(cache=True)
def chain_pairings(tb, present, revealed):
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


@njit(cache=True)
def pairings(tb, mem, present, revealed):
    epoch = mem.counters[EPOCH]
    slot = cached(mem.pairs, epoch, present, revealed)
    if slot >= 0:
        return mem.pairs[slot, 3]
    found = chain_pairings(tb, present, revealed)
    store(mem.pairs, -1 - slot, epoch, present, revealed, found)
    return found


@njit(cache=True)
def add_option(pool, start, count, option):
    if option == 0:
        return count
    for index in range(start, start + count):
        if pool[index] == option:
            return count
    pool[start + count] = option
    return count + 1


@njit(cache=True)
def eye_options(tb, mem, present, revealed):
    """What one Eye can change in the bound, per card it can turn or discard: (start, count)
    of packed options in the pool (when the pool is full it starts over, and what pointed
    into it is forgotten)."""
    counters = mem.counters
    slot = cached(mem.eyes, counters[EYE_EPOCH], present, revealed)
    if slot >= 0:
        found = mem.eyes[slot, 3]
        return found >> 6, found & 63
    pool = mem.eye_pool
    base = pairings(tb, mem, present, revealed)
    start = counters[POOL_USED]
    if start + 2 * tb.ranks.shape[0] > pool.shape[0]:
        start = 0
        counters[EYE_EPOCH] += 1
        slot = cached(mem.eyes, counters[EYE_EPOCH], present, revealed)
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
    store(mem.eyes, -1 - slot, counters[EYE_EPOCH], present, revealed, start << 6 | count)
    return start, count


@njit(cache=True)
def shortage(pairs, mine, theirs, supply_s, supply_r, aside_s, aside_r):
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


@njit(cache=True)
def lower_bound(tb, mem, present, revealed, i, flip, aside, k, t):
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
    best = short - (fix if fix < owls else owls) - others
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
            value = short2 - (fix2 if fix2 < owls else owls) - others
            if value <= t:
                if index:  # try this one first next time
                    pool[start + index] = pool[start]
                    pool[start] = option
                return value
            if value < best:
                best = value
    return best


@njit(cache=True)
def reaches(tb, i, flip, aside, k, i2, flip2, aside2, k2):
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


@njit(cache=True)
def memo_key(i, flip, k):
    return i << 8 | flip << 16 | k << 17


@njit(cache=True)
def fail(mem, tb, present, revealed, i, flip, aside, k, bound):
    """Record that this state ends with at least `bound` cards left."""
    counters = mem.counters
    epoch = counters[EPOCH]
    state = memo_key(i, flip, k)
    slot = slot_of(mem.memo_keys, epoch, present, revealed, state, aside)
    if slot < 0:
        slot = -1 - slot
        claim(mem.memo_keys, slot, epoch, present, revealed, state, aside)
        mem.memo_vals[slot] = bound
    elif bound > mem.memo_vals[slot]:
        mem.memo_vals[slot] = bound
    slot = slot_of(mem.fail_keys, epoch, present, revealed, 0, 0)
    if slot < 0:
        slot = -1 - slot
        if mem.fail_keys[slot, 0] != epoch:
            counters[TABLE_SIZE] += 1
        claim(mem.fail_keys, slot, epoch, present, revealed, 0, 0)
        mem.fail_seen[slot] = 0
    recs = mem.fail_recs[slot]
    for r in range(min(mem.fail_seen[slot], FAILURES_PER_SLOT)):
        packed = recs[r, 1]
        if packed & 255 <= bound and reaches(tb, i, flip, aside, k, (packed >> 8) & 255, (packed >> 16) & 1, recs[r, 0], packed >> 17):
            recs[r, 0] = aside
            recs[r, 1] = state | bound
            return
    r = mem.fail_seen[slot] % FAILURES_PER_SLOT
    recs[r, 0] = aside
    recs[r, 1] = state | bound
    mem.fail_seen[slot] += 1


@njit(cache=True)
def dominated(tb, mem, present, revealed, i, flip, aside, k, t):
    """Is there a failed state, proving more than `t`, from which this one can be reached?"""
    counters = mem.counters
    slot = slot_of(mem.memo_keys, counters[EPOCH], present, revealed, memo_key(i, flip, k), aside)
    if slot >= 0 and mem.memo_vals[slot] > t:
        return True
    slot = slot_of(mem.fail_keys, counters[EPOCH], present, revealed, 0, 0)
    if slot < 0:
        return False
    recs = mem.fail_recs[slot]
    for r in range(min(mem.fail_seen[slot], FAILURES_PER_SLOT)):
        packed = recs[r, 1]
        if packed & 255 > t and reaches(tb, (packed >> 8) & 255, (packed >> 16) & 1, recs[r, 0], packed >> 17, i, flip, aside, k):
            return True
    return False


@njit(cache=True)
def enter(tb, mem, present, revealed, i, flip, aside, k, t):
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


@njit(cache=True)
def add_child(tb, moves, states, depth, count, move, a, b, present, revealed, face_up, i, flip, aside, k):
    """Note a move and the state it leads to (the set-aside pile only counts while an Owl is left)."""
    if tb.owls[k] == 0:
        aside = 0
    moves[depth, count, 0] = move
    moves[depth, count, 1] = a
    moves[depth, count, 2] = b
    row = states[depth, count]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6] = present, revealed, face_up, i, flip, aside, k
    return count + 1


@njit(cache=True)
def children(tb, frame, moves, states, depth):
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
        count = add_child(tb, moves, states, depth, count, TURN, 0, 0, present, revealed, face_up, i + 1, new_flip, new_aside, plain_k)
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
                        count = add_child(tb, moves, states, depth, count, USE_OWL, s, a, p, e, f, i, flip, aside - (1 << 4 * s), k + 1)
        if tb.other_later[k]:  # forgoing is only worth it with a special of another kind behind
            count = add_child(tb, moves, states, depth, count, FORGO, 0, 0, present, revealed, face_up, i, flip, aside, k + 1)
    return count


@njit(cache=True)
def feasible(tb, mem, present, revealed, face_up, i, flip, aside, k, t):
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


@njit(cache=True)
def tables(ranks, stock, kinds, spans, covers):
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
    return Tables(spans, covers, ranks, rmask, lows, highs, stock, stock_counts, kinds, humaliens, eyes, owls, other_later, passed)


@njit(cache=True)
def run(ranks, stock, kinds, spans, covers, budget, quick_states, mem):
    """The fewest cards left: (DONE or STOPPED, best or the bound proven so far); the states
    expanded and remembered and the moves, as (kind, a, b) rows, are left in `mem`.

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


def compiled() -> bool:
    """Is the compiled search in numba's cache? (If not, the first search compiles it: about
    half a minute.) Asked of numba's cache index; True when that cannot be told."""
    try:
        from pathlib import Path

        return Path(run._cache._cache_file._index_path).exists()
    except (AttributeError, TypeError, OSError):
        return True
