"""What a spoken answer may say, and whether a recogniser result names one (pure).

A `gm.text.vocabulary.Vocabulary` maps answer ids ("yes", "no", "graveyard", "0".."6", command
names, "wake") to the phrases players say for them (`[listen.hear]` of each voice pack).
A `Phrasebook` is the closed set of phrases of one question: it makes the recogniser's grammar
and validates its results. The grammar can say no: besides the question's own phrases it holds
every other phrase of the voice pack (yes and no, every number, the wake commands, every player
at the table, the graveyard, the cards: `other_phrases`) and the decoy words (`gm.text.decoys`),
so whatever else is said lands on something that is no answer of this question. A grammar does
not force the recogniser to say one of its phrases, so every result is checked here: the whole
utterance must be one phrase of this question, every word heard with at least the confidence
asked for; "[unk]", a decoy word or another phrase makes it no answer. Nothing is built from
parts: words are never dropped to make a phrase. A near miss of one whole phrase is matched
with rapidfuzz, only when it holds nothing but that answer's words and nothing else is as near.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz, process

from gm.ports import Command, Kind, Question, Slot, fix_of
from gm.text.parse import fold, norm
from gm.text.vocabulary import Vocabulary

UNK = "[unk]"
WAKE = "wake"  # the answer id of the wake phrase ("game master"), which starts every voice command
PLAYER = "player"  # what a player's name is among a book's other phrases
COMMANDS = (Command.PAUSE, Command.RESUME, Command.ADD_MINUTE, Command.END, Command.REPEAT)
"""The commands that can be said: one more minute (the keyboard's "+" adds 30 seconds), and
"vote now" (END), which is read back for a yes."""

NEAR_MISS = 80.0  # rapidfuzz ratio a near miss needs to count as a phrase
ALIKE = 70.0  # rapidfuzz ratio from which two names are too alike to tell apart


DONE = "done"  # the `[listen.hear]` entry of a step's one answer


@dataclass(frozen=True)
class Heard:
    """One final recogniser result: its text and each word's confidence (1.0 when not given)."""

    text: str
    words: tuple[tuple[str, float], ...] = ()

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> Heard:
        """From vosk's JSON result ({"text": ..., "result": [{"word", "conf"}, ...]})."""
        text = norm(str(result.get("text", "")))
        words = tuple((norm(w["word"]), float(w.get("conf", 1.0))) for w in result.get("result", ()))
        if not words:
            words = tuple((w, 1.0) for w in text.split())
        return cls(text, words)

    def sure(self, min_confidence: float) -> bool:
        """Whether every word was heard with at least `min_confidence`."""
        return self.least() >= min_confidence

    def least(self) -> float:
        """The confidence of the least sure word (1.0 when nothing was heard)."""
        return min((c for _, c in self.words), default=1.0)


@dataclass(frozen=True)
class Phrasebook:
    """The phrases one question can be answered with, each mapped to its answer; the other
    phrases of the table (phrase → what it is: an answer id, "player", "card", or WAKE) and
    the decoy words that catch whatever else is said. A phrase of the question is never one of
    its others."""

    phrases: Mapping[str, str]
    min_confidence: float = 0.6
    unk: bool = False  # whether the model has "[unk]" (then it goes into the grammar)
    near_miss: float = NEAR_MISS  # rapidfuzz ratio from which a near miss counts
    decoys: tuple[str, ...] = ()
    others: Mapping[str, str] = field(default_factory=dict)
    kept: tuple[str, ...] = ()
    """Decoys kept in the grammar even where they sound near an answer (the pack's own, and those
    of the question's kind of answer): each is there because the model cannot tell it from one."""
    names: frozenset[str] = frozenset()
    """The phrases that name a player by name: taken only heard at least `name_confidence` sure."""
    name_confidence: float = 0.9
    context: str = ""
    """What gm has just said to the table (the question or read-back): a listener that conditions
    on what came before (Whisper's previous text) hears the answers it asks for more surely."""
    added: frozenset[str] = frozenset()
    """Phrases taken besides those asked for (`with_phrases`: a read-back's corrections)."""
    twice: frozenset[str] = frozenset()
    """Phrases that answer only when heard at two tries, however surely (another answer's words
    that say this one too: a step's "yeah", `said_as_phrases`)."""

    def __post_init__(self) -> None:
        if any(p in self.phrases for p in self.others):
            object.__setattr__(self, "others", {p: k for p, k in self.others.items() if p not in self.phrases})

    def answer_words(self) -> set[str]:
        return {w for p in self.phrases for w in p.split()}

    def decoy_words(self) -> tuple[str, ...]:
        """The decoys that are no word of any phrase here (a decoy never takes an answer's word)."""
        words = self.answer_words()
        return tuple(d for d in self.decoys if d not in words and d not in self.others)

    def grammar_phrases(self) -> list[str]:
        """Every phrase the recogniser may say: the answers', the others', the decoys, and
        "[unk]" where the model has it."""
        return list(self.phrases) + list(self.others) + list(self.decoy_words()) + ([UNK] if self.unk else [])

    def grammar(self) -> str:
        """The vosk grammar: `grammar_phrases` as a JSON list."""
        return json.dumps(self.grammar_phrases(), ensure_ascii=False)

    def only(self, hearable: Callable[[str], bool]) -> Phrasebook:
        """Without the phrases and decoys holding a word the model cannot hear (vosk drops them)."""
        def heard(phrase: str) -> bool:
            return all(hearable(w) for w in phrase.split())

        return replace(self, phrases={p: a for p, a in self.phrases.items() if heard(p)},
                       others={p: k for p, k in self.others.items() if heard(p)},
                       decoys=tuple(d for d in self.decoys if hearable(d)),
                       kept=tuple(d for d in self.kept if hearable(d)))

    def with_phrases(self, phrases: Mapping[str, str]) -> Phrasebook:
        """This book with more phrases (those already here keep their answer); they stop being others."""
        return replace(self, phrases={**phrases, **self.phrases},
                       added=self.added | frozenset(p for p in phrases if p not in self.phrases))

    def asked(self) -> frozenset[str]:
        """The phrases of the answers asked for: all but those `added`."""
        return frozenset(self.phrases) - self.added

    def passed_over(self, heard: Heard) -> bool:
        """Whether `heard` starts with the wake phrase: said to the game master, never an answer
        to a question (a command left over from the discussion is passed over, not a reply)."""
        if heard.text in self.phrases:
            return False  # a command, to the book of commands
        wakes = [p for p, kind in self.others.items() if kind == WAKE]
        return any(heard.text == w or heard.text.startswith(f"{w} ") for w in wakes)

    def echoes(self, heard: Heard) -> bool:
        """Whether `heard` is nothing but the last word of `context` ("right" after "…, nobody else.
        Right?"): Whisper, told a short line, writes it readily: told "Right?", it wrote the table's
        no, nah and nope as "right", sure, 7 times in 30 in clean and noisy rooms, and yep, yeah and
        sure 8 times in 40 (bench/noisy_answers_bench.py --seed 5101 and 5102; told the whole tally,
        0 in 30). Such a hearing is never sure (`gm.hearing.asking.said_value`)."""
        words = re.findall(r"\w+", fold(self.context))
        return bool(words) and fold(heard.text) == words[-1]

    def match(self, heard: Heard) -> str | None:
        """The answer `heard` names, or None: nothing said, a word heard unsure (a player's name
        less than `name_confidence` sure), "[unk]", a decoy or another phrase of the table, or no
        phrase of this question that the whole utterance is (or nearly is, for one answer alone
        and nothing else as near)."""
        said = heard.text
        words = said.split()
        if not words or not heard.sure(self.min_confidence) or self._unsure_name(heard, words) \
                or self._noise(words):
            return None
        if said in self.phrases:
            return self.phrases[said]
        return None if said in self.others else self._near(said, words)

    def _noise(self, words: Sequence[str]) -> bool:
        """Whether a word heard is "[unk]" or a decoy."""
        return UNK in words or bool(set(words) & set(self.decoy_words()))

    def _unsure_name(self, heard: Heard, words: Sequence[str]) -> bool:
        """Whether `heard` names a player by name less than `name_confidence` sure."""
        return bool(set(words) & {w for n in self.names for w in n.split()}) and not heard.sure(self.name_confidence)

    def _near(self, said: str, words: Sequence[str]) -> str | None:
        """The one answer `said` is a near miss of, holding nothing but that answer's words."""
        near = process.extract(said, [*self.phrases, *self.others], scorer=fuzz.ratio, limit=None,
                               score_cutoff=self.near_miss)
        answers = {self.phrases.get(p) for p, _, _ in near}
        if len(answers) != 1 or None in answers:
            return None  # nothing near, near another phrase, or near more than one answer: never guess
        answer = answers.pop()
        own = {w for p, a in self.phrases.items() if a == answer for w in p.split()}
        return answer if answer is not None and set(words) <= own else None

    def run_phrases(self) -> tuple[str, ...]:
        """The phrases that may follow one another in one breath: those that set one count."""
        return tuple(p for p, a in self.phrases.items() if fix_of(a) is not None)

    def match_run(self, heard: Heard) -> tuple[str, ...] | None:
        """The counts `heard` sets one after another in one breath ("aki three ken one" →
        ("Aki=3", "Ken=1")): the whole utterance read as two or more whole phrases of this book
        that each set one count (`correction`), in exactly one way, every word heard with the
        confidence asked for, nothing else in it ("[unk]", a decoy, another phrase); else None."""
        words = heard.text.split()
        if len(words) < 2 or not heard.sure(self.min_confidence) or self._noise(words):
            return None
        pairs = {tuple(p.split()): self.phrases[p] for p in self.run_phrases()}
        found = {run for run in _runs(words, pairs) if len(run) >= 2}
        return found.pop() if len(found) == 1 else None


def _runs(words: Sequence[str], pairs: Mapping[tuple[str, ...], str]) -> set[tuple[str, ...]]:
    """Every way `words` read as whole phrases of `pairs` (words → answer), one after another."""
    longest = max(map(len, pairs), default=0)
    runs: list[set[tuple[str, ...]]] = [set() for _ in words] + [{()}]
    for at in range(len(words) - 1, -1, -1):
        for size in range(1, min(longest, len(words) - at) + 1):
            answer = pairs.get(tuple(words[at:at + size]))
            if answer is not None:
                runs[at] |= {(answer, *rest) for rest in runs[at + size]}
    return runs[0]


def question_phrases(question: Question[Any], vocabulary: Vocabulary, spoken: Callable[[str], str],
                     seats: Sequence[str] = (), numbered: Collection[str] = ()) -> dict[str, str]:
    """Phrase → answer token for `question` (`slot_phrases` of its slots)."""
    return slot_phrases(question.slots, question.label, vocabulary, spoken, seats, numbered)


def slot_phrases(slots: Sequence[Slot[Any]], label: Callable[[str], str], vocabulary: Vocabulary,
                 spoken: Callable[[str], str], seats: Sequence[str] = (),
                 numbered: Collection[str] = ()) -> dict[str, str]:
    """Phrase → answer token for `slots`: the vocabulary's phrases for known answer ids, each
    answer's `label`, its spoken reading, the vocabulary's phrases of the answers a slot is
    `said_as` (a step's "done" said "yeah"), and the answer itself where it is a number or the
    vocabulary has no phrases for it (a player): an id the pack says in its own words ("yes",
    "done") is no phrase of a Japanese table, and Whisper wrote Kokoro's いえ as "yes"; a fix
    ("Aki=2") as each way of naming the candidate followed by each way of saying the number;
    when no slot is a number, the seat number (`seats`, in seating order) of each player the
    table was told to call by it (`numbered`), and no other: a table names its players, and a
    seat number for every player took names of people not at the table ("oliver" as "one",
    "lucy" as "two"). A phrase that is one of the pack's own decoys (`[listen.hear] decoy`) is no
    answer by itself, only as a word of a longer phrase: the Korean 영 is typed as 0, and "지훈 영"
    sets a count, but the model hears 여섯 and 학교 as 영 alone."""
    def forms(answer: str) -> list[str]:
        shown = label(answer)
        said = vocabulary.phrases(answer)
        own = (answer, spoken(answer)) if answer.isdigit() or not said else ()
        return [p for p in map(norm, (*said, shown, spoken(shown), *own)) if p]

    phrases: dict[str, str] = {}
    for slot in slots:
        for phrase in _said(slot, forms):
            phrases.setdefault(phrase, slot.token)
    for phrase, token in said_as_phrases(slots, vocabulary).items():
        phrases.setdefault(phrase, token)
    if not any(slot.kind == Kind.NUMBER for slot in slots):
        for phrase, name in _seat_numbers({slot.token for slot in slots}, vocabulary, seats, numbered):
            phrases.setdefault(phrase, name)
    never = vocabulary.decoys_of(())
    return {phrase: answer for phrase, answer in phrases.items() if phrase not in never}


def said_as_phrases(slots: Sequence[Slot[Any]], vocabulary: Vocabulary) -> dict[str, str]:
    """Phrase → answer token for the answers each of `slots` is `said_as` (a step's "done" said "yeah")."""
    return {phrase: slot.token for slot in slots for token in slot.said_as
            for phrase in map(norm, vocabulary.phrases(token)) if phrase}


def _seat_numbers(tokens: Collection[str], vocabulary: Vocabulary, seats: Sequence[str],
                  numbered: Collection[str]) -> Iterator[tuple[str, str]]:
    """(phrase, player) for the seat number of each player among `tokens` the table was told to
    call by it."""
    for seat, name in enumerate(seats, start=1):
        if name in tokens and name in numbered:
            for phrase in vocabulary.phrases(str(seat)):
                yield phrase, name


def _said(slot: Slot[Any], forms: Callable[[str], list[str]]) -> Iterator[str]:
    """The phrases that say one slot: a fix as each form of its candidate then each of its number."""
    if slot.kind != Kind.FIX:
        yield from forms(slot.token)
        return
    for name in dict.fromkeys(forms(slot.who)):
        for number in dict.fromkeys(forms(str(slot.n))):
            yield f"{name} {number}"


def other_phrases(vocabulary: Vocabulary, spoken: Callable[[str], str] = lambda n: n,
                  seats: Sequence[str] = ()) -> dict[str, str]:
    """Every phrase said at the table, whatever the question, → what it is: each `[listen.hear]`
    phrase (→ its answer id), every player at the table (`seats`, as written and as spoken →
    "player") and every card (→ "card"). A question's book holds those that do not answer it, so
    that they are heard as no answer. Of the voice commands only the wake phrase is one (→ WAKE):
    a grammar lets the recogniser say any of its words alone, and the commands' words took
    answers (the Korean model heard 맞아 as 멈춰); a command said at a question is heard as
    starting with the wake phrase, and passed over (`Phrasebook.passed_over`). Nor is a step's
    "done" (said only at a step): the Korean 됐어요 and 했어요 took 없어요 (0) at a count."""
    others: dict[str, str] = {}
    for answer, phrases in vocabulary.hear.items():
        if answer in COMMANDS or answer == DONE:
            continue
        for phrase in phrases:
            others.setdefault(phrase, answer)
    for name in seats:
        for phrase in (norm(name), norm(spoken(name))):
            if phrase:
                others.setdefault(phrase, PLAYER)
    for card in vocabulary.cards:
        others.setdefault(card, "card")
    return others


def command_phrases(vocabulary: Vocabulary) -> dict[str, str]:
    """Phrase → command, each phrase starting with (one form of) the wake phrase."""
    return {f"{wake} {phrase}": command for command in COMMANDS
            for phrase in vocabulary.phrases(command) for wake in vocabulary.phrases("wake")}


def unhearable(names: Iterable[str], hearable: Callable[[str], bool],
               spellings: Callable[[str], Iterable[str]]) -> list[str]:
    """The names none of whose spellings the model can hear, word by word."""
    return [name for name in names
            if not any(p.split() and all(hearable(w) for w in p.split()) for p in map(norm, spellings(name)))]


def numbered(seats: Sequence[str], hearable: Callable[[str], bool], spoken: Callable[[str], str]) -> tuple[str, ...]:
    """The players (of `seats`) the table is told to call by seat number (`listen.unhearable`,
    `listen.alike`): those whose name the model cannot hear and those whose names sound alike."""
    lost = unhearable(seats, hearable, lambda name: (name, spoken(name)))
    pairs = alike([name for name in seats if name not in lost], spoken)
    return tuple(name for name in seats if name in lost or any(name in pair for pair in pairs))


def like_a_name(word: str, names: Iterable[str], spoken: Callable[[str], str] = lambda n: n) -> bool:
    """Whether `word` sounds like one of `names` (by their spoken forms, letter by letter: Hangul
    syllables are compared by their jamo, so 재윤 is like 재원)."""
    said = unicodedata.normalize("NFD", norm(word))
    return any(fuzz.ratio(said, unicodedata.normalize("NFD", norm(spoken(n)))) >= ALIKE for n in names)


def alike(names: Sequence[str], spoken: Callable[[str], str] = lambda n: n) -> list[tuple[str, str]]:
    """Pairs of names that sound too alike to tell apart (by their spoken forms)."""
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if fuzz.ratio(norm(spoken(a)), norm(spoken(b))) >= ALIKE:
                pairs.append((a, b))
    return pairs

