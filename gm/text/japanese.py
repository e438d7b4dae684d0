"""Japanese readings in kana: numbers, counters and durations (espeak-ng reads only kana)."""

from __future__ import annotations

_DIGITS = ["ぜろ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"]
_HUNDREDS = {3: "さんびゃく", 6: "ろっぴゃく", 8: "はっぴゃく"}
_THOUSANDS = {3: "さんぜん", 8: "はっせん"}


def number(n: int) -> str:
    """Cardinal number in hiragana: 180 → ひゃくはちじゅう."""
    if n < 0:
        return "まいなす" + number(-n)
    if n == 0:
        return _DIGITS[0]
    parts = []
    if n >= 10000:
        parts.append(number(n // 10000) + "まん")
        n %= 10000
    thousands, hundreds, tens, ones = n // 1000, n // 100 % 10, n // 10 % 10, n % 10
    if thousands:
        parts.append(_THOUSANDS.get(thousands, "" if thousands == 1 else _DIGITS[thousands]) + ("" if thousands in _THOUSANDS else "せん"))
    if hundreds:
        parts.append(_HUNDREDS.get(hundreds, "" if hundreds == 1 else _DIGITS[hundreds]) + ("" if hundreds in _HUNDREDS else "ひゃく"))
    if tens:
        parts.append(("" if tens == 1 else _DIGITS[tens]) + "じゅう")
    if ones:
        parts.append(_DIGITS[ones])
    return "".join(parts)


def _geminate(n: int, plain: str, *, small: str, voiced3: str | None = None) -> str:
    """Counter reading with the sound changes after 1, 6, 8, 10 (っ) and 3/4 where given."""
    head = number(n)
    last = n % 10
    if last == 0 and head.endswith("じゅう"):
        return head[: -len("じゅう")] + "じゅっ" + small
    if last == 1:
        return head[: -len("いち")] + "いっ" + small
    if last == 6:
        return head[: -len("ろく")] + "ろっ" + small
    if last == 8:
        return head[: -len("はち")] + "はっ" + small
    if voiced3 and last == 3:
        return head + voiced3
    return head + plain


def counter(n: int, unit: str) -> str:
    """`n` with a Japanese counter, read in kana: (3, "人") → さんにん, (1, "票") → いっぴょう."""
    if unit == "人":
        return {1: "ひとり", 2: "ふたり", 4: "よにん"}.get(n, number(n) + "にん")
    if unit == "枚":
        return number(n) + "まい"
    if unit == "票":
        return _geminate(n, "ひょう", small="ぴょう", voiced3="びょう")
    if unit == "秒":
        return number(n) + "びょう"
    if unit == "分":
        if n % 10 == 4:
            return number(n) + "ぷん"
        return _geminate(n, "ふん", small="ぷん", voiced3="ぷん")
    if unit == "点":
        return _geminate(n, "てん", small="てん")
    if unit == "回":
        return _geminate(n, "かい", small="かい")
    if unit == "戦":
        return _geminate(n, "せん", small="せん")
    if unit == "番":
        return number(n) + "ばん"
    if unit == "つ":
        return {1: "ひとつ", 2: "ふたつ", 3: "みっつ", 4: "よっつ", 5: "いつつ", 6: "むっつ",
                7: "ななつ", 8: "やっつ", 9: "ここのつ", 10: "とお"}.get(n, number(n))
    if unit == "%":
        return _geminate(n, "ぱーせんと", small="ぱーせんと")
    if unit == "倍":
        return number(n) + "ばい"
    raise ValueError(f"unknown Japanese counter {unit!r}")


def duration(seconds: int) -> tuple[str, str]:
    """(text, kana) for a duration: 180 → ("3分", "さんぷん"), 150 → ("2分30秒", "にふんさんじゅうびょう")."""
    minutes, secs = divmod(int(seconds), 60)
    text = (f"{minutes}分" if minutes else "") + (f"{secs}秒" if secs or not minutes else "")
    kana = (counter(minutes, "分") if minutes else "") + (counter(secs, "秒") if secs or not minutes else "")
    return text, kana
