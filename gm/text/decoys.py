"""Decoy words: common words of each language that answer nothing (its voice pack's
`[language] decoys`).

A grammar of answers alone forces any speech into an answer when the model has no "[unk]";
with these words in the grammar, table talk lands on a decoy instead, and a result that holds
one is no answer. A decoy that sounds like an answer steals it, so the lists keep to a few
longer words (the Korean one was chosen with bench/listen_bench.py: 오늘, 우리, 사람, 시간 and
the short words took counts, names and cards; 늑대 took the card 늑대인간). Common given names
catch a name of someone not at the table (a player's own name is never a decoy, nor one that
sounds like it; Korean names are decoys of the "player" kind only: the model heard them in the
counts, 지영 took 영 and 준호 took 둘). Only the words the
model knows go into a grammar (`Phrasebook.only`), and a decoy that is also a word of one of
the question's phrases is left out (`Phrasebook.grammar`). Decoys of one kind of answer
(`decoys_for`) go only into the grammars of questions that take that kind: common given names
and "okay" took counts and a step's "done" where nobody names a player or says yes.
"""

from __future__ import annotations

from collections.abc import Mapping

from gm.text.language import by_language
from voices import LANGUAGES

DECOYS: Mapping[str, tuple[str, ...]] = by_language(lambda language: language.decoys)
KINDS: Mapping[str, Mapping[str, tuple[str, ...]]] = by_language(lambda language: language.decoys_for)


def decoys(lang: str) -> tuple[str, ...]:
    """The decoy words of `lang` (none for a language without a pack)."""
    return DECOYS[lang] if lang in LANGUAGES else ()


def decoys_for(lang: str) -> Mapping[str, tuple[str, ...]]:
    """The decoys of each kind of answer of `lang` (`[language.decoys_for]`): "number" where a
    question takes a count, "player" where it takes a player, "yes_no" where it takes yes or no.
    Each kind's decoys are the words the model cannot tell from that kind's answers, or that
    are said instead of them (names of people not at the table, "okay" at a read-back), and stay
    in the grammar even when they sound near an answer."""
    return KINDS[lang] if lang in LANGUAGES else {}
