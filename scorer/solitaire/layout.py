"""The pyramid's geometry (SS-R1): `rows` rows, row r (0 = top) holds r + 1 cards.

Positions are numbered 0..n-1 row by row from the top, left to right. Position (r, c) is
covered by (r + 1, c) and (r + 1, c + 1). Sets of positions are int bitmasks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from scorer.solitaire.refusal import SolitaireRefusal

MIN_ROWS, MAX_ROWS = 3, 9
DEFAULT_ROWS = 7


class BadLayout(SolitaireRefusal):
    """A pyramid size outside 3–9 rows."""


@dataclass(frozen=True)
class Pyramid:
    rows: int
    size: int
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    covers: tuple[int, ...]  # covers[p]: mask of the (at most two) positions lying on p
    bottom: int  # mask of the bottom row (dealt face up)

    def position(self, row: int, col: int) -> int:
        return row * (row + 1) // 2 + col

    row_spans: tuple[tuple[int, int, int, int], ...]  # per row above the bottom: (start, next start, mask, child mask)

    def uncovered(self, present: int) -> int:
        """The present positions that no present card covers."""
        covered = 0
        for start, below, width, child_width in self.row_spans:
            children = present >> below & child_width
            covered |= ((children | children >> 1) & width) << start
        return present & ~covered


@cache
def pyramid(rows: int = DEFAULT_ROWS) -> Pyramid:
    """The layout with `rows` rows (3–9)."""
    if not isinstance(rows, int) or not MIN_ROWS <= rows <= MAX_ROWS:
        raise BadLayout(f"rows must be {MIN_ROWS}–{MAX_ROWS}, not {rows}", "rows", low=MIN_ROWS, high=MAX_ROWS,
                        rows=str(rows))
    row_of, col_of, covers = [], [], []
    for r in range(rows):
        for c in range(r + 1):
            row_of.append(r)
            col_of.append(c)

    def start_next(r: int) -> int:
        return (r + 1) * (r + 2) // 2

    for r, c in zip(row_of, col_of):
        covers.append(0 if r == rows - 1 else (1 << (start_next(r) + c)) | (1 << (start_next(r) + c + 1)))
    size = rows * (rows + 1) // 2
    bottom = sum(1 << p for p in range(size) if row_of[p] == rows - 1)
    spans = tuple((r * (r + 1) // 2, start_next(r), (1 << (r + 1)) - 1, (1 << (r + 2)) - 1) for r in range(rows - 1))
    return Pyramid(rows, size, tuple(row_of), tuple(col_of), tuple(covers), bottom, spans)
