"""Korean readings in Hangul: numbers, counters and durations.

espeak-ng's Korean voice reads digits only as Sino-Korean numbers (2표 → "이 표") and "%" in
English, so spoken lines get their numbers as words: native numbers before counters of things
and people (두 표, 네 명, 열두 장), Sino-Korean ones for minutes, seconds, points and percent
(삼 분, 구십 퍼센트). The reading module of the ko pack (gm.text.language.Reading).
"""

from __future__ import annotations

# A Korean line's template and names are said as in plain: as written.
from gm.text.plain import spoken_template as spoken_template, spoken_word as spoken_word

_SINO = ("영", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구")
_SINO_PLACES = ((1000, "천"), (100, "백"), (10, "십"))
_MYRIADS = ("", "만", "억", "조")
_NATIVE_ONES = ("", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉")
_NATIVE_TENS = ("", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔")
_BEFORE_COUNTER = {"하나": "한", "둘": "두", "셋": "세", "넷": "네", "스물": "스무"}

NATIVE = "native"  # the spec of a bare native number: {n:native} is said 하나, 둘, 셋
NATIVE_COUNTERS = ("명", "표", "장", "개", "배", "번", "판")
SINO_COUNTERS = ("분", "초", "점", "%")
PLAIN_SPECS = (NATIVE,)  # {n:native} prints the digit
SPOKEN_IN_KANA = False


class UnknownCounter(ValueError):
    """A counter the Korean readings do not know."""


def _below_myriad(n: int) -> str:
    parts = []
    for size, place in _SINO_PLACES:
        digit = n // size % 10
        if digit:
            parts.append(("" if digit == 1 else _SINO[digit]) + place)
    if n % 10:
        parts.append(_SINO[n % 10])
    return "".join(parts)


def sino(n: int) -> str:
    """Sino-Korean number: 180 → 백팔십, 10000 → 만, 30500 → 삼만오백."""
    if n < 0:
        return "마이너스 " + sino(-n)
    if n == 0:
        return _SINO[0]
    if n >= 10 ** (4 * len(_MYRIADS)):
        return " ".join(_SINO[int(d)] for d in str(n))
    parts = []
    for myriad in _MYRIADS:
        n, group = divmod(n, 10000)
        if group:
            parts.append(("" if group == 1 and myriad else _below_myriad(group)) + myriad)
    return "".join(reversed(parts))


def native(n: int, *, counted: bool = False) -> str:
    """Native Korean number for 1–99 (하나, 열둘, 스물); `counted` gives the form before a
    counter (한, 열두, 스무). Zero and numbers from 100 are Sino-Korean."""
    if not 0 < n < 100:
        return sino(n)
    tens, ones = divmod(n, 10)
    word_tens, word_ones = _NATIVE_TENS[tens], _NATIVE_ONES[ones]
    if counted:
        if ones:
            word_ones = _BEFORE_COUNTER.get(word_ones, word_ones)
        else:
            word_tens = _BEFORE_COUNTER.get(word_tens, word_tens)
    return word_tens + word_ones


def counter(n: int, unit: str) -> str:
    """`n` with a Korean counter, in Hangul: (2, "표") → 두 표, (3, "분") → 삼 분, (90, "%") → 구십 퍼센트,
    (1, "번째") → 첫 번째; (4, "native") → 넷."""
    if unit == NATIVE:
        return native(n)
    if unit == "번째":
        return "첫 번째" if n == 1 else f"{native(n, counted=True)} 번째"
    if unit in NATIVE_COUNTERS:
        return f"{native(n, counted=True)} {unit}"
    if unit == "%":
        return f"{sino(n)} 퍼센트"
    if unit in SINO_COUNTERS:
        return f"{sino(n)} {unit}"
    raise UnknownCounter(f"unknown Korean counter {unit!r}")


def duration(seconds: int) -> tuple[str, str]:
    """(text, Hangul) for a duration: 180 → ("3분", "삼 분"), 150 → ("2분 30초", "이 분 삼십 초")."""
    minutes, secs = divmod(int(seconds), 60)
    shown = [(minutes, "분")] if minutes else []
    if secs or not minutes:
        shown.append((secs, "초"))
    return " ".join(f"{n}{unit}" for n, unit in shown), " ".join(counter(n, unit) for n, unit in shown)


def spoken_number(n: int, spec: str) -> str:
    """`n` in Hangul, with its counter where the spec names one: (2, "표") → 두 표, (5, "") → 오."""
    return counter(n, spec) if spec else sino(n)
