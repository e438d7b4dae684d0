"""Voice packs: every line gm says, by key, one TOML file per language.

gm's own packs (en, ja, ko) are installed beside this file. $GM_VOICE_PACKS names a folder of
more packs: each LANG.toml there adds the language LANG (or takes the place of gm's own pack for
it), with its rulings in rulings/LANG.toml beside it (else gm prints the English ones, and says
so). A pack's `[language]` table says how its lines are joined, spoken and heard (gm.text.language).

A pack from $GM_VOICE_PACKS is checked once, when it is loaded, before any line of it is said:
its size (read no further than MAX_PACK_BYTES), UTF-8 and TOML; every key one of gm's own packs
has, of the same kind; and every line's fields those the same line of gm's own packs uses, plain
names (no attribute or index), with the specs those lines use for them (a count may have
another counter; no width, precision or nested field). A pack that fails is refused in one line
(BadPack) naming the file and the key.
"""

from __future__ import annotations

import functools
import os
import re
import stat
import string
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, overload

from scorer.values import Refusal

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

OWN = ("en", "ja", "ko")  # the packs installed with gm
PACKS_ENV = "GM_VOICE_PACKS"  # a folder of more voice packs
_HERE = Path(__file__).resolve().parent
_CODE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{1,8})?")  # a pack's file name: en, ja, tlh, en-x-pirate
MAX_PACK_BYTES = 1 << 20
"""A voice pack's (or a rulings table's) size at most: gm's largest pack (ja.toml, 87 KB) twelve times over."""
SPECS = ("list", "items", "cards", "owner", "duration", "honorific")
"""The specs that say how a field's value is said (gm.text.lines); any other spec is a count's counter."""
MAX_COUNTER = 40  # characters of a counter ({n:vote|votes}); the longest in gm's own packs has 30
_TEMPLATES = ("language.minutes", "language.seconds")  # the `[language]` entries that are lines


class UnknownLanguage(Refusal):
    """A language with no voice pack."""


class BadPack(Refusal):
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


def rulings_path(lang: str) -> Path | None:
    """The rulings table of `lang`: rulings/LANG.toml beside its pack, else gm's own; None for a pack
    that brings none (gm.text.rulings then says the English ones, and says so)."""
    for folder in (pack_path(lang).parent / "rulings", _HERE / "rulings"):
        if (folder / f"{lang}.toml").is_file():
            return folder / f"{lang}.toml"
    return None


def default_language() -> str:
    """The locale's language where gm has a pack for it (the first of LC_ALL, LC_MESSAGES, LANG
    that is set: ja_JP.UTF-8 → "ja", ko_KR.UTF-8 → "ko"), else "en"."""
    locale = next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(name)), "")
    return locale[:2] if locale[:2] in languages() else "en"


def load_pack(lang: str) -> Mapping[str, Any]:
    """The parsed pack for `lang` (one of LANGUAGES), read once and shared read-only (`frozen`), so
    no caller can change another's lines. A pack from $GM_VOICE_PACKS is checked (see the module's
    help) and must have every line gm's English pack has (BadPack names the file and the key)."""
    return _pack(str(pack_path(lang)))


def own(path: str | Path) -> bool:
    """Whether `path` is one of gm's own packs or rulings tables (checked by its tests, not when read)."""
    return Path(path).parent in (_HERE, _HERE / "rulings")


def frozen(table: dict[str, Any]) -> Mapping[str, Any]:
    """A parsed TOML table read-only all the way down: its tables as MappingProxyType, its lists as tuples."""
    return MappingProxyType({key: _frozen(value) for key, value in table.items()})


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return frozen(value)
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


@functools.cache
def _pack(path: str) -> Mapping[str, Any]:
    pack = read_toml(path)
    if own(path):
        return frozen(pack)
    shape, fields, required = _reference()
    _check_table(pack, shape, "", fields, path)
    missing = sorted(required - _keys(pack))
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise BadPack(f"the voice pack {path!r} lacks {len(missing)} of the lines of gm's own packs: {shown}")
    return frozen(pack)


def _keys(node: dict[str, Any], prefix: str = "") -> set[str]:
    """Every key of a pack: its lines (a string, or a {text, kana} table) and its `[language]` table's
    entries; not its `[words]` readings, which are its own."""
    keys = set()
    for name, value in node.items():
        if prefix == "" and name == "words":
            continue
        if isinstance(value, dict) and not _is_line(value):
            keys |= _keys(value, f"{prefix}{name}.")
        else:
            keys.add(f"{prefix}{name}")
    return keys


def _is_line(value: Any) -> bool:
    """Whether a pack's table is a line: {text = "...", kana = "..."} (kana optional)."""
    return isinstance(value, Mapping) and "text" in value and set(value) <= {"text", "kana"}


Fields = dict[str, dict[str, set[str]]]
"""A line's key → each field its templates use in gm's own packs → the specs it is used with."""


@functools.cache
def _reference() -> tuple[dict[str, Any], Fields, set[str]]:
    """gm's own packs taken together: every key they have (the first pack's value for its kind),
    the fields (with their specs) each line's templates use in any of them, and the keys every
    one of them has (which every pack needs)."""
    shape: dict[str, Any] = {}
    fields: Fields = {}

    def merge(node: dict[str, Any], into: dict[str, Any], prefix: str) -> None:
        for name, value in node.items():
            if prefix == "" and name == "words":
                continue
            key = prefix + name
            if isinstance(value, dict) and not _is_line(value):
                merge(value, into.setdefault(name, {}), key + ".")
                continue
            into.setdefault(name, value)
            if _is_template(key):
                for template in value.values() if isinstance(value, dict) else [value]:
                    for _, field, spec, _ in string.Formatter().parse(template):
                        if field is not None:
                            fields.setdefault(key, {}).setdefault(field, set()).add(spec or "")

    packs = [read_toml(str(_HERE / f"{lang}.toml")) for lang in OWN]
    for pack in packs:
        merge(pack, shape, "")
    return shape, fields, set.intersection(*map(_keys, packs))


def _is_template(key: str) -> bool:
    """Whether the entry `key` is a line filled in with fields (every line, and the `[language]` durations)."""
    return not key.startswith("language.") or key in _TEMPLATES


def _check_table(node: dict[str, Any], shape: dict[str, Any], prefix: str, fields: Fields, where: str) -> None:
    """BadPack unless every key of `node` is one `shape` (gm's own packs) has, of the same kind,
    and every line fits `fields`. As deep as gm's own packs, no deeper."""
    for name, value in node.items():
        key = prefix + name
        if key == "words":
            _check_words(value, where)
            continue
        if name not in shape:
            raise BadPack(f"the voice pack {where!r}: {key[:100]!r} is no key of gm's voice packs")
        known = shape[name]
        if isinstance(known, dict) and not _is_line(known):
            if not isinstance(value, dict):
                raise BadPack(f"the voice pack {where!r}: {key} must be a table")
            _check_table(value, known, key + ".", fields, where)
        elif isinstance(known, list):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise BadPack(f"the voice pack {where!r}: {key} must be a list of strings")
        elif not _is_template(key):
            if not isinstance(value, str):
                raise BadPack(f"the voice pack {where!r}: {key} must be a string")
        else:
            _check_line(key, value, fields.get(key, {}), where)


def _check_words(value: Any, where: str) -> None:
    """The `[words]` readings: a table of strings."""
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise BadPack(f"the voice pack {where!r}: words must be a table of strings (a word = its reading)")


def _check_line(key: str, value: Any, fields: dict[str, set[str]], where: str) -> None:
    """BadPack unless `value` is a line (a string, or {text, kana} strings) whose templates use only
    `fields`, each as a plain name, with a spec gm's own packs use for it (a count: any counter)."""
    if isinstance(value, dict) and _is_line(value) and all(isinstance(v, str) for v in value.values()):
        templates = list(value.values())
    elif isinstance(value, str):
        templates = [value]
    else:
        raise BadPack(f"the voice pack {where!r}: {key} must be a string or a table of text and kana strings")
    for template in templates:
        try:
            parts = list(string.Formatter().parse(template))
        except ValueError as error:
            raise BadPack(f"the voice pack {where!r}: {key} is no line gm can fill in ({error})") from error
        for _, field, spec, conversion in parts:
            if field is None:
                continue
            shown = f"{{{field}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"[:80]
            if field not in fields:
                have = ", ".join(f"{{{name}}}" for name in sorted(fields)) or "none"
                raise BadPack(f"the voice pack {where!r}: {key} uses {shown}, not a field of that line "
                              f"(a plain name of: {have})")
            if conversion not in (None, "r", "s") or conversion and spec:
                raise BadPack(f"the voice pack {where!r}: {key} uses {shown}: a field may end in !r or !s, "
                              "without a spec")
            if spec and not _spec_fits(spec, fields[field]):
                said = ", ".join(sorted(s for s in fields[field] if s in SPECS)) or "none"
                raise BadPack(f"the voice pack {where!r}: {key} uses {shown}: that field takes "
                              f"{'a counter or ' if _counted(fields[field]) else ''}these specs: {said}")


def _counted(specs: set[str]) -> bool:
    """Whether a field with these specs in gm's own packs is a count (it has a counter somewhere)."""
    return any(spec and spec not in SPECS for spec in specs)


def _spec_fits(spec: str, specs: set[str]) -> bool:
    """Whether `spec` may follow a field used with `specs` in gm's own packs: one of them that says
    how a value is said, or, for a count, a counter of MAX_COUNTER characters at most with no
    digit or brace (no width, precision or nested field)."""
    if spec in SPECS:
        return spec in specs
    return _counted(specs) and len(spec) <= MAX_COUNTER and not any(c in spec for c in "{}0123456789")


def spoken_templates(pack: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Each line's key and the template it is said from (its kana where it has one), the
    `[language]` durations too: for the reading module to check the counters of a checked pack."""
    def walk(node: Mapping[str, Any], prefix: str) -> Iterator[tuple[str, str]]:
        for name, value in node.items():
            key = prefix + name
            if key == "words":
                continue
            if isinstance(value, Mapping) and not _is_line(value):
                yield from walk(value, key + ".")
            elif _is_template(key):
                yield key, str(value.get("kana", value["text"]) if isinstance(value, Mapping) else value)
    return walk(pack, "")


def read_toml(path: str | Path, what: str = "voice pack") -> dict[str, Any]:
    """A TOML file of MAX_PACK_BYTES at most, read no further: BadPack (naming the file) where it is
    no regular file, too large, not UTF-8 or not TOML."""
    where = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))  # a FIFO cannot hold it up
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise BadPack(f"the {what} {where!r} is not a file")
            data = file.read(MAX_PACK_BYTES + 1)
    except OSError as error:
        raise BadPack(f"the {what} {where!r} cannot be read ({error.strerror or error})") from error
    if len(data) > MAX_PACK_BYTES:
        raise BadPack(f"the {what} {where!r} is larger than {MAX_PACK_BYTES >> 20} MB, more than any voice pack")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadPack(f"the {what} {where!r} is not UTF-8 text (byte {error.start})") from error
    try:
        parsed: dict[str, Any] = tomllib.loads(text)
    except RecursionError as error:
        raise BadPack(f"the {what} {where!r} nests its arrays or tables too deeply") from error
    except ValueError as error:  # TOMLDecodeError, or an integer of thousands of digits
        raise BadPack(f"the {what} {where!r} is not TOML gm can read ({str(error)[:200]})") from error
    return parsed
