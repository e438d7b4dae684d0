"""Cutting a line into the pieces an engine renders one at a time: sentences, then clauses.

Speaking the first piece while the rest renders keeps the wait before a long line short, and a
cap on a piece's length keeps any text within what an engine can take (espeak-ng crashes on
100,000 letters in one call).
"""

from __future__ import annotations

import math
import re

from gm.errors import GmError
from gm.speech.settings import DEFAULT_RATE
from scorer.refusal import Refusal

PIECE_CHARS = 300  # longest piece handed to an engine at once
CLAUSE_CHARS = 80  # a later sentence longer than this is cut at its commas (the first one always is)
MAX_SECONDS = 300  # longest text spoken at all: about five minutes of speech (`spoken_seconds`)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
_CLAUSE_END = re.compile(r"(?<=[,;])\s+|(?<=[、，；])\s*")
_SPEAKABLE = re.compile(r"\w")


class NothingToSay(GmError):
    """A text with no letter or digit in it: there is nothing for a voice to say."""


class TooLongToSay(GmError, Refusal):
    """A text that would take longer than MAX_SECONDS to say (`errors.voice.too_long` words it)."""

    prefix = "voice"


# Seconds one character takes to say at DEFAULT_RATE, by script: a kana is a mora (Open JTalk says
# about 7.5 a second), a kanji about two morae, a Hangul block a syllable; any other letter or
# digit about an English letter (150 words a minute, 5 letters and a space each). Spaces and
# punctuation count nothing.
_KANA, _KANJI, _HANGUL, _LETTER = 0.13, 0.26, 0.15, 0.08


def _char_seconds(char: str) -> float:
    code = ord(char)
    if 0x3040 <= code <= 0x30FF or 0xFF66 <= code <= 0xFF9D:
        return _KANA
    if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF:
        return _KANJI
    if 0xAC00 <= code <= 0xD7A3:
        return _HANGUL
    return _LETTER if char.isalnum() else 0.0


def spoken_seconds(text: str, rate: int = DEFAULT_RATE) -> float:
    """About how many seconds `text` takes to say at `rate` words a minute (an estimate from its
    characters, before any engine renders it: what bounds the time and the WAV a text costs)."""
    return sum(map(_char_seconds, text)) * DEFAULT_RATE / rate


def speakable(text: str) -> bool:
    """True when `text` has a letter or a digit (of any script) to say."""
    return bool(_SPEAKABLE.search(text))


def check_speakable(text: str, rate: int = DEFAULT_RATE) -> str:
    """`text` itself, or NothingToSay / TooLongToSay naming what is wrong with it: a text is refused
    whole, never cut, when it would take more than MAX_SECONDS to say at `rate` words a minute."""
    if not speakable(text):
        raise NothingToSay(f"nothing to say in {text!r}: it has no letter or digit")
    seconds = spoken_seconds(text, rate)
    if seconds > MAX_SECONDS:
        minutes, most = math.ceil(seconds / 60), MAX_SECONDS // 60
        raise TooLongToSay(f"text too long to say: about {minutes} minutes of speech (at most {most}); "
                           "say it in parts", "too_long", minutes=minutes, most=most)
    return text


def _cut(text: str, limit: int) -> list[str]:
    """`text` in parts of at most `limit` characters, cut at the last space before the limit where there is one."""
    parts = []
    while len(text) > limit:
        space = text.rfind(" ", 0, limit + 1)
        at = space if space > 0 else limit
        parts.append(text[:at].strip())
        text = text[at:].strip()
    return [*parts, text]


def pieces(text: str, *, clauses: bool = True) -> list[str]:
    """The speakable pieces of `text`, in order: sentences, cut at commas (the first sentence, so
    that the first piece is short and starts soon, and any longer than CLAUSE_CHARS), then at PIECE_CHARS.

    `clauses=False` keeps sentences whole (cut at PIECE_CHARS only), for an engine that cuts a
    sentence itself where its voice pauses (Open JTalk)."""
    out: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        cut = clauses and (not out or len(sentence) > CLAUSE_CHARS)
        clauses_of = _CLAUSE_END.split(sentence) if cut else [sentence]
        for clause in clauses_of:
            out.extend(part for part in _cut(clause.strip(), PIECE_CHARS) if speakable(part))
    return out
