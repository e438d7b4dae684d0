"""Who wins (ゲームの勝敗): the verdict from everyone's final cards (the sides are in `sides`).

The cards are the final ones: after the passing and the gravedigger's swap. `executed` is a
player, `GRAVEYARD`, or None when the village panicked (a tie after the runoff).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
from collections.abc import Mapping, Sequence
from typing import Any

from scorer.werewolf.cards import Card
from scorer.werewolf.decks import PLAYER_COUNTS, Deck, graveyard_size, standard_deck
from scorer.werewolf.tally import GRAVEYARD
from scorer.werewolf.known import Known, SeerRefused
from scorer.werewolf.magician import MOST_TURNED, could_have_seen
from scorer.werewolf.sides import JudgeError, Side, check_hand, side_of
from scorer.values import Named


class Reason(Named):
    """Why a side won (ゲームの勝敗): the voice pack words each reason (gm.text.verdicts)."""

    PANIC = "panic"
    PANIC_TRAITOR_WEREWOLF = "panic_traitor_werewolf"
    GRAVEYARD_WEREWOLF_TRAITOR = "graveyard_werewolf_traitor"
    GRAVEYARD_WEREWOLF = "graveyard_werewolf"
    GRAVEYARD_TRAITOR_WEREWOLF_SPARED = "graveyard_traitor_werewolf_spared"
    GRAVEYARD_INNOCENT = "graveyard_innocent"
    TRAITOR_WEREWOLF_EXECUTED = "traitor_werewolf_executed"
    WEREWOLF_EXECUTED = "werewolf_executed"
    TRAITOR_WEREWOLF_SPARED = "traitor_werewolf_spared"
    INNOCENT_EXECUTED = "innocent_executed"
    DEAD_GRAVEYARD = "dead_graveyard"
    DEAD_PANIC = "dead_panic"
    DEAD_EXECUTED = "dead_executed"

@dataclass(frozen=True)
class Verdict:
    """The winning side, who won, and why: the voice pack words `reason` with `fields`."""

    winning_side: Side
    winners: tuple[str, ...]
    reason: Reason
    fields: Mapping[str, Any]
    sides: Mapping[str, Side] = field(default_factory=dict)  # player → side in this game


def _dead_side(hand: Sequence[Card]) -> Side:
    """Battle with the Dead: the gravedigger's and the traitor's holders are dead (HW-R6)."""
    return Side.DEAD if any(card.row.dead for card in hand) else Side.LIVING


def _validate(
    players: Sequence[str],
    hands: Mapping[str, Sequence[Card]],
    graveyard: Sequence[Card],
    executed: str | None,
    turned: Sequence[str],
    deck: Deck | None,
) -> None:
    if len(set(players)) != len(players):
        raise JudgeError(f"a player is named twice in {list(players)}", "player_twice", players=list(players))
    for name in players:
        if name.casefold() == GRAVEYARD:
            raise JudgeError(f"{name!r} cannot be a player's name: it is the graveyard's", "graveyard_name", name=name)
    if len(players) not in PLAYER_COUNTS:
        raise JudgeError(f"Half Werewolf is for 4 to 6 players, not {len(players)}", "players", players=len(players))
    deck = deck or standard_deck(len(players))
    if deck.players != len(players):
        raise JudgeError(f"the deck is for {deck.players} players, not {len(players)}", "deck_for",
                         deck=deck.players, players=len(players))
    for name in hands:
        if name not in players:
            raise JudgeError(f"cards given for {name!r}, who is not a player ({', '.join(players)})",
                             "cards_not_player", name=name, players=tuple(players))
    for name in players:
        if name not in hands:
            raise JudgeError(f"no cards given for {name}", "no_cards", name=name)
        check_hand(hands[name], name)
    check_hand(graveyard, GRAVEYARD, graveyard_size(len(players)))
    seen = Counter(card for name in players for card in hands[name]) + Counter(graveyard)
    if seen[Card.WEREWOLF] != 1:
        raise JudgeError(f"{seen[Card.WEREWOLF]} werewolf cards, but every deck has exactly one", "werewolves",
                         count=seen[Card.WEREWOLF])
    for card, count in seen.items():
        if count > deck.count(card):
            if not deck.has(card):
                raise JudgeError(f"{card} is not in the deck ({_deck_name(deck)})",
                                 f"not_in_{deck.variant or 'standard'}_deck", card=card, players=deck.players)
            raise JudgeError(f"{count} × {card} but the deck has {deck.count(card)}", "over_deck",
                             count=count, card=card, limit=deck.count(card))
    if executed is not None and executed != GRAVEYARD and executed not in players:
        raise JudgeError(f"the executed {executed!r} is neither a player ({', '.join(players)}) nor {GRAVEYARD!r}",
                         "executed_unknown", executed=executed, players=tuple(players))
    for name in turned:
        if name not in players:
            raise JudgeError(f"{name!r} saw the magician but is not a player ({', '.join(players)})",
                             "turned_not_player", name=name, players=tuple(players))
    if turned and not seen[Card.MAGICIAN]:
        raise JudgeError("players saw the magician, but no magician card is in play", "no_magician")
    if len(set(turned)) != len(turned):
        raise JudgeError(f"a player is named twice among those who saw the magician: {list(turned)}",
                         "turned_twice", players=list(turned))
    if len(turned) > MOST_TURNED:
        raise JudgeError(f"{len(turned)} players saw the magician, but only the seer and the gravedigger can",
                         "too_many_turned", count=len(turned))
    _check_seers(players, hands, graveyard, turned, deck)


def _check_seers(players: Sequence[str], hands: Mapping[str, Sequence[Card]], graveyard: Sequence[Card],
                 turned: Sequence[str], deck: Deck) -> None:
    """HW-R7: whoever saw the magician could have used the seer's or the gravedigger's ability."""
    shown = {**{name: tuple(hands[name]) for name in players}, GRAVEYARD: tuple(graveyard)}
    table = Known(tuple(players), deck, None, MappingProxyType(shown))
    for name in turned:
        if not could_have_seen(table, name):
            raise SeerRefused(name, table)


def _deck_name(deck: Deck) -> str:
    """How an error names the deck: its regulation, or the standard deck for the player count."""
    return deck.variant.deck_name if deck.variant is not None else f"the {deck.players}-player deck"


def judge(
    players: Sequence[str],
    hands: Mapping[str, Sequence[Card]],
    graveyard: Sequence[Card],
    executed: str | None,
    magician_seen_by: Sequence[str] = (),
    deck: Deck | None = None,
) -> Verdict:
    """The verdict from everyone's final cards and the vote's result (None = panic).

    Without `deck`, the standard deck for the player count: a death card at a 4-player table
    or a magician without Magician's Night is refused, never judged as a variant.
    """
    players, turned = list(players), list(magician_seen_by)
    _validate(players, hands, graveyard, executed, turned, deck)
    if Card.DEATH in graveyard:
        return _battle_with_the_dead(players, hands, executed)
    sides = {name: side_of(hands[name], name in turned) for name in players}
    traitor_werewolf = next((name for name in players if sides[name] == Side.TRAITOR_WEREWOLF), None)

    def verdict(side: Side, reason: Reason, **fields: object) -> Verdict:
        return _verdict(side, reason, fields, sides)

    if executed is None:  # HW-R5: a spared Traitor Werewolf reverses the sides: the villagers win
        if traitor_werewolf is not None:
            return verdict(Side.VILLAGERS, Reason.PANIC_TRAITOR_WEREWOLF, traitor_werewolf=traitor_werewolf)
        return verdict(Side.WEREWOLVES, Reason.PANIC)
    if executed == GRAVEYARD:
        if Card.WEREWOLF in graveyard and Card.TRAITOR in graveyard:
            return verdict(Side.VILLAGERS, Reason.GRAVEYARD_WEREWOLF_TRAITOR)
        if Card.WEREWOLF in graveyard:
            return verdict(Side.VILLAGERS, Reason.GRAVEYARD_WEREWOLF)
        if traitor_werewolf is not None:
            return verdict(Side.VILLAGERS, Reason.GRAVEYARD_TRAITOR_WEREWOLF_SPARED, traitor_werewolf=traitor_werewolf)
        return verdict(Side.WEREWOLVES, Reason.GRAVEYARD_INNOCENT)
    if executed == traitor_werewolf:
        return verdict(Side.TRAITOR_WEREWOLF, Reason.TRAITOR_WEREWOLF_EXECUTED, name=executed)
    if Card.WEREWOLF in hands[executed]:
        return verdict(Side.VILLAGERS, Reason.WEREWOLF_EXECUTED, name=executed)
    if traitor_werewolf is not None:
        return verdict(Side.VILLAGERS, Reason.TRAITOR_WEREWOLF_SPARED, name=executed, traitor_werewolf=traitor_werewolf)
    return verdict(Side.WEREWOLVES, Reason.INNOCENT_EXECUTED, name=executed)


def _battle_with_the_dead(
    players: Sequence[str], hands: Mapping[str, Sequence[Card]], executed: str | None
) -> Verdict:
    """死者との戦い: the living win only by voting the graveyard (HW-R6); werewolves are ignored."""
    sides = {name: _dead_side(hands[name]) for name in players}
    fields: dict[str, object] = {}
    if executed == GRAVEYARD:
        side, reason, fields = Side.LIVING, Reason.DEAD_GRAVEYARD, fields
    elif executed is None:
        side, reason, fields = Side.DEAD, Reason.DEAD_PANIC, fields
    else:
        side, reason, fields = Side.DEAD, Reason.DEAD_EXECUTED, {"name": executed}
    return _verdict(side, reason, fields, sides)


def _verdict(side: Side, reason: Reason, fields: Mapping[str, object], sides: Mapping[str, Side]) -> Verdict:
    """The players of `side` win (maybe nobody: the wording says so plainly)."""
    winners = tuple(name for name, their_side in sides.items() if their_side == side)
    return Verdict(side, winners, reason, MappingProxyType({**fields, "winners": winners}),
                   MappingProxyType(dict(sides)))


def too_many(deck: Deck, cards_by_owner: Mapping[str, Sequence[str]]) -> tuple[str, int, tuple[str, ...]] | None:
    """The first card given more often than `deck` holds it: (card, how often, the owners naming it).

    Owners are players or `GRAVEYARD`. With every card of the table given, cards that do not add
    up always show as one card too many (the deck's count of each is fixed), so only the hands
    naming that card need checking again.
    """
    given = Counter(card for cards in cards_by_owner.values() for card in cards)
    for card in Card:
        if given[card] > deck.count(card):
            return card, given[card], tuple(owner for owner, cards in cards_by_owner.items() if card in cards)
    return None
