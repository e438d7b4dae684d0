"""The reading as voice-pack lines, and the odds table it is compared with."""

from __future__ import annotations

from typing import Mapping

from gm.text.lines import Voice
from gm.ports import Line
from scorer.solitaire.odds import SMART_DISTRIBUTION, SMART_ROWS
from scorer.solitaire.reading import reading, standing

ODDS_DEALS = 2000  # deals simulated for --odds when no table is stored for the layout


def smart_distribution(rows: int) -> Mapping[int, int]:
    """How the smart player's games end on this layout: the stored table, else a fresh simulation."""
    if rows == SMART_ROWS:
        return SMART_DISTRIBUTION
    from collections import Counter

    from gm.solitaire.runs import run_deals

    return Counter(run_deals(range(ODDS_DEALS), rows, "smart"))


def reading_lines(left: int, lang: str, distribution: Mapping[int, int] | None = None) -> tuple[list[Line], dict]:
    """The lines to say for `left` cards left, and the JSON form of the reading."""
    result = reading(left)
    voice = Voice(lang)
    lines = [voice.line(f"solitaire.{result.key}", left=left, percent=result.percent)]
    data: dict = {"left": left, "percent": result.percent, "text": lines[0].text}
    if distribution is not None:
        better, same = standing(left, distribution)
        lines.append(voice.line("solitaire.odds", better=round(better * 100)))
        data["odds"] = {"better_than": round(better, 4), "same_as": round(same, 4), "games": sum(distribution.values())}
        data["text"] += " " + lines[1].text if lang == "en" else lines[1].text
    return lines, data
