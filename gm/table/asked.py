"""What every question has (`Asked`), and the two simplest: a step that goes on and yes/no (pure).

Each kind knows its answers (the tokens a listener can hear, each labelled in the night's
language), reads a reply typed or heard into its value (one parser for both: `parse`), reads
a heard value back, names its refusal by a voice-pack key with fields, and lists its choices
for `?`."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from abc import ABC, abstractmethod
from collections.abc import Mapping

from gm.ports import Kind, Line, Policy, Refused, Slot, fix_of
from gm.files import printable
from gm.text.words import Words, fold, nearest, words_of
from gm.text.numbers import COUNTERS
from gm.text.lines import Pack
from gm.table.pairs import DIGIT_RUNS, PARTICLES
from scorer.values import Named

T = TypeVar("T")


class Done(Named):
    """The one answer of a step that goes on."""

    DONE = "done"


NONE = "none"  # the token of "nobody"


def loggable(value: object) -> object:
    """A value as the night log keeps it (JSON): counts as an object, hands as a list."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        return list(value)
    return value


@dataclass(frozen=True)
class Asked(ABC, Generic[T]):
    """What every question has: its key, the line that asks it, its tokens and labels, an
    optional default and timeout, and the night's words and lines to read replies with."""

    key: str
    prompt: Line
    pack: Pack = field(repr=False, compare=False)
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
        return Policy(self.tries, read_back=True)  # `readback`: every answer is read back for a yes

    def parse(self, text: str) -> T | Refused:
        words = words_of(text)
        if not words:
            return self.refused("table.empty")
        value = self.read(words)
        return self.refusal(printable(text), words) if value is None else value

    def together(self, slots: tuple[Slot[T], ...]) -> T | Refused:
        """Answers said one after another in one breath: none here (the vote's questions take
        fixes so: `gm.table.counting`)."""
        return self.refused("table.not_answer", text=" ".join(self.label(slot.token) for slot in slots))

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
                return Refused(self.pack.line("table.near", text=text, answer=self.label(whole)), value,
                               self.words.yes)
        parts = self.parts()
        runs = [run for word in words for run in ([word] if word in parts else DIGIT_RUNS.findall(word))]
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
                return Refused(self.pack.line("table.near", text=" ".join(s for s, _ in slips),
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
        return Refused(self.pack.line(key, **fields))

    def readback(self, value: T, sure: bool = True) -> Line | None:
        return self.pack.line("listen.confirm", answer=self.show(value))

    def rest(self, words: list[str]) -> Asked[T] | None:
        """No part of an answer here is asked for on its own (see `gm.table.cards.Hand.rest`)."""
        return None

    def show(self, value: T) -> str:
        """A value as printed in this language."""
        return self.label(str(value))

    def tip(self) -> str:
        return self.pack.text("table.hint_choose")

    def hint(self, left: float | None = None) -> str:
        """The tip shown at a typed prompt, with the seconds left (on the table's clock) when
        the question goes on by itself."""
        tip = self.tip()
        return tip if left is None else self.pack.text("table.countdown", tip=tip, secs=math.ceil(left))

    def choices(self) -> Line:
        return self.pack.line("table.choices", choices=[self.label(a) for a in self.answers])


@dataclass(frozen=True)
class Proceed(Asked[Done]):
    """A step that goes on: its one answer is "done", and a listener waits through silence and
    talk for it (the table is still at it). A step that goes on by itself (a timeout: the pass,
    the seer's look) takes the table's yes as its "done" too (`said_as`): told "Say done when
    passed.", a table says "yes" or "yeah" as readily, and Whisper wrote a table's "done" in a
    room of chatter 5 dB below it as yes, yeah or no (bench/table_nights_bench.py --seed 5006,
    nights 4, 9 and 14: "Sorry, I did not catch that." five times, then the step went on by
    itself). Typed, a yes is taken at once; heard, at two tries (`Phrasebook.twice`: chatter is
    heard as yes too). The deal, which waits as long as it takes while the table talks, takes
    "done" alone: a "yeah" in that talk would start the morning mid-deal."""

    def read(self, words: list[str]) -> Done | None:
        said = " ".join(words)
        return Done.DONE if said in self.words.done or self.said_as and said in self.words.yes else None

    @property
    def said_as(self) -> tuple[str, ...]:
        """The answers whose words say "done" too: yes, at a step that goes on by itself."""
        return ("yes",) if self.timeout is not None else ()

    def slot(self, token: str) -> Slot[Done]:
        return Slot(token, Kind.DONE, self.parse(token), said_as=self.said_as)

    @property
    def policy(self) -> Policy:
        return Policy(self.tries, waits=True)

    def readback(self, value: Done, sure: bool = True) -> Line | None:
        return None

    def near(self, said: str) -> str | None:
        return None

    def tip(self) -> str:
        return self.pack.text("table.hint_done")


@dataclass(frozen=True)
class YesNo(Asked[bool]):
    def read(self, words: list[str]) -> bool | None:
        said = " ".join(words)
        if said in self.words.yes:
            return True
        return False if said in self.words.no else None

    @property
    def policy(self) -> Policy:
        return Policy(self.tries, surely=True)  # a no heard surely is taken as it is, a yes at SURE_YES

    def readback(self, value: bool, sure: bool = True) -> Line | None:
        return None if sure else self.pack.line("listen.confirm", answer=self.show(value))

    def show(self, value: bool) -> str:
        return self.label("yes" if value else "no")

    def tip(self) -> str:
        return self.pack.text("table.hint_yes_no", yes=self.label("yes"), no=self.label("no"))


def _word(run: str) -> bool:
    """Whether a piece of a reply is a word one can name back (letters, nothing unprintable)."""
    return run.isprintable() and any(c.isalpha() for c in run)


def _as_typed(run: str, text: str) -> str:
    """A folded word of a reply as it was typed ("kne" in "Aki 2, Kne 2" → Kne), where found."""
    found = re.search(re.escape(run), text, re.IGNORECASE)
    return printable(found.group() if found else run)
