"""The vote's questions: one candidate's count, and the whole tally read back for a yes or a fix (pure, HW-R4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Mapping, Sequence

from gm.ports import Kind, Line, Policy, Refused, Slot, fix_of
from gm.text.words import Names, fold, segment
from gm.text.lines import Pack
from gm.table.asked import Asked
from gm.table.pairs import ByName, Counts, counts, fixes_by_name, read_pairs
from scorer.werewolf.tally import GRAVEYARD


ONE_BREATH_AT_COUNT = frozenset({"en"})
"""Languages whose count questions hear the tally said by name ("Aki three, Ken one"); the
others hear it at the tally's confirmation only, and a count as a number (typed, a count takes
names in every language). Measured by bench/one_breath_bench.py: with names in its grammar the
Korean model heard 영 (0) as 묘지 없어요 (the graveyard 0), surely; pocketsphinx's English
single counts are heard alike with names or without. Japanese has no model here to measure."""


def votes_line(pack: Pack, low: int, high: int) -> Line | int:
    """The totals a vote can have (HW-R4): "3–4" (said "3 to 4"), or "4"."""
    return high if low == high else pack.line("werewolf.vote.range", low=low, high=high)


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
    later: Line | None = None  # "Back to Ken later.": said where the count is put off instead of typed

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
            return self.beyond(pairs)
        offered = self.offer(text, words)
        if offered is not None:
            return offered
        if len(words) == 1 and not any(c.isdigit() for c in words[0]):
            return self.refused("table.not_count", text=text, low=0, high=self.high)
        example = self.pack.text("table.fix_example", name=self.label(self.candidate), n=min(1, self.high))
        return self.refused("table.not_counts", text=text, low=0, high=self.high, example=example)

    def beyond(self, pairs: Counts) -> Refused:
        """Counts by name that make more than the vote can have: refused aloud, with the totals
        it can have (HW-R4)."""
        return Refused(self.pack.line("werewolf.vote.bad_fix", total=self.counted + sum(pairs.values()),
                                      votes=votes_line(self.pack, *self.bounds)), aloud=True)

    def together(self, slots: tuple[Slot[Counts], ...]) -> Counts | Refused:
        said = fixes_by_name(slots)
        if said is None:
            return super().together(slots)
        return said if sum(said.values()) <= self.total else self.beyond(said)

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
        return Policy(self.tries, count=self.candidate, implied=self.implied, later=self.later)

    def spellings(self) -> Mapping[str, str]:
        return {fold(a): a for a in self._numbers()}

    def parts(self) -> Mapping[str, str]:
        return {**{w: str(n) for w, n in self.words.numbers.items()}, **self.names.spellings}

    def part_label(self, token: str) -> str:
        return labeller(self.pack)(token)

    def choices(self) -> Line:
        return self.pack.line("table.choices", choices=list(self._numbers()))

    def _numbers(self) -> tuple[str, ...]:
        return tuple(a for a in self.answers if a.isdigit())

    def tip(self) -> str:
        if self.has_default:
            return self.pack.text("table.hint_count_implied", low=0, high=self.high, n=self.default[self.candidate])
        return self.pack.text("table.hint_count", low=0, high=self.high)


@dataclass(frozen=True)
class Tally(Asked["bool | Counts"]):
    """A whole tally read back (the prompt): yes (Enter), no, or a fix of one or more counts
    ("Aki 2", "Aki 2 Ken 1", typed Aki=2). `shown` is the tally as read; `doubted`, whether it
    holds a count heard unsure (its yes or fix is then taken only heard surely: `Policy.surely`)."""

    shown: Counts = field(default_factory=dict)
    names: Names = field(default=Names({}), repr=False, compare=False)
    most: int = 0  # most votes one candidate can have
    doubted: bool = False

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

    def together(self, slots: tuple[Slot[bool | Counts], ...]) -> bool | Counts | Refused:
        said = fixes_by_name(slots)
        return super().together(slots) if said is None else said

    def refusal(self, text: str, words: list[str]) -> Refused:
        return self.offer(text, words) or self.refused("table.not_fix", text=text, example=self.example())

    @property
    def policy(self) -> Policy:
        return Policy(self.tries, tally=True, surely=self.doubted)

    def parts(self) -> Mapping[str, str]:
        return {**{w: str(n) for w, n in self.words.numbers.items()}, **self.names.spellings}

    def part_label(self, token: str) -> str:
        return labeller(self.pack)(token)

    def example(self) -> str:
        first = next(iter(self.shown), "")
        return self.pack.text("table.fix_example", name=self.label(first), n=other_count(self.shown.get(first, 0)))

    def rest(self, words: list[str]) -> FixRest | None:
        """Where only fixes are asked (which count is wrong) and `words` name a candidate alone,
        that candidate's count, as a game master asks who caught only the name ("How many votes
        for Alice?"); its answer is the fix. Of 54 fixes not taken in noisy rooms, Whisper heard 8
        as the right name alone, at 0.62–0.97 ("Alice none" as "alice"; bench/noisy_answers_bench.py
        --kinds which, seeds 6314 and 6315)."""
        if {"yes", "no"} & set(self.answers):
            return None  # a read-back: a name alone says neither yes nor no
        whose = {answer: fix[0] for answer in self.answers if (fix := fix_of(answer)) is not None}
        who = self.names.exact(words)
        if who is None or who not in whose.values():
            return None
        prompt = self.pack.line("werewolf.vote.ask_count", candidate=labeller(self.pack)(who))
        numbers = tuple(str(n) for n in range(self.most + 1))
        fixes = tuple(answer for answer, named in whose.items() if named == who)  # "Alice none", said whole
        return FixRest(self.key, prompt, self.pack, self.words, (*numbers, *fixes), self.labels, tries=self.tries,
                       shown=self.shown, names=self.names, most=self.most, doubted=self.doubted, who=who)

    def readback(self, value: bool | Counts, sure: bool = True) -> Line | None:
        """None for a yes, a no or a fix heard surely; a fix heard unsure is read back as the
        tally it makes, never the tally before it (a reflexive yes confirms what was heard)."""
        if sure or isinstance(value, bool):
            return None
        return tally_line(self.pack, {**self.shown, **value}, list(self.shown))

    def show(self, value: bool | Counts) -> str:
        if isinstance(value, bool):
            return self.label("yes" if value else "no")
        return tally_line(self.pack, value, list(value)).text

    def tip(self) -> str:
        return self.pack.text("table.hint_tally", yes=self.label("yes"), example=self.example())


@dataclass(frozen=True)
class FixRest(Tally):
    """The count of `who`, whose name alone was heard where a fix was asked for (`Tally.rest`): a
    number, or the fix said whole ("Alice none"), whose value is the fix (`ByName`), read back as
    the tally it makes when heard unsure. Typed, a fix or a yes is taken as at the question it
    comes from."""

    who: str = ""

    def read(self, words: list[str]) -> bool | Counts | None:
        numbers = segment(words, self.words.number)
        if numbers is not None and len(numbers) == 1:
            return ByName({self.who: numbers[0]}) if numbers[0] <= self.most else None
        return super().read(words)

    def value_of(self, token: str, kind: Kind, who: str, n: int) -> bool | Counts | Refused:
        if kind == Kind.NUMBER and n <= self.most:
            return ByName({self.who: n})
        return super().value_of(token, kind, who, n)

    def rest(self, words: list[str]) -> None:
        return None  # a number makes the fix whole

    def tip(self) -> str:
        return self.pack.text("table.hint_count", low=0, high=self.most)


def other_count(n: int) -> int:
    """A count unlike `n`, for an example of a fix ("Aki 2" when Aki has 3)."""
    return n - 1 if n > 0 else 1


def tally_line(pack: Pack, tally: Counts, candidates: Sequence[str]) -> Line:
    """ "Aki 3, Ken 1, nobody else. Right?": the candidates with votes, then the rest as one."""
    label = labeller(pack)
    items = [pack.line("werewolf.vote.count_item", candidate=label(c), n=tally[c])
             for c in candidates if tally.get(c, 0)]
    rest = any(not tally.get(c, 0) for c in candidates)
    return pack.line("werewolf.vote.readback" if rest else "werewolf.vote.readback_all", counts=items)


def labeller(pack: Pack) -> Callable[[str], str]:
    """A candidate as said in `pack`: a player's name, or the graveyard in its language."""
    graveyard = pack.text("common.graveyard")
    return lambda c: graveyard if c == GRAVEYARD else c
