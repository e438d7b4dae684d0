"""The events of a Humalien match: frozen values, and their plain-dict records for storage."""

from __future__ import annotations

from dataclasses import Field, dataclass, fields
from typing import Any, get_args, get_type_hints

from scorer.humalien.errors import BadRecord
from scorer.values import Named

RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class NewMatch:
    """Two players start a match of three games; `remote` = each plays from their own box."""

    players: tuple[str, str]
    remote: bool = False
    abandon: bool = False
    readings: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Flow:
    """場が流れる: `player` made the last play; `piles` of their own stock piles are empty (HU-R2)."""

    player: str
    piles: int


@dataclass(frozen=True, slots=True)
class Skull:
    """ドクロ: `player` played 6s; `cards` = sixes plus Humaliens in that one play (HU-R3)."""

    player: str
    cards: int


@dataclass(frozen=True, slots=True)
class SixSixSix:
    """ロクロクロク: three 6s and the Eye; 3 skull cards now, this game's end points ×3, and the
    forced flow it makes, scoring `piles` (the player's empty piles). `piles` None: a record
    written before a 666 carried its flow (the flow was entered on its own)."""

    player: str
    piles: int | None = None


@dataclass(frozen=True, slots=True)
class GodIsland:
    """ゴッドアイランド: four Owls as a revolution; 30 points."""

    player: str


@dataclass(frozen=True, slots=True)
class AngelCut:
    """エンジェルカット: three 7s and the Eye, and the forced flow it makes. `piles` None: the
    player discarded their stock piles (the flow scores 5); otherwise they kept them (the
    discard is optional) and the flow scores the `piles` actually empty. `opponent_left` set:
    the player's hand was empty, so the cut won the game at once (「その時点で勝利」), a finish
    with the opponent holding that many cards."""

    player: str
    piles: int | None = None
    opponent_left: int | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """上がり: `player` ran out of cards while the opponent held `opponent_left` (hand + stock)."""

    player: str
    opponent_left: int


@dataclass(frozen=True, slots=True)
class Foul:
    """反則上がり: `player` finished on a forbidden card; the opponent, holding `winner_left`, scores."""

    player: str
    winner_left: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last scoring event (or new match)."""


@dataclass(frozen=True, slots=True)
class Redo:
    """Put back the last event undone, if no scoring event came since."""


Scoring = Flow | Skull | SixSixSix | GodIsland | AngelCut | Finish | Foul
Doing = NewMatch | Scoring
Event = Doing | Undo | Redo



class Kind(Named):
    """The kind of an event as records, awards and voice-pack keys name it."""

    NEW = "new"
    FLOW = "flow"
    SKULL = "skull"
    SIX_SIX_SIX = "666"
    GOD_ISLAND = "god_island"
    ANGEL_CUT = "angel_cut"
    FINISH = "finish"
    FOUL = "foul"
    UNDO = "undo"
    REDO = "redo"


KINDS: dict[str, type[Event]] = {
    Kind.NEW: NewMatch, Kind.FLOW: Flow, Kind.SKULL: Skull, Kind.SIX_SIX_SIX: SixSixSix, Kind.GOD_ISLAND: GodIsland,
    Kind.ANGEL_CUT: AngelCut, Kind.FINISH: Finish, Kind.FOUL: Foul, Kind.UNDO: Undo, Kind.REDO: Redo,
}
_KIND_OF = {cls: Kind(kind) for kind, cls in KINDS.items()}


def kind_of(event: Event) -> Kind:
    """The record kind of `event`: "flow", "666", "god_island", …"""
    return _KIND_OF[type(event)]


def to_record(event: Event) -> dict[str, Any]:
    """A JSON-ready dict with the version, the kind and the event's fields."""
    record: dict[str, Any] = {"v": RECORD_VERSION, "kind": kind_of(event)}
    for item in fields(event):
        value = getattr(event, item.name)
        if item.name == "players":
            value = list(value)
        elif item.name == "readings":
            if not value:
                continue
            value = dict(value)
        elif item.name in ("abandon", "piles", "opponent_left") and (value is False or value is None):
            continue  # optional fields left out at their default (records stay as before)
        record[item.name] = value
    return record


def _typed(record: dict[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in record:
        raise BadRecord(f"{where} has no {name!r}")
    value = record[name]
    if kind is int and (type(value) is not int):
        raise BadRecord(f"{where}: {name} must be a whole number, not {value!r}")
    if kind is str and not isinstance(value, str):
        raise BadRecord(f"{where}: {name} must be a string, not {value!r}")
    if kind is bool and not isinstance(value, bool):
        raise BadRecord(f"{where}: {name} must be true or false, not {value!r}")
    return value


def _field_kinds(cls: type[Event]) -> dict[str, type]:
    """Per field of `cls`: int for a count (`int` or `int | None`), else str."""
    hints = get_type_hints(cls)
    return {item.name: int if hints[item.name] is int or int in get_args(hints[item.name]) else str
            for item in fields(cls)}


_KIND_OF_FIELD: dict[type[Event], dict[str, type]] = {cls: _field_kinds(cls) for cls in KINDS.values()}


def _optional(item: Field[Any]) -> bool:
    return item.default is None


# Records whose fields are all present and of their type; the others (an optional field left
# out) take the checked path.
_FAST: dict[str, tuple[type[Event], tuple[str, ...], tuple[type, ...]]] = {
    kind: (cls, tuple(item.name for item in fields(cls)), tuple(_KIND_OF_FIELD[cls][item.name] for item in fields(cls)))
    for kind, cls in KINDS.items() if cls is not NewMatch
}


def from_record(record: Any) -> Event:
    """The event a stored record describes; BadRecord naming what is wrong otherwise."""
    if type(record) is dict and record.get("v") == RECORD_VERSION:
        spec = _FAST.get(str(record.get("kind")))
        if spec is not None:
            cls, names, types = spec
            values: tuple[Any, ...] = tuple(map(record.get, names))
            if tuple(map(type, values)) == types:
                return cls(*values)
    return _checked_from_record(record)


def _checked_from_record(record: Any) -> Event:
    if not isinstance(record, dict):
        raise BadRecord(f"an event record must be a JSON object, not {record!r}")
    version = record.get("v")
    if version != RECORD_VERSION:
        raise BadRecord(f"record version {version!r} is not {RECORD_VERSION} (the version this gm writes)")
    kind = record.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadRecord(f"unknown event kind {kind!r}")
    where = f"{kind} record"
    if cls is NewMatch:
        players = record.get("players")
        if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)):
            raise BadRecord(f"{where}: players must be two names, not {players!r}")
        readings = record.get("readings", {})
        if not (isinstance(readings, dict) and all(isinstance(v, str) for v in readings.values())):
            raise BadRecord(f"{where}: readings must map names to readings, not {readings!r}")
        return NewMatch(
            players=(players[0], players[1]),
            remote=_typed(record, "remote", bool, where),
            abandon=bool(record.get("abandon", False)),
            readings=tuple(readings.items()),
        )
    values: dict[str, Any] = {}
    for item in fields(cls):
        if _optional(item) and record.get(item.name) is None:
            continue
        values[item.name] = _typed(record, item.name, _KIND_OF_FIELD[cls][item.name], where)
    return cls(**values)
