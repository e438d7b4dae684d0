"""The answers a question takes, told to Whisper after the question, in a language where telling helps.

Given the question and then the answers it takes as its previous text (「ではケンは？ なし、一票、二票、
三票、よん票。」), Whisper writes what it hears in those spellings, as a person who has just heard the
choices would. Each told spelling is also scored as a way of saying its answer. Which answers are
told, and how, is the pack's `[language.told]` table (voices/ja.toml says what it changed).
"""

from __future__ import annotations

from collections.abc import Iterable

from gm.text.language import language
from voices import LANGUAGES


def told(answers: Iterable[str], lang: str) -> dict[str, str]:
    """The told spelling of each of `answers` (in their order, once each) that the language tells."""
    spelt = language(lang).told if lang in LANGUAGES else {}
    return {spelt[a]: a for a in dict.fromkeys(answers) if a in spelt}


def telling(answers: Iterable[str], lang: str, end: str) -> str:
    """The answers as said after the question, joined as the language joins items and ending with
    `end` (「 なし、一票、二票。」); "" where none is told."""
    forms = list(told(answers, lang))
    if not forms:
        return ""
    return " " + language(lang).items_join.join(forms) + end
