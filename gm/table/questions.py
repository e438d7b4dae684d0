"""The questions a night asks, each with its own answer type (pure).

Each kind knows its answers (the tokens a listener can hear, each labelled in the night's
language), reads a reply typed or heard into its value (one parser for both: `parse`), reads
a heard value back, names its refusal by a voice-pack key with fields, and lists its choices
for `?`. `Table` builds them for one night.

    Step        a step that goes on ("done", Enter, or the timeout)          → Done.DONE
    YesNo       yes / no (y, はい, 네 …)                                        → bool
    Count       how many point at one candidate, 0..high; "Aki 3 Ken 1" or
                "3 1 0" (this candidate and the next) say several at once     → Counts
    Choice      one of a closed set of tokens (resume / vote now / quit)      → the token
    Pick        one player, the graveyard, or nobody                          → name | None
    Card        one card of the deck                                          → card id
    Hand        the cards of one hand in one line ("werewolf villager")      → tuple of ids
    Tally       a whole tally read back: yes, no, or a fix ("Aki 2")         → True | False | Counts
    Roster      some players in one line ("Aki Ken", "none")                 → tuple of names
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence

from gm.ports import Kind, Line, Policy, Refused, Slot, fix_of, fix_token
from gm.files import printable
from gm.text.words import LONGEST, Names, Words, fold, nearest, segment, words_of
from gm.text.numbers import COUNTERS
from gm.text.lines import Voice
from scorer.werewolf.tally import GRAVEYARD
from scorer.values import Named

T = TypeVar("T")
ONE_BREATH_AT_COUNT = frozenset({"en"})
"""Languages whose count questions hear the tally said by name ("Aki three, Ken one"); the
others hear it at the tally's confirmation only, and a count as a number (typed, a count takes
names in every language). Measured by bench/one_breath_bench.py: with names in its grammar the
Korean model heard 영 (0) as 묘지 없어요 (the graveyard 0), surely; pocketsphinx's English
single counts are heard alike with names or without. Japanese has no model here to measure."""


class Done(Named):
    """The one answer of a step that goes on."""

    DONE = "done"


Counts = Mapping[str, int]
"""Candidate → votes: what a count or a fix says (read-only)."""


def counts(items: Mapping[str, int]) -> Counts:
    return MappingProxyType(dict(items))


class ByName(Mapping[str, int]):
    """Counts said by name ("Aki 3, Ken 1"): the tally as the table says it in one breath, where
    the candidates not named have none once the total can be the vote's (HW-R4)."""

    def __init__(self, items: Mapping[str, int]) -> None:
        self._items = dict(items)

    def __getitem__(self, candidate: str) -> int:
        return self._items[candidate]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"ByName({self._items!r})"


def votes_line(voice: Voice, low: int, high: int) -> Line | int:
    """The totals a vote can have (HW-R4): "3–4" (said "3 to 4"), or "4"."""
    return high if low == high else voice.line("werewolf.vote.range", low=low, high=high)


@dataclass(frozen=True)
class Asked(ABC, Generic[T]):
    """What every question has: its key, the line that asks it, its tokens and labels, an
    optional default and timeout, and the night's words and lines to read replies with."""

    key: str
    prompt: Line
    voice: Voice = field(repr=False, compare=False)
    words: Words = field(repr=False, compare=False)
    answers: tuple[str, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    timeout: float | None = None
    fallback: tuple[T, ...] = ()  # the default, when there is one
    tries: int | None = None  # hearings by voice before the keyboard takes it (None: the listener's own)

    @property
    def has_default(self) -> bool:
        return bool(self.fallback)

    @property
    def default(self) -> T:
        if not self.fallback:
            raise LookupError(f"{self.key} has no default")
        return self.fallback[0]

    def label(self, answer: str) -> str:
        return self.labels.get(answer, answer)

    @functools.cached_property
    def slots(self) -> tuple[Slot[T], ...]:
        return tuple(self.slot(answer) for answer in self.answers)

    def slot(self, token: str) -> Slot[T]:
        """One token typed: its kind by how the table spells it (`fix_token`, digits, yes and
        no; any other token names its answer) and the value it answers (`value_of`)."""
        fix = fix_of(token)
        if fix is not None:
            return Slot(token, Kind.FIX, self.value_of(token, Kind.FIX, *fix), *fix)
        if token.isdigit():
            return Slot(token, Kind.NUMBER, self.value_of(token, Kind.NUMBER, "", int(token)), n=int(token))
        kind = Kind.YES_NO if token in ("yes", "no") else Kind.NAME
        return Slot(token, kind, self.value_of(token, kind, "", 0))

    def value_of(self, token: str, kind: Kind, who: str, n: int) -> T | Refused:
        """The value one of this question's tokens answers: as it reads the token typed (a
        question of many answers makes each one's value directly)."""
        return self.parse(token)

    @property
    def policy(self) -> Policy:
        return Policy(self.tries)

    def parse(self, text: str) -> T | Refused:
        words = words_of(text)
        if not words:
            return self.refused("table.empty")
        value = self.read(words)
        return self.refusal(printable(text), words) if value is None else value

    def together(self, slots: tuple[Slot[T], ...]) -> T | Refused:
        """Fixes said in one breath, read as the line that names them all ("Aki=3 Ken=1")."""
        return self.parse(" ".join(slot.token for slot in slots))

    @abstractmethod
    def read(self, words: list[str]) -> T | None:
        """The value folded `words` give, or None (then `refusal` says why)."""

    def refusal(self, text: str, words: list[str]) -> Refused:
        """Why `text` answers nothing: "did you mean …?" where it is a slip from an answer, the
        part it cannot read where it has several, else that it answers nothing here."""
        return self.offer(text, words) or self.refused("table.not_answer", text=text)

    def offer(self, text: str, words: list[str]) -> Refused | None:
        """The one place a refused reply is helped. "did you mean …?" where the whole reply
        (`near`), or some of its parts (`parts`: "Kne" for Ken, "werwolf villagr"), are slips
        from answers and the reply so mended answers the question (y takes it); else a refusal
        naming the part of a reply of several that reads as nothing, or the slip (with its
        answer) where even mended it answers nothing. None when the reply is no slip and every
        part of it reads (the question says what is wrong)."""
        whole = self.near(" ".join(words))
        if whole is not None:
            value = self.read(words_of(whole))
            if value is not None:
                return Refused(self.voice.line("table.near", text=text, answer=self.label(whole)), value,
                               self.words.yes)
        parts = self.parts()
        runs = [run for word in words for run in ([word] if word in parts else _RUNS.findall(word))]
        mended: list[str] = []
        slips: list[tuple[str, str]] = []
        unread: list[str] = []
        for run in runs:
            token = None if self.known(run, parts) else nearest(run, parts)
            mended.append(run if token is None else fold(token))
            if token is not None:
                slips.append((_as_typed(run, text), self.part_label(token)))
            elif not self.known(run, parts) and _word(run) and not any(s.startswith(run) for s in parts):
                unread.append(_as_typed(run, text))
        if slips and not unread:
            value = self.read(mended)
            if value is not None:
                return Refused(self.voice.line("table.near", text=" ".join(s for s, _ in slips),
                                               answer=" ".join(a for _, a in slips)), value, self.words.yes)
        if len(runs) > 1 and unread:
            return self.refused("table.unknown_part", text=text, part=unread[0])
        if slips:  # mended, the reply still answers nothing: the slip is named, the question says the rest
            return self.refused("table.near_part", text=text, part=slips[0][0], answer=slips[0][1])
        return None

    def parts(self) -> Mapping[str, str]:
        """Folded spelling → token: what each word of a reply is compared with for a slip."""
        return self.spellings()

    def part_label(self, token: str) -> str:
        """A token of `parts` as printed in "did you mean …?"."""
        return self.label(token)

    def known(self, run: str, parts: Mapping[str, str]) -> bool:
        """Whether one word of a reply reads as something as it is: an answer's spelling (with a
        particle: けんは), a number, a counter (票), a particle (は, 에게), or an answer word (yes,
        the graveyard). A word that is the start of an answer's spelling is not a slip either."""
        bare = next((run[:-len(p)] for p in PARTICLES if run.endswith(p) and len(run) > len(p)), run)
        return (run.isdigit() or run in COUNTERS or run in PARTICLES or self.words.number([run]) is not None
                or run in self.words.answer_words() or run in self.words.yes | self.words.no
                or run in parts or bare in parts)

    def near(self, said: str) -> str | None:
        """The one token whose label or spelling `said` is a slip from (a typo: "vilager")."""
        return nearest(said, self.spellings())

    def spellings(self) -> Mapping[str, str]:
        """Folded spelling → token: what a typo is compared with."""
        return {fold(self.label(a)): a for a in self.answers} | {fold(a): a for a in self.answers}

    def refused(self, key: str, **fields: Any) -> Refused:
        return Refused(self.voice.line(key, **fields))

    def readback(self, value: T, sure: bool = True) -> Line | None:
        return self.voice.line("listen.confirm", answer=self.show(value))

    def show(self, value: T) -> str:
        """A value as printed in this language."""
        return self.label(str(value))

    def tip(self) -> str:
        return self.voice.text("table.hint_choose")

    def hint(self, left: float | None = None) -> str:
        """The tip shown at a typed prompt, with the seconds left (on the table's clock) when
        the question goes on by itself."""
        tip = self.tip()
        return tip if left is None else self.voice.text("table.countdown", tip=tip, secs=math.ceil(left))

    def choices(self) -> Line:
        return self.voice.line("table.choices", choices=[self.label(a) for a in self.answers])


@dataclass(frozen=True)
class Step(Asked[Done]):
    """A step that goes on: its one answer is "done", and a listener waits through silence and
    talk for it (the table is still at it)."""

    def read(self, words: list[str]) -> Done | None:
        return Done.DONE if " ".join(words) in self.words.done else None

    def slot(self, token: str) -> Slot[Done]:
        return Slot(token, Kind.DONE, self.parse(token))

    @property
    def policy(self) -> Policy:
        return Policy(self.tries, waits=True)

    def readback(self, value: Done, sure: bool = True) -> Line | None:
        return None

    def near(self, said: str) -> str | None:
        return None

    def tip(self) -> str:
        return self.voice.text("table.hint_done")


@dataclass(frozen=True)
class YesNo(Asked[bool]):
    def read(self, words: list[str]) -> bool | None:
        said = " ".join(words)
        if said in self.words.yes:
            return True
        return False if said in self.words.no else None

    def readback(self, value: bool, sure: bool = True) -> Line | None:
        return None if sure else self.voice.line("listen.confirm", answer=self.show(value))

    def show(self, value: bool) -> str:
        return self.label("yes" if value else "no")

    def tip(self) -> str:
        return self.voice.text("table.hint_yes_no", yes=self.label("yes"), no=self.label("no"))


@dataclass(frozen=True)
class Count(Asked[Counts]):
    """How many point at `candidate` (0..`high`). A line may name counts for others too ("Aki
    3, Ken 1": `ByName`, also heard where `by_name`), or give numbers for this candidate and the
    next ones in order ("3 1 0"). Counts by name that make more than the vote can have
    (`counted` before this question, `bounds` in all: HW-R4) are refused aloud with the totals
    the vote can have. The last count of a vote whose total is exact (HW-R4) has no choice: it
    is the question's default (Enter), and `implied` says so when it cannot be heard."""

    candidate: str = ""
    high: int = 0
    following: tuple[str, ...] = ()  # this candidate and the ones asked after it, in order
    names: Names = field(default=Names({}), repr=False, compare=False)
    total: int = 0  # most votes in all
    counted: int = 0  # votes counted before this question
    bounds: tuple[int, int] = (0, 0)  # the totals the whole vote can have (HW-R4)
    implied: Line | None = None  # "That leaves 1 for the graveyard.": the count an exact total leaves

    def read(self, words: list[str]) -> Counts | None:
        numbers = segment(words, self.words.number)
        if numbers is not None and len(numbers) == 1:
            return counts({self.candidate: numbers[0]}) if numbers[0] <= self.high else None
        if numbers is not None and 1 < len(numbers) <= len(self.following):
            said = counts(dict(zip(self.following, numbers)))
            return said if sum(said.values()) <= self.total else None
        pairs = read_pairs(words, self.names, self.words)
        if pairs is not None and sum(pairs.values()) <= self.total:
            return pairs
        return None

    def refusal(self, text: str, words: list[str]) -> Refused:
        numbers = segment(words, self.words.number)
        if numbers is not None and len(numbers) == 1:
            return self.refused("table.out_of_range", text=text, low=0, high=self.high)
        if numbers is not None and len(numbers) > len(self.following):
            return self.refused("table.too_many_numbers", text=text, n=len(numbers), left=len(self.following))
        if numbers is not None:
            return self.refused("table.too_many_votes", text=text, high=self.total)
        pairs = read_pairs(words, self.names, self.words)
        if pairs is not None:
            total = self.counted + sum(pairs.values())
            return Refused(self.voice.line("werewolf.vote.bad_fix", total=total,
                                           votes=votes_line(self.voice, *self.bounds)), aloud=True)
        offered = self.offer(text, words)
        if offered is not None:
            return offered
        if len(words) == 1 and not any(c.isdigit() for c in words[0]):
            return self.refused("table.not_count", text=text, low=0, high=self.high)
        example = self.voice.text("table.fix_example", name=self.label(self.candidate), n=min(1, self.high))
        return self.refused("table.not_counts", text=text, low=0, high=self.high, example=example)

    def readback(self, value: Counts, sure: bool = True) -> Line | None:
        return None  # heard surely, taken (the whole tally is confirmed once); unsure, asked again

    def value_of(self, token: str, kind: Kind, who: str, n: int) -> Counts | Refused:
        if kind == Kind.NUMBER and n <= self.high:
            return counts({self.candidate: n})
        if kind == Kind.FIX and n <= self.total and self.names.exact([fold(who)]) == who:
            return ByName({who: n})
        return super().value_of(token, kind, who, n)

    @property
    def policy(self) -> Policy:
        return Policy(self.tries, count=self.candidate, implied=self.implied)

    def spellings(self) -> Mapping[str, str]:
        return {fold(a): a for a in self._numbers()}

    def parts(self) -> Mapping[str, str]:
        return {**{w: str(n) for w, n in self.words.numbers.items()}, **self.names.spellings}

    def part_label(self, token: str) -> str:
        return _labeller(self.voice)(token)

    def choices(self) -> Line:
        return self.voice.line("table.choices", choices=list(self._numbers()))

    def _numbers(self) -> tuple[str, ...]:
        return tuple(a for a in self.answers if a.isdigit())

    def tip(self) -> str:
        if self.has_default:
            return self.voice.text("table.hint_count_implied", low=0, high=self.high, n=self.default[self.candidate])
        return self.voice.text("table.hint_count", low=0, high=self.high)


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

    def readback(self, value: str, sure: bool = True) -> Line | None:
        return super().readback(value, sure) if self.confirm else None


@dataclass(frozen=True)
class Pick(Asked["str | None"]):
    """One of `answers` (players, and the graveyard), or nobody where `nobody` is allowed."""

    nobody: bool = False
    names: Names = field(default=Names({}), repr=False, compare=False)
    about: str = ""  # whose answer it is ("Mio: Ken. Right?")
    unlisted: tuple[str, ...] = ()  # answers taken (and refused with their reason) but not offered at `?`

    def choices(self) -> Line:
        return self.voice.line("table.choices", choices=[self.label(a) for a in self.answers if a not in self.unlisted])

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
            return self.voice.line("listen.confirm_named", name=self.about, answer=self.show(value))
        return self.voice.line("listen.confirm", answer=self.show(value))

    def show(self, value: str | None) -> str:
        return self.label(NONE if value is None else value)

    def tip(self) -> str:
        return self.voice.text("table.hint_pick")


NONE = "none"  # the token of "nobody"


@dataclass(frozen=True)
class Card(Asked[str]):
    """One card of the deck in play (`answers`), by any language's name or reading."""

    owner: str = ""

    def read(self, words: list[str]) -> str | None:
        card = self.words.card(words)
        return card if card in self.answers else None

    def refusal(self, text: str, words: list[str]) -> Refused:
        card = self.words.card(words)
        if card is not None:
            return self.refused("table.not_in_deck", text=text, card=self.voice.line(f"werewolf.cards.{card}"))
        return super().refusal(text, words)

    def spellings(self) -> Mapping[str, str]:
        return {**super().spellings(), **{n: c for n, c in self.words.cards.items() if c in self.answers}}

    def readback(self, value: str, sure: bool = True) -> Line | None:
        if self.owner:
            return self.voice.line("listen.confirm_named", name=self.owner, answer=self.show(value))
        return self.voice.line("listen.confirm", answer=self.show(value))

    def tip(self) -> str:
        return self.voice.text("table.hint_card")


@dataclass(frozen=True)
class Hand(Asked["tuple[str, ...]"]):
    """The `size` cards of one hand (or the graveyard) in one line: "werewolf villager",
    "人狼 村人", "werewolf, villager", "人狼村人". Its tokens are the ordered pairs "werewolf
    villager"; `cards` are the deck's cards."""

    cards: tuple[str, ...] = ()
    size: int = 2
    owner: str = ""

    def read(self, words: list[str]) -> tuple[str, ...] | None:
        found = segment(words, self.words.card) or self._glued(words)
        if found is None or len(found) != self.size or not set(found) <= set(self.cards):
            return None
        return tuple(found)

    def _glued(self, words: list[str]) -> list[str] | None:
        """Two names with nothing between them (人狼村人)."""
        text = "".join(words)
        for cut in range(1, len(text)):
            first, second = self.words.card([text[:cut]]), self.words.card([text[cut:]])
            if first and second:
                return [first, second]
        return None

    def refusal(self, text: str, words: list[str]) -> Refused:
        found = segment(words, self.words.card) or self._glued(words)
        if found is not None and len(found) != self.size:
            return self.refused("table.hand_size", text=text, n=self.size, example=self.example())
        if found is not None:
            wrong = next(c for c in found if c not in self.cards)
            return self.refused("table.not_in_deck", text=text, card=self.voice.line(f"werewolf.cards.{wrong}"))
        return super().refusal(text, words)

    def near(self, said: str) -> str | None:
        return None

    def value_of(self, token: str, kind: Kind, who: str, n: int) -> tuple[str, ...] | Refused:
        cards = tuple(token.split())  # the table's token of a hand: its cards' ids
        if len(cards) == self.size and set(cards) <= set(self.cards):
            return cards
        return super().value_of(token, kind, who, n)

    def parts(self) -> Mapping[str, str]:
        return {name: card for name, card in self.words.cards.items() if card in self.cards}

    def part_label(self, token: str) -> str:
        return self.voice.text(f"werewolf.cards.{token}")

    def example(self) -> str:
        return " ".join(self.voice.text(f"werewolf.cards.{c}") for c in self.cards[:self.size])

    def readback(self, value: tuple[str, ...], sure: bool = True) -> Line | None:
        cards = [self.voice.line(f"werewolf.cards.{c}") for c in value]
        if self.owner:
            return self.voice.line("listen.confirm_hand", name=self.owner, cards=cards)
        return self.voice.line("listen.confirm", answer=self.show(value))

    def show(self, value: tuple[str, ...]) -> str:
        return " ".join(self.voice.text(f"werewolf.cards.{c}") for c in value)

    def tip(self) -> str:
        return self.voice.text("table.hint_hand", example=self.example())

    def choices(self) -> Line:
        return self.voice.line("table.choices", choices=[self.voice.text(f"werewolf.cards.{c}") for c in self.cards])


@dataclass(frozen=True)
class Tally(Asked["bool | Counts"]):
    """A whole tally read back (the prompt): yes (Enter), no, or a fix of one or more counts
    ("Aki 2", "Aki 2 Ken 1", typed Aki=2). `shown` is the tally as read."""

    shown: Counts = field(default_factory=dict)
    names: Names = field(default=Names({}), repr=False, compare=False)
    most: int = 0  # most votes one candidate can have

    def read(self, words: list[str]) -> bool | Counts | None:
        said = " ".join(words)
        if said in self.words.yes:
            return True
        if said in self.words.no:
            return False
        pairs = read_pairs(words, self.names, self.words)
        if pairs is not None and all(n <= self.most for n in pairs.values()):
            return pairs
        return None

    def near(self, said: str) -> str | None:
        return None

    def value_of(self, token: str, kind: Kind, who: str, n: int) -> bool | Counts | Refused:
        if kind == Kind.YES_NO:
            return token == "yes"
        if kind == Kind.FIX and n <= self.most and self.names.exact([fold(who)]) == who:
            return ByName({who: n})
        return super().value_of(token, kind, who, n)

    def refusal(self, text: str, words: list[str]) -> Refused:
        return self.offer(text, words) or self.refused("table.not_fix", text=text, example=self.example())

    def parts(self) -> Mapping[str, str]:
        return {**{w: str(n) for w, n in self.words.numbers.items()}, **self.names.spellings}

    def part_label(self, token: str) -> str:
        return _labeller(self.voice)(token)

    def example(self) -> str:
        first = next(iter(self.shown), "")
        return self.voice.text("table.fix_example", name=self.label(first), n=other_count(self.shown.get(first, 0)))

    def readback(self, value: bool | Counts, sure: bool = True) -> Line | None:
        """None for a yes, a no or a fix heard surely; a fix heard unsure is read back as the
        tally it makes, never the tally before it (a reflexive yes confirms what was heard)."""
        if sure or isinstance(value, bool):
            return None
        return tally_line(self.voice, {**self.shown, **value}, list(self.shown))

    def show(self, value: bool | Counts) -> str:
        if isinstance(value, bool):
            return self.label("yes" if value else "no")
        return tally_line(self.voice, value, list(value)).text

    def tip(self) -> str:
        return self.voice.text("table.hint_tally", yes=self.label("yes"), example=self.example())


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
        return self.voice.text("table.hint_roster", none=self.label(NONE))


def other_count(n: int) -> int:
    """A count unlike `n`, for an example of a fix ("Aki 2" when Aki has 3)."""
    return n - 1 if n > 0 else 1


def loggable(value: object) -> object:
    """A value as the night log keeps it (JSON): counts as an object, hands as a list."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def read_pairs(words: Sequence[str], names: Names, table: Words) -> ByName | None:
    """ "Aki 3 Ken 1", "Aki=3, Ken=1", "aki3", "けん 2", "Aki three", "健は2票、墓地は1票",
    "けん に 2", "켄에게 2표" → counts; each name once, each followed by its number (a particle
    may stand between them: `PARTICLES`). None when the words are not such pairs."""
    parts = pieces(words, names)
    others = table.answer_words() - table.graveyard
    if len(parts) > PAIR_SPAN * len(set(names.spellings.values())):
        return None  # more words than every candidate named once could take

    def who(span: Sequence[str]) -> str | None:
        named = names.name(span, others)
        if named is not None:
            return named
        last = span[-1]
        bare = next((last[:-len(p)] for p in PARTICLES if last.endswith(p) and len(last) > len(p)), None)
        return None if bare is None else names.name([*span[:-1], bare], others)

    @functools.cache
    def pairs_from(at: int) -> tuple[tuple[str, int], ...] | None:
        if at == len(parts):
            return ()
        for size in range(min(LONGEST, len(parts) - at), 0, -1):
            name = who(parts[at:at + size])
            if name is None:
                continue
            after = at + size
            starts = (after, after + 1) if after < len(parts) and parts[after] in PARTICLES else (after,)
            for start in starts:
                for length in range(min(LONGEST, len(parts) - start), 0, -1):
                    n = table.number(parts[start:start + length])
                    if n is None:
                        continue
                    rest = pairs_from(start + length)
                    if rest is not None and name not in dict(rest):
                        return ((name, n), *rest)
        return None

    found = pairs_from(0)
    return None if not found else ByName(dict(found))


PARTICLES = ("에게", "한테", "は", "に", "が", "の", "은", "는", "이", "가")
"""Words between a name and its count ("健は2票", "けん に 2", "켄에게 2표"), typed glued to the
name or apart; longest first."""
PAIR_SPAN = 2 * LONGEST + 1  # pieces one name, a particle and a count can take


def pieces(words: Sequence[str], names: Names) -> tuple[str, ...]:
    """`words` with digits cut from the letters around them ("健2票" → 健 2 票), but a word that
    is itself a name."""
    out: list[str] = []
    for word in words:
        out.extend([word] if names.exact([word]) is not None else _RUNS.findall(word))
    return tuple(out)


_RUNS = re.compile(r"\d+|\D+")


def _word(run: str) -> bool:
    """Whether a piece of a reply is a word one can name back (letters, nothing unprintable)."""
    return run.isprintable() and any(c.isalpha() for c in run)


def _as_typed(run: str, text: str) -> str:
    """A folded word of a reply as it was typed ("kne" in "Aki 2, Kne 2" → Kne), where found."""
    found = re.search(re.escape(run), text, re.IGNORECASE)
    return printable(found.group() if found else run)


def tally_line(voice: Voice, tally: Counts, candidates: Sequence[str]) -> Line:
    """ "Aki 3, Ken 1, nobody else. Right?": the candidates with votes, then the rest as one."""
    label = _labeller(voice)
    items = [voice.line("werewolf.vote.count_item", candidate=label(c), n=tally[c])
             for c in candidates if tally.get(c, 0)]
    rest = any(not tally.get(c, 0) for c in candidates)
    return voice.line("werewolf.vote.readback" if rest else "werewolf.vote.readback_all", counts=items)


def _labeller(voice: Voice) -> Callable[[str], str]:
    graveyard = voice.text("common.graveyard")
    return lambda c: graveyard if c == GRAVEYARD else c


class Table:
    """Builds the night's questions in its language, with its players (and their readings)."""

    def __init__(self, voice: Voice, players: Sequence[str] = ()) -> None:
        self.voice = voice
        self.players = tuple(players)
        self.words = Words.of(voice)
        self.readings = {p: voice.readings[p] for p in self.players if p in voice.readings}
        self.one_breath = voice.lang in ONE_BREATH_AT_COUNT  # a count question hears "Aki three, Ken one"

    def label(self, candidate: str) -> str:
        return _labeller(self.voice)(candidate)

    def names(self, choices: Sequence[str]) -> Names:
        return Names.of(choices, self.readings, self.words, {c: self.label(c) for c in choices})

    def _line(self, key: str, fields: dict[str, Any]) -> Line:
        return self.voice.line(key, **fields)

    def step(self, key: str, timeout: float | None = None, **fields: Any) -> Step:
        return Step(key, self._line(key, fields), self.voice, self.words, (Done.DONE.value,),
                    {Done.DONE.value: self.voice.text("werewolf.done")}, timeout, (Done.DONE,))

    def yes_no(self, key: str, default: bool | None = None, **fields: Any) -> YesNo:
        labels = {"yes": self.voice.text("common.yes"), "no": self.voice.text("common.no")}
        return YesNo(key, self._line(key, fields), self.voice, self.words, ("yes", "no"), labels,
                     fallback=() if default is None else (default,))

    def count(self, candidate: str, high: int, following: Sequence[str] = (), total: int | None = None,
              candidates: Sequence[str] = (), by_name: bool = False, counted: int = 0,
              bounds: tuple[int, int] | None = None, first: bool = True) -> Count:
        """How many point at `candidate`, at most `high`; `following` (from `candidate` on) may
        be given in one line, up to `total` votes in all; `candidates` may be named with counts
        (heard too where `by_name`: "Aki three, Ken one"), `counted` votes counted before, of a
        vote whose totals are `bounds` (HW-R4). The `first` count of a round is asked in full
        ("How many votes for Aki?"), the next ones by name alone ("Ken?"). The last one asked of
        a vote whose total is exact (HW-R4: a standard 5- or 6-player deck, a runoff) can only
        be what the total leaves: that is its default, taken when it cannot be heard."""
        key = "werewolf.vote.ask_count"
        line = self._line(key if first else "werewolf.vote.ask_next", {"candidate": self.label(candidate)})
        every = tuple(candidates) or tuple(following) or (candidate,)
        most = high if total is None else total
        left = None if bounds is None or bounds[0] != bounds[1] or len(following) > 1 else bounds[1] - counted
        tokens = tuple(str(n) for n in range(high + 1))
        if by_name:  # heard as a name then a number, one pair or several in one breath
            tokens += tuple(fix_token(c, n) for c in every for n in range(most + 1))
        return Count(key, line, self.voice, self.words, tokens,
                     {fix_token(c, n): f"{self.label(c)} {n}" for c in every for n in range(most + 1)} if by_name
                     else {}, candidate=candidate, high=high, following=tuple(following) or (candidate,),
                     names=self.names(every), total=most, counted=counted,
                     bounds=bounds or (0, counted + most),
                     fallback=() if left is None else (counts({candidate: left}),),
                     implied=None if left is None else self._line("werewolf.vote.implied", {
                         "candidate": self.label(candidate), "n": left}))

    def votes(self, low: int, high: int) -> Line | int:
        """The totals a vote can have, as said (HW-R4)."""
        return votes_line(self.voice, low, high)

    def choice(self, key: str, answers: Sequence[str], labels: Mapping[str, str | Line] | None = None,
               default: str | None = None, timeout: float | None = None, confirm: bool = True,
               prompt: Line | None = None, **fields: Any) -> Choice:
        """One of `answers` (tokens, printed as `labels`), asked by the line `key` (or `prompt`).
        A label given as a pack line is also named by how it is said (投票 as とうひょう)."""
        texts = {a: label.text if isinstance(label, Line) else label for a, label in (labels or {}).items()}
        said = {a: label.spoken for a, label in (labels or {}).items() if isinstance(label, Line)}
        return Choice(key, prompt or self._line(key, fields), self.voice, self.words, tuple(answers),
                      texts, timeout, () if default is None else (default,), confirm=confirm,
                      names=self._choice_names(answers, texts, said))

    def _choice_names(self, answers: Sequence[str], labels: Mapping[str, str],
                      said: Mapping[str, str] | None = None) -> Names:
        """How a choice's answers are named: tokens, labels, readings (`said`: how a label is
        said), and for card ids every language's card names (じんろう, 人狼, Werewolf)."""
        names = Names.of(answers, {**self.readings, **(said or {})}, self.words, labels)
        cards = {name: card for name, card in self.words.cards.items() if card in answers}
        return Names({**cards, **names.spellings})

    def pick(self, key: str, choices: Sequence[str], nobody: str = "", about: str = "",
             unlisted: Sequence[str] = (), **fields: Any) -> Pick:
        """One of `choices` (players, GRAVEYARD), or nobody (`none`, labelled by the line
        `nobody`) where `nobody` is given; `about` names whose answer it is in the read-back;
        `unlisted` choices are taken but not offered (the answers already rule them out)."""
        labels = {c: self.label(c) for c in choices}
        tokens = tuple(choices)
        if nobody:
            labels[NONE] = self.voice.text(nobody)
            tokens += (NONE,)
        return Pick(key, self._line(key, fields), self.voice, self.words, tokens, labels, nobody=bool(nobody),
                    names=self.names(choices), about=about, unlisted=tuple(unlisted))

    def card(self, key: str, cards: Sequence[str], owner: str = "", **fields: Any) -> Card:
        labels = {c: self.voice.text(f"werewolf.cards.{c}") for c in cards}
        return Card(key, self._line(key, fields), self.voice, self.words, tuple(cards), labels,
                    owner=self.label(owner) if owner else "")

    def hand(self, key: str, cards: Sequence[str], owner: str = "", size: int = 2, **fields: Any) -> Hand:
        """The `size` cards of `owner`'s hand in one line; `cards` are the deck's cards."""
        name = {c: self.voice.text(f"werewolf.cards.{c}") for c in cards}
        tokens = tuple(f"{a} {b}" for a in cards for b in cards) if size == 2 else tuple(cards)
        labels = {t: " ".join(name[c] for c in t.split()) for t in tokens}
        return Hand(key, self._line(key, fields), self.voice, self.words, tokens, labels, cards=tuple(cards),
                    size=size, owner=self.label(owner) if owner else "")

    def tally(self, shown: Counts, candidates: Sequence[str], most: int) -> Tally:
        """The whole tally read back for a yes (Enter), a no, or a fix."""
        tokens = ("yes", "no", *(fix_token(c, n) for c in candidates for n in range(most + 1)))
        labels = {"yes": self.voice.text("werewolf.vote.yes"), "no": self.voice.text("werewolf.vote.no"),
                  **{fix_token(c, n): f"{self.label(c)} {n}" for c in candidates for n in range(most + 1)}}
        prompt = tally_line(self.voice, shown, candidates)
        return Tally("werewolf.vote.readback", prompt, self.voice, self.words, tokens, labels, fallback=(True,),
                     shown=counts(shown), names=self.names(candidates), most=most)

    def fix(self, shown: Counts, candidates: Sequence[str], most: int, counted: bool = False) -> Tally:
        """Which count is wrong: a fix (or yes after all). Where the counts were `counted` with a
        total the vote cannot have (HW-R4), the question first says them all, none left out."""
        question = self.tally(shown, candidates, most)
        first = candidates[0]
        example: dict[str, Any] = {"name": self.label(first), "n": other_count(shown.get(first, 0))}
        key = "werewolf.vote.which"
        prompt = self.voice.line(key, **example)
        if counted:
            key = "werewolf.vote.which_counted"
            items = [self.voice.line("werewolf.vote.count_item", candidate=self.label(c), n=shown.get(c, 0))
                     for c in candidates]
            prompt = self.voice.line(key, counts=items, **example)
        return Tally(key, prompt, self.voice, self.words, question.answers[2:], question.labels,
                     shown=question.shown, names=question.names, most=most)

    def roster(self, key: str, choices: Sequence[str], **fields: Any) -> Roster:
        labels = {c: self.label(c) for c in choices} | {NONE: self.voice.text("werewolf.reveal.none")}
        return Roster(key, self._line(key, fields), self.voice, self.words, (*choices, NONE), labels,
                      names=self.names(choices))
