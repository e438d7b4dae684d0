"""What a spoken answer may say, and whether a recogniser result names one (pure).

A `Vocabulary` maps answer ids ("yes", "no", "graveyard", "0".."6", command names, "wake")
to the phrases players say for them; the voice packs hold one per language (`[listen.hear]`).
A `Phrasebook` is the closed set of phrases of one question: it makes the recogniser's grammar
and validates its results. A grammar does not force vosk to say one of its phrases, so every
result is checked here: "[unk]" and low-confidence words are rejected, near misses are matched
with rapidfuzz.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Sequence

from rapidfuzz import fuzz, process

from gm.ports import Question

UNK = "[unk]"
COMMANDS = ("pause", "resume", "add_minute", "end", "repeat")
"""Voice commands and the Controls command each one is: "add_minute" adds a whole minute
(the keyboard's "add" adds 30 seconds); "end" is "vote now"."""

NEAR_MISS = 80.0  # rapidfuzz ratio a near miss needs to count as a phrase
AMBIGUOUS = 5.0  # a near miss must beat the nearest other answer by this much
ALIKE = 70.0  # rapidfuzz ratio from which two names are too alike to tell apart


def norm(text: str) -> str:
    return " ".join(text.casefold().split())


def split_phrases(entry: str) -> tuple[str, ...]:
    """ "yes, yeah" or "はい、ええ" → ("yes", "yeah") / ("はい", "ええ")."""
    return tuple(p for p in (norm(x) for x in entry.replace("、", ",").split(",")) if p)


@dataclass(frozen=True)
class Vocabulary:
    """Answer id → the phrases that say it, for one language and one speech model."""

    hear: Mapping[str, tuple[str, ...]]

    @classmethod
    def from_voice(cls, voice) -> Vocabulary:
        """The `[listen.hear]` table of a voice pack: printed forms and kana readings alike."""
        hear: dict[str, tuple[str, ...]] = {}
        for key, entry in voice.entry("listen.hear").items():
            forms = [entry["text"], entry.get("kana", "")] if isinstance(entry, dict) else [entry]
            hear[key] = tuple(dict.fromkeys(p for f in forms for p in split_phrases(f)))
        return cls(hear)

    def phrases(self, answer_id: str) -> tuple[str, ...]:
        return self.hear.get(answer_id, ())


@dataclass(frozen=True)
class Heard:
    """One final recogniser result: its text and each word's confidence (1.0 when not given)."""

    text: str
    words: tuple[tuple[str, float], ...] = ()

    @classmethod
    def from_result(cls, result: Mapping) -> Heard:
        """From vosk's JSON result ({"text": ..., "result": [{"word", "conf"}, ...]})."""
        text = norm(str(result.get("text", "")))
        words = tuple((norm(w["word"]), float(w.get("conf", 1.0))) for w in result.get("result", ()))
        if not words:
            words = tuple((w, 1.0) for w in text.split())
        return cls(text, words)

    def sure(self, min_confidence: float) -> str:
        """The words heard with at least `min_confidence` (unsure ones are mostly noise)."""
        return " ".join(w for w, c in self.words if c >= min_confidence)


@dataclass(frozen=True)
class Phrasebook:
    """The phrases one question can be answered with, each mapped to its answer."""

    phrases: Mapping[str, str]
    min_confidence: float = 0.6
    unk: bool = False  # whether the model has "[unk]" (then it goes into the grammar)
    near_miss: float = NEAR_MISS  # rapidfuzz ratio from which a near miss counts

    def grammar(self) -> str:
        """The vosk grammar: a JSON list of the phrases, plus "[unk]" where the model has it."""
        return json.dumps(list(self.phrases) + ([UNK] if self.unk else []), ensure_ascii=False)

    def only(self, hearable: Callable[[str], bool]) -> Phrasebook:
        """Without the phrases holding a word the model cannot hear (vosk drops such phrases)."""
        kept = {p: a for p, a in self.phrases.items() if all(hearable(w) for w in p.split())}
        return replace(self, phrases=kept)

    def match(self, heard: Heard) -> str | None:
        """The answer `heard` names, or None: nothing sure said, "[unk]", or no phrase near.
        Words heard unsure are left out first."""
        if UNK in heard.text:
            return None
        said = heard.sure(self.min_confidence)
        if not said:
            return None
        if said in self.phrases:
            return self.phrases[said]
        near = process.extract(said, list(self.phrases), scorer=fuzz.ratio, limit=None,
                               score_cutoff=self.near_miss)
        if not near:
            return None
        answer, score = self.phrases[near[0][0]], near[0][1]
        if any(self.phrases[p] != answer and score - s < AMBIGUOUS for p, s, _ in near[1:]):
            return None  # about as near another answer: do not guess
        return answer


def question_phrases(question: Question, vocabulary: Vocabulary, spoken: Callable[[str], str],
                     seats: Sequence[str] = ()) -> dict[str, str]:
    """Phrase → answer for `question`: the vocabulary's phrases for known answer ids, each
    answer's label, its spoken reading, the answer itself; seat numbers for players (`seats`,
    in seating order) when the question has no numeric answers."""
    phrases: dict[str, str] = {}
    for answer in question.answers:
        label = question.label(answer)
        for phrase in (*vocabulary.phrases(answer), label, spoken(label), answer, spoken(answer)):
            if norm(phrase):
                phrases.setdefault(norm(phrase), answer)
    if not any(a.isdigit() for a in question.answers):
        for seat, name in enumerate(seats, start=1):
            if name in question.answers:
                for phrase in vocabulary.phrases(str(seat)):
                    phrases.setdefault(phrase, name)
    return phrases


def command_phrases(vocabulary: Vocabulary) -> dict[str, str]:
    """Phrase → command, each phrase starting with (one form of) the wake phrase."""
    return {f"{wake} {phrase}": command for command in COMMANDS
            for phrase in vocabulary.phrases(command) for wake in vocabulary.phrases("wake")}


def unhearable(names: Iterable[str], hearable: Callable[[str], bool],
               spellings: Callable[[str], Iterable[str]]) -> list[str]:
    """The names none of whose spellings the model can hear, word by word."""
    return [name for name in names
            if not any(p.split() and all(hearable(w) for w in p.split()) for p in map(norm, spellings(name)))]


def alike(names: Sequence[str], spoken: Callable[[str], str] = lambda n: n) -> list[tuple[str, str]]:
    """Pairs of names that sound too alike to tell apart (by their spoken forms)."""
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if fuzz.ratio(norm(spoken(a)), norm(spoken(b))) >= ALIKE:
                pairs.append((a, b))
    return pairs

