"""Counts said by name, as a table says a tally in one breath: "Aki 3, Ken 1", "健は2票" (pure)."""

from __future__ import annotations

import functools
import re
from types import MappingProxyType
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from gm.ports import Kind, Refused, Slot
from gm.text.words import LONGEST, Names, Words


Counts = Mapping[str, int]
"""Candidate → votes: what a count or a fix says (read-only)."""


def counts(items: Mapping[str, int]) -> Counts:
    return MappingProxyType(dict(items))


class ByName(Mapping[str, int]):
    """Counts said by name ("Aki 3, Ken 1"): the tally as the table says it in one breath, where
    the candidates not named have none once the total can be the vote's (HW-R4)."""

    def __init__(self, items: Mapping[str, int]) -> None:
        self._items = dict(items)

    def __getitem__(self, candidate: str) -> int:
        return self._items[candidate]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"ByName({self._items!r})"


def fixes_by_name(slots: Sequence[Slot[Any]]) -> ByName | None:
    """The counts fixes said in one breath set ("aki three ken one" → Aki 3, Ken 1), from their
    slots; None where one is no fix its question takes or a candidate is named twice."""
    fixes = {slot.who: slot.n for slot in slots if slot.kind == Kind.FIX and not isinstance(slot.value, Refused)}
    return ByName(fixes) if len(fixes) == len(slots) else None


def read_pairs(words: Sequence[str], names: Names, table: Words) -> ByName | None:
    """ "Aki 3 Ken 1", "Aki=3, Ken=1", "aki3", "けん 2", "Aki three", "健は2票、墓地は1票",
    "けん に 2", "켄에게 2표" → counts; each name once, each followed by its number (a particle
    may stand between them: `PARTICLES`). None when the words are not such pairs."""
    parts = pieces(words, names)
    others = table.answer_words() - table.graveyard
    if len(parts) > PAIR_SPAN * len(set(names.spellings.values())):
        return None  # more words than every candidate named once could take

    def who(span: Sequence[str]) -> str | None:
        named = names.name(span, others)
        if named is not None:
            return named
        last = span[-1]
        bare = next((last[:-len(p)] for p in PARTICLES if last.endswith(p) and len(last) > len(p)), None)
        return None if bare is None else names.name([*span[:-1], bare], others)

    @functools.cache
    def pairs_from(at: int) -> tuple[tuple[str, int], ...] | None:
        if at == len(parts):
            return ()
        for size in range(min(LONGEST, len(parts) - at), 0, -1):
            name = who(parts[at:at + size])
            if name is None:
                continue
            after = at + size
            starts = (after, after + 1) if after < len(parts) and parts[after] in PARTICLES else (after,)
            for start in starts:
                for length in range(min(LONGEST, len(parts) - start), 0, -1):
                    n = table.number(parts[start:start + length])
                    if n is None:
                        continue
                    rest = pairs_from(start + length)
                    if rest is not None and name not in dict(rest):
                        return ((name, n), *rest)
        return None

    found = pairs_from(0)
    return None if not found else ByName(dict(found))


PARTICLES = ("에게", "한테", "は", "に", "が", "の", "은", "는", "이", "가")
"""Words between a name and its count ("健は2票", "けん に 2", "켄에게 2표"), typed glued to the
name or apart; longest first."""
PAIR_SPAN = 2 * LONGEST + 1  # pieces one name, a particle and a count can take


def pieces(words: Sequence[str], names: Names) -> tuple[str, ...]:
    """`words` with digits cut from the letters around them ("健2票" → 健 2 票), but a word that
    is itself a name."""
    out: list[str] = []
    for word in words:
        out.extend([word] if names.exact([word]) is not None else DIGIT_RUNS.findall(word))
    return tuple(out)


DIGIT_RUNS = re.compile(r"\d+|\D+")
