"""How long a line takes to say (pure): an estimate from its spoken form, by language, part by part.

A line is said in parts, sentence by sentence (gm.speech.pieces cuts the same way, and a speaking
engine renders and plays one part after another), so each sentence is one part. A part's
seconds are its language's `Pace`: a lead (the voice starting and stopping), its characters at
the voice's rate, and a short pause at each comma, colon or 、. The characters are those of the
spoken form — kana for Japanese, Hangul for Korean, numbers already in words — and in English a
digit counts as the word it is said as.

The paces are espeak-ng's at 150 words a minute (gm's default rate), fitted over every sentence of
every pack line said with sample fields; bench/spoken_length_bench.py renders them again and prints
the estimate against the rendered seconds, so the figures here are checked, not assumed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LONGEST_PART = 8.0  # seconds: the longest a listener follows one part (a sentence) comfortably

SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
_PAUSE = re.compile(r"[,;:、，；：—–]")
_DIGIT = re.compile(r"[0-9]")


@dataclass(frozen=True)
class Pace:
    """How fast a language's voice speaks: `lead` seconds a part, `chars_per_second`, `pause`
    seconds at each comma, colon or 、, and `digit_chars` characters a digit is said as."""

    lead: float
    chars_per_second: float
    pause: float
    digit_chars: int = 1


# espeak-ng at 150 words a minute (en-us, ja, ko), fitted over the packs' spoken sentences.
PACES = {
    "en": Pace(lead=0.66, chars_per_second=17.5, pause=0.33, digit_chars=4),
    "ja": Pace(lead=0.47, chars_per_second=8.9, pause=0.2, digit_chars=2),
    "ko": Pace(lead=0.58, chars_per_second=6.8, pause=0.32, digit_chars=2),
}


class NoPace(LookupError):
    """A language whose voice's pace has not been measured (a pack's language beside gm's own)."""


def pace(lang: str) -> Pace:
    """The pace of `lang`'s voice, as measured (NoPace for a language not measured: an English
    pace would misjudge another script's lines)."""
    if lang not in PACES:
        raise NoPace(f"no pace measured for {lang!r} (measured: {', '.join(PACES)}): "
                     "bench/spoken_length_bench.py --fit fits one")
    return PACES[lang]


def sentences(text: str) -> list[str]:
    """The sentences of `text`, in order: the parts a line is said in."""
    return [sentence for sentence in SENTENCE_END.split(text.strip()) if sentence.strip()]


def counted(text: str, lang: str) -> tuple[int, int]:
    """The characters `text` is said as in `lang` (a digit as `digit_chars`) and its pauses."""
    chars = len(text.strip()) + len(_DIGIT.findall(text)) * (pace(lang).digit_chars - 1)
    return chars, len(_PAUSE.findall(text))


def part_seconds(text: str, lang: str) -> float:
    """The estimated seconds of saying `text` as one part, in `lang`'s voice."""
    voice = pace(lang)
    chars, pauses = counted(text, lang)
    return voice.lead + chars / voice.chars_per_second + pauses * voice.pause


def parts_seconds(text: str, lang: str) -> list[tuple[str, float]]:
    """Each part (sentence) of the spoken `text` with its estimated seconds."""
    return [(sentence, part_seconds(sentence, lang)) for sentence in sentences(text)]


def line_seconds(text: str, lang: str) -> float:
    """The estimated seconds of saying the spoken `text` whole, part after part."""
    return sum(seconds for _, seconds in parts_seconds(text, lang))


def longest_part(text: str, lang: str) -> tuple[str, float]:
    """The longest part of the spoken `text` and its estimated seconds ("", 0.0 for no text)."""
    return max(parts_seconds(text, lang), key=lambda part: part[1], default=("", 0.0))


# Seconds one character takes to say at 150 words a minute, by script: a kana is a mora (Open JTalk says
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


def text_seconds(text: str) -> float:
    """About how many seconds any `text` (not yet in its spoken form: kanji, digits) takes to say
    at 150 words a minute, by the script of each character: what bounds the time and the WAV a
    text given to `gm voice say` costs."""
    return sum(map(_char_seconds, text))
