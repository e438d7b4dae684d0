"""The decks by player count (rulebook 【ゲームの準備】 and the 6-player regulations), HW-R1 and HW-R2."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Mapping, Sequence

from scorer.werewolf.cards import BOX_COUNTS, CARD_IDS, parse_card
from scorer.werewolf.refusal import WerewolfRefusal

PLAYER_COUNTS = (4, 5, 6)
VARIANTS = ("magician", "dead")

# Base decks by player count (villagers, then one of each listed card).
_BASE = {
    4: (6, ("werewolf", "seer", "traitor")),
    5: (8, ("werewolf", "seer", "gravedigger", "traitor")),
    6: (10, ("werewolf", "seer", "gravedigger", "traitor")),
}
# 6-player regulations: 魔術師の夜 (Magician's Night) and 死者との戦い (Battle with the Dead);
# each replaces one villager.
_VARIANT_CARD = {"magician": "magician", "dead": "death"}
# Swap-ins (each replaces one villager) and the player counts that allow them.
SWAP_INS: Mapping[str, tuple[int, ...]] = {"gorilla": (4, 5, 6), "angel": (6,), "apprentice": (6,)}


class DeckError(WerewolfRefusal):
    """A deck the rules do not allow (HW-R1, HW-R2)."""


@dataclass(frozen=True)
class Deck:
    """The cards in play: 2 per player, the rest face down in the graveyard (墓地)."""

    players: int
    cards: Mapping[str, int]
    graveyard: int
    variant: str | None  # None, "magician", "dead" or "custom"

    @property
    def total(self) -> int:
        return sum(self.cards.values())

    def has(self, card: str) -> bool:
        return self.count(card) > 0

    def count(self, card: str) -> int:
        return self.cards.get(parse_card(card), 0)


def graveyard_size(players: int) -> int:
    """Cards left in the graveyard: 1 with 4 players, 2 with 5 or 6."""
    _check_players(players, "HW-R1")
    return 1 if players == 4 else 2


def _check_players(players: int, rule: str) -> None:
    if players not in PLAYER_COUNTS:
        raise DeckError(f"{rule}: Half Werewolf is for 4 to 6 players, not {players}", "deck_players",
                        rule=rule, players=players)


def _deck(players: int, counts: Mapping[str, int], variant: str | None) -> Deck:
    ordered = {card: counts[card] for card in CARD_IDS if counts.get(card, 0) > 0}
    return Deck(players, MappingProxyType(ordered), graveyard_size(players), variant)


def standard_deck(players: int, variant: str | None = None, swap_ins: Sequence[str] = ()) -> Deck:
    """The rulebook's deck for `players`, optionally a 6-player variant and swap-ins (HW-R1)."""
    _check_players(players, "HW-R1")
    if variant is not None and variant not in VARIANTS:
        raise DeckError(f"HW-R1: unknown variant {variant!r} (variants: {', '.join(VARIANTS)})", "unknown_variant",
                        variant=variant, variants=VARIANTS)
    if variant is not None and players != 6:
        raise DeckError(f"HW-R1: the {variant} variant is for 6 players only, not {players}", "variant_players",
                        variant=variant, players=players)
    villagers, specials = _BASE[players]
    counts = Counter(specials)
    if variant is not None:
        counts[_VARIANT_CARD[variant]] += 1
        villagers -= 1
    for raw in swap_ins:
        card = parse_card(raw)
        if card not in SWAP_INS:
            raise DeckError(f"HW-R1: {raw!r} cannot be swapped in (swap-ins: {', '.join(SWAP_INS)})", "not_swap_in",
                            raw=raw, swap_ins=tuple(SWAP_INS))
        if players not in SWAP_INS[card]:
            allowed = "/".join(map(str, SWAP_INS[card]))
            raise DeckError(f"HW-R1: {card} is swapped in with {allowed} players only, not {players}",
                            "swap_in_players", card=card, allowed=allowed, players=players)
        if counts[card]:
            raise DeckError(f"HW-R1: {card} is swapped in twice (the box has one)", "swap_in_twice", card=card)
        counts[card] += 1
        villagers -= 1
    counts["villager"] = villagers
    return _deck(players, counts, variant)


def custom_deck(players: int, cards: Mapping[str, int]) -> Deck:
    """A deck given card by card (HW-R2): 2×players + graveyard cards, box counts, one werewolf."""
    _check_players(players, "HW-R2")
    counts: Counter[str] = Counter()
    for raw, count in cards.items():
        card = parse_card(raw)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise DeckError(f"HW-R2: count of {raw!r} must be a whole number ≥ 0, not {count!r}", "bad_card_count",
                            raw=raw, count=count)
        counts[card] += count
    for card, count in counts.items():
        if count > BOX_COUNTS[card]:
            raise DeckError(f"HW-R2: {count} × {card} but the box holds {BOX_COUNTS[card]}", "over_box",
                            count=count, card=card, limit=BOX_COUNTS[card])
    if counts["werewolf"] != 1:
        raise DeckError(f"HW-R2: a deck has exactly one werewolf, not {counts['werewolf']}", "deck_werewolves",
                        count=counts["werewolf"])
    wanted = 2 * players + graveyard_size(players)
    total = sum(counts.values())
    if total != wanted:
        raise DeckError(
            f"HW-R2: {players} players need {wanted} cards (2 each + {graveyard_size(players)} "
            f"in the graveyard), not {total}",
            "deck_size", players=players, wanted=wanted, graveyard=graveyard_size(players), total=total,
        )
    return _deck(players, counts, "custom")
