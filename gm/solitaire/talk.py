"""The reading as voice-pack lines, and the odds table it is compared with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.text.lines import Pack
from gm.ports import Line
from scorer.solitaire.layout import pyramid
from scorer.solitaire.odds import SMART_DISTRIBUTIONS
from scorer.solitaire.reading import BadLeft, Reading, reading, standing


def smart_distribution(rows: int) -> Mapping[int, int]:
    """How the smart player's games end on a pyramid of `rows` rows (the stored table)."""
    pyramid(rows)
    if rows not in SMART_DISTRIBUTIONS:
        raise BadLeft(f"no odds table for {rows} rows (tables exist for {', '.join(map(str, SMART_DISTRIBUTIONS))})")
    return SMART_DISTRIBUTIONS[rows]


def outlook(pack: Pack, result: Reading) -> str:
    """The reading in the manual's few words: "almost certainly", "about 70%", "very dark"."""
    return pack.text(f"solitaire.outlook.{result.key}", percent=result.percent)


def reading_lines(left: int, pack: Pack, rows: int,
                  distribution: Mapping[int, int] | None = None) -> tuple[list[Line], dict[str, Any]]:
    """The lines to say in the pack's language for `left` cards left of a `rows`-row pyramid, and
    the JSON form of the reading; with `distribution`, how it stands among those games (of the same layout)."""
    result = reading(left, rows)
    lines = [pack.line(f"solitaire.{result.key}", left=left, percent=result.percent)]
    data: dict[str, Any] = {"left": left, "rows": rows, "reading": result.key, "percent": result.percent,
                  "outlook": outlook(pack, result), "text": lines[0].text}
    if distribution is not None:
        better, same = standing(left, distribution)
        games = sum(distribution.values())
        lines.append(pack.line("solitaire.odds", better=round(better * 100), games=games, rows=rows))
        data["odds"] = {"better_than": round(better, 4), "same_as": round(same, 4), "games": games, "rows": rows}
        data["text"] += pack.language.sentences + lines[1].text
    return lines, data
