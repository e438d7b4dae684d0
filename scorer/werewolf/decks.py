"""The decks by player count (rulebook 【ゲームの準備】 and the 6-player regulations), HW-R1 and HW-R2."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Mapping, Sequence

from scorer.values import Named
from scorer.werewolf.cards import CARD_IDS, AnyCard, Card, parse_card
from scorer.werewolf.refusal import WerewolfRefusal

PLAYER_COUNTS = (4, 5, 6)


class Variant(Named):
    """A deck other than the standard one: a 6-player regulation, whose card replaces one
    villager, or a deck given card by card (HW-R2). `deck_name`: how an English error names it."""

    card: Card | None
    deck_name: str

    def __new__(cls, variant: str, card: Card | None, deck_name: str) -> Variant:
        member = str.__new__(cls, variant)
        member._value_ = variant
        member.card, member.deck_name = card, deck_name
        return member

    MAGICIAN = "magician", Card.MAGICIAN, "Magician's Night"  # 魔術師の夜
    DEAD = "dead", Card.DEATH, "Battle with the Dead"  # 死者との戦い
    CUSTOM = "custom", None, "the custom deck"


VARIANTS = (Variant.MAGICIAN, Variant.DEAD)
BY_NAME: Mapping[str, Variant] = {variant.value: variant for variant in VARIANTS}

# Base decks by player count (villagers, then one of each listed card).
_BASE = {
    4: (6, (Card.WEREWOLF, Card.SEER, Card.TRAITOR)),
    5: (8, (Card.WEREWOLF, Card.SEER, Card.GRAVEDIGGER, Card.TRAITOR)),
    6: (10, (Card.WEREWOLF, Card.SEER, Card.GRAVEDIGGER, Card.TRAITOR)),
}
# Swap-ins (each replaces one villager) and the player counts that allow them.
SWAP_INS: Mapping[Card, tuple[int, ...]] = {card: card.row.swap_in for card in Card if card.row.swap_in}


class DeckError(WerewolfRefusal):
    """A deck the rules do not allow (HW-R1, HW-R2)."""


@dataclass(frozen=True)
class Deck:
    """The cards in play: 2 per player, the rest face down in the graveyard (墓地)."""

    players: int
    cards: Mapping[Card, int]
    graveyard: int
    variant: Variant | None  # None for the standard deck

    @property
    def total(self) -> int:
        return sum(self.cards.values())

    def has(self, card: Card) -> bool:
        return self.count(card) > 0

    def count(self, card: Card) -> int:
        return self.cards.get(card, 0)


def graveyard_size(players: int) -> int:
    """Cards left in the graveyard: 1 with 4 players, 2 with 5 or 6."""
    _check_players(players, "HW-R1")
    return 1 if players == 4 else 2


def _check_players(players: int, rule: str) -> None:
    if players not in PLAYER_COUNTS:
        raise DeckError(f"{rule}: Half Werewolf is for 4 to 6 players, not {players}", "deck_players",
                        rule=rule, players=players)


def _deck(players: int, counts: Mapping[Card, int], variant: Variant | None) -> Deck:
    ordered = {card: counts[card] for card in (*CARD_IDS, *counts) if counts.get(card, 0) > 0}
    return Deck(players, MappingProxyType(ordered), graveyard_size(players), variant)


def _regulation(players: int, variant: str | None) -> Variant | None:
    """The 6-player regulation `variant` names (HW-R1), None for the standard deck."""
    if variant is None:
        return None
    if variant not in BY_NAME:
        raise DeckError(f"HW-R1: unknown variant {variant!r} (variants: {', '.join(VARIANTS)})", "unknown_variant",
                        variant=variant, variants=VARIANTS)
    if players != 6:
        raise DeckError(f"HW-R1: the {variant} variant is for 6 players only, not {players}", "variant_players",
                        variant=variant, players=players)
    return BY_NAME[variant]


def standard_deck(players: int, variant: str | None = None, swap_ins: Sequence[str] = ()) -> Deck:
    """The rulebook's deck for `players`, optionally a 6-player variant and swap-ins (HW-R1)."""
    _check_players(players, "HW-R1")
    regulation = _regulation(players, variant)
    villagers, specials = _BASE[players]
    counts = Counter(specials)
    if regulation is not None and regulation.card is not None:
        counts[regulation.card] += 1
        villagers -= 1
    for raw in swap_ins:
        card = parse_card(raw)
        if not card.row.swap_in:
            raise DeckError(f"HW-R1: {raw!r} cannot be swapped in (swap-ins: {', '.join(SWAP_INS)})", "not_swap_in",
                            raw=raw, swap_ins=tuple(SWAP_INS))
        if players not in card.row.swap_in:
            allowed = "/".join(map(str, card.row.swap_in))
            raise DeckError(f"HW-R1: {card} is swapped in with {allowed} players only, not {players}",
                            "swap_in_players", card=card, allowed=allowed, players=players)
        if counts[card]:
            raise DeckError(f"HW-R1: {card} is swapped in twice (the box has one)", "swap_in_twice", card=card)
        counts[card] += 1
        villagers -= 1
    counts[Card.VILLAGER] = villagers
    return _deck(players, counts, regulation)


def custom_deck(players: int, cards: Mapping[str, int] | Mapping[AnyCard, int]) -> Deck:
    """A deck given card by card (HW-R2): 2×players + graveyard cards, box counts, one werewolf."""
    _check_players(players, "HW-R2")
    counts: Counter[Card] = Counter()
    for raw, count in cards.items():
        card = parse_card(raw)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise DeckError(f"HW-R2: count of {raw!r} must be a whole number ≥ 0, not {count!r}", "bad_card_count",
                            raw=raw, count=count)
        counts[card] += count
    for card, count in counts.items():
        if count > card.row.box:
            raise DeckError(f"HW-R2: {count} × {card} but the box holds {card.row.box}", "over_box",
                            count=count, card=card, limit=card.row.box)
    if counts[Card.WEREWOLF] != 1:
        raise DeckError(f"HW-R2: a deck has exactly one werewolf, not {counts[Card.WEREWOLF]}", "deck_werewolves",
                        count=counts[Card.WEREWOLF])
    wanted = 2 * players + graveyard_size(players)
    total = sum(counts.values())
    if total != wanted:
        raise DeckError(
            f"HW-R2: {players} players need {wanted} cards (2 each + {graveyard_size(players)} "
            f"in the graveyard), not {total}",
            "deck_size", players=players, wanted=wanted, graveyard=graveyard_size(players), total=total,
        )
    return _deck(players, counts, Variant.CUSTOM)
