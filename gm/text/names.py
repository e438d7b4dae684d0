"""The names people type and say for cards, the graveyard and players, in any case, width or language.

Card and graveyard names come from every language's voice pack (loaded once).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Mapping, Sequence

from gm.text.parse import fold, split_list
from scorer.werewolf.cards import Card, names_from_pack, parse_card
from scorer.werewolf.tally import GRAVEYARD
from voices import LANGUAGES, load_pack
from scorer.values import Refusal


class BadInput(Refusal):
    """Typed input that does not parse: a name nobody has, a count that is no number, bad JSON;
    `key` (under the voice packs' `errors.input`) and `fields` word it in every language."""

    prefix = "input"


def _every_language(tables: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> dict[str, str]:
    """Name → id from a table of id → line, taken from every language's voice pack."""
    names: dict[str, str] = {}
    for lang in LANGUAGES:
        names.update(names_from_pack(tables(load_pack(lang))))
    return names


def card_names() -> dict[str, str]:
    """Every language's card names and readings → card id (人狼, じんろう, Werewolf → werewolf)."""
    return _every_language(lambda pack: pack["werewolf"]["cards"])


def graveyard_names() -> dict[str, str]:
    """Every language's name for the graveyard (the graveyard, 墓地, ぼち) → "graveyard"."""
    return _every_language(lambda pack: {GRAVEYARD: pack["common"]["graveyard"]})


def parse_card_list(spec: str) -> list[Card]:
    """ "gorilla, ゴリラ" or "天使、apprentice" → card ids: the one card parser every command uses."""
    names = card_names()
    return [parse_card(item, names) for item in split_list(spec)]


def resolve_name(text: str, choices: Sequence[str], what: str = "player",
                 aliases: Mapping[str, str] | None = None) -> str:
    """The one of `choices` that `text` names, ignoring case and width, katakana as hiragana
    (ＡＫＩ is Aki), or an alias such as 墓地 → graveyard."""
    wanted = fold(text)
    for choice in choices:
        if fold(choice) == wanted:
            return choice
    for alias, choice in (aliases or {}).items():
        if fold(alias) == wanted and choice in choices:
            return choice
    raise BadInput(f"unknown {what} {text!r} (choose from: {', '.join(choices)})",
                   f"unknown_{what.replace(' ', '_')}", text=text, choices=list(choices))
