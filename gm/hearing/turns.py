"""The turn log of one question: what was heard, typed, refused and said while it was asked,
in order (`gm.ports.Answer.turns`). Each asking session owns its own: the keyboard's for a typed
question, a listening session's for one asked by voice (the keyboard writes a line typed into
it meanwhile)."""

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

    def note(self, kind: TurnKind, text: str, key: str = "", sure: bool = True) -> None:
        """Keep one step of asking."""
        self.turns.append(Turn(kind, text, round(self.clock.now(), 3), key, sure))

    def answered(self, answer: Answer[T]) -> Answer[T]:
        """`answer` with these turns before its own (those of a keyboard that took it over)."""
        return dataclasses.replace(answer, turns=(*self.turns, *answer.turns))
