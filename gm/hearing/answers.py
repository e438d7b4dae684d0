"""Matching what a player typed or said to a question's closed set of answers (pure)."""

from __future__ import annotations

from gm.ports import Question
from gm.text.parse import norm


def match_answer(text: str, question: Question, extra: dict[str, str] | None = None) -> str | None:
    """The answer `text` names: exact answer or label (any case), else a unique prefix; else None.

    `extra` maps further spellings (aliases, seat numbers) to answers.
    """
    said = norm(text)
    if not said:
        return None
    spellings: dict[str, str] = {}
    for answer in question.answers:
        spellings.setdefault(norm(answer), answer)
        spellings.setdefault(norm(question.label(answer)), answer)
    for spelling, answer in (extra or {}).items():
        spellings.setdefault(norm(spelling), answer)
    if said in spellings:
        return spellings[said]
    hits = {answer for spelling, answer in spellings.items() if spelling.startswith(said)}
    return hits.pop() if len(hits) == 1 else None


def nearest_answer(text: str, question: Question, cutoff: float = 60.0) -> str | None:
    """The answer whose label (or value) `text` most resembles, for a typo ("vilager" → villager)."""
    from rapidfuzz import fuzz, process, utils

    spellings = {question.label(answer): answer for answer in question.answers}
    spellings.update({answer: answer for answer in question.answers})
    best = process.extractOne(text, list(spellings), scorer=fuzz.WRatio, processor=utils.default_process,
                              score_cutoff=cutoff)
    return spellings[best[0]] if best else None
