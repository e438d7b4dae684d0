"""The answers a question takes, told to Whisper after the question, in a language where telling helps.

Whisper base hears a short Japanese answer said alone badly: 三票 is written サント or サンピオー, 二票
にしよう, and each loses to its free transcription. Given the question and then the answers it
takes as its previous text (「ではケンは？ なし、一票、二票、三票、よん票。」), it writes what it hears
in those spellings (三票。, 二票。), as a person who has just heard the choices would. 四票 is told
as よん票: told 四票, Whisper still writes 勇秀 or 陽車 for Open JTalk's and Kokoro's よんひょう; told
よん票, it writes よん票. Each told spelling is also scored as a way of saying its answer.
"""

from __future__ import annotations

from collections.abc import Iterable

TOLD = {"ja": {"0": "なし", "1": "一票", "2": "二票", "3": "三票", "4": "よん票", "5": "五票", "6": "六票",
               "7": "なな票", "8": "八票", "9": "九票", "10": "十票"}}
"""Per language: answer id → how the answer is told to Whisper (and scored as one of its spellings)."""
JOINER = {"ja": ("、", "。")}


def told(answers: Iterable[str], lang: str) -> dict[str, str]:
    """The told spelling of each of `answers` (in their order, once each) that the language tells."""
    spelt = TOLD.get(lang, {})
    return {spelt[a]: a for a in dict.fromkeys(answers) if a in spelt}


def telling(answers: Iterable[str], lang: str) -> str:
    """The answers as said after the question (「 なし、一票、二票。」); "" where none is told."""
    forms = list(told(answers, lang))
    if not forms:
        return ""
    joiner, end = JOINER.get(lang, (", ", "."))
    return " " + joiner.join(forms) + end
