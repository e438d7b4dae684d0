"""Questions answered by naming: one of a closed set, one player (or nobody), some players (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Mapping

from gm.ports import Line, Policy, Refused
from gm.text.words import Names, segment, words_of
from gm.table.asked import NONE, Asked


@dataclass(frozen=True)
class Choice(Asked[str]):
    """One of `answers`, by its token or label (a prefix only one of them starts with); a
    heard answer is read back unless `confirm` is False (a question that is itself a read-back)."""

    confirm: bool = True
    names: Names = field(default=Names({}), repr=False, compare=False)

    def read(self, words: list[str]) -> str | None:
        return self.names.name(words)

    def spellings(self) -> Mapping[str, str]:
        return {**super().spellings(), **self.names.spellings}

    @property
    def policy(self) -> Policy:
        return Policy(self.tries, read_back=self.confirm)

    def readback(self, value: str, sure: bool = True) -> Line | None:
        return super().readback(value, sure) if self.confirm else None


@dataclass(frozen=True)
class Pick(Asked["str | None"]):
    """One of `answers` (players, and the graveyard), or nobody where `nobody` is allowed."""

    nobody: bool = False
    names: Names = field(default=Names({}), repr=False, compare=False)
    about: str = ""  # whose answer it is ("Mio: Ken. Right?")
    unlisted: tuple[str, ...] = ()  # answers taken (and refused with their reason) but not offered at `?`
    none_is: str | None = None  # the answer "no" heard alone stands for (`Policy.nobody`): nobody holds it

    @property
    def policy(self) -> Policy:
        return replace(super().policy, nobody=self.none_is)

    def choices(self) -> Line:
        return self.pack.line("table.choices", choices=[self.label(a) for a in self.answers if a not in self.unlisted])

    def read(self, words: list[str]) -> str | None:
        choice = self.names.name(words, self.words.answer_words())
        return choice if choice in self.answers else None

    def parse(self, text: str) -> str | None | Refused:
        words = words_of(text)
        if self.nobody and " ".join(words) in self.words.nobody:
            return None
        return super().parse(text)

    def spellings(self) -> Mapping[str, str]:
        return {**super().spellings(), **{s: c for s, c in self.names.spellings.items() if c in self.answers}}

    def readback(self, value: str | None, sure: bool = True) -> Line | None:
        if self.about:
            return self.pack.line("listen.confirm_named", name=self.about, answer=self.show(value))
        return self.pack.line("listen.confirm", answer=self.show(value))

    def show(self, value: str | None) -> str:
        return self.label(NONE if value is None else value)

    def tip(self) -> str:
        return self.pack.text("table.hint_pick")


@dataclass(frozen=True)
class Roster(Asked["tuple[str, ...]"]):
    """Some of `answers` (players) in one line, "Aki Ken" or "Aki, Ken"; nobody as `none`."""

    names: Names = field(default=Names({}), repr=False, compare=False)

    def read(self, words: list[str]) -> tuple[str, ...] | None:
        if " ".join(words) in self.words.nobody:
            return ()
        one = self.names.name(words)
        found = segment(words, self.names.exact) or ([one] if one is not None else None)
        if found is None or len(set(found)) != len(found) or not set(found) <= set(self.answers):
            return None
        return tuple(found)

    def spellings(self) -> Mapping[str, str]:
        return {**super().spellings(), **self.names.spellings}

    def show(self, value: tuple[str, ...]) -> str:
        return ", ".join(value) if value else self.label(NONE)

    def tip(self) -> str:
        return self.pack.text("table.hint_roster", none=self.label(NONE))
