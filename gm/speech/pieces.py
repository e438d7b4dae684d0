"""Cutting a line into the pieces an engine renders one at a time: sentences, then clauses.

Speaking the first piece while the rest renders keeps the wait before a long line short, and a
cap on a piece's length keeps any text within what an engine can take (espeak-ng crashes on
100,000 letters in one call). A sentence is one part of a line as gm.text.spoken_length
estimates it, so a line said part by part has no part longer than its longest sentence.
"""

from __future__ import annotations

import math
import re

from scorer.values import Refusal
from gm.speech.settings import DEFAULT_RATE
from gm.text.spoken_length import SENTENCE_END, text_seconds

PIECE_CHARS = 300  # longest piece handed to an engine at once
CLAUSE_CHARS = 80  # a later sentence longer than this is cut at its commas (the first one always is)
MAX_SECONDS = 300  # longest text spoken at all: about five minutes of speech (`text_seconds`)

_CLAUSE_END = re.compile(r"(?<=[,;])\s+|(?<=[、，；])\s*")
_SPEAKABLE = re.compile(r"\w")


class NothingToSay(Refusal):
    """A text with no letter or digit in it: there is nothing for a voice to say."""


class TooLongToSay(Refusal):
    """A text that would take longer than MAX_SECONDS to say (`errors.voice.too_long` words it)."""

    prefix = "voice"


def speakable(text: str) -> bool:
    """True when `text` has a letter or a digit (of any script) to say."""
    return bool(_SPEAKABLE.search(text))


def check_speakable(text: str, rate: int = DEFAULT_RATE) -> str:
    """`text` itself, or NothingToSay / TooLongToSay naming what is wrong with it: a text is refused
    whole, never cut, when it would take more than MAX_SECONDS to say at `rate` words a minute."""
    if not speakable(text):
        raise NothingToSay(f"nothing to say in {text!r}: it has no letter or digit")
    seconds = text_seconds(text) * DEFAULT_RATE / rate
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
    for sentence in SENTENCE_END.split(text.strip()):
        cut = clauses and (not out or len(sentence) > CLAUSE_CHARS)
        clauses_of = _CLAUSE_END.split(sentence) if cut else [sentence]
        for clause in clauses_of:
            out.extend(part for part in _cut(clause.strip(), PIECE_CHARS) if speakable(part))
    return out
