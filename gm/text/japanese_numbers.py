"""Japanese cardinal numbers in hiragana, the part of the readings the kana spelling needs too."""

from __future__ import annotations

DIGITS = ["ぜろ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"]
_HUNDREDS = {3: "さんびゃく", 6: "ろっぴゃく", 8: "はっぴゃく"}
_THOUSANDS = {3: "さんぜん", 8: "はっせん"}


def number(n: int) -> str:
    """Cardinal number in hiragana: 180 → ひゃくはちじゅう."""
    if n < 0:
        return "まいなす" + number(-n)
    if n == 0:
        return DIGITS[0]
    parts = []
    if n >= 10000:
        parts.append(number(n // 10000) + "まん")
        n %= 10000
    thousands, hundreds, tens, ones = n // 1000, n // 100 % 10, n // 10 % 10, n % 10
    if thousands:
        parts.append(_THOUSANDS.get(thousands, "" if thousands == 1 else DIGITS[thousands])
                     + ("" if thousands in _THOUSANDS else "せん"))
    if hundreds:
        parts.append(_HUNDREDS.get(hundreds, "" if hundreds == 1 else DIGITS[hundreds])
                     + ("" if hundreds in _HUNDREDS else "ひゃく"))
    if tens:
        parts.append(("" if tens == 1 else DIGITS[tens]) + "じゅう")
    if ones:
        parts.append(DIGITS[ones])
    return "".join(parts)
