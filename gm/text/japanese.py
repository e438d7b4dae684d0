"""Japanese readings in kana: numbers, counters and durations (espeak-ng reads only kana); the
reading module of the ja pack (gm.text.language.Reading)."""

from __future__ import annotations

from gm.text import kana
from gm.text.japanese_numbers import DIGITS, number

PLAIN_SPECS: tuple[str, ...] = ()
SPOKEN_IN_KANA = True

# Counters whose sound changes after some numbers (っ): the plain reading, the reading after
# っ, which last digits take っ (1 → いっ, 6 → ろっ, 8 → はっ), whether a round 10 or 100 does
# (じゅっ, ひゃっ), and the reading after 3 where it is voiced. The readings are Open JTalk's:
# 6点 → ろくてん, 6戦 → ろくせん, 8票 → はちひょう, 10% → じゅっぱーせんと.
_SOUND_CHANGES = {
    "票": ("ひょう", "ぴょう", {1, 6}, (10, 100), "びょう"),
    "分": ("ふん", "ぷん", {1, 6}, (10, 100), "ぷん"),
    "回": ("かい", "かい", {1, 6}, (10, 100), None),
    "件": ("けん", "けん", {1, 6}, (10, 100), None),
    "点": ("てん", "てん", {1, 8}, (10,), None),
    "戦": ("せん", "せん", {1, 8}, (10,), None),
    "%": ("ぱーせんと", "ぱーせんと", set(), (10,), None),
}
_SMALL_TSU = {1: ("いち", "いっ"), 6: ("ろく", "ろっ"), 8: ("はち", "はっ")}
_PLAIN = {"枚": "まい", "秒": "びょう", "番": "ばん", "倍": "ばい"}


def _sound_change(n: int, unit: str) -> str:
    plain, small, ones, rounds, voiced3 = _SOUND_CHANGES[unit]
    head = number(n)
    last = n % 10
    if last in ones:
        word, geminated = _SMALL_TSU[last]
        return head[: -len(word)] + geminated + small
    if last == 0 and 10 in rounds and head.endswith("じゅう"):
        return head[: -len("じゅう")] + "じゅっ" + small
    if last == 0 and 100 in rounds and head.endswith("ゃく"):  # ひゃく, さんびゃく, ろっぴゃく
        return head[:-1] + "っ" + small
    if last == 3 and voiced3:
        return head + voiced3
    if last == 4 and unit == "分":
        return head + "ぷん"
    return head + plain


def counter(n: int, unit: str) -> str:
    """`n` with a Japanese counter, read in kana: (3, "人") → さんにん, (1, "票") → いっぴょう."""
    if unit == "人":
        if n in (1, 2):
            return ("ひとり", "ふたり")[n - 1]
        head = number(n)
        if n % 10 in (4, 7):  # よにん, しちにん
            head = head[: -len(DIGITS[n % 10])] + ("よ" if n % 10 == 4 else "しち")
        return head + "にん"
    if unit in _PLAIN:
        return number(n) + _PLAIN[unit]
    if unit in _SOUND_CHANGES:
        return _sound_change(n, unit)
    if unit == "つ":
        return {1: "ひとつ", 2: "ふたつ", 3: "みっつ", 4: "よっつ", 5: "いつつ", 6: "むっつ",
                7: "ななつ", 8: "やっつ", 9: "ここのつ", 10: "とお"}.get(n, number(n))
    raise ValueError(f"unknown Japanese counter {unit!r}")


def duration(seconds: int) -> tuple[str, str]:
    """(text, kana) for a duration: 180 → ("3分", "さんぷん"), 150 → ("2分30秒", "にふんさんじゅうびょう")."""
    minutes, secs = divmod(int(seconds), 60)
    text = (f"{minutes}分" if minutes else "") + (f"{secs}秒" if secs or not minutes else "")
    kana = (counter(minutes, "分") if minutes else "") + (counter(secs, "秒") if secs or not minutes else "")
    return text, kana


def spoken_template(template: str) -> str:
    """The particles は and へ written as said (わ, え)."""
    return kana.spoken_particles(template)


def spoken_word(word: str, reading: str | None) -> str:
    """A name's kana reading, or the name spelt in kana (Aki → アキ; see gm.text.lines.name_kana)."""
    return reading if reading is not None else kana.to_kana(word)


def spoken_number(n: int, spec: str) -> str:
    """`n` in kana, with its counter where the spec names one: (3, "票") → さんびょう."""
    return counter(n, spec) if spec else number(n)
