"""An evening of nights with the same players and deck: wins per player and per side (pure)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping, Sequence

from gm.werewolf.refusal import WerewolfRefusal
from gm.werewolf.judge import Side


class EveningError(WerewolfRefusal):
    """An evening record that cannot be: a winner who is not a player, an unknown side, bad JSON."""


@dataclass(frozen=True)
class Night:
    """One night's result: the winning side and who won."""

    winning_side: Side
    winners: tuple[str, ...]


@dataclass(frozen=True)
class Evening:
    """The nights played so far, in order."""

    players: tuple[str, ...]
    nights: tuple[Night, ...] = ()

    def add(self, winning_side: str, winners: Sequence[str]) -> Evening:
        """The evening with one more night."""
        if winning_side not in set(Side):
            raise EveningError(f"unknown side {winning_side!r} (sides: {', '.join(Side)})", "unknown_side",
                               text=winning_side, sides=tuple(Side))
        for name in winners:
            if name not in self.players:
                raise EveningError(f"winner {name!r} is not a player ({', '.join(self.players)})", "winner_not_player",
                                   name=name, players=self.players)
        if len(set(winners)) != len(winners):
            raise EveningError(f"a winner is named twice in {list(winners)}", "winner_twice", winners=list(winners))
        ordered = tuple(name for name in self.players if name in winners)
        return Evening(self.players, (*self.nights, Night(Side(winning_side), ordered)))

    def wins(self) -> dict[str, int]:
        """Nights won per player, in seating order."""
        counts = Counter(name for night in self.nights for name in night.winners)
        return {name: counts[name] for name in self.players}

    def sides(self) -> dict[Side, int]:
        """Nights won per side, for the sides that won any."""
        counts = Counter(night.winning_side for night in self.nights)
        return {side: counts[side] for side in Side if counts[side]}

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "nights": [{"winning_side": n.winning_side, "winners": list(n.winners)} for n in self.nights],
            "wins": self.wins(),
            "sides": self.sides(),
        }


def evening_from_json(data: Any) -> Evening:
    """Read what `Evening.to_json` wrote (the tallies are recomputed, not trusted)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("players"), list) or not isinstance(
            data.get("nights"), list):
        raise EveningError('an evening is a JSON object with "players" and "nights" lists', "not_an_evening")
    evening = Evening(tuple(str(name) for name in data["players"]))
    for night in data["nights"]:
        if not isinstance(night, Mapping) or not isinstance(night.get("winners"), list):
            raise EveningError(f'a night needs "winning_side" and a "winners" list, not {night!r}', "not_a_night",
                               night=night)
        evening = evening.add(str(night.get("winning_side")), [str(name) for name in night["winners"]])
    return evening
