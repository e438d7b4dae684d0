"""Whole numbers as people type them: ASCII digits, or full-width ones (３) from a Japanese input method."""

from __future__ import annotations


_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
MAX_DIGITS = 18  # far above any count at a table; keeps int() of a pasted wall of digits cheap


def whole_number(text: str) -> int | None:
    """The number `text` spells with digits 0-9 or ０-９ alone (no sign, `_`, or other scripts' digits); else None."""
    digits = text.strip().translate(_FULL_WIDTH)
    if not digits or len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(digits)
