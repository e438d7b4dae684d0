"""The rulings (HW-R…, HU-R…, SS-R…) that errors and code cite, in every pack's language.

Each language's texts are one table in voices/rulings/LANG.toml (a title and the ruling in that
language); voices/rulings/book.toml holds the rulebook sentence each ruling rests on.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from dataclasses import dataclass

from gm.errors import GmError
from scorer.refusal import Refusal
from voices import RULEBOOK, pack_path, rulings_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

RULING_ID = re.compile(r"\b(?:HW|HU|SS)-R\d+\b")


class UnknownRuling(GmError, Refusal):
    """A ruling id no table holds; `key` words it in every voice pack."""

    prefix = "rules"


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    text: str
    book: str  # the rulebook's sentence, as printed


@functools.cache
def _read(path: str) -> dict[str, object]:
    with open(path, "rb") as table:
        return tomllib.load(table)


def _table(name: str) -> dict[str, object]:
    """The rulebook sentences ("book") or one language's rulings."""
    return _read(str(RULEBOOK if name == "book" else rulings_path(name)))


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
    entry = _table(lang)[wanted]
    assert isinstance(entry, dict)
    book = _table("book")[wanted]
    return Ruling(wanted, str(entry["title"]), str(entry["text"]), str(book))
