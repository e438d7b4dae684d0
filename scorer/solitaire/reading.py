"""The reading (導きの結果): what the number of pyramid cards left says."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping

from scorer.solitaire.refusal import SolitaireRefusal
from scorer.solitaire.layout import pyramid


class BadLeft(SolitaireRefusal):
    """A number of cards left that is not a whole number from 0 up, or more than the pyramid holds."""


@dataclass(frozen=True)
class Reading:
    left: int
    percent: int | None  # chance it goes well, (10 - left) * 10 for 1–9; None for 0 and 10+,
    # where the manual gives words only (「ほぼ間違いなく」, 「非常に暗い」)
    key: str  # voice-pack line: "bright", "chance" or "dark"


def reading(left: int, rows: int | None = None) -> Reading:
    """0 → bright, almost certain; 1–9 → (10 − left) × 10 %; 10 or more → very dark (no
    percentage for 0 and 10+: the manual words them only).

    With `rows`, a count the pyramid cannot have (more cards than it holds) is refused.
    """
    if isinstance(left, bool) or not isinstance(left, int) or left < 0:
        raise BadLeft(f"cards left must be a whole number from 0, not {left!r}", "bad_left", left=repr(left))
    if rows is not None and left > pyramid(rows).size:
        raise BadLeft(f"a {rows}-row pyramid holds {pyramid(rows).size} cards: {left} cannot be left", "too_many_left",
                      rows=rows, size=pyramid(rows).size, left=left)
    if left == 0:
        return Reading(0, None, "bright")
    if left >= 10:
        return Reading(left, None, "dark")
    return Reading(left, (10 - left) * 10, "chance")


def standing(left: int, distribution: Mapping[int, int]) -> tuple[float, float]:
    """Share of games in `distribution` (left → count) that ended worse than `left`, and as well."""
    total = sum(distribution.values())
    if not total:
        raise BadLeft("no games to compare with")
    worse = sum(n for k, n in distribution.items() if k > left)
    same = distribution.get(left, 0)
    return worse / total, same / total
