"""Voice packs: every line gm says, by key, one TOML file per language.

gm's own packs (en, ja, ko) are installed beside this file. $GM_VOICE_PACKS names a folder of
more packs: each LANG.toml there adds the language LANG (or takes the place of gm's own pack for
it), with its rulings in rulings/LANG.toml beside it (else the English ones). A pack's `[language]`
table says how its lines are joined, spoken and heard (gm.text.language).
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

from scorer.errors import ScorerError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

OWN = ("en", "ja", "ko")  # the packs installed with gm
PACKS_ENV = "GM_VOICE_PACKS"  # a folder of more voice packs
_HERE = Path(__file__).resolve().parent
_CODE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{1,8})?")  # a pack's file name: en, ja, tlh, en-x-pirate


class UnknownLanguage(ScorerError):
    """A language with no voice pack."""


class BadPack(ScorerError):
    """A voice pack that cannot be read (not TOML, or unreadable); the message names its file."""


def _extra_folder() -> Path | None:
    folder = os.environ.get(PACKS_ENV)
    return Path(folder).expanduser() if folder else None


def _extra_codes(folder: Path | None) -> tuple[str, ...]:
    if folder is None:
        return ()
    try:
        names = sorted(p.stem for p in folder.glob("*.toml") if p.is_file())
    except OSError:
        return ()
    return tuple(n for n in names if _CODE.fullmatch(n) and n not in OWN)


def languages() -> tuple[str, ...]:
    """Every language with a pack: gm's own (en, ja, ko), then those in $GM_VOICE_PACKS by name."""
    return OWN + _extra_codes(_extra_folder())


class _Languages(Sequence[str]):
    """`languages()` as a sequence, looked up each time it is read (so a pack folder set after
    import counts): `lang in LANGUAGES`, `for lang in LANGUAGES`, `", ".join(LANGUAGES)`."""

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())

    def __contains__(self, lang: object) -> bool:
        return lang in languages()

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return languages()[index]

    def __repr__(self) -> str:
        return repr(languages())


LANGUAGES: Sequence[str] = _Languages()


def pack_path(lang: str) -> Path:
    """The file of `lang`'s pack: in $GM_VOICE_PACKS where it is there, else gm's own."""
    if lang not in languages():
        raise UnknownLanguage(f"no voice pack for language {lang!r} (have: {', '.join(languages())})")
    folder = _extra_folder()
    if folder is not None and (folder / f"{lang}.toml").is_file():
        return folder / f"{lang}.toml"
    return _HERE / f"{lang}.toml"


RULEBOOK = _HERE / "rulings" / "book.toml"  # the rulebook sentence each ruling rests on


def rulings_path(lang: str) -> Path:
    """The rulings table of `lang`: rulings/LANG.toml beside its pack, else gm's own (English for a
    pack that brings none)."""
    for folder in (pack_path(lang).parent / "rulings", _HERE / "rulings"):
        if (folder / f"{lang}.toml").is_file():
            return folder / f"{lang}.toml"
    return _HERE / "rulings" / "en.toml"


def default_language() -> str:
    """The locale's language where gm has a pack for it (the first of LC_ALL, LC_MESSAGES, LANG
    that is set: ja_JP.UTF-8 → "ja", ko_KR.UTF-8 → "ko"), else "en"."""
    locale = next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(name)), "")
    return locale[:2] if locale[:2] in languages() else "en"


def load_pack(lang: str) -> dict[str, Any]:
    """The parsed pack for `lang` (one of LANGUAGES), read once and shared: callers do not change it.
    A pack from $GM_VOICE_PACKS must have every line gm's English pack has (BadPack names those missing)."""
    path = pack_path(lang)
    pack = _read(str(path))
    if path.parent != _HERE:
        missing = sorted(_keys(_read(str(_HERE / "en.toml"))) - _keys(pack))
        if missing:
            shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            raise BadPack(f"the voice pack {str(path)!r} lacks {len(missing)} of the lines of gm's own packs: {shown}")
    return pack


def _keys(node: dict[str, Any], prefix: str = "") -> set[str]:
    """Every key of a pack: its lines (a string, or a {text, kana} table) and its `[language]` table's
    entries; not its `[words]` readings, which are its own."""
    keys = set()
    for name, value in node.items():
        if prefix == "" and name == "words":
            continue
        if isinstance(value, dict) and not ("text" in value and set(value) <= {"text", "kana"}):
            keys |= _keys(value, f"{prefix}{name}.")
        else:
            keys.add(f"{prefix}{name}")
    return keys


@functools.cache
def _read(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as pack:
            parsed: dict[str, Any] = tomllib.load(pack)
            return parsed
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BadPack(f"the voice pack {path!r} cannot be read ({error})") from error
