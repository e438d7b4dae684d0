"""The rulings (HW-R…, HU-R…, SS-R…) that errors and code cite, in every pack's language.

Each language's texts are one table in voices/rulings/LANG.toml (a title and the ruling in that
language); voices/rulings/book.toml holds the rulebook sentence each ruling rests on. A pack that
brings no rulings has its rulings in English: a `Ruling` says which language it is in.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from scorer.values import Refusal
from voices import RULEBOOK, BadPack, own, pack_path, read_toml, rulings_path

RULING_ID = re.compile(r"\b(?:HW|HU|SS)-R\d+\b")
FALLBACK = "en"  # the language of the rulings of a pack that brings none


class UnknownRuling(Refusal):
    """A ruling id no table holds; `key` words it in every voice pack."""

    prefix = "rules"


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    text: str
    book: str  # the rulebook's sentence, as printed
    lang: str  # the language of its title and text: the one asked for, or FALLBACK where its pack brings none


@functools.cache
def _read(path: str) -> dict[str, object]:
    """A rulings table; one beside a pack in $GM_VOICE_PACKS is checked to hold every ruling (a
    table of a title and a text), nothing else (BadPack names the file and the ruling)."""
    table = read_toml(path, "rulings table")
    if not own(path):
        ids = ruling_ids()
        for key, entry in table.items():
            if key not in ids:
                raise BadPack(f"the rulings table {path!r}: {key[:40]!r} is no ruling (rulings: {', '.join(ids)})")
            if not isinstance(entry, dict) or set(entry) != {"title", "text"} or \
                    not all(isinstance(v, str) for v in entry.values()):
                raise BadPack(f"the rulings table {path!r}: {key} must be a table of a title and a text (strings)")
        missing = [ruling_id for ruling_id in ids if ruling_id not in table]
        if missing:
            raise BadPack(f"the rulings table {path!r} lacks {', '.join(missing)}")
    return table


def _table(name: str) -> dict[str, object]:
    """The rulebook sentences ("book") or the rulings of a language that has its own (`rulings_lang`)."""
    path = RULEBOOK if name == "book" else rulings_path(name)
    assert path is not None, f"no rulings in {name!r}: ask rulings_lang first"
    return _read(str(path))


def rulings_lang(lang: str) -> str:
    """The language `lang`'s rulings are in: its own, or FALLBACK where its pack brings none."""
    return lang if rulings_path(lang) is not None else FALLBACK


def ruling_ids() -> tuple[str, ...]:
    """Every ruling id, in the order of the rulebooks' digests."""
    return tuple(_table("book"))


def rulings(lang: str) -> list[Ruling]:
    """Every ruling in `lang`."""
    return [ruling(ruling_id, lang) for ruling_id in ruling_ids()]


def ruling(text: str, lang: str) -> Ruling:
    """The ruling `text` names (any case, full-width letters too: ｈｗ－ｒ４) in `lang`."""
    pack_path(lang)  # UnknownLanguage for a language with no pack
    wanted = unicodedata.normalize("NFKC", text).strip().upper().replace("−", "-")
    if wanted not in ruling_ids():
        raise UnknownRuling(f"no ruling {text!r} (rulings: {', '.join(ruling_ids())})", "unknown",
                            text=text, ids=list(ruling_ids()))
    said_in = rulings_lang(lang)
    entry = _table(said_in)[wanted]
    assert isinstance(entry, dict)
    book = _table("book")[wanted]
    return Ruling(wanted, str(entry["title"]), str(entry["text"]), str(book), said_in)
