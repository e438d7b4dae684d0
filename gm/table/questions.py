"""The conversation with the table: the night's questions, built in its language (pure).

`Table` builds each question with its own answer type; the askers (the keyboard, the voice)
read replies with the question's own parser (`gm.table.asked.Asked.parse`). The kinds, by family:

    asked.py     Proceed  a step that goes on ("done", Enter, or the timeout)       → Done.DONE
                 YesNo    yes / no (y, はい, 네 …)                                    → bool
    counting.py  Count    how many point at one candidate, 0..high; "Aki 3 Ken 1" or
                          "3 1 0" (this candidate and the next) say several at once  → Counts
                 Tally    a whole tally read back: yes, no, or a fix ("Aki 2")      → True | False | Counts
    picks.py     Choice   one of a closed set of tokens (resume / vote now / quit)   → the token
                 Pick     one player, the graveyard, or nobody                       → name | None
                 Roster   some players in one line ("Aki Ken", "none")               → tuple of names
    cards.py     WhichCard one card of the deck                                      → Card
                 Hand     the cards of one hand in one line ("werewolf villager")   → tuple of Cards

Counts said by name ("Aki 3, Ken 1") are read in `pairs.py`. Audio edges stay in `gm.hearing`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping, Sequence

from gm.ports import Line, fix_token
from gm.text.words import Names, Words
from gm.text.lines import Pack
from gm.table.asked import NONE, Done, Proceed, YesNo
from gm.table.cards import Hand, WhichCard
from gm.table.counting import ONE_BREATH_AT_COUNT, Count, Tally, labeller, other_count, tally_line, votes_line
from gm.table.pairs import Counts, counts
from gm.table.picks import Choice, Pick, Roster
from scorer.werewolf.cards import Card


@dataclass(frozen=True)
class Counting:
    """Where a vote's counting stands when a count is asked (HW-R4): its candidates, the votes
    counted before, and the totals the whole vote can have (None: whatever the counts make)."""

    candidates: tuple[str, ...]
    counted: int = 0
    bounds: tuple[int, int] | None = None


class Table:
    """Builds the night's questions in its language, with its players (and their readings)."""

    def __init__(self, pack: Pack, players: Sequence[str] = ()) -> None:
        self.pack = pack
        self.players = tuple(players)
        self.words = Words.of(pack)
        self.readings = {p: pack.readings[p] for p in self.players if p in pack.readings}
        self.one_breath = pack.lang in ONE_BREATH_AT_COUNT  # a count question hears "Aki three, Ken one"

    def label(self, candidate: str) -> str:
        return labeller(self.pack)(candidate)

    def names(self, choices: Sequence[str]) -> Names:
        return Names.of(choices, self.readings, self.words, {c: self.label(c) for c in choices})

    def _line(self, key: str, fields: dict[str, Any]) -> Line:
        return self.pack.line(key, **fields)

    def step(self, key: str, timeout: float | None = None, **fields: Any) -> Proceed:
        return Proceed(key, self._line(key, fields), self.pack, self.words, (Done.DONE.value,),
                    {Done.DONE.value: self.pack.text("werewolf.done")}, timeout, (Done.DONE,))

    def yes_no(self, key: str, default: bool | None = None, **fields: Any) -> YesNo:
        labels = {"yes": self.pack.text("common.yes"), "no": self.pack.text("common.no")}
        return YesNo(key, self._line(key, fields), self.pack, self.words, ("yes", "no"), labels,
                     fallback=() if default is None else (default,))

    def count(self, unknown: Sequence[str], left: int, vote: Counting | None = None, by_name: bool = False,
              first: bool = True, later: bool = False) -> Count:
        """How many point at the first of `unknown` (the candidates not counted yet, in order), at
        most the `left` votes still to count; the rest of `unknown` may be given in the same line.
        The `vote`'s candidates may be named with counts (heard too where `by_name`: "Aki three,
        Ken one"), with its votes counted before and the totals it can have (HW-R4). The `first`
        count of a round is asked in full ("How many votes for Aki?"), the next ones by name alone
        ("Ken?"). The last one asked of a vote whose total is exact (HW-R4: a standard 5- or
        6-player deck, a runoff) can only be what the total leaves: that is its default, taken
        when it cannot be heard. A count that may be asked `later` is put off when it cannot be
        heard (`Policy.later`), not typed."""
        candidate, following = unknown[0], tuple(unknown)
        vote = vote or Counting(following)
        key = "werewolf.vote.ask_count"
        line = self._line(key if first else "werewolf.vote.ask_next", {"candidate": self.label(candidate)})
        low, high = vote.bounds or (0, vote.counted + left)
        exact = vote.bounds is not None and low == high and len(following) == 1
        implied = high - vote.counted if exact else None
        tokens = tuple(str(n) for n in range(left + 1))
        fixes = {fix_token(c, n): f"{self.label(c)} {n}" for c in vote.candidates for n in range(left + 1)}
        if by_name:  # heard as a name then a number, one pair or several in one breath
            tokens += tuple(fixes)
        return Count(key, line, self.pack, self.words, tokens, fixes if by_name else {}, candidate=candidate,
                     high=left, following=following, names=self.names(vote.candidates), total=left,
                     counted=vote.counted, bounds=(low, high),
                     fallback=() if implied is None else (counts({candidate: implied}),),
                     implied=None if implied is None else self._line("werewolf.vote.implied", {
                         "candidate": self.label(candidate), "n": implied}),
                     later=self._line("werewolf.vote.later", {"candidate": self.label(candidate)}) if later else None)

    def votes(self, low: int, high: int) -> Line | int:
        """The totals a vote can have, as said (HW-R4)."""
        return votes_line(self.pack, low, high)

    def choice(self, key: str, answers: Sequence[str], labels: Mapping[str, str | Line] | None = None,
               default: str | None = None, timeout: float | None = None, confirm: bool = True,
               prompt: Line | None = None, **fields: Any) -> Choice:
        """One of `answers` (tokens, printed as `labels`), asked by the line `key` (or `prompt`).
        A label given as a pack line is also named by how it is said (投票 as とうひょう)."""
        texts = {a: label.text if isinstance(label, Line) else label for a, label in (labels or {}).items()}
        said = {a: label.spoken for a, label in (labels or {}).items() if isinstance(label, Line)}
        return Choice(key, prompt or self._line(key, fields), self.pack, self.words, tuple(answers),
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
             unlisted: Sequence[str] = (), none_is: str | None = None, **fields: Any) -> Pick:
        """One of `choices` (players, GRAVEYARD), or nobody (`none`, labelled by the line
        `nobody`) where `nobody` is given; `about` names whose answer it is in the read-back;
        `unlisted` choices are taken but not offered (the answers already rule them out); a "no"
        heard alone is `none_is`, read back for a yes (`Policy.nobody`)."""
        labels = {c: self.label(c) for c in choices}
        tokens = tuple(choices)
        if nobody:
            labels[NONE] = self.pack.text(nobody)
            tokens += (NONE,)
        return Pick(key, self._line(key, fields), self.pack, self.words, tokens, labels, nobody=bool(nobody),
                    names=self.names(choices), about=about, unlisted=tuple(unlisted), none_is=none_is)

    def card(self, key: str, cards: Sequence[Card], owner: str = "", **fields: Any) -> WhichCard:
        labels: dict[str, str] = {c: self.pack.text(f"werewolf.cards.{c}") for c in cards}
        return WhichCard(key, self._line(key, fields), self.pack, self.words, tuple(cards), labels,
                         owner=self.label(owner) if owner else "")

    def hand(self, key: str, cards: Sequence[Card], owner: str = "", size: int = 2,
             doubles: Sequence[Card] | None = None, **fields: Any) -> Hand:
        """The `size` cards of `owner`'s hand in one line; `cards` are the deck's cards, `doubles`
        those it holds two of (None: any): a hand of one card twice is an answer only for those."""
        name: dict[str, str] = {c: self.pack.text(f"werewolf.cards.{c}") for c in cards}
        tokens = tuple(f"{a} {b}" for a in cards for b in cards if a != b or doubles is None or a in doubles) \
            if size == 2 else tuple(cards)
        labels = {t: " ".join(name[c] for c in t.split()) for t in tokens}
        return Hand(key, self._line(key, fields), self.pack, self.words, tokens, labels, cards=tuple(cards),
                    size=size, owner=self.label(owner) if owner else "",
                    doubles=None if doubles is None else tuple(doubles))

    def tally(self, shown: Counts, candidates: Sequence[str], most: int) -> Tally:
        """The whole tally read back for a yes (Enter), a no, or a fix."""
        tokens = ("yes", "no", *(fix_token(c, n) for c in candidates for n in range(most + 1)))
        labels = {"yes": self.pack.text("werewolf.vote.yes"), "no": self.pack.text("werewolf.vote.no"),
                  **{fix_token(c, n): f"{self.label(c)} {n}" for c in candidates for n in range(most + 1)}}
        prompt = tally_line(self.pack, shown, candidates)
        return Tally("werewolf.vote.readback", prompt, self.pack, self.words, tokens, labels, fallback=(True,),
                     shown=counts(shown), names=self.names(candidates), most=most)

    def fix(self, shown: Counts, candidates: Sequence[str], most: int, counted: bool = False) -> Tally:
        """Which count is wrong: a fix (or yes after all). Where the counts were `counted` with a
        total the vote cannot have (HW-R4), the question first says them all, none left out."""
        question = self.tally(shown, candidates, most)
        first = candidates[0]
        example: dict[str, Any] = {"name": self.label(first), "n": other_count(shown.get(first, 0))}
        key = "werewolf.vote.which"
        prompt = self.pack.line(key, **example)
        if counted:
            key = "werewolf.vote.which_counted"
            items = [self.pack.line("werewolf.vote.count_item", candidate=self.label(c), n=shown.get(c, 0))
                     for c in candidates]
            prompt = self.pack.line(key, counts=items, **example)
        return Tally(key, prompt, self.pack, self.words, question.answers[2:], question.labels,
                     shown=question.shown, names=question.names, most=most)

    def roster(self, key: str, choices: Sequence[str], **fields: Any) -> Roster:
        labels = {c: self.label(c) for c in choices} | {NONE: self.pack.text("werewolf.reveal.none")}
        return Roster(key, self._line(key, fields), self.pack, self.words, (*choices, NONE), labels,
                      names=self.names(choices))
