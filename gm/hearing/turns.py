"""The turn log of one question: what was heard, typed, refused and said while it was asked,
in order (`gm.ports.Answer.turns`). The session asking the question owns it: the keyboard's `ask`
of a question only typed, a listening session (`gm.hearing.asking.Listening`) for one asked by
voice; the keyboard writes into the log it is handed (a line typed meanwhile, or every line once
it takes the question over)."""

from __future__ import annotations

import dataclasses
from typing import TypeVar

from gm.ports import Answer, Clock, Turn, TurnKind

T = TypeVar("T")


class TurnLog:
    """The turns of one question, each at the clock's time."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.turns: list[Turn] = []

    def note(self, kind: TurnKind, text: str, key: str = "", sure: bool = True, confidence: float = 1.0) -> None:
        """Keep one step of asking."""
        self.turns.append(Turn(kind, text, round(self.clock.now(), 3), key, sure, round(confidence, 3)))

    def answered(self, answer: Answer[T]) -> Answer[T]:
        """`answer` with these turns before its own (those of a keyboard that took it over)."""
        return dataclasses.replace(answer, turns=(*self.turns, *answer.turns))
