"""The phrases a language's players say for each answer, from its voice pack (pure).

A `Vocabulary` maps answer ids ("yes", "no", "graveyard", "0".."6", command names, "wake")
to the phrases players say for them (`[listen.hear]`), with the language's decoy words
(`gm.text.decoys`) and the cards' names. The table reads replies with it (`gm.text.words`),
and a listener builds its grammars from it (`gm.hearing.phrases`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from gm.text.parse import norm, split_list

if TYPE_CHECKING:
    from gm.text.lines import Pack

DECOY = "decoy"  # the `[listen.hear]` entry of words that are never an answer


def split_phrases(entry: str) -> tuple[str, ...]:
    """ "yes, yeah" or "はい、ええ" → ("yes", "yeah") / ("はい", "ええ")."""
    return tuple(norm(x) for x in split_list(entry))


def _forms(entry: str | Mapping[str, str]) -> tuple[str, ...]:
    """The phrases of a pack entry: its printed text and its kana reading alike."""
    forms = [entry["text"], entry.get("kana", "")] if isinstance(entry, Mapping) else [entry]
    return tuple(dict.fromkeys(p for f in forms for p in split_phrases(f) if p))


@dataclass(frozen=True)
class Vocabulary:
    """Answer id → the phrases that say it, for one language and one speech model."""

    hear: Mapping[str, tuple[str, ...]]
    decoys: tuple[str, ...] = ()  # words that answer nothing (`gm.text.decoys`)
    cards: tuple[str, ...] = ()  # the cards' names: said at the table, an answer only to a card question
    kinds: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Decoys of one kind of answer ("number", "player", "yes_no": `gm.text.decoys.decoys_for`)."""

    @classmethod
    def from_pack(cls, pack: Pack) -> Vocabulary:
        """The `[listen.hear]` table of a voice pack (printed forms and kana readings alike),
        with the decoy words of its language (its `decoy` entry first: the one of two words the
        model cannot tell apart that is never an answer) and the cards' names."""
        from gm.text.decoys import decoys, decoys_for

        hear = {key: _forms(entry) for key, entry in pack.entry("listen.hear").items()}
        own = hear.pop(DECOY, ())
        cards = tuple(dict.fromkeys(p for entry in pack.entry("werewolf.cards").values() for p in _forms(entry)))
        kinds = {kind: tuple(map(norm, words)) for kind, words in decoys_for(pack.lang).items()}
        return cls(hear, tuple(dict.fromkeys(own + decoys(pack.lang))), cards, {DECOY: own, **kinds})

    def decoys_of(self, kinds: Iterable[str]) -> tuple[str, ...]:
        """The decoys of `kinds` of answer, with the pack's own (`[listen.hear] decoy`)."""
        return tuple(dict.fromkeys(w for kind in (DECOY, *kinds) for w in self.kinds.get(kind, ())))

    def phrases(self, answer_id: str) -> tuple[str, ...]:
        return self.hear.get(answer_id, ())
