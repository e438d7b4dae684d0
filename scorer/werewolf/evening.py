"""Evenings of nights: wins per player and per side, tonight and all time (pure).

A night records who played, the winning side, who won and every player's side; an evening is the
nights of one `gm werewolf play`; a group's record is every night its players played, evening
after evening. Reading a record is linear in its nights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from scorer.values import Refusal
from scorer.werewolf.sides import Side
from scorer.werewolf.refusal import WerewolfRefusal


Key = TypeVar("Key")


class EveningError(WerewolfRefusal):
    """An evening record that cannot be: a winner who is not a player, an unknown side, bad JSON."""


_SIDES: Mapping[object, Side] = {str(side): side for side in Side}


def _side(text: object) -> Side:
    side = _SIDES.get(text) if isinstance(text, str) else None
    if side is None:
        raise EveningError(f"unknown side {text!r} (sides: {', '.join(Side)})", "unknown_side",
                           text=text, sides=tuple(Side))
    return side


@dataclass(frozen=True)
class Night:
    """One night: who played, the winning side, who won (in seating order), every player's side
    (empty in records kept before sides were), and the evening it belongs to."""

    winning_side: Side
    winners: tuple[str, ...]
    players: tuple[str, ...] = ()
    sides: Mapping[str, Side] = field(default_factory=lambda: MappingProxyType({}))
    evening: str = ""


def night(players: Sequence[str], winning_side: object, winners: Sequence[str],
          sides: Mapping[str, object] | None = None, evening: str = "") -> Night:
    """A night checked: a known side, winners and sides only of players, nobody named twice."""
    side = _side(winning_side)
    seated = set(players)
    for name in winners:
        if name not in seated:
            raise EveningError(f"winner {name!r} is not a player ({', '.join(players)})", "winner_not_player",
                               name=name, players=tuple(players))
    if len(set(winners)) != len(winners):
        raise EveningError(f"a winner is named twice in {list(winners)}", "winner_twice", winners=list(winners))
    checked = {}
    for name, their_side in (sides or {}).items():
        if name not in seated:
            raise EveningError(f"{name!r} has a side but is not a player ({', '.join(players)})", "side_not_player",
                               name=name, players=tuple(players))
        checked[name] = _side(their_side)
    won = set(winners)
    return Night(side, tuple(name for name in players if name in won), tuple(players),
                 MappingProxyType(checked), evening)


@dataclass(frozen=True)
class Evening:
    """The nights played so far, in order."""

    players: tuple[str, ...]
    nights: tuple[Night, ...] = ()

    def add(self, winning_side: str, winners: Sequence[str], sides: Mapping[str, object] | None = None,
            evening: str = "") -> Evening:
        """The evening with one more night."""
        return Evening(self.players, (*self.nights, night(self.players, winning_side, winners, sides, evening)))

    def wins(self) -> dict[str, int]:
        """Nights won per player, in seating order."""
        counts = Counter(name for each in self.nights for name in each.winners)
        return {name: counts[name] for name in self.players}

    def sides(self) -> dict[Side, int]:
        """Nights won per side, for the sides that won any."""
        return side_wins(self.nights)

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "nights": [night_json(n) for n in self.nights],
                "wins": self.wins(), "sides": self.sides()}


def side_wins(nights: Iterable[Night]) -> dict[Side, int]:
    """Nights won per side, for the sides that won any, in the order of `Side`."""
    counts = Counter(each.winning_side for each in nights)
    return {side: counts[side] for side in Side if counts[side]}


def night_json(each: Night) -> dict[str, Any]:
    data: dict[str, Any] = {"winning_side": each.winning_side, "winners": list(each.winners)}
    if each.players:
        data["players"] = list(each.players)
    if each.sides:
        data["sides"] = dict(each.sides)
    if each.evening:
        data["evening"] = each.evening
    return data


def night_from_json(data: Any, players: Sequence[str] = ()) -> Night:
    """A night as `night_json` wrote it; `players` are the record's when the night names none."""
    if not isinstance(data, Mapping) or not isinstance(data.get("winners"), list):
        raise EveningError(f'a night needs "winning_side" and a "winners" list, not {data!r}', "not_a_night",
                           night=data)
    seated = data.get("players", players)
    sides = data.get("sides", {})
    if not isinstance(seated, list | tuple) or not isinstance(sides, Mapping):
        raise EveningError(f'a night needs "winning_side" and a "winners" list, not {data!r}', "not_a_night",
                           night=data)
    return night([str(p) for p in seated], data.get("winning_side"), [str(name) for name in data["winners"]],
                 {str(k): v for k, v in sides.items()}, str(data.get("evening", "")))


def evening_from_json(data: Any) -> Evening:
    """Read what `Evening.to_json` wrote (the tallies are recomputed, not trusted)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("players"), list) or not isinstance(
            data.get("nights"), list):
        raise EveningError('an evening is a JSON object with "players" and "nights" lists', "not_an_evening")
    players = tuple(str(name) for name in data["players"])
    return Evening(players, tuple(night_from_json(each, players) for each in data["nights"]))


# -- results per player ------------------------------------------------------------------------
@dataclass(frozen=True)
class Played:
    """How often a player played and won, on one side or all sides."""

    nights: int = 0
    wins: int = 0

    @property
    def share(self) -> float:
        """The share of nights won, 0 when none was played."""
        return self.wins / self.nights if self.nights else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"nights": self.nights, "wins": self.wins, "share": round(self.share, 4)}


@dataclass(frozen=True)
class PlayerResults:
    """A player's nights and wins, and the same per side they played."""

    name: str
    overall: Played
    by_side: Mapping[Side, Played]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, **self.overall.to_json(),
                "by_side": {side: played.to_json() for side, played in self.by_side.items()}}


def _add_counts(counts: dict[Key, list[int]], more: dict[Key, list[int]]) -> None:
    """Add `more`'s [nights, wins] to `counts`' (keys new to it last, in `more`'s order)."""
    for key, (nights, wins) in more.items():
        tally = counts.setdefault(key, [0, 0])
        tally[0] += nights
        tally[1] += wins


class _Results:
    """Nights and wins per player and per (player, side), counted one night at a time."""

    def __init__(self) -> None:
        self.nights = 0
        self.sides: Counter[Side] = Counter()
        self.played: dict[str, list[int]] = {}  # name → [nights, wins]
        self.on_side: dict[tuple[str, Side], list[int]] = {}  # (name, side) → [nights, wins]

    def add(self, each: Night) -> None:
        self.nights += 1
        self.sides[each.winning_side] += 1
        won = set(each.winners)
        played, on_side = self.played, self.on_side
        for name in each.players:
            win = name in won
            tally = played.get(name)
            if tally is None:
                tally = played[name] = [0, 0]
            tally[0] += 1
            tally[1] += win
            side = each.sides.get(name)
            if side is not None:
                by = on_side.get((name, side))
                if by is None:
                    by = on_side[(name, side)] = [0, 0]
                by[0] += 1
                by[1] += win

    def merge(self, other: _Results) -> None:
        """Count `other`'s nights too, as if they came after these (its new players last, in its order)."""
        self.nights += other.nights
        self.sides.update(other.sides)
        _add_counts(self.played, other.played)
        _add_counts(self.on_side, other.on_side)

    def results(self) -> list[PlayerResults]:
        return [PlayerResults(name, Played(*tally),
                              MappingProxyType({side: Played(*self.on_side[(name, side)])
                                                for side in Side if (name, side) in self.on_side}))
                for name, tally in self.played.items()]

    def scope(self) -> Scope:
        return Scope(self.nights, {side: self.sides[side] for side in Side if self.sides[side]}, tuple(self.results()))


def _counted(nights: Iterable[Night]) -> _Results:
    counted = _Results()
    for each in nights:
        counted.add(each)
    return counted


def results(nights: Iterable[Night]) -> list[PlayerResults]:
    """Every player's results over `nights`, in the order they first played (one pass)."""
    return _counted(nights).results()


@dataclass(frozen=True)
class Scope:
    """Nights, wins per side and every player's results over some nights (tonight's or all time's)."""

    nights: int = 0
    sides: Mapping[Side, int] = field(default_factory=lambda: MappingProxyType({}))
    players: tuple[PlayerResults, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"nights": self.nights, "sides": dict(self.sides), "players": [p.to_json() for p in self.players]}


def scope(nights: Iterable[Night]) -> Scope:
    """The results over `nights` (one pass)."""
    return _counted(nights).scope()


@dataclass(frozen=True)
class Summary:
    """A group's record as it is shown: tonight's results (the latest evening's nights), all time's,
    the latest evening and how many evenings there were. `tonight_split`: the latest evening's
    nights are not all in its last run of nights (two evenings played at once), so `tonight` counts
    only that run; `scope` over its nights gives the whole."""

    tonight: Scope
    all_time: Scope
    evening: str | None = None
    evenings: int = 0
    group: str = ""
    tonight_split: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"evening": self.evening, "evenings": self.evenings, "tonight": self.tonight.to_json(),
                "all_time": self.all_time.to_json()}


class NotATally(Refusal):
    """Data that is not a tally `Tally.to_json` wrote (a kept tally damaged, or of another shape)."""


class Tally:
    """A group's summary counted one night at a time, and kept between runs as plain data
    (`to_json`, `tally_from_json`): memory grows with players and evenings, not with nights."""

    def __init__(self) -> None:
        self.every, self.run = _Results(), _Results()  # the nights before the last run of one evening; that run
        self.evenings: dict[str, None] = {}  # each evening once, in order
        self.last: str | None = None
        self.split = False
        self.group = ""

    def add(self, each: Night, group: str = "") -> None:
        """One more night, with the group name its line gave ("" when none): counted once, in the
        run of its evening (a run is added to the rest when the next begins)."""
        if each.evening != self.last:
            self.split = each.evening in self.evenings
            self.evenings[each.evening] = None
            self.every.merge(self.run)
            self.last, self.run = each.evening, _Results()
        self.run.add(each)
        self.group = group or self.group

    def summary(self) -> Summary:
        every = _Results()
        every.merge(self.every)
        every.merge(self.run)
        return Summary(self.run.scope(), every.scope(), self.last, len(self.evenings), self.group, self.split)

    def to_json(self) -> dict[str, Any]:
        return {"every": _results_json(self.every), "run": _results_json(self.run), "evenings": list(self.evenings),
                "last": self.last, "split": self.split, "group": self.group}


def _results_json(counted: _Results) -> dict[str, Any]:
    return {"nights": counted.nights, "sides": dict(counted.sides),
            "played": [[name, *tally] for name, tally in counted.played.items()],
            "on_side": [[name, side, *tally] for (name, side), tally in counted.on_side.items()]}


def tally_from_json(data: Any) -> Tally:
    """A tally as `Tally.to_json` wrote it; NotATally when it is not one."""
    try:
        tally = Tally()
        tally.every, tally.run = _results_from(data["every"]), _results_from(data["run"])
        tally.evenings = dict.fromkeys(_text(each) for each in data["evenings"])
        tally.last = None if data["last"] is None else _text(data["last"])
        tally.split, tally.group = bool(data["split"]), _text(data["group"])
    except (KeyError, TypeError, ValueError, AttributeError) as error:  # a missing key, a wrong type or shape
        raise NotATally(f"not a tally: {error}") from None
    return tally


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r:.40} is not text")
    return value


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise TypeError(f"{value!r:.40} is not a count")
    return value


def _results_from(data: Any) -> _Results:
    counted = _Results()
    counted.nights = _count(data["nights"])
    counted.sides.update({_side(side): _count(n) for side, n in data["sides"].items()})
    for name, nights, wins in data["played"]:
        counted.played[_text(name)] = [_count(nights), _count(wins)]
    for name, side, nights, wins in data["on_side"]:
        counted.on_side[(_text(name), _side(side))] = [_count(nights), _count(wins)]
    return counted


def summary(nights: Iterable[tuple[Night, str]]) -> Summary:
    """The summary of a group's nights, each with the group name its line gave ("" when none), in
    one pass over them."""
    tally = Tally()
    for each, group in nights:
        tally.add(each, group)
    return tally.summary()


@dataclass(frozen=True)
class Record:
    """A group's nights, evening after evening, in the order played, and the group's name."""

    nights: tuple[Night, ...]
    group: str = ""

    @property
    def evenings(self) -> tuple[str, ...]:
        """The evenings, in order (each once)."""
        return tuple(dict.fromkeys(each.evening for each in self.nights))

    def tonight(self) -> tuple[Night, ...]:
        """The nights of the latest evening."""
        if not self.nights:
            return ()
        last = self.nights[-1].evening
        return tuple(each for each in self.nights if each.evening == last)

    def to_json(self) -> dict[str, Any]:
        tonight = self.tonight()
        return Summary(scope(tonight), scope(self.nights), tonight[0].evening if tonight else None,
                       len(self.evenings)).to_json()
