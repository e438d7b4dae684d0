"""The text every command and listener splits and compares the same way (pure)."""

from __future__ import annotations

import unicodedata

_KATAKANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}


def norm(text: str) -> str:
    """Case and runs of white space folded: how typed and heard words are compared."""
    return " ".join(text.casefold().split())


def fold(text: str) -> str:
    """How typed and heard words are compared: NFKC, case folded, katakana as hiragana, one space."""
    return " ".join(unicodedata.normalize("NFKC", str(text)).casefold().translate(_KATAKANA).split())


def tight(text: str) -> str:
    """`fold` without spaces, hyphens or underscores: "grave digger" and "Gravedigger" alike."""
    return "".join(ch for ch in fold(text) if not (ch.isspace() or ch in "-_"))


def split_list(spec: str) -> list[str]:
    """ "Aki, Ken" or "健、美緒" → the items, stripped, empty ones dropped (, and 、 alike)."""
    return [item.strip() for item in spec.replace("、", ",").split(",") if item.strip()]
