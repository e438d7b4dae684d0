"""Numbers as people type and say them (pure): the one reader of every command, entry and answer.

Digits are ASCII or full-width (３, as Japanese input methods type them), never another script's
digits, superscripts, signs, `_`, decimals or exponents; at most MAX_DIGITS of them. A count that
may be typed below zero takes a minus sign (-, −, －), so the rules can say its range. Said or
typed at the table, a number is also a word of the language's voice pack (`[listen.hear]` "0"…"9":
two, に, 二, 둘, 한 표), or digits with a counter (3票, 3 votes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gm.text.parse import fold

_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
MAX_DIGITS = 18  # far above any count at a table; keeps int() of a pasted wall of digits cheap
MINUS = ("-", "−", "－")
COUNTERS = ("votes", "vote", "票", "ひょう", "びょう", "ぴょう", "표")  # folded, as `fold` leaves them
SPOKEN = tuple(map(str, range(10)))  # the numbers a voice pack has words for


def whole_number(text: str) -> int | None:
    """The number `text` spells with digits 0-9 or ０-９ alone (no sign, `_`, or other scripts' digits); else None."""
    digits = text.strip().translate(_FULL_WIDTH)
    if not digits or len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(digits)


def signed_number(text: str) -> int | None:
    """`whole_number`, perhaps after a minus sign (-, −, －)."""
    digits = text.strip()
    if digits.startswith(MINUS):
        number = whole_number(digits[1:])
        return None if number is None else -number
    return whole_number(digits)


def number_words(hear: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """The words for the numbers 0–9 in a voice pack's `[listen.hear]` table (answer id → its
    phrases, printed forms and kana readings alike: `gm.hearing.phrases.Vocabulary.hear`), folded."""
    return {fold(phrase): int(number) for number in SPOKEN for phrase in hear.get(number, ())}


def said_number(words: Sequence[str], spoken: Mapping[str, int]) -> int | None:
    """The number folded `words` say: digits or one of the `spoken` number words
    (`number_words`), perhaps with a counter (3票, 3 votes, three votes)."""
    text = " ".join(words)
    for counter in COUNTERS:
        rest = text[: -len(counter)].strip()
        if text.endswith(counter) and (whole_number(rest) is not None or rest in spoken):
            text = rest
    number = whole_number(text)
    return number if number is not None else spoken.get(text)
