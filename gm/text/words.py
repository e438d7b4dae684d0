"""The words a table answers with, read the way people write them (pure).

Everything typed or heard is folded first (`fold`): NFKC (full-width ３ and ｇｒａｖｅ become
3 and grave), case, katakana as hiragana. Numbers are digits or the voice pack's number words
(`[listen.hear]`: two, に, 二, 둘, 한 표); yes and no are the pack's words and y/n; card
names are every pack's names and kana readings; players are named by their name, their
reading (健=けん), its romaji, or a prefix only one of them starts with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from gm.text.lines import Pack
from gm.text.numbers import number_words, said_number
from gm.text.parse import fold as fold, tight as tight  # how every reply is compared, named here too
from scorer.werewolf.cards import ALIASES, CARD_IDS, Card, parse_card
from scorer.werewolf.tally import GRAVEYARD

_SEPARATORS = re.compile(r"[\s,、，=:：;；・/]+")
_GLUED = re.compile(r"^(\D+?)(\d+)$")  # ken1, けん2
T = TypeVar("T")
LONGEST = 3  # words a name, card or number phrase may span ("the graveyard", "grim reaper", "한 표")


def words_of(text: str) -> list[str]:
    """The words of a reply: split at spaces, commas (, 、), =, colons; a trailing number cut
    off a word ("ken1" → ken 1)."""
    out: list[str] = []
    for word in _SEPARATORS.split(fold(text)):
        if not word:
            continue
        glued = _GLUED.match(word)
        if glued and not glued.group(1).endswith(("-", "_")):
            out.extend(glued.groups())
        else:
            out.append(word)
    return out


@dataclass(frozen=True)
class Words:
    """The answer words of one night's language, folded: numbers, yes/no, done, none, the
    graveyard, and card names of every language."""

    lang: str
    numbers: Mapping[str, int]
    yes: frozenset[str]
    no: frozenset[str]
    done: frozenset[str]
    nobody: frozenset[str]
    graveyard: frozenset[str]
    cards: Mapping[str, Card]  # tight name → card

    @classmethod
    def of(cls, pack: Pack) -> Words:
        from gm.text.vocabulary import Vocabulary
        from gm.text.names import card_names, graveyard_names

        hear = Vocabulary.from_pack(pack)
        numbers = number_words(hear.hear)
        cards = {tight(name): parse_card(card) for name, card in {**card_names(), **ALIASES}.items()}
        cards.update({tight(card): card for card in CARD_IDS})

        def said(*keys: str) -> frozenset[str]:
            return frozenset(fold(pack.text(k)) for k in keys)

        return cls(
            lang=pack.lang,
            numbers=numbers,
            yes=frozenset(map(fold, hear.phrases("yes"))) | said("common.yes", "werewolf.vote.yes") | {"y", "yes"},
            no=frozenset(map(fold, hear.phrases("no"))) | said("common.no", "werewolf.vote.no") | {"n", "no"},
            done=frozenset(map(fold, hear.phrases("done"))) | said("werewolf.done") | {"done", "d"},
            nobody=said("werewolf.reveal.none", "werewolf.vote.abstain") | {"none", "nobody"},
            graveyard=frozenset(map(fold, [*hear.phrases("graveyard"), *graveyard_names()])) | {GRAVEYARD},
            cards=cards,
        )

    def answer_words(self) -> frozenset[str]:
        """Every word that answers something by itself, but the one-letter keys (y, n, d): no
        player may be named so (a player named D is still named exactly)."""
        words = self.yes | self.no | self.done | self.nobody | self.graveyard | frozenset(self.numbers)
        return frozenset(w for w in words if len(w) > 1 or not w.isascii())

    def number(self, words: Sequence[str]) -> int | None:
        """The number `words` say: digits (with a counter: 3票, 3 votes) or a number word."""
        return said_number(words, self.numbers)

    def card(self, words: Sequence[str]) -> Card | None:
        return self.cards.get(tight(" ".join(words)))


@dataclass(frozen=True)
class Names:
    """Who a word names: each choice (a player, the graveyard) by its spellings, or by a
    prefix of one that no other choice's spelling starts with."""

    spellings: Mapping[str, str]  # folded spelling → choice

    @classmethod
    def of(cls, choices: Iterable[str], readings: Mapping[str, str], words: Words,
           labels: Mapping[str, str] | None = None) -> Names:
        from gm.text import kana

        spellings: dict[str, str] = {}
        for choice in choices:
            forms = [choice, (labels or {}).get(choice, choice)]
            if choice == GRAVEYARD:
                forms += list(words.graveyard)
            reading = readings.get(choice)
            if reading:
                forms += [reading, kana.romaji(reading)]
            for form in forms:
                spellings.setdefault(fold(form), choice)
                spellings.setdefault(tight(form), choice)
        return cls(spellings)

    def exact(self, words: Sequence[str]) -> str | None:
        text = " ".join(words)
        return self.spellings.get(text, self.spellings.get(text.replace(" ", "")))

    def name(self, words: Sequence[str], others: Iterable[str] = ()) -> str | None:
        """The choice `words` name exactly, else the one choice a prefix names; `others` are
        further answer words a prefix must not start either ("n" is no and none)."""
        exact = self.exact(words)
        if exact is not None:
            return exact
        text = " ".join(words)
        if not text or any(o.startswith(text) for o in others):
            return None
        hits = {choice for spelling, choice in self.spellings.items() if spelling.startswith(text)}
        return hits.pop() if len(hits) == 1 else None


def segment(words: Sequence[str], read: Callable[[Sequence[str]], T | None]) -> list[T] | None:
    """`words` read as a sequence of items, each the longest run of up to LONGEST words that
    `read` reads (left to right); None when some word starts no item."""
    items: list[T] = []
    at = 0
    while at < len(words):
        for size in range(min(LONGEST, len(words) - at), 0, -1):
            item = read(words[at:at + size])
            if item is not None:
                items.append(item)
                at += size
                break
        else:
            return None
    return items


def edits_allowed(said: str) -> int:
    """How many typing slips (a letter missed, added, changed or two swapped) a reply of this
    length may hold and still be taken for an answer: none below three Latin letters or two
    others (a kana or hangul letter carries more than a Latin one), then one, two past five, three
    past ten."""
    if len(said) < (3 if said.isascii() else 2):
        return 0
    return 1 if len(said) <= 5 else 2 if len(said) <= 10 else 3


def nearest(said: str, spellings: Mapping[str, T]) -> T | None:
    """The one answer (`spellings`: folded spelling → answer) whose spelling `said` is fewest
    slips from (`edits_allowed`), or None when none is so near or several answers are as near
    (but one of them starts with the letter `said` starts with)."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    allowed = edits_allowed(said)
    if not allowed or said in spellings:
        return None
    hits = process.extract(said, list(spellings), scorer=OSA.distance, score_cutoff=allowed, limit=None)
    if not hits:
        return None
    best = min(d for _, d, _ in hits)
    found = {spellings[s] for s, d, _ in hits if d == best}
    if len(found) > 1:  # as near as each other: the one that starts as typed ("kne": Ken, not one)
        found = {spellings[s] for s, d, _ in hits if d == best and s[:1] == said[:1]}
    return found.pop() if len(found) == 1 else None
