"""Reading what people type: names (any case), "A=2,B=1" pairs, and the judge's JSON request.

Card and graveyard names come from every language's voice pack (loaded once).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from gm.text.parse import split_list
from scorer.werewolf.cards import names_from_pack, parse_card
from scorer.werewolf.decks import Deck, custom_deck, standard_deck
from scorer.werewolf.tally import GRAVEYARD
from voices import LANGUAGES, load_pack
from gm.errors import GmError
from scorer.refusal import Refusal
from scorer.counts import whole_number


class BadInput(GmError, Refusal):
    """Typed input that does not parse: a name nobody has, a count that is no number, bad JSON;
    `key` (under the voice packs' `errors.input`) and `fields` word it in every language."""

    prefix = "input"


def _every_language(tables: Callable[[dict[str, Any]], Mapping[str, Any]]) -> dict[str, str]:
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


def parse_card_list(spec: str) -> list[str]:
    """ "gorilla, ゴリラ" or "天使、apprentice" → card ids: the one card parser every command uses."""
    names = card_names()
    return [parse_card(item, names) for item in split_list(spec)]


def deck_for(players: int, variant: str | None = None, swap_ins: str = "") -> Deck:
    """The deck a command plays with: the standard deck for `players`, a variant, swap-ins (HW-R1)."""
    return standard_deck(players, variant, parse_card_list(swap_ins))


def check_player_names(names: Sequence[str], lang: str = "en") -> None:
    """A player may not be named like the graveyard, in any case or language (the vote needs
    both), nor like a word that answers a question in the night's language (done, none, yes,
    no, 完了, 없음, a number): the table could never name them. Full-width forms count too."""
    from gm.table.words import Words, fold
    from gm.text.lines import Voice

    graveyard = {fold(name) for name in graveyard_names()} | {GRAVEYARD}
    words = Words.of(Voice(lang)).answer_words()
    for name in names:
        said = fold(name)
        if said in graveyard:
            raise BadInput(f"a player cannot be named {name!r}: that is the graveyard's name", "graveyard_name",
                           name=name)
        if said in words or said.isdigit():
            raise BadInput(f"a player cannot be named {name!r}: it is an answer word ({said})", "answer_word",
                           name=name, word=said)


def resolve_name(text: str, choices: Sequence[str], what: str = "player",
                 aliases: Mapping[str, str] | None = None) -> str:
    """The one of `choices` that `text` names, ignoring case and width, katakana as hiragana
    (ＡＫＩ is Aki), or an alias such as 墓地 → graveyard."""
    from gm.table.words import fold

    wanted = fold(text)
    for choice in choices:
        if fold(choice) == wanted:
            return choice
    for alias, choice in (aliases or {}).items():
        if fold(alias) == wanted and choice in choices:
            return choice
    raise BadInput(f"unknown {what} {text!r} (choose from: {', '.join(choices)})",
                   f"unknown_{what.replace(' ', '_')}", text=text, choices=list(choices))


def parse_pairs(spec: str) -> list[tuple[str, str]]:
    """ "A=2, B=1" → [("A", "2"), ("B", "1")]; each left side at most once (any case)."""
    pairs: list[tuple[str, str]] = []
    for item in split_list(spec):
        left, sep, right = (part.strip() for part in item.partition("="))
        if not sep or not left or not right:
            raise BadInput(f"{item!r} is not name=value (in {spec!r})", "not_pair", item=item, spec=spec)
        if left.casefold() in (seen.casefold() for seen, _ in pairs):
            raise BadInput(f"{left!r} is given twice in {spec!r}", "given_twice", name=left, spec=spec)
        pairs.append((left, right))
    if not pairs:
        raise BadInput(f"no name=value pairs in {spec!r}", "no_pairs", spec=spec)
    return pairs


def parse_counts(spec: str, candidates: Sequence[str], aliases: Mapping[str, str] | None = None) -> dict[str, int]:
    """Count mode: "A=2,graveyard=1" → candidate → number of votes."""
    counts: dict[str, int] = {}
    for name, value in parse_pairs(spec):
        candidate = resolve_name(name, candidates, "candidate", aliases)
        if candidate in counts:
            raise BadInput(f"{candidate!r} is given twice in {spec!r}", "given_twice", name=candidate, spec=spec)
        count = whole_number(value)
        if count is None:
            raise BadInput(f"votes for {name!r} must be a whole number, not {value!r}", "votes_whole",
                           name=name, value=value)
        counts[candidate] = count
    return counts


def parse_roll_call(
    spec: str, voters: Sequence[str], candidates: Sequence[str], aliases: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Roll-call mode: "A=B,C=graveyard" → voter → candidate."""
    return {
        resolve_name(voter, voters, "voter"): resolve_name(choice, candidates, "candidate", aliases)
        for voter, choice in parse_pairs(spec)
    }


@dataclass(frozen=True)
class JudgeRequest:
    """Everything `judge` needs, with names as the players spell them and cards as ids."""

    players: tuple[str, ...]
    hands: Mapping[str, tuple[str, ...]]
    graveyard: tuple[str, ...]
    executed: str | None
    magician_seen_by: tuple[str, ...]
    deck: Deck | None


def _list(data: Mapping[str, Any], key: str, required: bool = True) -> list[Any]:
    value = data.get(key, None if required else [])
    if not isinstance(value, list):
        raise BadInput(f'"{key}" must be a JSON list, not {_json_type(value)}', "not_list", field=key,
                       **_kind(value))
    return value


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null"}.get(type(value), repr(value))


def _kind(value: Any) -> dict[str, str]:
    """A refusal's fields naming a JSON value's type: `kind` in English ("a list"), `json` in
    JSON's own words ("array", "null", or the value itself) for the other languages."""
    names = {dict: "object", list: "array", str: "string", type(None): "null"}
    return {"kind": _json_type(value), "json": names.get(type(value)) or json.dumps(value)}


def _deck_of(data: Mapping[str, Any], players: int, card_names: Mapping[str, str]) -> Deck | None:
    """The deck the request names: "deck" (custom, card → count), or "variant"/"with", or none."""
    if "deck" in data:
        cards = data["deck"]
        if not isinstance(cards, dict):
            raise BadInput(f'"deck" must be a JSON object of card → count, not {_json_type(cards)}',
                           "deck_object", field="deck", **_kind(cards))
        counts: dict[str, Any] = {}
        for name, count in cards.items():
            card = parse_card(name, card_names)
            if card in counts:
                raise BadInput(f'{card} is given twice in "deck"', "deck_twice", card=card, field="deck")
            counts[card] = count
        return custom_deck(players, counts)
    if "variant" in data or "with" in data:
        variant = data.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise BadInput(f'"variant" must be a string or null, not {_json_type(variant)}', "variant_type",
                           field="variant", **_kind(variant))
        return standard_deck(players, variant, [parse_card(c, card_names) for c in _list(data, "with", False)])
    return None  # the judge takes the standard deck for the player count


def parse_judge_request(data: Any, card_names: Mapping[str, str],
                        aliases: Mapping[str, str] | None = None) -> JudgeRequest:
    """Read `{"players", "hands", "graveyard", "executed", "magician_seen_by", "variant"/"with"/"deck"}`."""
    if not isinstance(data, dict):
        raise BadInput(f"the judge reads a JSON object, not {_json_type(data)}", "not_object", **_kind(data))
    players = _list(data, "players")
    if not all(isinstance(name, str) and name.strip() for name in players):
        raise BadInput(f'"players" must be a list of names, not {players!r}', "player_names", field="players",
                       players=players)
    players = [name.strip() for name in players]
    if len({name.casefold() for name in players}) != len(players):
        raise BadInput(f"a player is named twice in {players!r}", "player_twice", players=players)
    check_player_names(players)
    hands_data = data.get("hands")
    if not isinstance(hands_data, dict):
        raise BadInput(f'"hands" must be a JSON object of player → cards, not {_json_type(hands_data)}',
                       "hands_object", field="hands", **_kind(hands_data))
    hands: dict[str, tuple[str, ...]] = {}
    for name, cards in hands_data.items():
        if not isinstance(cards, list):
            raise BadInput(f"the cards of {name!r} must be a JSON list, not {_json_type(cards)}", "cards_list",
                           name=name, **_kind(cards))
        player = resolve_name(name, players)
        if player in hands:
            raise BadInput(f'the cards of {player} are given twice in "hands"', "hands_twice", player=player,
                           field="hands")
        hands[player] = tuple(parse_card(card, card_names) for card in cards)
    executed = data.get("executed")
    if executed is not None:
        if not isinstance(executed, str):
            raise BadInput(f'"executed" must be a player, "{GRAVEYARD}" or null, not {_json_type(executed)}',
                           "executed_type", field="executed", **_kind(executed))
        executed = resolve_name(executed, [*players, GRAVEYARD], "executed player", aliases)
    return JudgeRequest(
        players=tuple(players),
        hands=hands,
        graveyard=tuple(parse_card(card, card_names) for card in _list(data, "graveyard")),
        executed=executed,
        magician_seen_by=tuple(resolve_name(n, players) for n in _list(data, "magician_seen_by", False)),
        deck=_deck_of(data, len(players), card_names),
    )
