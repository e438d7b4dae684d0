"""Voice packs: every line gm says, by key, one TOML file per language."""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

from scorer.errors import ScorerError

LANGUAGES = ("en", "ja", "ko")


class UnknownLanguage(ScorerError):
    """A language with no voice pack."""


def default_language() -> str:
    """The locale's language where gm has a pack for it (the first of LC_ALL, LC_MESSAGES, LANG
    that is set: ja_JP.UTF-8 → "ja", ko_KR.UTF-8 → "ko"), else "en"."""
    locale = next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(name)), "")
    return locale[:2] if locale[:2] in LANGUAGES else "en"


@functools.cache
def load_pack(lang: str) -> dict[str, Any]:
    """The parsed pack for `lang` (one of LANGUAGES), read once and shared: callers do not change it."""
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"no voice pack for language {lang!r} (have: {', '.join(LANGUAGES)})")
    if sys.version_info >= (3, 11):  # here, not at the top: `gm … --help` reads no pack
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    with open(os.path.join(os.path.dirname(__file__), f"{lang}.toml"), "rb") as pack:  # installed beside this file
        parsed: dict[str, Any] = tomllib.load(pack)
    return parsed
