"""The text every command and listener splits and compares the same way (pure)."""

from __future__ import annotations


def norm(text: str) -> str:
    """Case and runs of white space folded: how typed and heard words are compared."""
    return " ".join(text.casefold().split())


def split_list(spec: str) -> list[str]:
    """ "Aki, Ken" or "健、美緒" → the items, stripped, empty ones dropped (, and 、 alike)."""
    return [item.strip() for item in spec.replace("、", ",").split(",") if item.strip()]
