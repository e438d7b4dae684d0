"""Summaries of many games: the distribution of cards left and the clear rate with its interval."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from collections.abc import Iterable

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95 % by default)."""
    if trials <= 0:
        raise ValueError(f"trials must be positive, not {trials}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Summary:
    deals: int
    policy: str
    rows: int
    distribution: dict[int, int]
    mean_left: float
    clear_rate: float
    clear_rate_ci95: tuple[float, float]

    def to_json(self) -> dict[str, object]:
        return {
            "deals": self.deals,
            "policy": self.policy,
            "rows": self.rows,
            "distribution": {str(k): v for k, v in sorted(self.distribution.items())},
            "mean_left": round(self.mean_left, 4),
            "clear_rate": round(self.clear_rate, 4),
            "clear_rate_ci95": [round(x, 4) for x in self.clear_rate_ci95],
        }


def summarize(lefts: Iterable[int], policy: str, rows: int) -> Summary:
    counts = Counter(lefts)
    deals = sum(counts.values())
    if not deals:
        raise ValueError("no games to summarize")
    clears = counts.get(0, 0)
    mean = sum(k * n for k, n in counts.items()) / deals
    return Summary(deals, policy, rows, dict(sorted(counts.items())), mean, clears / deals, wilson(clears, deals))
