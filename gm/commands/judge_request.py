"""`gm werewolf judge`'s JSON request, read into a `JudgeRequest` (names as the players spell them, cards read)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from gm.commands.werewolf_values import check_player_names
from gm.text.names import BadInput, resolve_name
from scorer.werewolf.cards import Card, parse_card
from scorer.werewolf.decks import Deck, custom_deck, standard_deck
from scorer.werewolf.tally import GRAVEYARD


@dataclass(frozen=True)
class JudgeRequest:
    """Everything `judge` needs, with names as the players spell them and cards read (an id, an alias or a name in
    any language: `Card`s)."""

    players: tuple[str, ...]
    hands: Mapping[str, tuple[Card, ...]]
    graveyard: tuple[Card, ...]
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
    from gm.text.lines import Pack

    check_player_names(players, Pack("en"))  # the request's names against the English table's answer words
    hands_data = data.get("hands")
    if not isinstance(hands_data, dict):
        raise BadInput(f'"hands" must be a JSON object of player → cards, not {_json_type(hands_data)}',
                       "hands_object", field="hands", **_kind(hands_data))
    hands: dict[str, tuple[Card, ...]] = {}
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
