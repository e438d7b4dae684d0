"""Every line of a voice pack, its fields filled with sample names and numbers.

Used by the tests that walk every key of the packs (pyproject.toml puts bench/ on their path)
and by ja_reading_bench.py, which compares the kana gm speaks with Open JTalk's reading of the
printed text.
"""

from __future__ import annotations

import string
from typing import Any
from collections.abc import Iterator, Mapping

from gm.ports import Line
from gm.text.lines import Pack
from scorer.werewolf.tally import GRAVEYARD

# Sample players: a kanji name with its reading, a kana name, Latin names.
READINGS = {"健": "けん", "雄一郎": "ゆういちろう", "京太郎": "きょうたろう"}
NAMES = ("健", "みお", "Alice", "Mike", "Kate")
# The longest names a table is likely to give, as each language says them: 6 letters, 6 kana in
# Japanese (a Latin name is said in fewer), 4 syllables in Korean (a two-syllable surname: each
# syllable is said as long as two Latin letters).
LONG_NAMES = {"en": ("Robert", "Olivia"), "ja": ("雄一郎", "京太郎"), "ko": ("남궁민수", "황보지훈")}

_NAME_FIELDS = {"name", "player", "a", "b", "candidate", "voter", "giver", "taker", "fouler",
                "traitor_werewolf", "word", "command", "text", "part", "pair", "hint", "quit", "skip", "keep",
                "holder", "head", "help", "opponent", "group"}
_NUMBER_FIELDS = {"n", "game", "next", "x", "y", "high", "low", "points", "total", "count",
                  "multiplier", "games", "left", "stock", "percent", "better", "number",
                  "villagers", "graveyard", "value", "sixes", "had", "piles", "rows",
                  "position", "size", "guess", "index", "limit", "nights", "need", "more", "most",
                  "played", "cards", "counted", "tonight", "evenings", "line", "wins", "workers", "asked",
                  "cores", "room", "minutes"}


# Sections only ever printed, never said: they need no kana.
PRINTED_ONLY = ("score.help.", "errors.", "solitaire.board.", "solitaire.outlook.", "werewolf.tally.", "listen.deaf",
                "listen.not_listening", "listen.reason.", "listen.trouble", "listen.unseeded", "listen.heard",
                "table.", "werewolf.log.", "werewolf.group.", "werewolf.results.", "werewolf.screen.", "voice.model.",
                "voice.check.", "voice.hear.", "solitaire.simulate.", "solitaire.moves.", "solitaire.solve.",
                "solitaire.commands.", "score.verbs.", "werewolf.judge.", "voice.ready.", "score.sheet.earlier")


def spoken(key: str) -> bool:
    """Whether the line `key` is ever said (else it is only printed)."""
    return not key.startswith(PRINTED_ONLY)


def keys(pack: Pack) -> list[str]:
    """Every line's key in the pack (the `[words]` readings and the `[language]` table are not lines)."""
    def walk(node: Any, prefix: str) -> Iterator[str]:
        for name, value in node.items():
            key = f"{prefix}{name}"
            if isinstance(value, Mapping) and "text" not in value:
                yield from walk(value, key + ".")
            else:
                yield key
    return [key for key in walk(pack.entries, "") if not key.startswith(("words.", "language."))]


def _value(pack: Pack, field: str, spec: str, count: int, name: str, names: tuple[str, ...] = NAMES) -> Any:
    """A sample value for one `{field:spec}` of a line (a list: `name` and the one after it in `names`)."""
    if spec in ("items", "cards", "owner"):
        return {"cards": ["seer", "werewolf"], "owner": [name, GRAVEYARD]}.get(spec, [name, "Mike"])
    if spec == "list":
        return [name, names[(names.index(name) + 1) % len(names)] if name in names else names[0]]
    if spec == "duration":
        return 60 * (count % 4) + 30
    if field in _NAME_FIELDS or spec == "honorific":
        return name
    if field in _NUMBER_FIELDS:
        return count
    samples = {
        "secs": 150, "side": pack.line("werewolf.sides.living"), "answer": pack.text("common.yes"),
        "remote": pack.line("score.sheet.remote"), "what": pack.line("score.kind.finish"),
        "progress": pack.line("score.sheet.progress", game=2, games=3), "file": "night.wav",
        "reason": pack.text("common.graveyard"), "problem": pack.text("werewolf.cards.seer"),
        "match": f"{name} v Mike", "names": [name], "context": "", "result": "",
        "kind": "flow", "why": "", "note": "", "commands": "flow, foul", "usage": "flow PLAYER [PILES]",
        "card_a": "7 fire", "card_b": "5 water", "card": pack.line("werewolf.cards.seer"),
        "id": "HW-R4", "title": name, "quote": name,
        "pending": "owl", "expected": "eye", "move": pack.text("solitaire.moves.turn"),
        "channels": count, "rate": "16000", "seconds": "3", "rms": "-20.5", "peak": "-3.1", "said": "90%",
        "policy": "smart", "deals": count, "mean": "2.23", "cleared": "41.3%", "share": "12.7%", "bar": "████",
        "seed": count, "have": "en, ja, ko", "device": "9", "known": "0, 1", "answers": "",
        "flip": pack.text("solitaire.moves.names.fire"), "special": pack.text("solitaire.moves.names.owl"),
        "set_aside": pack.text("solitaire.moves.names.water"), "rank": count,
        "element": pack.text("solitaire.moves.names.earth"), "moves": count,
        "states": "1,024", "specials": "['owl']", "same": count,
        "pile_word": "piles", "boxes": "one box has only four Owls",
        "rule": "HW-R1", "variant": name, "raw": name, "executed": name, "night": name, "allowed": "4/5/6",
        "path": "evening.json", "players": count, "deck": count, "wanted": count, "first": count,
        "winners": [name], "candidates": [name], "item": f"{name}=", "spec": f"{name}=2", "field": "players",
        "json": "1", "env": "GM_VOSK_MODEL", "how": "gm voice model", "files": "am/final.mdl",
        "lang": "en", "size": 1000, "sha256": "0" * 64, "missing": pack.text("werewolf.cards.seer"),
        "votes": count, "tip": "Enter", "example": f"{name} 2", "yes": pack.text("common.yes"),
        "no": pack.text("common.no"), "none": pack.text("werewolf.reveal.none"),
        "mb": 8, "byte": count, "target": "evening.json",
        "gb": 1, "bits": 16, "this": "44100", "detail": "PortAudio -9996", "engine": "vosk", "listener": "whisper",
        "listeners": "whisper, pocketsphinx",
        "get": "gm voice model", "output": pack.text("voice.ready.yes"), "microphone": pack.text("voice.ready.none"),
    }
    if field not in samples:
        raise KeyError(f"no sample value for the field {field!r}")
    return samples[field]


def fields(pack: Pack, key: str, count: int = 6, name: str = NAMES[0],
           names: tuple[str, ...] = NAMES) -> dict[str, Any]:
    """Sample values for every field of the line `key` (its text and its spoken form)."""
    entry = pack.entry(key)
    templates = [entry.get("text", ""), entry.get("kana", "")] if isinstance(entry, Mapping) else [entry]
    found: dict[str, Any] = {}
    for template in templates:
        for _, field, spec, _ in string.Formatter().parse(template):
            if field and field not in found:
                found[field] = _value(pack, field, spec or "", count, name, names)
    return found


def lines(lang: str, count: int = 6, name: str = NAMES[0], *, said_only: bool = False) -> list[Line]:
    """Every line of the `lang` pack (or every line ever said), filled with `count` for numbers
    and `name` for players."""
    pack = Pack(lang, READINGS)
    return [pack.line(key, **fields(pack, key, count, name)) for key in keys(pack)
            if spoken(key) or not said_only]


def longest_said(lang: str, count: int = 6) -> list[Line]:
    """Every line ever said in the `lang` pack with its longest likely fields: `count` players,
    names of 6 characters (LONG_NAMES), lists of two of them."""
    pack = Pack(lang, READINGS)
    names = LONG_NAMES[lang]
    return [pack.line(key, **fields(pack, key, count, names[0], names)) for key in keys(pack) if spoken(key)]
