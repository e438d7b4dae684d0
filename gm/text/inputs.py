"""Reading what people type: names (any case), "A=2,B=1" pairs, and the judge's JSON request.

Card and graveyard names come from every language's voice pack (loaded once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from gm.text.parse import split_list
from gm.werewolf.cards import names_from_pack, parse_card
from gm.werewolf.decks import Deck, custom_deck, standard_deck
from gm.werewolf.tally import GRAVEYARD
from voices import LANGUAGES, load_pack
from gm.errors import GmError
from scorer.counts import whole_number


class BadInput(GmError):
    """Typed input that does not parse: a name nobody has, a count that is no number, bad JSON."""


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


def check_player_names(names: Sequence[str]) -> None:
    """A player may not be named like the graveyard, in any case or language (the vote needs both)."""
    graveyard = {name.casefold() for name in graveyard_names()} | {GRAVEYARD}
    for name in names:
        if name.strip().casefold() in graveyard:
            raise BadInput(f"a player cannot be named {name!r}: that is the graveyard's name")


def resolve_name(text: str, choices: Sequence[str], what: str = "player",
                 aliases: Mapping[str, str] | None = None) -> str:
    """The one of `choices` that `text` names, ignoring case (or an alias such as 墓地 → graveyard)."""
    wanted = str(text).strip().casefold()
    for choice in choices:
        if choice.casefold() == wanted:
            return choice
    for alias, choice in (aliases or {}).items():
        if alias.casefold() == wanted and choice in choices:
            return choice
    raise BadInput(f"unknown {what} {text!r} (choose from: {', '.join(choices)})")


def parse_pairs(spec: str) -> list[tuple[str, str]]:
    """ "A=2, B=1" → [("A", "2"), ("B", "1")]; each left side at most once (any case)."""
    pairs: list[tuple[str, str]] = []
    for item in split_list(spec):
        left, sep, right = (part.strip() for part in item.partition("="))
        if not sep or not left or not right:
            raise BadInput(f"{item!r} is not name=value (in {spec!r})")
        if left.casefold() in (seen.casefold() for seen, _ in pairs):
            raise BadInput(f"{left!r} is given twice in {spec!r}")
        pairs.append((left, right))
    if not pairs:
        raise BadInput(f"no name=value pairs in {spec!r}")
    return pairs


def parse_counts(spec: str, candidates: Sequence[str], aliases: Mapping[str, str] | None = None) -> dict[str, int]:
    """Count mode: "A=2,graveyard=1" → candidate → number of votes."""
    counts: dict[str, int] = {}
    for name, value in parse_pairs(spec):
        candidate = resolve_name(name, candidates, "candidate", aliases)
        if candidate in counts:
            raise BadInput(f"{candidate!r} is given twice in {spec!r}")
        count = whole_number(value)
        if count is None:
            raise BadInput(f"votes for {name!r} must be a whole number, not {value!r}")
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
        raise BadInput(f'"{key}" must be a JSON list, not {_json_type(value)}')
    return value


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null"}.get(type(value), repr(value))


def _deck_of(data: Mapping[str, Any], players: int, card_names: Mapping[str, str]) -> Deck | None:
    """The deck the request names: "deck" (custom, card → count), or "variant"/"with", or none."""
    if "deck" in data:
        cards = data["deck"]
        if not isinstance(cards, dict):
            raise BadInput(f'"deck" must be a JSON object of card → count, not {_json_type(cards)}')
        counts: dict[str, Any] = {}
        for name, count in cards.items():
            card = parse_card(name, card_names)
            if card in counts:
                raise BadInput(f'{card} is given twice in "deck"')
            counts[card] = count
        return custom_deck(players, counts)
    if "variant" in data or "with" in data:
        variant = data.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise BadInput(f'"variant" must be a string or null, not {_json_type(variant)}')
        return standard_deck(players, variant, [parse_card(c, card_names) for c in _list(data, "with", False)])
    return None  # the judge takes the standard deck for the player count


def parse_judge_request(data: Any, card_names: Mapping[str, str],
                        aliases: Mapping[str, str] | None = None) -> JudgeRequest:
    """Read `{"players", "hands", "graveyard", "executed", "magician_seen_by", "variant"/"with"/"deck"}`."""
    if not isinstance(data, dict):
        raise BadInput(f"the judge reads a JSON object, not {_json_type(data)}")
    players = _list(data, "players")
    if not all(isinstance(name, str) and name.strip() for name in players):
        raise BadInput(f'"players" must be a list of names, not {players!r}')
    players = [name.strip() for name in players]
    if len({name.casefold() for name in players}) != len(players):
        raise BadInput(f"a player is named twice in {players!r}")
    check_player_names(players)
    hands_data = data.get("hands")
    if not isinstance(hands_data, dict):
        raise BadInput(f'"hands" must be a JSON object of player → cards, not {_json_type(hands_data)}')
    hands: dict[str, tuple[str, ...]] = {}
    for name, cards in hands_data.items():
        if not isinstance(cards, list):
            raise BadInput(f"the cards of {name!r} must be a JSON list, not {_json_type(cards)}")
        player = resolve_name(name, players)
        if player in hands:
            raise BadInput(f'the cards of {player} are given twice in "hands"')
        hands[player] = tuple(parse_card(card, card_names) for card in cards)
    executed = data.get("executed")
    if executed is not None:
        if not isinstance(executed, str):
            raise BadInput(f'"executed" must be a player, "{GRAVEYARD}" or null, not {_json_type(executed)}')
        executed = resolve_name(executed, [*players, GRAVEYARD], "executed player", aliases)
    return JudgeRequest(
        players=tuple(players),
        hands=hands,
        graveyard=tuple(parse_card(card, card_names) for card in _list(data, "graveyard")),
        executed=executed,
        magician_seen_by=tuple(resolve_name(n, players) for n in _list(data, "magician_seen_by", False)),
        deck=_deck_of(data, len(players), card_names),
    )
