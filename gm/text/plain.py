"""The reading of a language said as printed (English): numbers as digits, names as written.

A voice of such a language cannot read kana: a kana reading given for a name (健=けん) is said
in Latin letters (ken), and any other reading as given.
"""

from __future__ import annotations

PLAIN_SPECS: tuple[str, ...] = ()
SPOKEN_IN_KANA = False


def spoken_template(template: str) -> str:
    """The spoken template as written."""
    return template


def spoken_word(word: str, reading: str | None) -> str:
    """A Latin name as written; another name by its reading, kana spelt in Latin letters."""
    from gm.text import kana

    if reading is None or word.isascii():
        return word
    return kana.romaji(reading) if kana.KANA.search(reading) else reading


def spoken_number(n: int, spec: str) -> None:
    """Numbers are said as printed."""
    return None
