"""What a voice pack says of its language, in its `[language]` table: how lines are joined, which
module of gm/text reads its numbers and names aloud, which speech voices and engine speak it,
which speech model hears it, and the words heard at the table that answer nothing.

Adding a language is adding a pack (voices/LANG.toml, or a folder named by $GM_VOICE_PACKS) and,
where its script needs one, a reading module beside gm/text/japanese.py and korean.py. A pack
whose table lacks a key, or gives one of the wrong kind, is refused with the key and the file.
"""

from __future__ import annotations

import functools
import importlib
import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

from voices import LANGUAGES, SPECS, BadPack, load_pack, own, pack_path, spoken_templates

V = TypeVar("V")
LISTENERS = ("whisper", "pocketsphinx", "vosk")
"""The listeners a pack may name as its language's default (gm.hearing.model_loading)."""


class Reading(Protocol):
    """A reading module (gm/text/plain.py, japanese.py, korean.py): how a language says what it prints."""

    PLAIN_SPECS: tuple[str, ...]  # number specs printed as the bare number ({n:native} → 4)
    SPOKEN_IN_KANA: bool  # spoken lines are kana (espeak-ng's voice reads nothing else)

    def spoken_template(self, template: str) -> str:
        """A line's spoken template as the voice should read it (は → わ for a particle)."""

    def spoken_word(self, word: str, reading: str | None) -> str:
        """How a name or word is said, given its reading where one is known."""

    def spoken_number(self, n: int, spec: str) -> str | None:
        """How `n` with its counter spec ("" for none) is said; None: as printed."""


_READING_PARTS = ("PLAIN_SPECS", "SPOKEN_IN_KANA", "spoken_template", "spoken_word", "spoken_number")


@dataclass(frozen=True)
class ModelSource:
    """The speech model that hears a language: a zip to download (with its SHA-256 where recorded),
    or a pip package holding it in `model/` and the command that installs it ("" for none)."""

    url: str
    sha256: str
    package: str
    install: str


@dataclass(frozen=True)
class Language:
    """One pack's `[language]` table (see voices/en.toml for what each key means)."""

    code: str
    reading: Reading
    honorific: str
    items_join: str
    list_join: str
    list_last: str
    sentences: str
    minutes: str
    seconds: str
    duration_join: str
    voices: tuple[str, ...]
    engine: str
    listener: str
    decoys: tuple[str, ...]
    model: ModelSource
    decoys_for: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Decoys of one kind of answer ("number", "player", "yes_no"), only where a question takes it."""
    told: Mapping[str, str] = field(default_factory=dict)
    """Answer id → how Whisper is told that answer after the question (gm.hearing.told)."""

    def joined(self, items: list[str]) -> str:
        """Items as a `{x:list}` says them: "A, B and C", "A、B、C"."""
        if len(items) <= 1:
            return "".join(items)
        return self.list_join.join(items[:-1]) + self.list_last + items[-1]


_TEXTS = ("reading", "honorific", "items_join", "list_join", "list_last", "sentences", "minutes", "seconds",
          "duration_join", "engine", "listener")
_MODEL = ("url", "sha256", "package", "install")


_KINDS: dict[type, type | tuple[type, ...]] = {list: tuple, dict: Mapping}
"""How a kind of TOML value is held in a pack as loaded (read-only: voices.frozen)."""


def _get(table: Any, key: str, kind: type, where: str, section: str = "language") -> Any:
    value: Any = table.get(key) if isinstance(table, Mapping) else None
    if not isinstance(value, _KINDS.get(kind, kind)) or (
            isinstance(value, tuple) and not all(isinstance(v, str) for v in value)):
        wanted = "a list of strings" if kind is list else "a table" if kind is dict else "a string"
        raise BadPack(f"the voice pack {where!r} needs {key} = {wanted} in its [{section}] table")
    return value


def reading_module(name: str, where: str) -> Reading:
    """The reading module gm.text.`name`, checked to have every part of a Reading."""
    try:
        module = importlib.import_module(f"gm.text.{name}") if name.isidentifier() else None
    except ImportError:
        module = None
    missing = [part for part in _READING_PARTS if not hasattr(module, part)] if module else list(_READING_PARTS)
    if module is None or missing:
        raise BadPack(f"the voice pack {where!r}: reading = {name!r} names no reading module in gm/text "
                      f"(plain, japanese, korean)")
    return cast(Reading, module)


@functools.cache
def _language(code: str, path: str) -> Language:
    table = load_pack(code).get("language")
    texts = {key: _get(table, key, str, path) for key in _TEXTS}
    model = _get(table, "model", dict, path)
    if texts["listener"] not in LISTENERS:
        raise BadPack(f"the voice pack {path!r}: listener = {texts['listener']!r} names no listener "
                      f"({', '.join(LISTENERS)})")
    reading = reading_module(texts["reading"], path)
    if not own(path):
        _check_counters(load_pack(code), reading, texts["reading"], path)
    return Language(
        code=code, **{**texts, "reading": reading},
        voices=tuple(_get(table, "voices", list, path)), decoys=tuple(_get(table, "decoys", list, path)),
        model=ModelSource(**{key: _get(model, key, str, path, "language.model") for key in _MODEL}),
        decoys_for=_decoys_for(table, path), told=_told(table, path))


def _check_counters(pack: Mapping[str, Any], reading: Reading, reading_name: str, where: str) -> None:
    """BadPack unless the reading module says every counter the pack's spoken lines count with."""
    for key, template in spoken_templates(pack):
        for _, field_name, spec, _ in string.Formatter().parse(template):
            if not field_name or not spec or spec in SPECS:
                continue
            try:
                reading.spoken_number(2, spec)
            except ValueError as error:
                raise BadPack(f"the voice pack {where!r}: {key} counts with {{{field_name}:{spec}}}, a counter the "
                              f"{reading_name} reading does not know") from error


def _decoys_for(table: Any, path: str) -> dict[str, tuple[str, ...]]:
    """The `[language.decoys_for]` table (none where a pack has no such table)."""
    kinds = table.get("decoys_for", {}) if isinstance(table, Mapping) else {}
    if not isinstance(kinds, Mapping):
        raise BadPack(f"the voice pack {path!r} needs decoys_for = a table in its [language] table")
    return {kind: tuple(_get(kinds, kind, list, path, "language.decoys_for")) for kind in kinds}


def _told(table: Any, path: str) -> dict[str, str]:
    """The `[language.told]` table (none where a pack has no such table)."""
    told = table.get("told", {}) if isinstance(table, Mapping) else {}
    if not isinstance(told, Mapping):
        raise BadPack(f"the voice pack {path!r} needs told = a table in its [language] table")
    return {answer: _get(told, answer, str, path, "language.told") for answer in told}


def language(code: str) -> Language:
    """The `[language]` table of `code`'s pack (UnknownLanguage for a language with no pack)."""
    return _language(code, str(pack_path(code)))


class ByLanguage(Mapping[str, V]):
    """See `by_language`; any key may be looked up (a language with no entry is a KeyError)."""

    def __init__(self, entry: Callable[[Language], V | None]) -> None:
        self._entry = entry

    def _table(self) -> dict[str, V]:
        found = {lang: self._entry(language(lang)) for lang in LANGUAGES}
        return {lang: value for lang, value in found.items() if value is not None}

    def __getitem__(self, lang: object) -> V:
        table = self._table()
        if not isinstance(lang, str) or lang not in table:
            raise KeyError(lang)
        return table[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


def by_language(entry: Callable[[Language], V | None]) -> ByLanguage[V]:
    """Language → what `entry` takes from its `[language]` table, for every language with a pack
    (None leaves a language out); read from the packs each time it is used, so a pack added counts."""
    return ByLanguage(entry)
