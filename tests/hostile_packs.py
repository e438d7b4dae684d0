"""Hostile voice packs: a folder for $GM_VOICE_PACKS holding a pack `xx` that is broken in one
way each, and what gm's one-line refusal must name. Used by tests/voices/test_hostile_packs.py and by
bench/hostile_audit.py ("hostile packs").

Most shapes are gm's English pack with one thing changed, written back as TOML; the command
`gm werewolf deck --players 7 --lang xx` renders the line they change (errors.werewolf.deck_players),
so gm before its packs were checked crashed on, or printed, what they hold.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomllib

import voices

CODE = "xx"
KEY = "errors.werewolf.deck_players"  # {rule}: Half Werewolf is for 4 to 6 players, not {players}
COUNTED = "werewolf.intro"  # Half Werewolf for {n:player|players}: {players:list}. …
COMMAND = ["werewolf", "deck", "--players", "7", "--lang", CODE]
RULING_COMMAND = ["werewolf", "rules", "HW-R1", "--lang", CODE]
EN: dict[str, Any] = tomllib.loads((Path(voices.__file__).parent / "en.toml").read_text(encoding="utf-8"))
EN_RULINGS = (Path(voices.__file__).parent / "rulings" / "en.toml").read_text(encoding="utf-8")


def dump(node: dict[str, Any], prefix: tuple[str, ...] = ()) -> str:
    """`node` as TOML, every entry one line of dotted keys."""
    out = []
    for name, value in node.items():
        path = (*prefix, name)
        if isinstance(value, dict) and value:
            out.append(dump(value, path))
        else:
            out.append(".".join(json.dumps(p, ensure_ascii=False) for p in path) + " = " + _value(value))
    return "\n".join(out)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_value, value)) + "]"
    return json.dumps(value, ensure_ascii=False)


def _set(pack: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    node = pack
    *parents, last = key.split(".")
    for part in parents:
        node = node[part]
    node[last] = value
    return pack


def _drop(pack: dict[str, Any], key: str) -> dict[str, Any]:
    node = pack
    *parents, last = key.split(".")
    for part in parents:
        node = node[part]
    del node[last]
    return pack


def changed(key: str, value: Any) -> Callable[[Path], None]:
    """gm's English pack with `key` set to `value`."""
    return lambda folder: write(folder, dump(_set(copy.deepcopy(EN), key, value)))


def dropped(key: str) -> Callable[[Path], None]:
    return lambda folder: write(folder, dump(_drop(copy.deepcopy(EN), key)))


def line(template: str, key: str = KEY) -> Callable[[Path], None]:
    return changed(key, template)


def write(folder: Path, text: str | bytes, name: str = f"{CODE}.toml") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (folder / name).write_bytes(data)


def raw(data: bytes) -> Callable[[Path], None]:
    return lambda folder: write(folder, data)


def sparse(size: int) -> Callable[[Path], None]:
    """A pack of `size` bytes that takes no disk: gm's pack, then a hole of zeros."""
    def build(folder: Path) -> None:
        write(folder, dump(EN))
        with (folder / f"{CODE}.toml").open("r+b") as pack:
            pack.truncate(size)
    return build


def with_rulings(text: str | bytes) -> Callable[[Path], None]:
    """gm's English pack as `xx`, with a rulings table of its own beside it."""
    def build(folder: Path) -> None:
        write(folder, dump(EN))
        write(folder / "rulings", text)
    return build


def korean_counter(folder: Path) -> None:
    pack = _set(copy.deepcopy(EN), "language.reading", "korean")
    write(folder, dump(_set(pack, COUNTED, EN["werewolf"]["intro"].replace("{n:player|players}", "{n:players}"))))


def not_a_file(kind: str) -> Callable[[Path], None]:
    def build(folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        pack = folder / f"{CODE}.toml"
        if kind == "folder":
            pack.mkdir()
        elif kind == "fifo":
            os.mkfifo(pack)
        else:
            pack.symlink_to("/dev/zero")
    return build


DEEP = 5000
COUNTED_LINE = EN["werewolf"]["intro"]

# name → (build the folder, command, what the one line must hold besides "xx.toml")
SHAPES: dict[str, tuple[Callable[[Path], None], list[str], tuple[str, ...]]] = {
    "attribute": (line("{rule.__class__}"), COMMAND, (KEY, "rule.__class__")),
    "attribute chain": (line("{rule.__class__.__mro__}"), COMMAND, (KEY, "__mro__")),
    "globals": (line("{players.__init__.__globals__}"), COMMAND, (KEY, "__globals__")),
    "index": (line("{rule[0]}"), COMMAND, (KEY, "rule[0]")),
    "index by name": (line("{players[x]}"), COMMAND, (KEY, "players[x]")),
    "positional": (line("{} players"), COMMAND, (KEY, "{}")),
    "numbered": (line("{0} players"), COMMAND, (KEY, "{0}")),
    "unknown field": (line("{rule}: {secret}"), COMMAND, (KEY, "{secret}")),
    "field of another line": (line("{winners}"), COMMAND, (KEY, "{winners}")),
    "huge width": (line("{rule:>999999999}"), COMMAND, (KEY, ">999999999")),
    "huge precision": (line("{rule:.999999999}"), COMMAND, (KEY, ".999999999")),
    "small width": (line("{players:3}"), COMMAND, (KEY, "{players:3}")),
    "nested spec": (line("{rule:{players}}"), COMMAND, (KEY, "{rule:{players}}")),
    "deeply nested spec": (line("{rule:{players:{rule:{players}}}}"), COMMAND, (KEY,)),
    "unclosed": (line("{rule: Half Werewolf"), COMMAND, (KEY, "fill in")),
    "stray brace": (line("rule}: Half Werewolf"), COMMAND, (KEY, "fill in")),
    "bad conversion": (line("{rule!x}"), COMMAND, (KEY, "{rule!x}")),
    "conversion and spec": (line("{rule!r:>40}"), COMMAND, (KEY, "{rule!r:>40}")),
    "spec of another field": (line("{players:cards}"), COMMAND, (KEY, "{players:cards}")),
    "duration of a name": (line("{rule:duration}"), COMMAND, (KEY, "{rule:duration}")),
    "counter on a name": (line("{rule:票}"), COMMAND, (KEY, "{rule:票}")),
    "width on a count": (line(COUNTED_LINE.replace("{n:player|players}", "{n:>999999999}"), COUNTED), COMMAND,
                         (COUNTED, ">999999999")),
    "long counter": (line(COUNTED_LINE.replace("player|players", "x" * 200), COUNTED), COMMAND, (COUNTED,)),
    "counter the reading lacks": (korean_counter, COMMAND, (COUNTED, "{n:players}", "korean")),
    "line a number": (changed(KEY, 3), COMMAND, (KEY, "must be a string")),
    "line a list": (changed(KEY, ["a", "b"]), COMMAND, (KEY, "must be a string")),
    "line a table without text": (changed(KEY, {"kana": "x"}), COMMAND, (KEY,)),
    "line a table with more": (changed(KEY, {"text": "x", "more": "y"}), COMMAND, (KEY,)),
    "text a number": (changed(KEY, {"text": 5}), COMMAND, (KEY,)),
    "section a string": (changed("werewolf.cards", "cards"), COMMAND, ("werewolf.cards", "must be a table")),
    "unknown section": (changed("secrets", {"a": "b"}), COMMAND, ("secrets", "no key")),
    "unknown key": (changed("werewolf.vote.bogus", "x"), COMMAND, ("werewolf.vote.bogus", "no key")),
    "missing line": (dropped(KEY), COMMAND, (KEY, "lacks")),
    "missing section": (dropped("werewolf"), COMMAND, ("werewolf.", "lacks")),
    "words a string": (changed("words", "x"), COMMAND, ("words",)),
    "word a number": (changed("words", {"Aki": 1}), COMMAND, ("words",)),
    "honorific a number": (changed("language.honorific", 3), COMMAND, ("language.honorific",)),
    "voices a string": (changed("language.voices", "en"), COMMAND, ("language.voices", "a list of strings")),
    "decoys numbers": (changed("language.decoys", [1, 2]), COMMAND, ("language.decoys", "a list of strings")),
    "model a string": (changed("language.model", "x"), COMMAND, ("language.model", "must be a table")),
    "minutes field": (changed("language.minutes", "{secs.real}"), COMMAND, ("language.minutes", "secs.real")),
    "deep arrays": (raw(b"a = " + b"[" * DEEP + b"]" * DEEP), COMMAND, ("too deeply",)),
    "deep tables": (raw(b".".join([b"a"] * DEEP) + b" = 1"), COMMAND, ("'a'", "no key")),
    "huge integer": (raw(b"x = " + b"9" * 5000), COMMAND, ("not TOML",)),
    "bad UTF-8": (lambda folder: write(folder, dump(EN).encode() + b'\nx = "\xff\xfe"\n'), COMMAND, ("UTF-8",)),
    "UTF-16": (lambda folder: write(folder, dump(EN).encode("utf-16")), COMMAND, ("UTF-8",)),
    "binary": (raw(bytes(range(256)) * 64), COMMAND, ("UTF-8",)),
    "not TOML": (raw(b"{not toml"), COMMAND, ("not TOML",)),
    "empty": (raw(b""), COMMAND, ("lacks",)),
    "huge": (sparse(voices.MAX_PACK_BYTES + 1), COMMAND, ("larger than",)),
    "400 MB": (sparse(400 << 20), COMMAND, ("larger than",)),
    "rulings lacking one": (with_rulings(EN_RULINGS.replace("[HW-R1]", "[HW-R99]")), RULING_COMMAND,
                            ("rulings", "'HW-R99'")),
    "rulings a string": (with_rulings('"HW-R1" = "x"\n'), RULING_COMMAND, ("rulings", "HW-R1")),
    "rulings without text": (with_rulings(EN_RULINGS.replace('\ntext = "A deck is', '\ntxt = "A deck is', 1)),
                             RULING_COMMAND, ("rulings", "HW-R1", "a title and a text")),
    "rulings not UTF-8": (with_rulings(b"\xff\xfe"), RULING_COMMAND, ("rulings", "UTF-8")),
}
"""Every hostile shape. A folder, a FIFO or a link to /dev/zero named xx.toml is no pack at all:
NOT_PACKS."""

NOT_PACKS = {kind: not_a_file(kind) for kind in ("folder", "fifo", "zero")}
